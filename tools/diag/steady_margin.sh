#!/usr/bin/env bash
# How STEADY_MARGIN (report/stats/regress.h) was chosen: compare built at
# each margin (1e9: no process left out, the rule before it), then
# report/evidence/campaign_summary.py over the machines it was fitted on
# (m5-m17 of results/gate-proc-h200) and over those held out (m18-m24).
# Prints, per margin and set, the A/A line and the +15 % line of the totals.
#   tools/diag/steady_margin.sh [MARGIN ...]   (from the repository root)
set -eu
[ $# -gt 0 ] || set -- 1e9 0.05 0.08 0.10 0.15
dirs() { for i in $(seq "$1" "$2"); do [ -d "results/gate-proc-h200/m$i" ] && echo "results/gate-proc-h200/m$i"; done; }
for margin in "$@"; do
    case $margin in *[!0-9.e]*|'') echo "steady_margin: '$margin' is not a number" >&2; exit 2 ;; esac
    b=build-margin-$margin
    make -s BUILD="$b" CFLAGS="-O2 -DSTEADY_MARGIN=$margin" "$b/bin/compare" >/dev/null
    for set in "5 17" "18 24"; do
        # shellcheck disable=SC2086,SC2046
        totals=$(python3 report/evidence/campaign_summary.py --compare "$b/bin/compare" $(dirs $set) |
                 grep -E '^(A/A pairs|\+15 % rows)' | tr '\n' ' ')
        echo "margin $margin, m${set% *}-m${set#* }: $totals"
    done
done
