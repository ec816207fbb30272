#!/usr/bin/env bash
# make hip-matrix: the hip backend against the headers and runtime of every
# HIP release Debian packages (tools/hip-releases.txt). For each release it
# downloads libamdhip64-dev and its runtime package with apt, into a private
# folder (the machine's own apt setup is read, never changed), unpacks them,
# compiles common/backend_hip.c against the headers with -Werror, and looks
# up every entry point the backend resolves — under the names that release's
# header maps them to — in the runtime's dynamic symbol table (read with nm:
# the runtimes need a newer glibc than Debian 12, so they are never loaded).
# Writes build/hip-matrix/compat.json and prints a table.
#   tools/hip-matrix.sh [OUT_DIR]      (default build/hip-matrix)
# Exit: 0 every release built and has every required entry point; 1 one did
# not; 2 apt or the tools it needs failed. A release whose packages a suite
# no longer carries is listed as unavailable and does not fail the run.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$here/build/hip-matrix}
mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd) # apt reads relative folders against /etc/apt
cache=${HIP_MATRIX_CACHE:-$out/cache}
cc=${CC:-cc}
mkdir -p "$cache/lists/partial" "$cache/archives/partial" "$cache/parts" || exit 2
cache=$(cd "$cache" && pwd)
for t in apt-get apt-cache dpkg nm "$cc"; do
    command -v "$t" >/dev/null || { echo "hip-matrix: $t is needed and not installed" >&2; exit 2; }
done
# One apt source over every suite named in the releases file, derived from
# the machine's first Debian source (its URIs and key).
suites=$(awk '!/^#/ && NF >= 2 { print $2 }' "$here/tools/hip-releases.txt" | sort -u | tr '\n' ' ')
src=/etc/apt/sources.list.d/debian.sources
[ -f "$src" ] || { echo "hip-matrix: $src not found: no Debian source to derive from" >&2; exit 2; }
awk 'BEGIN { RS = "" } NR == 1 { print; exit }' "$src" | sed "s/^Suites:.*/Suites: $suites/" >"$cache/parts/hip-matrix.sources"
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$cache/parts"
          -o "Dir::State::Lists=$cache/lists" -o "Dir::Cache::Archives=$cache/archives" -o Debug::NoLocking=1
          -o APT::Sandbox::User=root)
apt-get "${apt_opts[@]}" -qq update >"$out/apt-update.log" 2>&1 || {
    echo "hip-matrix: apt-get update failed; see $out/apt-update.log" >&2; exit 2; }

status=0
available=0
json=
printf '%-8s %-14s %-26s %-10s %s\n' release suite package build "entry points present / missing (required missing)"
while read -r want suite _; do
    case "$want" in ''|'#'*) continue ;; esac
    # The newest version of the suite that starts with the wanted release.
    ver=$(apt-cache "${apt_opts[@]}" madison libamdhip64-dev 2>/dev/null |
          awk -F'|' -v s="$suite" -v w="$want" '{ gsub(/ /, "", $2); if ($3 ~ (" " s "/") && index($2, w ".") == 1) print $2 }' |
          head -1)
    if [ -z "$ver" ]; then
        printf '%-8s %-14s %-26s %-10s %s\n' "$want" "$suite" - unavailable "suite no longer carries it"
        json="$json${json:+,}
    {\"release\": \"$want\", \"suite\": \"$suite\", \"package\": null, \"build\": \"unavailable\", \"present\": [], \"missing\": [], \"required_missing\": []}"
        continue
    fi
    available=$((available + 1))
    major=${ver%%.*}
    root=$out/$want
    rm -rf "$root" && mkdir -p "$root/root"
    (cd "$cache/archives" && apt-get "${apt_opts[@]}" -qq download "libamdhip64-dev=$ver" "libamdhip64-$major=$ver") \
        >"$root/apt-download.log" 2>&1 || { echo "hip-matrix: download of $ver failed; see $root/apt-download.log" >&2; exit 2; }
    for deb in "$cache/archives/libamdhip64-dev_${ver/:/%3a}_"*.deb "$cache/archives/libamdhip64-${major}_${ver/:/%3a}_"*.deb; do
        dpkg -x "$deb" "$root/root" || exit 2
    done
    inc=$root/root/usr/include
    build=ok
    if ! "$cc" -std=c11 -D_GNU_SOURCE -fPIC -Wall -Wextra -Werror -I"$here/common" -DHA_VERSION='"hip-matrix"' \
         -DHA_HAVE_HIP -D__HIP_PLATFORM_AMD__ -I"$inc" -c "$here/common/backend_hip.c" -o "$root/backend_hip.o" \
         2>"$root/build.log"; then
        build=$(grep -m1 'error:' "$root/build.log" | sed 's/.*error: //; s/["\\]/ /g')
        [ -n "$build" ] || build="failed; see $root/build.log"
        status=1
    fi
    present=() missing=() reqmiss=()
    if "$cc" -std=c11 -D__HIP_PLATFORM_AMD__ -Wno-deprecated-declarations -I"$here/common" -I"$inc" \
        "$here/tools/hip_entry_points.c" -o "$root/entry_points" 2>>"$root/build.log"; then
        lib=$(ls "$root"/root/usr/lib/*/libamdhip64.so."$major"* 2>/dev/null | head -1)
        nm -D --defined-only "$lib" 2>/dev/null | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$root/exported.txt"
        while read -r name need; do
            if grep -qxF "$name" "$root/exported.txt"; then present+=("$name"); else
                missing+=("$name"); [ "$need" = required ] && reqmiss+=("$name"); fi
        done < <("$root/entry_points")
    else
        build="entry-point lister did not build; see $root/build.log"
        status=1
    fi
    [ ${#reqmiss[@]} -gt 0 ] && status=1
    list() { local IFS=,; local a=("${@/#/\"}"); a=("${a[@]/%/\"}"); echo "${a[*]}"; }
    printf '%-8s %-14s %-26s %-10s %s\n' "$want" "$suite" "$ver" "${build:0:10}" \
        "${#present[@]} / ${#missing[@]}${missing:+ (${missing[*]})} (required missing: ${#reqmiss[@]})"
    json="$json${json:+,}
    {\"release\": \"$want\", \"suite\": \"$suite\", \"package\": \"libamdhip64-dev=$ver\", \"build\": \"$build\", \"present\": [$(list "${present[@]}")], \"missing\": [$(list "${missing[@]}")], \"required_missing\": [$(list "${reqmiss[@]}")]}"
done <"$here/tools/hip-releases.txt"
tmp=$(mktemp "$out/.compat.json.XXXXXX") || exit 2
printf '{\n  "schema_version": 1,\n  "tool": "hip-matrix",\n  "releases": [%s\n  ]\n}\n' "$json" >"$tmp" && mv "$tmp" "$out/compat.json"
echo "hip-matrix: $out/compat.json"
if [ "$available" -eq 0 ]; then
    echo "hip-matrix: no release was found in any suite: the package source is not reachable (see $out/apt-update.log)" >&2
    exit 2
fi
exit $status
