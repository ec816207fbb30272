/* The rule, as aten/src/ATen/native/cuda/CUDAScalar.cu (_local_scalar_dense)
 * applies it in PyTorch built against ROCm >= 7.2 (FACTS.md, "The failure
 * being studied"): a host load when
 *   1. the *current* device's hipDeviceProp_t.isLargeBar is set,
 *   2. the tensor's storage came from the caching allocator (its deleter is
 *      the allocator's raw deleter; a pluggable-allocator MemPool
 *      qualifies), and
 *   3. the stream is not capturing (the probe never captures);
 * otherwise a copy. 1 is the backend's (torch_reads_host: the runtime
 * version and the device), 2 the kind's (torch_allocator). */
#include "torchrule.h"

#include <stdio.h>
#include <string.h>

#include "classify.h"
#include "gpustatus.h"

static bool device_takes_host_read(const ha_backend *be, char *why, size_t n)
{
    if (!be->ops->torch_reads_host) {
        snprintf(why, n, "PyTorch on %s always copies", be->ops->name);
        return false;
    }
    return be->ops->torch_reads_host(be, why, n);
}

static int r_torch_rule(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)q;
    char why[160];
    int host_read = device_takes_host_read(be, why, sizeof why) && a->kind->torch_allocator;
    memcpy(out, &host_read, sizeof host_read);
    return HA_ST_OK;
}

/* The answer, and which condition decided it. */
static void run_torch_rule(const ha_backend *be, const ha_query *q, const ha_alloc *a, ha_result *r)
{
    ha_query plain = *q;
    plain.run = NULL;
    ha_query_run(be, &plain, a, r);
    char why[96];
    bool dev = device_takes_host_read(be, why, sizeof why);
    snprintf(r->value, sizeof r->value, "%s: %s", dev ? "host load" : "copy", why);
}

const ha_query ha_torch_queries[] = {
    {"pytorch_item_rule", "model of PyTorch ROCm's .item() rule (CUDAScalar.cu _local_scalar_dense): host load "
     "when built against ROCm >= 7.2, the current device is large-BAR, the tensor came from the caching allocator "
     "or a MemPool, and the stream is not capturing; asked of the kinds PyTorch's allocator hands out",
     r_torch_rule, 0, HA_VT_BOOL, 4, run_torch_rule, HA_QF_MODEL},
    {0},
};
