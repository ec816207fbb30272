/* The VMM kinds, shared by every backend that has VMM primitives: each is
 * one recipe (where the memory lives, which access descriptors, how many
 * chunks) run through the backend's own calls, so hip, cuda and sim build
 * them the same way vLLM and PyTorch do. */
#include "vmmkinds.h"
#include "gpustatus.h"
#include "log.h"

#include "classify.h"
#include "vmmmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct vmm_state {
    void *va;
    size_t reserved;
    size_t chunk;
    int nchunks;
    int mapped;
    ha_vmm_handle h[HA_VMM_MAX_CHUNKS];
} vmm_state;

static void note(ha_alloc *a, const char *fmt, const char *what, const char *st)
{
    size_t l = strlen(a->detail);
    if (l < sizeof a->detail - 1)
        snprintf(a->detail + l, sizeof a->detail - l, fmt, l ? "; " : "", what, st);
}

/* Undoes whatever part of the recipe had been done. */
static void teardown(const ha_backend *be, vmm_state *s, char *warn, size_t wn)
{
    const char *what = NULL;
    int st = ha_vmm_unmap_release(be, s->va, s->chunk * (size_t)s->nchunks, s->chunk, s->nchunks, s->mapped, s->h,
                                  &what);
    if (st && warn && !warn[0])
        snprintf(warn, wn, "%s: %s", what, ha_status_name(be, st));
    if (s->va) {
        st = be->ops->vmm->free_va(be, s->va, s->reserved);
        if (st && warn && !warn[0])
            snprintf(warn, wn, "address free: %s", ha_status_name(be, st));
    }
    free(s);
}

static int fail(const ha_backend *be, ha_alloc *a, vmm_state *s, const char *what, int st)
{
    char name[96];
    if (st == HA_ST_UNAVAILABLE)
        snprintf(name, sizeof name, "unavailable with %s", be->ops->header_label);
    else
        snprintf(name, sizeof name, "%s", ha_status_name(be, st));
    note(a, "%s%s: %s", what, name);
    teardown(be, s, NULL, 0);
    a->priv = NULL;
    return st;
}

/* The receiving side of IPC in one process: the handle goes out as a
 * POSIX fd and comes back as an imported handle, which replaces it (the
 * exporter's reference is dropped, as a sender's is once it has sent). */
static int import_own(const ha_backend *be, ha_vmm_handle *h, const char **what)
{
    const ha_vmm_ops *v = be->ops->vmm;
    int fd = -1;
    int st = v->export_fd(be, *h, &fd);
    if (st == HA_ST_OK && fd < 0)
        st = HA_ST_NOT_WRITTEN;
    if (st) {
        *what = "export to a POSIX fd";
        return st;
    }
    ha_vmm_handle in = HA_VMM_NO_HANDLE;
    st = v->import_fd(be, fd, &in);
    close(fd);
    if (st == HA_ST_OK && in == HA_VMM_NO_HANDLE)
        st = HA_ST_NOT_WRITTEN;
    if (st) {
        *what = "import from the POSIX fd";
        return st;
    }
    st = v->release(be, *h);
    *h = in;
    if (st)
        *what = "release of the exported handle";
    return st;
}

static int vmm_create(const ha_backend *be, ha_alloc *a)
{
    const ha_vmm_ops *v = be->ops->vmm;
    const ha_vmm_recipe *rc = &a->kind->vmm;
    vmm_state *s = calloc(1, sizeof *s);
    if (!s)
        return HA_ST_UNAVAILABLE;
    for (int i = 0; i < HA_VMM_MAX_CHUNKS; i++)
        s->h[i] = HA_VMM_NO_HANDLE;
    a->priv = s;
    ha_loc backing = ha_vmm_backing_loc(be, rc->backing);

    size_t g = 0;
    int st = ha_vmm_granularity(be, backing, rc->posix_fd, &g);
    if (st)
        return fail(be, a, s, "granularity", st);
    /* PyTorch's expandable segments grow in ~20 MiB steps; a granule is
     * enough to show the behaviour and keeps the probe light. */
    s->chunk = rc->expandable ? ha_round_up(2 * HA_MIB, g) : g;
    s->nchunks = rc->expandable ? 2 : (rc->chunks > 0 ? rc->chunks : 1);
    if (s->nchunks > HA_VMM_MAX_CHUNKS)
        s->nchunks = HA_VMM_MAX_CHUNKS;
    size_t used = s->chunk * (size_t)s->nchunks;
    s->reserved = rc->expandable ? s->chunk * 8 : used;

    if (rc->imported && (!v->export_fd || !v->import_fd))
        return fail(be, a, s, "export/import", HA_ST_UNAVAILABLE);
    void *va = NULL;
    st = ha_vmm_reserve(be, &va, s->reserved, g, NULL);
    if (st) {
        s->reserved = 0;
        return fail(be, a, s, "address reserve", st);
    }
    s->va = va;

    size_t nlocs = rc->host_grant ? 2 : 1;
    for (int i = 0; i < s->nchunks; i++) {
        ha_vmm_handle h;
        st = ha_vmm_create(be, &h, s->chunk, backing, rc->posix_fd);
        if (st)
            return fail(be, a, s, "create", st);
        s->h[i] = h;
        if (rc->imported) {
            const char *what = NULL;
            st = import_own(be, &s->h[i], &what);
            if (st)
                return fail(be, a, s, what, st);
            h = s->h[i];
        }
        char *at = (char *)va + (size_t)i * s->chunk;
        st = v->map(be, at, s->chunk, h);
        if (st)
            return fail(be, a, s, va ? "map" : "map (on the NULL address the reserve returned)", st);
        s->mapped++;
        if (rc->expandable) {
            st = ha_vmm_grant(be, at, s->chunk, rc->host_grant);
            if (st)
                return fail(be, a, s, "set access (per chunk)", st);
        }
    }
    if (!rc->expandable) {
        st = ha_vmm_grant(be, va, used, rc->host_grant);
        if (st)
            return fail(be, a, s, nlocs == 2 ? "set access (device+host)" : "set access (device)",
                        st);
    }
    a->ptr = va;
    a->size = used;
    snprintf(a->detail, sizeof a->detail,
             "granularity %zu; reserved %zu; %d chunk(s) of %zu mapped; access %s%s", g,
             s->reserved, s->nchunks, s->chunk, nlocs == 2 ? "device+host" : "device",
             rc->expandable ? " per chunk, grown by one chunk" : " in one call");
    if (rc->imported) {
        size_t l = strlen(a->detail);
        snprintf(a->detail + l, sizeof a->detail - l, "; each handle exported to a POSIX fd and imported");
    }
    return HA_ST_OK;
}

