#!/usr/bin/env bash
# Does running a node's devices at once disturb the figures? On a node of
# two or more devices: one run_all.sh per device, one after the other (the
# baseline), then run_all.sh --parallel=turns and --parallel=overlap. Each
# parallel run's device folder is compared with the same device's baseline
# by compare (the regression gate, whose thresholds the A/A runs set), and
# each mode's wall time is set against the quickest single-device run.
# A mode meets the goal when every device's compare finds nothing, either
# way (no regression, improvement or verdict change), and the time is at
# most 1.2x that of one device. On the sim backend the table says SIMULATED.
#
#   report/evidence/parallel_check.sh [--results DIR] [--mode turns|overlap]... [-- RUN_ALL_ARGS...]
#
# --mode checks that mode only (repeatable; default both).
#
# The runs stay in DIR (default results/) as ordinary run folders; the
# comparisons are written next to them as par-<mode>-<old>-vs-<new>.md and
# .json, and the table as parallel-check-<time>.md. Exit: 0 when a mode
# meets the goal, 1 when none does, 2 on bad usage, a node of one device or
# a run that did not complete.
set -u -o pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$here/build}
results=$here/results
goal=1.2
modes=()
usage() {
    echo "usage: report/evidence/parallel_check.sh [--results DIR] [--mode turns|overlap]... [-- RUN_ALL_ARGS...]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
        --results) [ $# -ge 2 ] || usage; results=$2; shift 2 ;;
        --mode)
            [ $# -ge 2 ] || usage
            case "$2" in turns|overlap) modes+=("$2") ;; *) echo "parallel_check: --mode takes turns or overlap, not '$2'" >&2; usage ;; esac
            shift 2 ;;
        --) shift; break ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "parallel_check: unknown argument '$1'" >&2; usage ;;
    esac
done
[ ${#modes[@]} -gt 0 ] || modes=(turns overlap)
[ -x "$build/bin/compare" ] || { echo "parallel_check: $build/bin/compare is missing: install libjansson-dev and run 'make probes'" >&2; exit 2; }
# The devices of the backend run_all.sh will choose from these arguments.
pick=()
args=("$@")
for ((i = 0; i < ${#args[@]}; i++)); do
    case "${args[$i]}" in
        --backend=*|--sim-profile=*) pick+=("${args[$i]}") ;;
        --backend|--sim-profile) pick+=("${args[$i]}" "${args[$((i + 1))]:-}") ;;
    esac
done
listing=$("$build/probe_discriminator" "${pick[@]}" --list-devices) || exit 2
count=${listing##* }
[ "$count" -ge 2 ] || { echo "parallel_check: ${listing%% *} has $count device(s): the check needs two or more" >&2; exit 2; }
mkdir -p "$results" || exit 2

tool=parallel_check
# shellcheck source=report/evidence/runs.sh
. "$here/report/evidence/runs.sh"
# One run of run_all.sh, timed: sets secs and runs (its folders in device order).
timed_run() {
    local t0 out
    t0=$(date +%s.%N)
    out=$(run_whole "$results" "$@") || return 2
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    mapfile -t runs <<<"$out"
}

base=()
one=
for ((dev = 0; dev < count; dev++)); do
    timed_run --device "$dev" "$@" || exit 2
    base+=("${runs[0]}")
    echo "one device: device $dev alone: ${secs} s ($(basename "${runs[0]}"))"
    if [ -z "$one" ] || awk -v a="$secs" -v b="$one" 'BEGIN { exit !(a < b) }'; then one=$secs; fi
done

table=$results/parallel-check-$(date -u +%Y-%m-%dT%H%M%SZ).md
{
    sim=
    [ "${listing%% *}" = sim ] || [[ " ${pick[*]} " == *--sim-profile* ]] && sim=" (SIMULATED: not evidence)"
    echo "## run_all.sh --parallel on $count devices of ${listing%% *}$sim"
    echo
    echo "One device alone: ${one} s at the quickest. Goal: at most ${goal}x that, and for every device nothing flagged by compare against its run alone (no regression, improvement or verdict change)."
    echo
    echo "| mode | wall s | x one device | per device: compare against its run alone | goal met |"
    echo "|---|---|---|---|---|"
} >"$table"
met_any=0
for mode in "${modes[@]}"; do
    timed_run --parallel="$mode" "$@" || exit 2
    par=("${runs[@]}")
    [ "${#par[@]}" -eq "$count" ] || { echo "parallel_check: --parallel=$mode made ${#par[@]} run(s), not $count" >&2; exit 2; }
    ratio=$(awk -v a="$secs" -v b="$one" 'BEGIN { printf "%.2f", a / b }')
    ok=1
    per=
    for ((dev = 0; dev < count; dev++)); do
        out="$results/par-$mode-$(basename "${base[$dev]}")-vs-$(basename "${par[$dev]}")"
        "$build/bin/compare" "${base[$dev]}" "${par[$dev]}" --md "$out.md" --json "$out.json" >/dev/null
        rc=$?
        # 0 clean, 1 regression, 6 inconclusive, 7 unresolved are verdicts; anything else is a failure
        case $rc in 0|1|6|7) ;; *) echo "parallel_check: compare failed (status $rc)" >&2; exit 2 ;; esac
        # Within the noise: nothing flagged either way, verdicts included,
        # and nothing left unjudged.
        grep -q '^\*\*0 regression(s)\*\*, 0 improvement(s), 0 inconclusive, 0 other change(s)\.' "$out.md" || ok=0
        per="$per device $dev: $(grep -m1 '^\*\*' "$out.md" | tr -d '*' | sed 's/\.$//');"
    done
    awk -v r="$ratio" -v g="$goal" 'BEGIN { exit !(r <= g) }' || ok=0
    [ $ok -eq 1 ] && met_any=1
    echo "| $mode | $secs | $ratio | ${per%;} | $([ $ok -eq 1 ] && echo yes || echo no) |" >>"$table"
    echo "--parallel=$mode: ${secs} s, ${ratio}x one device;${per%;}; goal $([ $ok -eq 1 ] && echo met || echo "NOT met")"
done
echo "table: $table"
[ $met_any -eq 1 ] && exit 0
exit 1
