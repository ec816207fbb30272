#!/usr/bin/env bash
# Every stand-in ROCm release against the one before it (5.2 -> 6.0 -> ...
# -> 10.1): one run_all.sh --sim-profile run per release, each compared
# with the one before by compare, and what moved for host access -- kinds,
# candidates' verdicts, pool checks -- written as one Markdown page with
# the release's own notes (common/rocm_profiles.h, from ../shared/FACTS.md).
# Only exact facts: a stand-in's timings are never judged.
#   tools/release_history.sh > docs/releases.md
# Needs make probes and make hip-matrix (each release's tools are built
# against headers of its era). Exit 0, or the failing step's status.
set -u -o pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD:-$here/build}
work=$(mktemp -d "${TMPDIR:-/tmp}/hostaccess-history.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
"$build/probe_discriminator" --list-sim-profiles >"$work/profiles" || exit 1
prev=
while read -r name _; do
    # The least bench and pool that still make whole records: only the
    # exact facts are read from them.
    BUILD=$build "$here/run_all.sh" --sim-profile "$name" --no-torch --results "$work/$name" \
        --bench-args '--path fast --processes 1 --no-sweep --iterations 100 --rounds 1' \
        --pool-args '--throughput-sizes 4MiB --cycles 5' >"$work/$name.log" 2>&1
    # A release whose pool fails its checks is a finding (5.2's VMM calls
    # are stubs); a run that is not whole is not.
    run=$(ls -d "$work/$name"/*/ 2>/dev/null)
    if [ -z "$run" ] || ! grep -q '"complete": true' "$run/MANIFEST.json" 2>/dev/null; then
        echo "release_history: the run as ROCm $name is not whole; its output:" >&2
        cat "$work/$name.log" >&2
        exit 1
    fi
    if [ -n "$prev" ]; then
        "$build/bin/compare" "$prev" "$run" --json "$work/$name.json" >/dev/null
        case $? in 0|1|6|7) ;; *) echo "release_history: compare of $prev and $run failed" >&2; exit 1 ;; esac
    fi
    prev=$run
done <"$work/profiles"
python3 "$here/tools/release_page.py" "$work/profiles" "$work"
