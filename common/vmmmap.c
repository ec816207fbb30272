#include "vmmmap.h"

#include <stdint.h>

ha_loc ha_vmm_backing_loc(const ha_backend *be, ha_loc_type t)
{
    ha_loc l = {t, t == HA_LOC_DEVICE ? be->device : 0};
    return l;
}

int ha_vmm_granularity(const ha_backend *be, ha_loc backing, bool posix_fd, size_t *g)
{
    *g = 0;
    int st = be->ops->vmm->granularity(be, backing, posix_fd, g);
    return st == HA_ST_OK && *g == 0 ? HA_ST_NOT_WRITTEN : st;
}

int ha_vmm_reserve(const ha_backend *be, void **va, size_t size, size_t align, void *hint)
{
    int st = HA_ST_OK;
    for (int k = 0; k < 2; k++) {
        if (k == 1 && align == 0)
            break;
        void *got = (void *)(uintptr_t)UINTPTR_MAX;
        st = be->ops->vmm->reserve(be, &got, size, k ? 0 : align, hint);
        if (st == HA_ST_OK && got == (void *)(uintptr_t)UINTPTR_MAX)
            st = HA_ST_NOT_WRITTEN;
        if (st == HA_ST_OK) {
            *va = got;
            return HA_ST_OK;
        }
    }
    return st;
}

int ha_vmm_create(const ha_backend *be, ha_vmm_handle *h, size_t size, ha_loc backing, bool posix_fd)
{
    *h = HA_VMM_NO_HANDLE;
    int st = be->ops->vmm->create(be, h, size, backing, posix_fd);
    if (st == HA_ST_OK && *h == HA_VMM_NO_HANDLE)
        st = HA_ST_NOT_WRITTEN;
    if (st)
        *h = HA_VMM_NO_HANDLE;
    return st;
}

int ha_vmm_grant(const ha_backend *be, void *va, size_t size, bool host)
{
    ha_loc locs[2] = {ha_vmm_backing_loc(be, HA_LOC_DEVICE), {HA_LOC_HOST, 0}};
    return be->ops->vmm->set_access(be, va, size, locs, host ? 2 : 1);
}

int ha_vmm_unmap_release(const ha_backend *be, void *va, size_t total, size_t chunk, int n, int mapped,
                         ha_vmm_handle *h, const char **what)
{
    int first = HA_ST_OK;
    for (int i = 0; i < n; i++) {
        size_t off = (size_t)i * chunk, len = total - off < chunk ? total - off : chunk;
        if (i < mapped) {
            int st = be->ops->vmm->unmap(be, (char *)va + off, len);
            if (st && !first) {
                first = st;
                if (what)
                    *what = "unmap";
            }
        }
        if (h[i] != HA_VMM_NO_HANDLE) {
            int st = be->ops->vmm->release(be, h[i]);
            if (st && !first) {
                first = st;
                if (what)
                    *what = "release";
            }
            h[i] = HA_VMM_NO_HANDLE;
        }
    }
    return first;
}
