#!/usr/bin/env bash
# Writes DIR/MANIFEST.json, the last file of a run: which tools ran, each
# one's exit status, its record's size and SHA-256, and whether the run is
# whole. report and compare refuse a folder without one, or one that says
# the run is incomplete. run_all.sh calls it; nothing else should need to.
#   report/manifest.sh DIR BACKEND DEVICE INTERRUPTED NAME:STATUS...
# INTERRUPTED is "" or the signal's name; STATUS is a number, or "-" for a
# tool that did not run (not built). Exit 0 written, 5 not written.
set -u
[ $# -ge 4 ] || { echo "usage: report/manifest.sh DIR BACKEND DEVICE INTERRUPTED NAME:STATUS..." >&2; exit 2; }
dir=$1 backend=$2 device=$3 interrupted=$4
shift 4
# Only values this script controls go into the JSON: names come from
# run_all.sh's fixed list, numbers are checked, the backend is one of three.
case "$backend" in hip|cuda|sim) ;; *) echo "manifest: bad backend '$backend'" >&2; exit 2 ;; esac
[[ "$device" =~ ^[0-9]{1,9}$ ]] || { echo "manifest: bad device '$device'" >&2; exit 2; }
case "$interrupted" in ""|SIGINT|SIGTERM|SIGHUP) ;; *) echo "manifest: bad signal '$interrupted'" >&2; exit 2 ;; esac
complete=true
[ -n "$interrupted" ] && complete=false
steps=
for s in "$@"; do
    name=${s%%:*} status=${s#*:}
    [[ "$name" =~ ^[a-z_]{1,40}$ ]] || { echo "manifest: bad tool name '$name'" >&2; exit 2; }
    [[ "$status" =~ ^(-|[0-9]{1,3})$ ]] || { echo "manifest: bad status '$status'" >&2; exit 2; }
    rec=$dir/$name.json
    if [ -f "$rec" ] && [ -s "$rec" ]; then
        bytes=$(stat -c %s "$rec") sum=$(sha256sum "$rec" | cut -c1-64)
        item="{\"name\": \"$name\", \"record\": \"$name.json\", \"exit_status\": ${status/-/null}, \"bytes\": $bytes, \"sha256\": \"$sum\"}"
    else
        complete=false
        item="{\"name\": \"$name\", \"record\": null, \"exit_status\": ${status/-/null}, \"bytes\": null, \"sha256\": null}"
    fi
    steps="$steps${steps:+,
    }$item"
done
# A tool's temporary record left behind means it did not finish.
for t in "$dir"/.*.json.*; do [ -e "$t" ] && complete=false; done
tmp=$(mktemp "$dir/.MANIFEST.json.XXXXXX") && chmod 644 "$tmp" || exit 5
trap 'rm -f "$tmp"' EXIT
{
    echo "{"
    echo "  \"schema_version\": 1,"
    echo "  \"tool\": \"run_all\","
    echo "  \"complete\": $complete,"
    if [ -n "$interrupted" ]; then echo "  \"interrupted\": \"$interrupted\","; else echo "  \"interrupted\": null,"; fi
    echo "  \"backend\": \"$backend\","
    echo "  \"device\": $device,"
    echo "  \"steps\": [
    $steps
  ]"
    echo "}"
} >"$tmp" || exit 5
# link() never replaces: an existing manifest stays as it was.
ln "$tmp" "$dir/MANIFEST.json" 2>/dev/null || { echo "manifest: $dir/MANIFEST.json exists or cannot be written" >&2; exit 5; }
exit 0
