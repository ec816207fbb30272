#!/usr/bin/env bash
# make rerender-results: every whole run directly under DIR (default
# results/) gets its report made again by this tree's report tool. Only the
# files report itself writes are removed first (REPORT.md, PR_COMMENT.md,
# the exports and the plots); the records, logs and MANIFEST.json are never
# touched, so a result is regenerated, not edited. Runs inside calibration
# sets (results/*/RUN/) keep their records alone: report renders any of them
# on demand. Exit: 0 every run rendered, 1 one was not (its error printed).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/results}
report=${BUILD:-$here/build}/bin/report
[ -x "$report" ] || { echo "rerender_results: $report is missing: run 'make probes' (needs libjansson-dev)" >&2; exit 2; }
status=0
for run in "$dir"/*/; do
    run=${run%/}
    [ -f "$run/MANIFEST.json" ] || continue
    for f in REPORT.md PR_COMMENT.md junit.xml benchmark.json benchmark_bigger.json results.csv \
             report_paths.png report_paths.svg report_sweep.png report_sweep.svg report_pool.png report_pool.svg; do
        rm -f "$run/$f"
    done
    "$report" "$run" >/dev/null && "$report" --pr "$run" >/dev/null || { echo "rerender_results: $run: not rendered" >&2; status=1; }
done
exit $status
