#!/usr/bin/env bash
# One run of everything, per device, into results/<UTC time>-<host>-<backend>-dev<N>/.
#
#   ./run_all.sh [--backend auto|hip|cuda|sim] [--device N] [--results DIR]
#                [--isolate none|fork] [--bench-args "ARGS"] [--pool-args "ARGS"]
#                [--sim-profile NAME] [--list-sim-profiles] [--parallel[=turns|overlap]]
#                [--require-gpu] [--no-torch] [--ab SPEC [--ab-budget S]] [--help]
#
# --ab SPEC makes the bench an A/B session: this build against SPEC, one A
# and one B process per round in a seeded random order, until every timed
# row is decided or --ab-budget seconds of rounds (140) are spent (a
# SIMULATED session stops at its fewest rounds: its timings are never
# judged). SPEC is
#   rocm:PREFIX       the ROCm at PREFIX: B's tools built against its HIP
#                     headers (build/side/, made here), loading its libamdhip64
#   sim-profile:NAME  another stand-in release (give side A's with --sim-profile)
#   build:DIR         another hostaccess build
#   env:NAME=VALUE[,NAME=VALUE...]  B's variables (HOSTACCESS_TEST_SLOWDOWN,
#                     the pool's switch HOSTACCESS_POOL_HOST_ACCESS=0, ...);
#                     ROCM_PATH alone is refused: no tool loads a runtime by it
# After A's steps, B's env, probes and pool_check run once as B, into
# b_NAME.json beside A's: the folder is whole only when both sides are. The
# run ends with the session's verdict; 'build/bin/compare RUN' explains it
# (docs/gate.md). A side B that cannot be is refused, exit 2, before any
# folder is made.
#
# --require-gpu (or HOSTACCESS_REQUIRE_GPU=1, for dashboards) fails with the
# tools' status (3 no runtime, 4 no device) and the reason, instead of
# falling back to the simulation. A simulated run ends with a boxed line
# that says SIMULATED and why no GPU backend was used.
#
# --no-torch leaves out the PyTorch step (it is untimed: A/A batches use it).
#
# --parallel runs the devices of the node at once, each as its own run_all.sh.
# With turns (the default) the bench and pool_check of different devices take
# turns through a lock (flock), so no timed section overlaps another device's.
# With overlap they run at once, each device's run on its own share of the
# CPUs (taskset): faster, and right only where report/evidence/parallel_check.sh has
# shown on that machine that the devices' figures do not disturb each other.
#
# --sim-profile NAME runs the hip backend over the stand-in ROCm runtime
# acting as release NAME (--list-sim-profiles), from tools built against
# headers of that release's era (a side build, made here from make
# hip-matrix's headers where this build's lie across a layout line):
# SIMULATED, never evidence.
#
# Runs every device of the chosen backend unless --device names one. Each tool
# writes its JSON record and its human output into the run folder; nothing
# earlier is touched. Exits 0 when every tool ran (a negative verdict is a
# result, not a failure), 1 when a tool failed or the run is not whole (a
# tool not built, a record missing), 2 on bad usage, 5 when the results
# folder cannot be made or written, and the
# tools' own status (3 no runtime, 4 no device) when no backend can run.
# A signal before the first folder exists: say so (the full handler, which
# marks a folder incomplete, is installed once there can be one). First of
# all, so a signal a few ms after the start meets it, not bash's default.
trap 'echo "run_all.sh: stopped by SIGINT before a run folder was made: nothing was measured" >&2; exit 130' INT
trap 'echo "run_all.sh: stopped by SIGTERM before a run folder was made: nothing was measured" >&2; exit 143' TERM
trap 'echo "run_all.sh: stopped by SIGHUP before a run folder was made: nothing was measured" >&2; exit 129' HUP
set -u -o pipefail

orig_args=("$@")
parallel=
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$here/build}
backend=auto
device=
device_given=
results=$here/results
isolate=none
bench_args=
pool_args=
profile=()
require=()
no_torch=
ab=
ab_budget=

usage() {
    echo "usage: ./run_all.sh [--backend auto|hip|cuda|sim] [--device N] [--results DIR] [--isolate none|fork] [--bench-args \"ARGS\"] [--pool-args \"ARGS\"] [--sim-profile NAME] [--list-sim-profiles] [--parallel[=turns|overlap]] [--require-gpu] [--no-torch] [--ab SPEC [--ab-budget S]]" >&2
    exit 2
}

