#!/usr/bin/env bash
# make compact-results: stores every run's JSON records under DIR (default
# results/) gzip-compressed (NAME.json -> NAME.json.gz, gzip -9n, so the
# bytes do not depend on when it ran), and the files the run sealed beside
# them (MANIFEST.json's attachments: torch_pool.txt). report, compare and
# trend read either form, and MANIFEST.json keeps the size and SHA-256 of
# the uncompressed file, which the loader checks. A file is replaced only
# after its compressed copy decompresses to the same SHA-256;
# MANIFEST.json, which a person reads first, stays plain. Derived files are left alone (report
# rewrites them). Exit: 0 done (or nothing to do), 1 a record could not be
# compressed faithfully (it is left as it was), 2 bad usage.
set -u
dir=${1:-$(cd "$(dirname "$0")/.." && pwd)/results}
[ -d "$dir" ] || { echo "compact_results: $dir is not a folder" >&2; exit 2; }
for t in gzip sha256sum find; do
    command -v "$t" >/dev/null || { echo "compact_results: $t is needed and not installed" >&2; exit 2; }
done
status=0 done=0 saved=0
sealed_files() {
    grep -o '"record": "[A-Za-z0-9_.-]*\.json"' "$1" | sed 's/^"record": "//; s/"$//'
    sed -n '/"attachments"/,/\]/p' "$1" | grep -o '"name": "[A-Za-z0-9_.-]*\.txt"' | sed 's/^"name": "//; s/"$//'
}
# The records are the files a folder's MANIFEST.json names (its steps'
# "record" entries and its attachments' "name"); what report derives from
# them (benchmark.json, ...) is left as it is.
while IFS= read -r -d '' manifest; do
    run=$(dirname "$manifest")
    while IFS= read -r name; do
        rec=$run/$name
        [ -f "$rec" ] || continue
        [ -e "$rec.gz" ] && { echo "compact_results: $rec and $rec.gz both exist: left alone" >&2; status=1; continue; }
        want=$(sha256sum <"$rec" | cut -d' ' -f1)
        before=$(stat -c %s "$rec")
        tmp="$rec.gz.tmp.$$"
        if gzip -9nc <"$rec" >"$tmp" && [ "$(gzip -dc <"$tmp" | sha256sum | cut -d' ' -f1)" = "$want" ] &&
            mv "$tmp" "$rec.gz" && rm -f "$rec"; then
            done=$((done + 1))
            saved=$((saved + before - $(stat -c %s "$rec.gz")))
        else
            rm -f "$tmp"
            echo "compact_results: $rec: the compressed copy did not read back the same: left as it was" >&2
            status=1
        fi
    done < <(sealed_files "$manifest")
done < <(find "$dir" -type f -name MANIFEST.json -print0)
echo "compact_results: $done file(s) compressed, $((saved / 1048576)) MiB saved"
exit $status
