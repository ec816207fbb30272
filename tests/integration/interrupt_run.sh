#!/usr/bin/env bash
# Starts run_all.sh on the sim backend, waits until the bench is running,
# sends SIGNAL and prints "status=N", run_all's exit status.
#   tests/integration/interrupt_run.sh BUILD RESULTS_DIR SIGNAL
set -u
build=$1 results=$2 sig=$3
# Job control on: a background job keeps SIGINT, as a run in a terminal does.
set -m
# A signal this script was started with ignored (nohup, a non-interactive
# shell's background job, some CI runners: SIGINT and SIGQUIT) would stay
# ignored in run_all.sh, and bash cannot trap a signal ignored on entry:
# run_all.sh starts with them at their defaults, as under a terminal.
reset=(env --default-signal=INT,TERM,HUP)
"${reset[@]}" true 2>/dev/null || reset=(python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP): signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])')
BUILD=$build "${reset[@]}" ./run_all.sh --backend sim --results "$results" \
    --bench-args '--iterations 200 --row-seconds 0.2' >"$results.log" 2>&1 &
pid=$!
# A busy machine may take a while to get there: up to 120 s, and the
# signal goes only to a run still running (else the test would judge a
# finished run as an interrupted one).
started=no
for _ in $(seq 1200); do
    ls "$results"/*/bench_discriminator.log >/dev/null 2>&1 && { started=yes; break; }
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
done
sleep 0.5
if ! kill -"$sig" "$pid" 2>/dev/null; then
    wait "$pid"
    echo "status=$? (run_all.sh ended before the signal; bench started: $started)"
    tail -5 "$results.log"
    exit 0
fi
wait "$pid"
echo "status=$?"
