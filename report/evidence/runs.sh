# Sourced by report/evidence/aa_check.sh and report/evidence/parallel_check.sh (which set
# `here` and `tool`): one run of run_all.sh whose folders a check can use.
#
# run_whole RESULTS_DIR RUN_ALL_ARGS...: prints the run's folders in device
# order, one per line. When run_all.sh fails, makes no folder, or makes one
# that is not whole (MANIFEST.json "complete": true), its output goes to
# stderr with one line saying so, and the status is 2.
run_whole() {
    local results=$1 out dirs d
    shift
    out=$("$here/run_all.sh" --results "$results" "$@")
    local st=$?
    # run_all.sh's own status, for a caller that keeps it (campaign.sh)
    [ -n "${RUN_STATUS_FILE:-}" ] && echo "$st" >"$RUN_STATUS_FILE"
    if [ $st -ne 0 ]; then
        printf '%s\n' "$out" >&2
        echo "$tool: run_all.sh $* failed: the check needs whole runs" >&2
        return 2
    fi
    dirs=$(printf '%s\n' "$out" | sed -n 's/^run_all\.sh: device \([0-9]*\) -> /\1 /p' | sort -n | cut -d' ' -f2-)
    [ -n "$dirs" ] || { echo "$tool: run_all.sh $* made no run folder" >&2; return 2; }
    while IFS= read -r d; do
        grep -q '"complete": true' "$d/MANIFEST.json" 2>/dev/null ||
            { echo "$tool: $d is not a whole run" >&2; return 2; }
    done <<<"$dirs"
    printf '%s\n' "$dirs"
}
