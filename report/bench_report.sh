#!/usr/bin/env bash
# Benchmark figure (not a timed test): report on each run, compare each run
# with the one before, and trend over a 100-run results folder, on one core.
# The folder is generated from one real run (default: the first committed
# H200 run), each copy given its own runtime version.
#   report/bench_report.sh [RUN_DIR] [N]
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
src=${1:-$(ls -d "$here"/results/*-cuda-dev0 2>/dev/null | sort | head -1)}
n=${2:-100}
[ -d "$src" ] || { echo "bench_report: no run folder to copy ($src)" >&2; exit 2; }
# absolute: the timings run from a scratch folder
bin=$(cd "${BUILD:-$here/build}" 2>/dev/null && pwd)/bin
[ -x "$bin/report" ] || { echo "bench_report: run 'make report' first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the source run's backend, for the generated manifests (run_manifest checks it)
backend=$(sed -n 's/^ *"backend": "\([a-z]*\)",*$/\1/p' "$src/env.json" 2>/dev/null | head -1)
manifest=$(cd "${BUILD:-$here/build}" 2>/dev/null && pwd)/run_manifest
[ -x "$manifest" ] || manifest=$here/build/run_manifest
for i in $(seq 1 "$n"); do
    d=$tmp/runs/run$(printf %03d "$i")
    mkdir -p "$d"
    steps=()
    for f in env probe_discriminator probe_memgetaccess bench_discriminator pool_check; do
        # records may be stored compressed: read either form
        if [ -f "$src/$f.json" ]; then cat "$src/$f.json"; elif [ -f "$src/$f.json.gz" ]; then gzip -dc "$src/$f.json.gz"; else continue; fi |
            sed "s/\"runtime_version\": \"[^\"]*\"/\"runtime_version\": \"13.$i\"/" >"$d/$f.json" && steps+=("$f:0")
    done
    # Each generated run is whole (its records changed, so its manifest is new).
    "$manifest" "$d" --backend "$backend" --device 0 "${steps[@]}" || exit 2
done
cd "$tmp" || exit 2
size=$(du -sh runs | cut -f1)
one_core="taskset -c 0"
command -v taskset >/dev/null || one_core=
# t CMD... LABEL: prints the seconds CMD took. A failing CMD's LABEL goes to
# a file (t runs in a subshell), so a run that did no work is never "met".
: >fails
t() {
    local s e
    s=$(date +%s.%N)
    "$@" || echo "${*: -1}" >>fails
    e=$(date +%s.%N)
    awk -v a="$s" -v b="$e" 'BEGIN { printf "%.2f", b - a }'
}
r=$(t $one_core bash -c "for d in runs/*; do '$bin/report' --no-plots \$d >/dev/null || exit 1; done" report)
c=$(t $one_core bash -c "'$bin/compare' --series runs >/dev/null; rc=\$?; [ \$rc -le 1 ] || [ \$rc -eq 6 ]" compare)
g=$(t $one_core bash -c "'$bin/trend' runs --out trend-out >/dev/null" trend)
cp -r runs/run001 one
rm -f one/REPORT.md one/junit.xml one/benchmark*.json one/results.csv
p=$(t $one_core bash -c "'$bin/report' one >/dev/null" report-with-plots)
total=$(awk -v a="$r" -v b="$c" 'BEGIN { printf "%.2f", a + b }')
echo "bench_report: $n runs ($size) from $(basename "$src"), one core${one_core:+ (taskset -c 0)}"
echo "  report x$n (--no-plots):   $r s"
echo "  compare --series ($((n - 1)) pairs):  $c s"
echo "  trend over all:            $g s"
verdict=$(awk -v t="$total" 'BEGIN { print (t <= 5 ? "met" : "MISSED") }')
[ -s fails ] && verdict="not measured: a tool failed"
echo "  total report + compare:     $total s (target <= 5 s: $verdict)"
echo "  (plots are gnuplot's: one report with its three plots takes $p s)"
if [ -s fails ]; then
    echo "bench_report: FAILED: $(tr '\n' ' ' <fails)exited non-zero: these times are not figures" >&2
    exit 1
fi
