#!/usr/bin/env bash
# Benchmark figure (not a timed test): report on each run, compare each run
# with the one before, and trend over a 100-run results folder, on one core;
# then report and compare on one run whose bench record is about 50 MB (its
# blocks repeated, as a long live run records them; the tests check its
# memory and its verdict, never its time). The folder is generated from one
# real run (default: the first committed H200 run), each copy given its own
# runtime version.
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
# (the records may be stored compressed: read either form)
backend=$({ cat "$src/env.json" 2>/dev/null || gzip -dc "$src/env.json.gz" 2>/dev/null; } |
    sed -n 's/^ *"backend": "\([a-z]*\)",*$/\1/p' | head -1)
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
# The big record: every row's blocks repeated until the record is ~50 MB.
if command -v python3 >/dev/null; then
    cp -r runs/run001 big
    rm -f big/REPORT.md big/junit.xml big/benchmark*.json big/results.csv
    python3 - big/bench_discriminator.json <<'PY' || echo big-record >>fails
import json, sys
p = sys.argv[1]
d = json.load(open(p))
rows = [r for r in d["rows"] if r.get("samples_ns") and r.get("block_samples")]
per_row = 50_000_000 // 12 // max(1, len(rows))  # about 12 bytes a number as json.dump writes them
for r in rows:
    sm, per = r["samples_ns"], r["block_samples"]
    k = per_row // len(sm) + 1
    big = [x for b in range(len(sm) // per) for _ in range(k) for x in sm[b * per:(b + 1) * per]]
    r["samples_ns"], r["block_samples"], r["n"] = big, per * k, len(big)
json.dump(d, open(p, "w"), indent=1)
PY
    steps=()
    for f in env probe_discriminator probe_memgetaccess bench_discriminator pool_check; do
        [ -f "big/$f.json" ] && steps+=("$f:0")
    done
    rm -f big/MANIFEST.json
    "$manifest" big --backend "$backend" --device 0 "${steps[@]}" || exit 2
    bsize=$(du -h big/bench_discriminator.json | cut -f1)
    br=$(t $one_core bash -c "'$bin/report' --no-plots big >/dev/null" big-report)
    bc=$(t $one_core bash -c "'$bin/compare' runs/run001 big >/dev/null; rc=\$?; [ \$rc -le 1 ] || [ \$rc -eq 6 ]" big-compare)
    echo "  a $bsize bench record:      report $br s, compare $bc s (target < 10 s together, issue 28)"
fi
if [ -s fails ]; then
    echo "bench_report: FAILED: $(tr '\n' ' ' <fails)exited non-zero: these times are not figures" >&2
    exit 1
fi
