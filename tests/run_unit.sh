#!/usr/bin/env bash
# Runs each cmocka binary; prints one closing line with the totals.
set -u
passed=0 failed=0
for t in "$@"; do
    if "$t"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAILED: $t"; fi
done
echo "suites: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
