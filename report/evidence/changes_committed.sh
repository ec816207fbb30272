#!/usr/bin/env bash
# Change points over every run committed under results/ (issue 30, item 4):
# each folder holding a run's records is copied into one scratch series
# (a run committed twice is the same records: changes judges it once; a
# name met twice gets a suffix), then report/changes reads them all.
#   report/evidence/changes_committed.sh OUT_DIR    (writes OUT_DIR/CHANGES.md and changes.json; OUT_DIR must not exist)
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-}
[ -n "$out" ] || { echo "changes_committed: usage: report/evidence/changes_committed.sh OUT_DIR" >&2; exit 2; }
[ -e "$out" ] && { echo "changes_committed: $out exists: choose another" >&2; exit 5; }
# the tool runs from inside the scratch folder: a relative BUILD made absolute
if [ -n "${BUILD:-}" ]; then BUILD=$(cd "$BUILD" && pwd) || exit 2; export BUILD; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A/B sessions (results/ab-*) are left out: their bench is two sides' in
# one record, judged on its pairs by compare RUN, not a point of a series.
find "$here/results" -path "$here/results/ab-*" -prune -o \( -name env.json -o -name env.json.gz \) -printf '%h\0' |
    sort -z |
    while IFS= read -r -d '' d; do
        name=$(basename "$d")
        dest=$tmp/series/$name
        k=1
        while [ -e "$dest" ]; do k=$((k + 1)); dest=$tmp/series/$name-$k; done
        mkdir -p "$tmp/series" && cp -r "$d" "$dest"
    done
mkdir -p "$out" || exit 5
out=$(cd "$out" && pwd)
# from inside the scratch folder: the page names "series", not a random path
(cd "$tmp" && "$here/report/changes" series --json "$out/changes.json" >"$out/CHANGES.md")
rc=$?
echo "changes_committed: $(ls "$tmp/series" | wc -l) folders; changes exited $rc; $out/CHANGES.md"
[ "$rc" -le 1 ] || exit "$rc"
