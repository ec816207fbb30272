#!/usr/bin/env bash
# Plots a run folder's size sweep (bench_sweep.csv) to bench_sweep.png/.svg.
# Never overwrites: an existing plot is left alone and reported.
#   bench/plot_sweep.sh RUN_DIR
set -u
dir=${1:?usage: bench/plot_sweep.sh RUN_DIR}
csv=$dir/bench_sweep.csv
[ -f "$csv" ] || { echo "plot_sweep: $csv not found: run the bench with --sweep-csv" >&2; exit 2; }
command -v gnuplot >/dev/null || { echo "plot_sweep: gnuplot not installed (apt-get install gnuplot-nox)" >&2; exit 3; }
for f in "$dir/bench_sweep.png" "$dir/bench_sweep.svg"; do
    [ -e "$f" ] && { echo "plot_sweep: $f exists; not overwritten" >&2; exit 5; }
done
title=$(head -1 "$csv" | sed 's/^# //')
here=$(cd "$(dirname "$0")" && pwd)
gnuplot -e "csv='$csv'; out='$dir/bench_sweep'; title='${title//\'/}'" "$here/sweep.gp"
