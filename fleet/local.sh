#!/usr/bin/env bash
# The survey's tasks without a scheduler, for one node: one task per GPU of
# the chosen backend, each as fleet/task.sh runs it on a cluster, into
# RESULTS_DIR. Then: report/fleet RESULTS_DIR.
#
#   fleet/local.sh RESULTS_DIR [--backend NAME] [run_all.sh options...]
set -u -o pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: fleet/local.sh RESULTS_DIR [--backend NAME] [run_all.sh options...]" >&2; exit 2; }
results=$1
shift
backend=auto
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    [ "${args[$i]}" = --backend ] && [ $((i + 1)) -lt ${#args[@]} ] && backend=${args[$((i + 1))]}
done
listing=$("${BUILD:-$here/build}/probe_discriminator" --backend "$backend" --list-devices) || exit $?
count=${listing##* }
failed=0
for ((dev = 0; dev < count; dev++)); do
    SLURM_ARRAY_TASK_ID=dev$dev "$here/fleet/task.sh" "$results" --device "$dev" "$@" || failed=1
done
exit $failed
