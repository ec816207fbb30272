#!/usr/bin/env bash
# One machine's share of the gate's evidence (issue 19): PLAIN whole runs
# back to back, then one run per --slowed SPEC (HOSTACCESS_TEST_SLOWDOWN,
# the bench's test-only stretch, which the record carries), all of one
# build, into DIR. DIR/campaign.tsv lists them in order ("plain FOLDER",
# "slowed SPEC FOLDER"); report/evidence/campaign_summary.py judges them later, on
# this machine or another, with whatever compare the tree then has.
#
#   report/evidence/campaign.sh --results DIR [--plain N] [--slowed SPEC]... [-- RUN_ALL_ARGS...]
#
# DIR/runs.tsv has one line per run: kind, run_all.sh's exit status, its
# seconds, the folder. DIR must not exist (a campaign is never added to or
# overwritten). Exit:
# 0 every run whole, 2 bad usage or a run that did not complete.
set -u -o pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
plain=5
results=
slowed=()
usage() {
    echo "usage: report/evidence/campaign.sh --results DIR [--plain N] [--slowed PATH=PERCENT[,...]]... [-- RUN_ALL_ARGS...]" >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case "$1" in
        --results) [ $# -ge 2 ] || usage; results=$2; shift 2 ;;
        --plain) [ $# -ge 2 ] || usage; plain=$2; shift 2 ;;
        --slowed) [ $# -ge 2 ] || usage; slowed+=("$2"); shift 2 ;;
        --) shift; break ;;
        -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
        *) echo "campaign: unknown argument '$1'" >&2; usage ;;
    esac
done
[ -n "$results" ] || { echo "campaign: --results DIR is required" >&2; usage; }
[[ "$plain" =~ ^[2-9]$|^[1-9][0-9]$ ]] || { echo "campaign: --plain takes 2 to 99 (pairs need two runs)" >&2; usage; }
for s in "${slowed[@]+"${slowed[@]}"}"; do
    [[ "$s" =~ ^[a-z_]+=[0-9]{1,3}(,[a-z_]+=[0-9]{1,3})*$ ]] ||
        { echo "campaign: --slowed '$s' is not PATH=PERCENT[,PATH=PERCENT...]" >&2; usage; }
done
[ -e "$results" ] && { echo "campaign: $results exists: a campaign is never added to; name a new folder" >&2; exit 2; }
mkdir -p "$results" || exit 2

tool=campaign
# shellcheck source=report/evidence/runs.sh
. "$here/report/evidence/runs.sh"
# Every run's exit status and seconds go to runs.tsv, whole or not: the
# health of a healthy machine's runs is evidence too (issue 27).
status_file=$(mktemp "${TMPDIR:-/tmp}/campaign-status.XXXXXX") || exit 2
trap 'rm -f "$status_file"' EXIT
one() {
    local kind=$1 dirs rc t0 st
    shift
    t0=$(date +%s.%N)
    dirs=$(RUN_STATUS_FILE=$status_file run_whole "$results" "$@")
    rc=$?
    st=$(cat "$status_file" 2>/dev/null)
    : >"$status_file"
    printf '%s\t%s\t%s\t%s\n' "$kind" "${st:--}" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" \
        "$(basename "${dirs%%$'\n'*}" 2>/dev/null)" >>"$results/runs.tsv"
    [ $rc -eq 0 ] || exit 2
    basename "${dirs%%$'\n'*}"
}
for i in $(seq 1 "$plain"); do
    d=$(one plain "$@")
    printf 'plain\t%s\n' "$d" >>"$results/campaign.tsv"
    echo "campaign: plain $i/$plain -> $d"
done
for s in "${slowed[@]+"${slowed[@]}"}"; do
    d=$(HOSTACCESS_TEST_SLOWDOWN=$s one slowed "$@")
    printf 'slowed\t%s\t%s\n' "$s" "$d" >>"$results/campaign.tsv"
    echo "campaign: slowed $s -> $d"
done