static void vmm_destroy(const ha_backend *be, ha_alloc *a)
{
    if (!a->priv)
        return;
    char warn[128] = "";
    teardown(be, a->priv, warn, sizeof warn);
    a->priv = NULL;
    if (warn[0])
        ha_log(HA_LOG_WARN, "%s: teardown %s", a->kind->name, warn);
}

#define VMM_ROW_T(n, d, loc, host, ch, fd, ex, imp, torch) \
    {n, d, vmm_create, vmm_destroy, {loc, host, ch, fd, ex, imp}, false, true, torch}
#define VMM_ROW(n, d, loc, host, ch, fd, ex) VMM_ROW_T(n, d, loc, host, ch, fd, ex, false, true)

const ha_kind ha_vmm_kinds[] = {
    VMM_ROW("vmm-device", "device memory, VMM, device access only (vLLM create_and_map)",
            HA_LOC_DEVICE, false, 1, false, false),
    VMM_ROW("vmm-device+host", "device memory, VMM, device + host descriptor in one SetAccess (the fix)",
            HA_LOC_DEVICE, true, 1, false, false),
    VMM_ROW("vmm-chunked", "device memory, VMM, 2 handles back to back, device access (vLLM ROCm chunking)",
            HA_LOC_DEVICE, false, 2, false, false),
    VMM_ROW("vmm-chunked+host", "as vmm-chunked plus the host descriptor (the fix on ROCm)",
            HA_LOC_DEVICE, true, 2, false, false),
    VMM_ROW("expandable", "PyTorch expandable segment as CUDA and older PyTorch build it: large reserve, "
            "POSIX-fd handles, per-chunk device access, grown by one",
            HA_LOC_DEVICE, false, 0, true, true),
    VMM_ROW("expandable+host", "PyTorch expandable segment as PyTorch built against ROCm >= 7.2 builds it: "
            "{Device, Host} descriptors per chunk (host-readable)",
            HA_LOC_DEVICE, true, 0, true, true),
    /* PyTorch's tensors from another process (IPC) do not come through its
     * allocator's raw deleter: not torch_allocator. */
    VMM_ROW_T("vmm-imported", "device memory, VMM, a POSIX-fd handle exported and imported (IPC's receiving side, as "
              "PyTorch shares expandable segments), device access only",
              HA_LOC_DEVICE, false, 1, true, false, true, false),
    VMM_ROW_T("vmm-imported+host", "as vmm-imported plus the host descriptor (what IPC import re-applies on ROCm; "
              "refused by 7.15)", HA_LOC_DEVICE, true, 1, true, false, true, false),
    VMM_ROW("vmm-host", "host-backed VMM (location Host), device access only",
            HA_LOC_HOST, false, 1, false, false),
    VMM_ROW("vmm-host+host", "host-backed VMM (location Host), device + host access",
            HA_LOC_HOST, true, 1, false, false),
    VMM_ROW("vmm-hostnuma", "host-backed VMM (location HostNuma 0), device access only",
            HA_LOC_HOST_NUMA, false, 1, false, false),
    VMM_ROW("vmm-hostnuma+host", "host-backed VMM (location HostNuma 0), device + host access",
            HA_LOC_HOST_NUMA, true, 1, false, false),
    {0},
};

int ha_raw_get_access(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    if (!be->ops->vmm)
        return HA_ST_UNAVAILABLE;
    unsigned long long flags;
    ha_sentinel_fill(&flags, sizeof flags);
    int st = be->ops->vmm->get_access(be, a->ptr, ha_vmm_backing_loc(be, (ha_loc_type)q->arg),
                                      &flags);
    memcpy(out, &flags, sizeof flags);
    return st;
}
