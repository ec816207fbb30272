#!/usr/bin/env bash
# How STEADY_MARGIN (report/derive/rowest.h) was chosen: compare built at
# each margin (1e9: no process left out, the rule before it), judged over
# the machines it was fitted on (m5-m17 of results/gate-proc-h200) and over
# those held out (m18-m24).
#   tools/diag/steady_margin.sh [MARGIN ...]   (from the repository root)
set -eu
[ $# -gt 0 ] || set -- 1e9 0.05 0.08 0.10 0.15
SETS="5 17;18 24" exec "$(dirname "$0")/rule_sweep.sh" STEADY_MARGIN "$@"
