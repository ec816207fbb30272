#!/usr/bin/env bash
# Runs each cmocka binary, HA_TEST_JOBS of them at once (default: one per
# CPU; the suites share nothing: each works in its own temporary folder),
# and prints each suite's output whole as soon as it ends (under a lock, so
# two suites' lines never mix). One closing line with the totals, the
# failed suites, and the slowest, so a slow CI can be read.
set -u
jobs=${HA_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case "$jobs" in '' | *[!0-9]* | 0)
    echo "run_unit.sh: HA_TEST_JOBS must be a whole number above 0, not '$jobs'" >&2
    exit 2 ;;
esac
logs=$(mktemp -d /tmp/ha-suites-XXXXXX) || exit 2
trap 'rm -rf "$logs"' EXIT
# On a GPU the suites share one device: their run_all.sh's timed steps (the
# bench, pool_check) take turns on this lock, as --parallel's devices do.
# The suites named in HA_TEST_ALONE (binary names) run whole runs whose
# pool_check reads the device's free memory, which every process on the GPU
# moves: they run one at a time after the others, the GPU to themselves.
# (The simulation's pools are each process's own: no turns without a GPU;
# HA_TEST_GPU=1 or 0 says whether there is one.)
gpu=${HA_TEST_GPU:-}
if [ -z "$gpu" ]; then if [ -e /dev/nvidiactl ] || [ -e /dev/kfd ]; then gpu=1; else gpu=0; fi; fi
[ "$gpu" = 1 ] && export HOSTACCESS_TIMED_LOCK="$logs/timed.lock"
run_one() { # index binary: its output, status and seconds into $logs/index.*
    local t0=$SECONDS
    "$2" >"$logs/$1.out" 2>&1
    echo $? >"$logs/$1.rc"
    echo $((SECONDS - t0)) >"$logs/$1.s"
    { flock 9 2>/dev/null; cat "$logs/$1.out"; } 9>"$logs/lock" # without flock: printed all the same
}
alone() { [ "$gpu" = 1 ] && case " ${HA_TEST_ALONE:-} " in *" ${1##*/} "*) true ;; *) false ;; esac; }
i=0
for t in "$@"; do
    if ! alone "$t"; then
        while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
        run_one "$i" "$t" &
    fi
    i=$((i + 1))
done
wait
i=0
for t in "$@"; do
    alone "$t" && run_one "$i" "$t"
    i=$((i + 1))
done
passed=0 failed=0 i=0
for t in "$@"; do
    if [ "$(cat "$logs/$i.rc" 2>/dev/null)" = 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi
    printf '%6s s  %s\n' "$(cat "$logs/$i.s" 2>/dev/null || echo ?)" "$t" >>"$logs/times"
    i=$((i + 1))
done
echo "suites: $passed passed, $failed failed ($jobs at once); the slowest:"
sort -rn "$logs/times" | head -8
[ "$failed" -eq 0 ]
