#!/usr/bin/env bash
# Change points over the runs committed under results/ (issue 30, item 4):
# each run folder is copied into one scratch series (a run committed twice
# is the same records: changes judges it once; a name met twice gets a
# suffix), then report/changes reads them all.
#
#   report/evidence/changes_committed.sh OUT_DIR          the runs results/changes-h200/runs.txt names
#   report/evidence/changes_committed.sh --all OUT_DIR    every run under results/, and OUT_DIR/runs.txt naming them
#
# Writes OUT_DIR/CHANGES.md and changes.json; OUT_DIR must not exist. The
# committed change points are made over the list, not over whatever lies
# under results/: a user's own runs there (run_all.sh writes them there)
# are not the committed evidence, and must not change it (issue 44).
# After committing new evidence, run with --all and copy runs.txt beside
# CHANGES.md. HA_RESULTS_DIR names another results folder (the tests').
# Exit: changes' status (0 or 1), 2 bad usage or a listed run missing,
# 5 OUT_DIR exists.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
results=${HA_RESULTS_DIR:-$here/results}
all=0
[ "${1:-}" = --all ] && { all=1; shift; }
out=${1:-}
usage="usage: report/evidence/changes_committed.sh [--all] OUT_DIR"
[ -n "$out" ] && [ $# -eq 1 ] || { echo "changes_committed: $usage" >&2; exit 2; }
[ -e "$out" ] && { echo "changes_committed: $out exists: choose another" >&2; exit 5; }
list=$results/changes-h200/runs.txt
[ $all -eq 1 ] || [ -f "$list" ] ||
    { echo "changes_committed: $list is missing: run with --all to make it from every run under $results" >&2; exit 2; }
# the tool runs from inside the scratch folder: a relative BUILD made absolute
if [ -n "${BUILD:-}" ]; then BUILD=$(cd "$BUILD" && pwd) || exit 2; export BUILD; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Every run under results/, relative to it, in order. A/B sessions
# (results/ab-*) are left out: their bench is two sides' in one record,
# judged by compare RUN, not a point of a series.
every() {
    (cd "$results" && find -L . -path ./ab-\* -prune -o \( -name env.json -o -name env.json.gz \) -printf '%h\n') |
        sed 's|^\./||' | LC_ALL=C sort
}
if [ $all -eq 1 ]; then every >"$tmp/runs.txt"; else cp "$list" "$tmp/runs.txt"; fi
while IFS= read -r rel; do
    d=$results/$rel
    case "$rel" in ''|/*|*..*) echo "changes_committed: $list: '$rel' is not a folder under results/" >&2; exit 2 ;; esac
    [ -d "$d" ] || { echo "changes_committed: $rel is listed in $list and missing: run with --all" >&2; exit 2; }
    name=$(basename "$d")
    dest=$tmp/series/$name
    k=1
    while [ -e "$dest" ]; do k=$((k + 1)); dest=$tmp/series/$name-$k; done
    mkdir -p "$tmp/series" && cp -r "$d" "$dest"
done <"$tmp/runs.txt"
mkdir -p "$out" || exit 5
out=$(cd "$out" && pwd)
[ $all -eq 1 ] && cp "$tmp/runs.txt" "$out/runs.txt"
# from inside the scratch folder: the page names "series", not a random path
(cd "$tmp" && "$here/report/changes" series --json "$out/changes.json" >"$out/CHANGES.md")
rc=$?
echo "changes_committed: $(ls "$tmp/series" | wc -l) folders; changes exited $rc; $out/CHANGES.md"
[ "$rc" -le 1 ] || exit "$rc"
