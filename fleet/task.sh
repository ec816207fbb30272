#!/usr/bin/env bash
# One node's part of a fleet survey: run_all.sh for the node's GPUs into the
# shared RESULTS_DIR (each run folder named <UTC time>-<host>-<backend>-dev<N>),
# with a log and a status file per task under RESULTS_DIR/tasks/, so that
# report/fleet can tell a node whose task failed or never finished.
#
#   fleet/task.sh RESULTS_DIR [run_all.sh options...]
#
# The host is HOSTACCESS_HOST, else the scheduler's node name
# (SLURMD_NODENAME), else the machine's. In HOSTACCESS_HOST, %a stands for
# the array task id, as in sbatch's file names: one node can pose as
# several (a one-node test cluster). Exit: run_all.sh's status.
set -u -o pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    ''|-*) echo "usage: fleet/task.sh RESULTS_DIR [run_all.sh options...] (RESULTS_DIR first, not an option)" >&2
           exit 2 ;;
esac
results=$1
shift
HOSTACCESS_HOST=${HOSTACCESS_HOST:-${SLURMD_NODENAME:-$(hostname -s 2>/dev/null || hostname)}}
export HOSTACCESS_HOST=${HOSTACCESS_HOST//%a/${SLURM_ARRAY_TASK_ID:-0}}
if ! [[ "$HOSTACCESS_HOST" =~ ^[A-Za-z0-9._-]{1,63}$ ]]; then
    echo "fleet/task.sh: host name '$HOSTACCESS_HOST' is not usable in a folder name" >&2
    exit 2
fi
task=$HOSTACCESS_HOST${SLURM_ARRAY_TASK_ID:+-task$SLURM_ARRAY_TASK_ID}
mkdir -p "$results/tasks" || exit 1
log=$results/tasks/$task.log
# Started: a task that dies or is killed leaves this and no status.
date -u +%Y-%m-%dT%H:%M:%SZ >"$results/tasks/$task.started"
"$here/run_all.sh" --results "$results" "$@" >"$log" 2>&1
rc=$?
echo "$rc" >"$results/tasks/$task.status"
exit $rc
