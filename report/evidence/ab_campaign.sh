#!/usr/bin/env bash
# One machine's share of the A/B gate's evidence (issue 43): one A/B
# session per SPEC (run_all.sh --ab), back to back, into DIR, each judged
# by this tree's compare. DIR/ab.tsv has one line per session: the spec,
# run_all.sh's exit status and seconds, compare's exit status, the folder;
# DIR/<folder>.compare.md and .json keep compare's words and numbers.
#
#   report/evidence/ab_campaign.sh --results DIR [--budget S] SPEC... [-- RUN_ALL_ARGS...]
#
# DIR must not exist. Exit 0 when every session was whole, 2 otherwise.
set -u -o pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
results= budget= specs=()
usage() {
    echo "usage: report/evidence/ab_campaign.sh --results DIR [--budget S] SPEC... [-- RUN_ALL_ARGS...]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
        --results) [ $# -ge 2 ] || usage; results=$2; shift 2 ;;
        --budget) [ $# -ge 2 ] || usage; budget=$2; shift 2 ;;
        --) shift; break ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        -*) echo "ab_campaign: unknown argument '$1'" >&2; usage ;;
        *) specs+=("$1"); shift ;;
    esac
done
[ -n "$results" ] && [ ${#specs[@]} -gt 0 ] || usage
[ -e "$results" ] && { echo "ab_campaign: $results exists: name a new folder" >&2; exit 2; }
mkdir -p "$results" || exit 2
failed=0
for spec in "${specs[@]}"; do
    before=$(ls "$results")
    t0=$(date +%s.%N)
    "$here/run_all.sh" --results "$results" --ab "$spec" ${budget:+--ab-budget "$budget"} "$@" >"$results/.last.log" 2>&1
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    folder=$(comm -13 <(printf '%s\n' "$before") <(ls "$results") | grep -v '^\.' | grep -v '\.compare\.' | head -1)
    crc=-
    if [ -n "$folder" ]; then
        "$here/build/bin/compare" "$results/$folder" --md "$results/$folder.compare.md" \
            --json "$results/$folder.compare.json" >/dev/null 2>"$results/$folder.compare.err"
        crc=$?
        [ -s "$results/$folder.compare.err" ] || rm -f "$results/$folder.compare.err"
    fi
    printf '%s\t%s\t%s\t%s\t%s\n' "$spec" "$rc" "$secs" "$crc" "$folder" >>"$results/ab.tsv"
    [ $rc -eq 0 ] || failed=1
done
rm -f "$results/.last.log"
exit $((failed * 2))
