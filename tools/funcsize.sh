#!/usr/bin/env bash
# Each C function's length in lines, longest first, over the .c files of
# the folders named (default: report bench).
#
#   tools/funcsize.sh [--over N] [DIR...]
#
# With --over N only the functions longer than N lines are listed, and the
# exit status is 1 when there is one (docs/architecture.md: none in report/
# or bench/ is over 80). A function is what this project's style makes it:
# its head at the start of a line, its body closed by a '}' at the start of
# a line. Exit: 0, 1 a function over N, 2 bad usage.
set -u
over=0
if [ "${1:-}" = --over ]; then
    case ${2:-} in '' | *[!0-9]*) echo "funcsize: --over takes a number of lines" >&2; exit 2;; esac
    over=$2
    shift 2
fi
[ $# -gt 0 ] || set -- report bench
files=()
for d in "$@"; do
    [ -d "$d" ] || { echo "funcsize: $d is not a folder" >&2; exit 2; }
    while IFS= read -r -d '' f; do files+=("$f"); done < <(find "$d" -name '*.c' -print0 | LC_ALL=C sort -z)
done
[ ${#files[@]} -gt 0 ] || exit 0
list=$(awk -v over="$over" '
    FNR == 1 { start = 0 }
    /^[A-Za-z_].*\(/ && !/;[ \t]*$/ && !/^(static )?const / && !/^typedef/ && !/=/ { name = $0; start = FNR; file = FILENAME }
    /^}/ && start { n = FNR - start; if (n > over) printf "%5d %s:%d %s\n", n, file, start, substr(name, 1, 90); start = 0 }
' "${files[@]}" | sort -rn)
[ -z "$list" ] || printf '%s\n' "$list"
[ "$over" -gt 0 ] && [ -n "$list" ] && exit 1
exit 0
