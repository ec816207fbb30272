#include "backend.h"

#include <stdio.h>
#include <string.h>

#include "classify.h"
#include "controlkind.h"
#include "vmmkinds.h"
#include "oscand.h"

const ha_backend_ops *const ha_all_backends[] = {&ha_backend_hip, &ha_backend_cuda,
                                                 &ha_backend_sim, NULL};

const ha_backend_ops *ha_backend_find(const char *name)
{
    for (int i = 0; ha_all_backends[i]; i++)
        if (strcmp(ha_all_backends[i]->name, name) == 0)
            return ha_all_backends[i];
    return NULL;
}

static int open_one(const ha_backend_ops *ops, int device, ha_backend *be, char *why, size_t n)
{
    memset(be, 0, sizeof *be);
    be->ops = ops;
    be->device = device;
    if (!ops->compiled) {
        snprintf(why, n, "%s backend %s", ops->name, ops->build_note);
        return HA_EXIT_NO_RUNTIME;
    }
    return ops->open(be, device, why, n);
}

int ha_backend_open(const char *want, int device, ha_backend *be, char *msg, size_t msglen)
{
    msg[0] = 0;
    if (strcmp(want, "auto") != 0) {
        const ha_backend_ops *ops = ha_backend_find(want);
        if (!ops) {
            snprintf(msg, msglen, "unknown backend '%s' (auto, hip, cuda, sim)", want);
            return HA_EXIT_USAGE;
        }
        return open_one(ops, device, be, msg, msglen);
    }
    char skipped[512] = "";
    for (int i = 0; ha_all_backends[i]; i++) {
        char why[256] = "";
        int rc = open_one(ha_all_backends[i], device, be, why, sizeof why);
        if (rc == HA_EXIT_OK) {
            snprintf(msg, msglen, "backend auto: chose %s%s%s", ha_all_backends[i]->name,
                     skipped[0] ? " because " : "", skipped);
            return rc;
        }
        /* A bad device index is the user's mistake on a backend that
         * exists: say so instead of quietly falling back. */
        if (rc == HA_EXIT_USAGE) {
            snprintf(msg, msglen, "%s", why);
            return rc;
        }
        size_t l = strlen(skipped);
        snprintf(skipped + l, sizeof skipped - l, "%s%s", l ? "; " : "", why);
    }
    snprintf(msg, msglen, "no backend could be opened: %s", skipped);
    return HA_EXIT_NO_RUNTIME;
}

void ha_backend_close(ha_backend *be)
{
    if (be->ops && be->ops->close)
        be->ops->close(be);
    be->priv = NULL;
    be->sim_profile = NULL;
}

void ha_backend_list(FILE *out)
{
    for (int i = 0; ha_all_backends[i]; i++) {
        const ha_backend_ops *ops = ha_all_backends[i];
        ha_backend be;
        char why[256] = "";
        int rc = open_one(ops, 0, &be, why, sizeof why);
        int n = 0;
        if (rc == HA_EXIT_OK) {
            if (ops->device_count(&be, &n) != HA_ST_OK)
                n = 0;
            ha_backend_close(&be);
            snprintf(why, sizeof why, "available, %d device(s)", n);
        }
        /* A compiled-out backend's reason is its build note: say it once. */
        if (ops->compiled)
            fprintf(out, "%-5s %-9s %s; %s\n", ops->name, "compiled", ops->build_note, why);
        else
            fprintf(out, "%-5s %-9s %s\n", ops->name, "absent", ops->build_note);
    }
}

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

size_t ha_kinds(const ha_backend *be, const ha_kind **out, size_t max)
{
    size_t n = 0;
    for (const ha_kind *k = be->ops->kinds; k && k->name && n < max; k++)
        out[n++] = k;
    if (be->ops->vmm)
        for (const ha_kind *k = ha_vmm_kinds; k->name && n < max; k++)
            out[n++] = k;
    for (const ha_kind *k = ha_control_kinds; k->name && n < max; k++)
        out[n++] = k;
    return n;
}

size_t ha_queries(const ha_backend *be, const ha_query **out, size_t max)
{
    size_t n = 0;
    for (const ha_query *q = be->ops->queries; q && q->name && n < max; q++)
        out[n++] = q;
    for (const ha_query *q = ha_os_queries; q->name && n < max; q++)
        out[n++] = q;
    return n;
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