needs_value() {
    echo "run_all.sh: $1 takes a value" >&2
    usage
}

# An option given twice is refused, not the last one taken silently.
given=" "
once() {
    case "$given" in *" $1 "*) echo "run_all.sh: $1 is given twice: give it once" >&2; usage ;; esac
    given="$given$1 "
}

# A value that looks like an option (--results -res) is said as such (a
# folder of that name is ./-res), and an empty one is refused.
not_option() {
    case "$2" in
        '') echo "run_all.sh: $1 takes a value, not ''" >&2; usage ;;
        -*) echo "run_all.sh: $1 takes a value, not the option-like '$2' (a folder of that name: ./$2)" >&2; usage ;;
    esac
}


while [ $# -gt 0 ]; do
    case "$1" in
        --backend) [ $# -ge 2 ] || needs_value "$1"; once --backend; not_option "$1" "$2"; backend=$2; shift 2 ;;
        --backend=*) once --backend; backend=${1#*=}; shift ;;
        --device) [ $# -ge 2 ] || needs_value "$1"; once --device; not_option "$1" "$2"; device=$2; device_given=1; shift 2 ;;
        --device=*) once --device; device=${1#*=}; device_given=1; shift ;;
        --results) [ $# -ge 2 ] || needs_value "$1"; once --results; not_option "$1" "$2"; results=$2; shift 2 ;;
        --results=*) once --results; results=${1#*=}; [ -n "$results" ] || not_option --results ""; shift ;;
        --isolate) [ $# -ge 2 ] || needs_value "$1"; once --isolate; isolate=$2; shift 2 ;;
        --isolate=*) once --isolate; isolate=${1#*=}; shift ;;
        --bench-args) [ $# -ge 2 ] || needs_value "$1"; once --bench-args; bench_args=$2; shift 2 ;;
        --bench-args=*) once --bench-args; bench_args=${1#*=}; shift ;;
        --pool-args) [ $# -ge 2 ] || needs_value "$1"; once --pool-args; pool_args=$2; shift 2 ;;
        --pool-args=*) once --pool-args; pool_args=${1#*=}; shift ;;
        --sim-profile) [ $# -ge 2 ] || needs_value "$1"; profile=(--sim-profile "$2"); shift 2 ;;
        --sim-profile=*) profile=(--sim-profile "${1#*=}"); shift ;;
        --list-sim-profiles) exec "$build/probe_discriminator" --list-sim-profiles ;;
        --parallel) parallel=turns; shift ;;
        --parallel=turns|--parallel=overlap) parallel=${1#*=}; shift ;;
        --parallel=*) echo "run_all.sh: --parallel takes turns or overlap, not '${1#*=}'" >&2; usage ;;
        --require-gpu) require=(--require-gpu); shift ;;
        --no-torch) no_torch=1; shift ;;
        --ab|--ab-budget)
            [ $# -ge 2 ] || needs_value "$1"
            v=${1#--}; v=${v//-/_}
            [ -z "${!v}" ] || { echo "run_all.sh: $1 is given twice: give it once" >&2; exit 2; }
            [ -n "$2" ] || { echo "run_all.sh: $1 takes a value, not ''" >&2; exit 2; }
            printf -v "$v" '%s' "$2"; shift 2 ;;
        --version) v=$("$build/probe_discriminator" --version 2>/dev/null) || v="not built (make probes)"
                   echo "run_all.sh: hostaccess ${v#probe_discriminator }"; exit 0 ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "run_all.sh: unknown argument '$1'" >&2; usage ;;
    esac
done
probe=$build/probe_discriminator
if [ ! -x "$probe" ] || [ ! -x "$build/run_manifest" ]; then
    echo "run_all.sh: $probe or $build/run_manifest is missing: run 'make probes' first" >&2
    exit 1
fi
# Side builds: the tools of a stand-in release whose headers lie across a
# layout line from this build's, and side B's (rocm:, sim-profile:), made
# from this tree against the headers they need, under build/side/ (make is
# incremental: a no-op once made). The bench reads both variables.
export HOSTACCESS_SIDE_BUILDS=${HOSTACCESS_SIDE_BUILDS:-$here/build/side}
export HOSTACCESS_HIP_MATRIX=${HOSTACCESS_HIP_MATRIX:-$here/build/hip-matrix}
version=$("$probe" --version 2>/dev/null | awk '{ print $2; exit }')
make_side() { # DIR HEADERS WHOSE
    mkdir -p "$1" 2>/dev/null || { echo "run_all.sh: cannot make the side build folder $1" >&2; exit 5; }
    echo "run_all.sh: $3: tools built against the HIP headers in $2, in $1"
    if ! flock "$1" env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -C "$here" -s -j"$(nproc 2>/dev/null || echo 2)" \
        BUILD="$1" ROCM_PATH="$2" HA_VERSION="$version" side-tools >"$1.log" 2>&1; then
        echo "run_all.sh: $3: the tools did not build against the headers in $2; see $1.log" >&2
        exit 1
    fi
}
# A side's plan, as the bench reads SPEC (bench/ab.h): NUL-ended pairs.
plan() { # the bench's arguments...
    plan_build= plan_headers= plan_profile= plan_backend= plan_vars=()
    local f=() i file rc
    file=$(mktemp "${TMPDIR:-/tmp}/hostaccess-plan.XXXXXX") || exit 1
    "$@" >"$file"
    rc=$?
    mapfile -d '' -t f <"$file"
    rm -f "$file"
    [ $rc -eq 0 ] || exit $rc
    for ((i = 0; i + 1 < ${#f[@]}; i += 2)); do
        case "${f[$i]}" in
            build) plan_build=${f[$((i + 1))]} ;;
            headers) plan_headers=${f[$((i + 1))]} ;;
            profile) plan_profile=${f[$((i + 1))]} ;;
            backend) plan_backend=${f[$((i + 1))]} ;;
            var) plan_vars+=("${f[$((i + 1))]}") ;;
            *) echo "run_all.sh: the bench's plan names '${f[$i]}', unknown here: make probes again" >&2; exit 1 ;;
        esac
    done
}
tools_a=$build
if [ ${#profile[@]} -gt 0 ]; then
    [ -x "$build/bench_discriminator" ] || { echo "run_all.sh: --sim-profile needs the bench: make probes" >&2; exit 1; }
    plan "$build/bench_discriminator" --side-plan "sim-profile:${profile[1]}"
    if [ -n "$plan_build" ]; then
        make_side "$plan_build" "$plan_headers" "ROCm ${profile[1]} (stand-in)"
        tools_a=$plan_build
        probe=$tools_a/probe_discriminator
    fi
fi
# An empty --device is a mistake, not "every device".
if [ -n "${device_given:-}" ] && [ -z "$device" ]; then
    echo "run_all.sh: --device takes a device index, not ''" >&2
    exit 2
fi
# Options for the tools are words, split on blanks and never glob-expanded.
# A newline would end read's line and drop the rest: refused, as are the
# tools' own --help and --version (they exit 0 without a record).
for a in "$bench_args" "$pool_args"; do
    if [[ "$a" == *$'\n'* ]]; then
        echo "run_all.sh: --bench-args and --pool-args take one line; this one holds a newline" >&2
        exit 2
    fi
done
read -r -a bench_argv <<<"$bench_args"
if [ -n "$ab_budget" ] && [ -z "$ab" ]; then
    echo "run_all.sh: --ab-budget belongs to an A/B session: give --ab SPEC too" >&2
    exit 2
fi
[ -n "$ab" ] && bench_argv+=(--ab "$ab")
[ -n "$ab_budget" ] && bench_argv+=(--ab-budget "$ab_budget")
read -r -a pool_argv <<<"$pool_args"
for a in "${bench_argv[@]}" "${pool_argv[@]}"; do
    case "$a" in -h|--help|--help=*|--version|--version=*|--list-*|--env-only|--json|--json=*)
        echo "run_all.sh: '$a' is not for --bench-args or --pool-args: run_all.sh chooses what the tools write (run the tool itself for its listings)" >&2
        exit 2 ;;
    esac
done

# The tools check their own options: each is asked for its device listing
# with the options it will run with, so a bad value stops the run here, in
# the tool's own words and exit status, before anything is measured. The
# probe's listing also names the backend auto picks and its device count.
dev_opt=()
[ -n "$device" ] && dev_opt=(--device "$device")
# Through a file, not $(...): a runtime whose initialiser leaves a child
# behind would keep the pipe open, and the run would wait for that child.
listing_file=$(mktemp "${TMPDIR:-/tmp}/hostaccess-listing.XXXXXX") || exit 1
"$probe" --backend "$backend" "${profile[@]}" "${require[@]}" "${dev_opt[@]}" --isolate "$isolate" --list-devices \
    >"$listing_file"
rc=$?
listing=$(cat "$listing_file")
rm -f "$listing_file"
[ $rc -eq 0 ] || exit $rc
# The listing's first line is "BACKEND COUNT"; a runtime that ended the tool
# early (an initialiser that exits) leaves anything else.
first=${listing%%$'\n'*}
if ! [[ "$first" =~ ^(hip|cuda|sim)\ [0-9]+$ ]]; then
    echo "run_all.sh: the probe's device listing came back as '${first:0:80}', not 'BACKEND COUNT': the runtime library ended it early; run $probe --list-backends to see which" >&2
    exit 3
fi
chosen=${first%% *}
count=${first##* }
# What auto passed over and why: "fallback BACKEND STATUS WHY" lines.
fallbacks=() why_sim=
while IFS= read -r line; do
    [[ "$line" == "fallback "* ]] || continue
    rest=${line#fallback }
    fb_be=${rest%% *}; rest=${rest#* }
    fb_st=${rest%% *}; fb_why=${rest#* }
    fallbacks+=(--fallback "$fb_be:$fb_st:$fb_why")
    why_sim="${why_sim:+$why_sim; }$fb_why"
done <<<"$listing"
# An A/B session's side B: after A's steps, B's env, probes and pool run
# with B's variables, from B's tools and as B's stand-in release, each into
# b_NAME.json beside A's, sealed by the one manifest. The bench says what
# SPEC names (one reader of SPEC); side builds are made here, before any
# folder is.
b_vars=() b_dir= b_profile= b_backend=
if [ -n "$ab" ]; then
    [ -x "$tools_a/bench_discriminator" ] ||
        { echo "run_all.sh: --ab needs the bench: make probes" >&2; exit 2; }
    plan "$tools_a/bench_discriminator" --backend "$backend" "${profile[@]}" --ab "$ab" --ab-side-b
    b_dir=$plan_build b_profile=$plan_profile b_backend=$plan_backend b_vars=("${plan_vars[@]}")
    if [ -n "$b_backend" ] && [ "$b_backend" != "$chosen" ]; then
        echo "run_all.sh: --ab $ab sets one $b_backend runtime against another, but side A runs the $chosen backend here${why_sim:+ (auto passed over: $why_sim)}: run it where side A's $b_backend runtime has a device" >&2
        exit 2
    fi
    [ -n "$plan_headers" ] && make_side "$b_dir" "$plan_headers" "side B ($ab)"
fi
check_args() {
    [ -x "$tools_a/$1" ] || return 0
    local tool=$1
    shift
    "$tools_a/$tool" --backend "$backend" "${profile[@]}" "${require[@]}" "${dev_opt[@]}" "$@" --list-devices >/dev/null || exit $?
}
check_args bench_discriminator "${bench_argv[@]}"
check_args pool_check "${pool_argv[@]}"
if [ "$count" -lt 1 ]; then
    echo "run_all.sh: backend $chosen reports no device" >&2
    exit 4
fi
if [ -n "$device" ]; then
    devices=$device
else
    devices=$(seq 0 $((count - 1)))
fi
[ "$chosen" = sim ] && echo "run_all.sh: backend sim: SIMULATED run, not evidence${why_sim:+ (no GPU backend: $why_sim)}"
label=$chosen
if [ ${#profile[@]} -gt 0 ]; then
    echo "run_all.sh: hip over the stand-in ROCm runtime, profile ${profile[1]}: SIMULATED run, not evidence"
    label=simhip${profile[1]}
fi

if ! mkdir -p "$results" 2>/dev/null || [ ! -d "$results" ] || [ ! -w "$results" ]; then
    echo "run_all.sh: cannot make or write the results folder '$results': name a writable folder with --results" >&2
    exit 5
fi
# HOSTACCESS_HOST: the name a survey files this node under (fleet/); the
# tools record the same name. Only letters, digits, '.', '_' and '-'.
host=${HOSTACCESS_HOST:-$(hostname -s 2>/dev/null || hostname)}
if ! [[ "$host" =~ ^[A-Za-z0-9._-]{1,63}$ ]]; then
    echo "run_all.sh: host name '$host' is not usable in a folder name (HOSTACCESS_HOST: letters, digits, . _ -)" >&2
    exit 2
fi
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
failed=0

# --parallel: one run_all.sh per device, at once; their timed steps share a
# lock (turns) or each runs on its own CPUs (overlap).
if [ -n "$parallel" ] && [ "$(wc -w <<<"$devices")" -gt 1 ]; then
    need=flock
    [ "$parallel" = overlap ] && need=taskset
    command -v "$need" >/dev/null || { echo "run_all.sh: --parallel=$parallel needs $need (util-linux)" >&2; exit 2; }
    lock=
    if [ "$parallel" = turns ]; then
        lock=$(mktemp "${TMPDIR:-/tmp}/hostaccess-timed.XXXXXX") || exit 1
    else
        # Every ndev-th CPU of those we may use: SMT siblings (n and n + cores)
        # stay in one share when the core count is even, and each share keeps
        # some of every NUMA node, so each bench still finds a CPU near its GPU.
        mapfile -t cpus < <(awk '/^Cpus_allowed_list:/ { n = split($2, r, ","); for (i = 1; i <= n; i++) { m = split(r[i], b, "-"); for (c = b[1]; c <= b[m]; c++) print c } }' /proc/self/status)
        ndev=$(wc -w <<<"$devices")
        if [ "${#cpus[@]}" -lt "$ndev" ]; then
            echo "run_all.sh: --parallel=overlap needs a CPU per device: ${#cpus[@]} CPU(s) for $ndev devices" >&2
            exit 2
        fi
    fi
    pids=()
    stop_all() {
        trap '' INT TERM HUP
        kill -"$1" "${pids[@]}" 2>/dev/null
        wait
        [ -n "$lock" ] && rm -f "$lock"
        exit $((128 + $2))
    }
    trap 'stop_all INT 2' INT
    trap 'stop_all TERM 15' TERM
    trap 'stop_all HUP 1' HUP
    share=0
    for dev in $devices; do
        if [ "$parallel" = turns ]; then
            HOSTACCESS_TIMED_LOCK=$lock "$0" "${orig_args[@]}" --device "$dev" &
        else
            mine=$(for ((i = share; i < ${#cpus[@]}; i += ndev)); do printf '%s,' "${cpus[$i]}"; done)
            HOSTACCESS_TIMED_LOCK= taskset -c "${mine%,}" "$0" "${orig_args[@]}" --device "$dev" &
            share=$((share + 1))
        fi
        pids+=($!)
    done
    for p in "${pids[@]}"; do
        wait "$p" || failed=1
    done
    [ -n "$lock" ] && rm -f "$lock"
    exit $failed
fi

# The tools of a run, in order; step_args gives each one's own arguments
# as an array (a folder with blanks in its name stays one argument).
steps=(env probe_discriminator probe_memgetaccess bench_discriminator pool_check)
[ -n "$ab" ] && steps+=(b_env b_probe_discriminator b_probe_memgetaccess b_pool_check)
step_bin() {
    case "$1" in
        b_env) [ -n "$b_dir" ] && echo "$b_dir/probe_discriminator" || step_bin env ;;
        b_*) [ -n "$b_dir" ] && echo "$b_dir/${1#b_}" || step_bin "${1#b_}" ;;
        env) echo "$probe" ;;
        *) echo "$tools_a/$1" ;;
    esac
}
# A step's backend and stand-in release: side B's own where SPEC names them.
step_side() {
    be=$backend prof=("${profile[@]}")
    [[ "$1" == b_* ]] || return 0
    [ -n "$b_backend" ] && be=$b_backend
    [ -n "$b_profile" ] && prof=(--sim-profile "$b_profile")
}
# A step's environment: side B's variables exported for B's steps only.
step_run() {
    local v
    if [[ "$name" == b_* ]]; then for v in "${b_vars[@]}"; do export "$v"; done; fi
    exec "$@"
}
step_args() {
    case "${1#b_}" in
        env) args=(--env-only) ;;
        probe_discriminator) args=(--isolate="$isolate") ;;
        probe_memgetaccess) args=() ;;
        bench_discriminator) args=(--sweep-csv="$dir/bench_sweep.csv" "${bench_argv[@]}") ;;
        pool_check) args=("${pool_argv[@]}") ;;
    esac
}
manifest() {
    local attach=()
    [ -e "$dir/torch_pool.txt" ] && attach=(--attachment torch_pool.txt)
    "$build/run_manifest" "$dir" --backend "$chosen" --device "$dev" ${1:+--interrupted "$1"} \
        --choice "${first% *}${why_sim:+ (auto passed over: $why_sim)}" "${fallbacks[@]}" "${attach[@]}" \
        "${done_steps[@]}"
}

# Interrupted (Ctrl-C, a job's time limit): stop the tool that runs, remove
# its temporary files, and mark the folder as not whole, so report and
# compare never take it for a finished run.
child= dir= done_steps=()
on_signal() {
    trap '' INT TERM HUP
    [ -n "$child" ] && kill -TERM "$child" 2>/dev/null && wait "$child" 2>/dev/null
    if [ -n "$dir" ] && [ -d "$dir" ]; then # named a moment before mkdir made it
        rm -f "$dir"/.*.json.??????
        manifest "$1"
        echo "run_all.sh: $1: stopped; $dir is marked incomplete (MANIFEST.json)" >&2
    fi
    exit $((128 + $2))
}
trap 'on_signal SIGINT 2' INT
trap 'on_signal SIGTERM 15' TERM
trap 'on_signal SIGHUP 1' HUP

# PyTorch through the pool, where torch and a GPU are: untimed, so with
# --parallel=turns a device waiting for its turn does this first.
torch_step() {
    torch_done=1
    if [ -z "$no_torch" ] && [ "$chosen" != sim ] && [ ${#profile[@]} -eq 0 ] && python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null; then
        # PyTorch and the pool library see this device alone, as device 0:
        # with --parallel another device's tests run at the same time, and
        # free-memory checks must not count that device's allocations. A
        # mask the caller set is honoured (this run's device is its dev-th).
        mask_var=CUDA_VISIBLE_DEVICES
        [ "$chosen" = hip ] && mask_var=HIP_VISIBLE_DEVICES
        IFS=, read -r -a visible <<<"${!mask_var:-}"
        mask=$dev
        [ ${#visible[@]} -gt 0 ] && mask=${visible[$dev]:-$dev}
        if env "$mask_var=$mask" BUILD="$build" "$here/fix/torch_check.sh" "$dir"; then
            echo "  torch: pool tests passed (torch_pool.txt)"
        else
            echo "  torch: pool tests FAILED; see $dir/torch_pool.txt"
            failed=1
        fi
    fi
}

for dev in $devices; do
    # A fresh folder per device; never reuse one that exists.
    dir=$results/$stamp-$host-$label-dev$dev
    n=1
    while ! mkdir "$dir" 2>/dev/null; do
        n=$((n + 1))
        dir=$results/$stamp-$host-$label-dev$dev-$n
        [ $n -gt 50 ] && { echo "run_all.sh: cannot create a run folder under $results" >&2; exit 1; }
    done
    echo "run_all.sh: device $dev -> $dir"
    done_steps=()
    torch_done=
    i=0
    for name in "${steps[@]}"; do
        i=$((i + 1))
        bin=$(step_bin "$name")
        if [ ! -x "$bin" ]; then
            echo "  [$i/${#steps[@]}] $name: not built, skipped: the run is not whole (make probes)"
            done_steps+=("$name:-")
            failed=1
            continue
        fi
        step_args "$name"
        # A timed step waits for the other devices' timed steps (--parallel).
        # flock in the background and waited for: a signal still stops us.
        timed=
        if [ -n "${HOSTACCESS_TIMED_LOCK:-}" ] && { [ "$name" = bench_discriminator ] || [ "${name#b_}" = pool_check ]; }; then
            timed=1
            exec 9>>"$HOSTACCESS_TIMED_LOCK"
            if ! flock -n 9; then
                # Another device is timing: do the untimed PyTorch step now.
                [ -z "$torch_done" ] && torch_step
                flock 9 &
                wait $!
            fi
        fi
        t0=$(date +%s.%N)
        # In the background and waited for, so a signal reaches the trap at once.
        # The backend as the user asked for it (auto by default): each record
        # keeps why the others were not used.
        step_side "$name"
        (step_run "$bin" --backend "$be" "${prof[@]}" "${require[@]}" --device "$dev" --json "$dir/$name.json" \
            "${args[@]}") >"$dir/$name.txt" 2>"$dir/$name.log" &
        child=$!
        wait "$child"
        rc=$?
        child=
        if [ -n "$timed" ]; then
            flock -u 9
            exec 9>&-
        fi
        done_steps+=("$name:$rc")
        t1=$(date +%s.%N)
        secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
        if [ $rc -eq 0 ]; then
            echo "  [$i/${#steps[@]}] $name: ok (${secs} s)"
        else
            echo "  [$i/${#steps[@]}] $name: FAILED with status $rc (${secs} s); see $dir/$name.log"
            failed=1
        fi
    done
    # PyTorch through the pool before the manifest, which seals its output
    # with the records (the report quotes it).
    [ -z "$torch_done" ] && torch_step
    # The manifest closes the tools' part of the run: written last, after
    # every record, it is what makes the folder a whole run.
    if ! manifest ""; then
        echo "  manifest: FAILED: $dir/MANIFEST.json not written; the run counts as incomplete"
        failed=1
    elif grep -q '"complete": false' "$dir/MANIFEST.json"; then
        echo "  manifest: the run is incomplete (a record is missing); see $dir/MANIFEST.json"
        failed=1
    fi
    # Last, the report, where it is built (it needs libjansson). An
    # incomplete run is reported as what it is.
    if [ -x "$build/bin/report" ]; then
        allow=
        grep -q '"complete": true' "$dir/MANIFEST.json" 2>/dev/null || allow=--allow-incomplete
        if "$build/bin/report" ${allow:+"$allow"} "$dir" >/dev/null; then
            echo "  report: $dir/REPORT.md"
            # Its verdict here too, row by row, without the Markdown.
            sed -n '/^## Verdict/,/^## Details/p' "$dir/REPORT.md" | grep '^| [^ |]' | grep -v '^| *|' |
                sed 's/\*\*//g; s/\\\(.\)/\1/g; s/^| //; s/ |$//; s/ | /: /; s/^/    /'
        else
            echo "  report: FAILED (see the message above)"
            failed=1
        fi
    else
        echo "  report: not built: install libjansson-dev, run 'make report', then $here/report/report $dir"
    fi
    # An A/B session ends with its verdict, as compare gives it, and the
    # command that explains it.
    if [ -n "$ab" ] && [ -x "$build/bin/compare" ]; then
        "$build/bin/compare" "$dir" >/dev/null 2>&1
        rc=$?
        case $rc in
            0) word=clean ;; 1) word=regression ;; 6) word=inconclusive ;; 7) word=unresolved ;;
            *) word="not judged (compare exit $rc)" ;;
        esac
        echo "  A/B session ($ab): $word; '$build/bin/compare $dir' explains it (exit $rc), REPORT.md opens with it"
    fi
    # A simulated run says so last, boxed, with the reason.
    line=
    if [ ${#profile[@]} -gt 0 ]; then
        line="SIMULATED run, not evidence: the stand-in ROCm runtime, profile ${profile[1]}"
    elif [ "$chosen" = sim ]; then
        line="SIMULATED run, not evidence: ${why_sim:+no GPU backend could be used: $why_sim}"
        [ -n "$why_sim" ] || line+="the sim backend was asked for"
    fi
    if [ -n "$line" ]; then
        # Boxed at 80 columns: the reason is wrapped, never cut.
        bar=$(printf '%*s' 80 '' | tr ' ' '=')
        echo "$bar"
        printf '%s\n' "$line" | fold -s -w 76 | while IFS= read -r l; do printf '| %-76s |\n' "$l"; done
        echo "$bar"
    fi
done
dir=
exit $failed
