#!/usr/bin/env bash
# How one of compare's constants was chosen: compare built with the macro
# MACRO at each value (report/stats/regress.h lets -D set it), then
# report/evidence/campaign_summary.py over each set of machines of
# results/gate-proc-h200 (SETS: "FIRST LAST" pairs of mN numbers, default
# every machine). Prints, per value and set, the A/A line and the +15 %
# line of the totals.
#   tools/diag/rule_sweep.sh MACRO VALUE ...   (from the repository root)
#   SETS="5 17;18 24" tools/diag/rule_sweep.sh STEADY_MARGIN 0.05 0.10
set -eu
[ $# -ge 2 ] || { echo "usage: rule_sweep.sh MACRO VALUE ..." >&2; exit 2; }
macro=$1
shift
case $macro in *[!A-Z_]*|'') echo "rule_sweep: '$macro' is not a macro name" >&2; exit 2 ;; esac
IFS=';' read -r -a sets <<<"${SETS:-1 99}"
dirs() { for i in $(seq "$1" "$2"); do [ -d "results/gate-proc-h200/m$i" ] && echo "results/gate-proc-h200/m$i"; done; }
for value in "$@"; do
    case $value in *[!0-9.e]*|'') echo "rule_sweep: '$value' is not a number" >&2; exit 2 ;; esac
    b=build-$macro-$value
    make -s BUILD="$b" CFLAGS="-O2 -D$macro=$value" "$b/bin/compare" >/dev/null
    for set in "${sets[@]}"; do
        read -r first last <<<"$set"
        # shellcheck disable=SC2046
        totals=$(python3 report/evidence/campaign_summary.py --compare "$b/bin/compare" $(dirs "$first" "$last") |
                 grep -E '^(A/A pairs|\+15 % rows)' | tr '\n' ' ')
        echo "$macro $value, m$first-m$last: $totals"
    done
done
