#!/usr/bin/env bash
# The survey's tasks without a scheduler, for one node: one task per GPU of
# the chosen backend, each as fleet/task.sh runs it on a cluster, into
# RESULTS_DIR. Then: report/fleet RESULTS_DIR.
#
#   fleet/local.sh RESULTS_DIR [--backend NAME] [run_all.sh options...]
#
# Exit: 0 every task's run whole, 1 one was not, 2 bad usage, 3 the
# devices could not be listed.
set -u -o pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    ''|-*) echo "usage: fleet/local.sh RESULTS_DIR [--backend NAME] [run_all.sh options...] (RESULTS_DIR first)" >&2
           exit 2 ;;
esac
results=$1
shift
backend=auto
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    [ "${args[$i]}" = --backend ] && [ $((i + 1)) -lt ${#args[@]} ] && backend=${args[$((i + 1))]}
done
listing=$("${BUILD:-$here/build}/probe_discriminator" --backend "$backend" --list-devices) || exit $?
# the first line names the backend chosen and its devices; the lines after
# it, the backends that were passed over and why
read -r chosen count <<< "$listing"
case ${count:-} in
    '' | *[!0-9]*) echo "fleet/local.sh: the devices could not be listed: ${listing//$'\n'/; }" >&2; exit 3 ;;
esac
echo "fleet/local.sh: $count $chosen device(s)" >&2
failed=0
for ((dev = 0; dev < count; dev++)); do
    SLURM_ARRAY_TASK_ID=dev$dev "$here/fleet/task.sh" "$results" --device "$dev" "$@" || failed=1
done
exit $failed
