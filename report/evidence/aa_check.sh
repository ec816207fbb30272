#!/usr/bin/env bash
# A/A check of the regression gate: run everything twice, back to back, on
# one machine and one build, and compare the two runs. Nothing changed, so
# compare must find no regression. With --slowdown, one plain run is
# followed by --pairs runs slowed on purpose (HOSTACCESS_TEST_SLOWDOWN, a
# test-only knob the bench records), each compared with the plain one:
# every row of each slowed path must be flagged, every time.
#
#   report/evidence/aa_check.sh [--pairs N] [--results DIR] [--device N]
#                      [--slowdown PATH=PERCENT[,PATH=PERCENT]] [-- RUN_ALL_ARGS...]
#
# The runs stay in DIR (default results/) as ordinary run folders; the
# comparisons are written next to them as aa-<old>-vs-<new>.md and .json.
# Exit: 0 every pair as expected, 1 a pair was not, 2 bad usage or a run
# that did not complete.
set -u -o pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD:-$here/build}
pairs=3
results=$here/results
device=0
slowdown=
usage() {
    echo "usage: report/evidence/aa_check.sh [--pairs N] [--results DIR] [--device N] [--slowdown PATH=PERCENT[,...]] [-- RUN_ALL_ARGS...]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
        --pairs) [ $# -ge 2 ] || usage; pairs=$2; shift 2 ;;
        --results) [ $# -ge 2 ] || usage; results=$2; shift 2 ;;
        --device) [ $# -ge 2 ] || usage; device=$2; shift 2 ;;
        --slowdown) [ $# -ge 2 ] || usage; slowdown=$2; shift 2 ;;
        --) shift; break ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "aa_check: unknown argument '$1'" >&2; usage ;;
    esac
done
[[ "$pairs" =~ ^[1-9][0-9]?$ ]] || { echo "aa_check: --pairs takes 1 to 99" >&2; usage; }
[[ "$device" =~ ^[0-9]{1,4}$ ]] || { echo "aa_check: bad device index '$device'" >&2; usage; }
[ -x "$build/bin/compare" ] || { echo "aa_check: $build/bin/compare is missing: install libjansson-dev and run 'make probes'" >&2; exit 2; }

tool=aa_check
# shellcheck source=report/evidence/runs.sh
. "$here/report/evidence/runs.sh"
# One run; prints its folder. A run that fails or is not whole ends the check.
one_run() {
    local dirs
    dirs=$(run_whole "$results" --device "$device" "$@") || return 2
    printf '%s\n' "${dirs%%$'\n'*}"
}

failed=0
if [ -n "$slowdown" ]; then
    plain=$(one_run "$@") || exit 2
fi
for p in $(seq 1 "$pairs"); do
    if [ -n "$slowdown" ]; then
        a=$plain
        b=$(HOSTACCESS_TEST_SLOWDOWN=$slowdown one_run "$@") || exit 2
    else
        a=$(one_run "$@") || exit 2
        b=$(one_run "$@") || exit 2
    fi
    base="$results/aa-$(basename "$a")-vs-$(basename "$b")"
    "$build/bin/compare" "$a" "$b" --md "$base.md" --json "$base.json"
    rc=$?
    [ $rc -le 1 ] || [ $rc -eq 6 ] || { echo "aa_check: compare failed (status $rc)" >&2; exit 2; }
    echo "pair $p: $(basename "$a") vs $(basename "$b"): $(grep -m1 '^\*\*' "$base.md")"
    echo "  $(grep -m1 '^Run to run:' "$base.md")"
    if [ -z "$slowdown" ]; then
        [ $rc -eq 0 ] || { echo "  NOT QUIET: compare found regressions or could not judge two runs of one build (status $rc)"; failed=1; }
        continue
    fi
    # Every slowed path's note must read "N of N rows flagged" with N > 0.
    notes=$(python3 -c 'import json,sys; [print(n) for n in json.load(open(sys.argv[1]))["notes"] if "slowed on purpose" in n]' "$base.json")
    [ -n "$notes" ] || { echo "  MISSED: the slowed run carries no slowdown"; failed=1; }
    while IFS= read -r line; do
        [ -n "$line" ] || continue
        echo "  $line"
        if ! printf '%s\n' "$line" | awk '{ for (i = 1; i + 3 <= NF; i++) if ($(i+1) == "of" && $(i+3) == "rows") exit !($i == $(i+2) && $i > 0); exit 1 }'; then
            echo "  MISSED: not every slowed row was flagged"
            failed=1
        fi
    done <<<"$notes"
done
exit $failed
