#!/usr/bin/env bash
# Starts run_all.sh on the sim backend, waits until the bench is running,
# sends SIGNAL and prints "status=N", run_all's exit status.
#   tests/integration/interrupt_run.sh BUILD RESULTS_DIR SIGNAL
set -u
build=$1 results=$2 sig=$3
# Job control on: a background job keeps SIGINT, as a run in a terminal does.
set -m
BUILD=$build ./run_all.sh --backend sim --results "$results" \
    --bench-args '--iterations 200 --row-seconds 0.2' >"$results.log" 2>&1 &
pid=$!
for _ in $(seq 200); do
    ls "$results"/*/bench_discriminator.log >/dev/null 2>&1 && break
    sleep 0.1
done
sleep 0.5
kill -"$sig" "$pid"
wait "$pid"
echo "status=$?"
