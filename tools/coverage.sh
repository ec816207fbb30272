#!/usr/bin/env bash
# Line coverage per source file of a --coverage build, after its tests ran:
#   tools/coverage.sh BUILD_DIR [FILE=MIN_PERCENT]...
# Prints one line per file (gcov's own count); exits 1 when a named file is
# under its minimum, 2 when there is nothing to read.
set -u
build=${1:?usage: tools/coverage.sh BUILD_DIR [FILE=MIN_PERCENT]...}
shift
command -v gcov >/dev/null || { echo "coverage: gcov is not installed" >&2; exit 2; }
ls "$build"/common/*.gcda >/dev/null 2>&1 || { echo "coverage: no .gcda under $build/common: run the tests first" >&2; exit 2; }
declare -A got
printf '%-28s %8s %s\n' file lines covered
for dir in common report fix bench probes; do
    for gcda in "$build/$dir"/*.gcda; do
        [ -e "$gcda" ] || continue
        src=$dir/$(basename "${gcda%.gcda}").c
        [ -f "$src" ] || continue
        line=$(gcov -n -o "$build/$dir" "$src" 2>/dev/null | awk -v f="$src" '
            $0 ~ "^File .*" f "'\''" { want = 1; next }
            want && /^Lines executed:/ { sub(/^Lines executed:/, ""); print; exit }')
        [ -n "$line" ] || continue
        pct=${line%%%*} total=${line##* of }
        got[$src]=$pct
        printf '%-28s %8s %s%%\n' "$src" "$total" "$pct"
    done
done
status=0
for want in "$@"; do
    f=${want%=*} min=${want#*=}
    pct=${got[$f]:-0}
    if awk -v p="$pct" -v m="$min" 'BEGIN { exit !(p + 0 < m + 0) }'; then
        echo "coverage: $f: $pct% is under the $min% it must reach" >&2
        status=1
    else
        echo "coverage: $f: $pct% (at least $min%): met"
    fi
done
exit $status
