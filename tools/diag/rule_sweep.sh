#!/usr/bin/env bash
# How one of compare's process rules was chosen: compare run with
# --RULE at each value (in %), then report/evidence/campaign_summary.py over
# each set of machines of results/gate-proc-h200 (SETS: "FIRST LAST" pairs
# of mN numbers, default every machine). Prints, per value and set, the
# A/A line and the +15 % line of the totals.
#   tools/diag/rule_sweep.sh RULE PCT ...   (from the repository root; RULE:
#                                            steady-margin or contended-share)
#   SETS="5 17;18 24" tools/diag/rule_sweep.sh steady-margin 5 10
set -eu
[ $# -ge 2 ] || { echo "usage: rule_sweep.sh steady-margin|contended-share PCT ..." >&2; exit 2; }
rule=$1
shift
case $rule in steady-margin|contended-share) ;; *) echo "rule_sweep: '$rule' is not a rule: steady-margin or contended-share" >&2; exit 2 ;; esac
IFS=';' read -r -a sets <<<"${SETS:-1 99}"
build=${BUILD:-build}
make -s BUILD="$build" "$build/bin/compare" >/dev/null
dirs() { for i in $(seq "$1" "$2"); do [ -d "results/gate-proc-h200/m$i" ] && echo "results/gate-proc-h200/m$i"; done; }
for value in "$@"; do
    case $value in *[!0-9.e]*|'') echo "rule_sweep: '$value' is not a number" >&2; exit 2 ;; esac
    for set in "${sets[@]}"; do
        read -r first last <<<"$set"
        # shellcheck disable=SC2046
        totals=$(python3 report/evidence/campaign_summary.py --compare "$build/bin/compare" --rule "$rule=$value" \
                 $(dirs "$first" "$last") | grep -E '^(A/A pairs|\+15 % rows)' | tr '\n' ' ')
        echo "$rule $value %, m$first-m$last: $totals"
    done
done
