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
if python3 -c 'import pytest' 2>/dev/null; then runner=(python3 -m pytest -v -rs -s); else runner=(python3 -m unittest -v); fi
failed=0
{
    echo "# tests/torch/test_pool_torch.py, runner: ${runner[*]}"
    echo "# device: CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset} HIP_VISIBLE_DEVICES=${HIP_VISIBLE_DEVICES-unset}"
    for cfg in "device 1" "device 0" "host 1" "host 0"; do
        set -- $cfg
        echo
        echo "## HOSTACCESS_POOL_BACKING=$1 HOSTACCESS_POOL_HOST_ACCESS=$2"
        HOSTACCESS_POOL_BACKING=$1 HOSTACCESS_POOL_HOST_ACCESS=$2 PYTHONUNBUFFERED=1 \
            "${runner[@]}" "$here/tests/torch/test_pool_torch.py" 2>&1
        rc=$?
        echo "## exit status $rc"
        [ $rc -eq 0 ] || failed=1
    done
} >"$out"
exit $failed
