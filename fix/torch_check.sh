#!/usr/bin/env bash
# Runs tests/torch in each pool configuration and writes RUN_DIR/torch_pool.txt.
# Exits 0 when every configuration passed or was skipped (no torch, no GPU, or
# a configuration the platform refuses: the reason is printed), 1 otherwise.
#   fix/torch_check.sh RUN_DIR
set -u
dir=${1:?usage: fix/torch_check.sh RUN_DIR}
here=$(cd "$(dirname "$0")/.." && pwd)
out=$dir/torch_pool.txt
[ -e "$out" ] && { echo "torch_check: $out exists; not overwritten" >&2; exit 5; }
export HOSTACCESS_POOL_LIB=${HOSTACCESS_POOL_LIB:-${BUILD:-$here/build}/libhostaccess_pool.so}
# Nothing written into the checkout: no bytecode, no pytest cache.
export PYTHONDONTWRITEBYTECODE=1
if python3 -c 'import pytest' 2>/dev/null; then runner=(python3 -m pytest -v -rs -s -p no:cacheprovider); else runner=(python3 -m unittest -v); fi
# The four configurations run side by side (each is its own process and
# CUDA context; one import of torch costs seconds), then are written out in
# order, so the file reads as if they had run one after another.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/torch_check.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cfgs=("device 1" "device 0" "host 1" "host 0")
for i in "${!cfgs[@]}"; do
    set -- ${cfgs[$i]}
    ( HOSTACCESS_POOL_BACKING=$1 HOSTACCESS_POOL_HOST_ACCESS=$2 PYTHONUNBUFFERED=1 \
          "${runner[@]}" "$here/tests/torch/test_pool_torch.py" >"$tmp/$i.out" 2>&1
      echo $? >"$tmp/$i.rc" ) &
done
wait
failed=0
{
    echo "# tests/torch/test_pool_torch.py, runner: ${runner[*]}"
    echo "# device: CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset} HIP_VISIBLE_DEVICES=${HIP_VISIBLE_DEVICES-unset}"
    for i in "${!cfgs[@]}"; do
        set -- ${cfgs[$i]}
        rc=$(cat "$tmp/$i.rc" 2>/dev/null || echo 1)
        echo
        echo "## HOSTACCESS_POOL_BACKING=$1 HOSTACCESS_POOL_HOST_ACCESS=$2"
        cat "$tmp/$i.out"
        echo "## exit status $rc"
        [ "$rc" = 0 ] || failed=1
    done
} >"$out"
exit $failed
