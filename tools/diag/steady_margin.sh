#!/usr/bin/env bash
# How the steady margin (compare --steady-margin, report/derive/rowest.h)
# was chosen: compare run at each margin in % (1e9: no process left out,
# the rule before it), judged over the machines it was fitted on (m5-m17 of
# results/gate-proc-h200) and over those held out (m18-m24).
#   tools/diag/steady_margin.sh [PCT ...]   (from the repository root)
set -eu
[ $# -gt 0 ] || set -- 1e9 5 8 10 15
SETS="5 17;18 24" exec "$(dirname "$0")/rule_sweep.sh" steady-margin "$@"
