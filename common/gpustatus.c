#include "gpustatus.h"

#include <stdio.h>
#include <sys/mman.h>

#include "classify.h"

const char *ha_status_name(const ha_backend *be, int status)
{
    switch (status) {
    case HA_ST_SYMBOL_MISSING: return "symbol_missing";
    case HA_ST_UNAVAILABLE: return "unavailable";
    case HA_ST_SKIPPED: return "skipped";
    case HA_ST_NOT_WRITTEN: return "success_not_written";
    case HA_ST_MISMATCH: return "success_wrong_bytes";
    case HA_ST_SKEW: return "refused_header_runtime_skew";
    case HA_ST_CRASHED: return "crashed_in_child";
    case HA_ST_UNSAFE: return "skipped_crashes_this_runtime";
    default: break;
    }
    if (be && be->ops && be->ops->status_name)
        return be->ops->status_name(be, status);
    return status == 0 ? "success" : "error";
}

void ha_result_status(const ha_backend *be, ha_result *r, int status)
{
    r->status = status;
    snprintf(r->status_name, sizeof r->status_name, "%s", ha_status_name(be, status));
    switch (status) {
    case HA_ST_OK: r->outcome = HA_OUT_OK; break;
    case HA_ST_SYMBOL_MISSING: r->outcome = HA_OUT_SYMBOL_MISSING; break;
    case HA_ST_UNAVAILABLE: r->outcome = HA_OUT_UNAVAILABLE; break;
    case HA_ST_SKIPPED:
    case HA_ST_UNSAFE:
    case HA_ST_SKEW: r->outcome = HA_OUT_SKIPPED; break;
    default: r->outcome = HA_OUT_ERROR; break;
    }
}

void ha_query_run(const ha_backend *be, const ha_query *q, const ha_alloc *a, ha_result *r)
{
    if (q->run) {
        q->run(be, q, a, r);
        return;
    }
    unsigned char buf[HA_RAW_MAX];
    ha_sentinel_fill(buf, sizeof buf);
    int st = q->raw(be, q, a, buf);
    ha_result_status(be, r, st);
    if (st == HA_ST_OK)
        ha_result_value(r, a, (ha_vtype)q->vtype, buf, (size_t)q->width);
}

const char *ha_loc_name(ha_loc_type t)
{
    switch (t) {
    case HA_LOC_DEVICE: return "device";
    case HA_LOC_HOST: return "host";
    case HA_LOC_HOST_NUMA: return "host_numa";
    case HA_LOC_HOST_NUMA_CURRENT: return "host_numa_current";
    default: return "?";
    }
}

void *ha_host_pages(size_t n)
{
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

void ha_host_pages_free(void *p, size_t n)
{
    if (p)
        munmap(p, n);
}
