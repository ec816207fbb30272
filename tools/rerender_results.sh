#!/usr/bin/env bash
# make rerender-results: every run under DIR (default results/) that
# carries a REPORT.md gets it made again by this tree's report tool, and its
# PR_COMMENT.md where it has one (runs kept for their records alone, like
# the calibration sets', stay so: report RUN renders any of them on
# demand). Only the files report itself writes are removed first (REPORT.md,
# PR_COMMENT.md, the exports and the plots); the records, logs and
# MANIFEST.json are never touched, so a result is regenerated, not edited.
# Committed reports are made without plots (--no-plots), so any machine
# makes the same bytes, except a run that keeps its plots (its
# report_*.png: the README's example, which a newcomer opens first): it is
# drawn again with gnuplot, its PNGs kept and the SVGs, which REPORT.md
# does not link, left out. tests/integration/test_committed.c renders each
# again and compares REPORT.md (report RUN draws the plots on demand).
# Exit: 0 every run rendered, 1 one was not (its error printed), 2 no report tool.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$here/results}
report=${BUILD:-$here/build}/bin/report
[ -x "$report" ] || { echo "rerender_results: $report is missing: run 'make probes' (needs libjansson-dev)" >&2; exit 2; }
status=0
while IFS= read -r -d '' manifest; do
    run=$(dirname "$manifest")
    [ -f "$run/REPORT.md" ] || continue
    pr= plots=--no-plots
    [ -f "$run/PR_COMMENT.md" ] && pr=1
    [ -f "$run/report_paths.png" ] && plots=
    for f in REPORT.md PR_COMMENT.md junit.xml benchmark.json benchmark_bigger.json results.csv bencher.json \
             report_paths.png report_paths.svg report_sweep.png report_sweep.svg report_pool.png report_pool.svg; do
        rm -f "$run/$f"
    done
    "$report" $plots "$run" >/dev/null && { [ -z "$pr" ] || "$report" --pr "$run" >/dev/null; } ||
        { echo "rerender_results: $run: not rendered" >&2; status=1; }
    [ -n "$plots" ] || rm -f "$run"/report_*.svg
done < <(find "$dir" -name MANIFEST.json -print0 | sort -z)
exit $status
