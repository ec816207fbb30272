/* The VMM mapping steps every user takes (the lower layer: vmmkinds.c
 * builds the kinds on it, never the other way round) — the VMM kinds, the access
 * probe and the reference pool — in one place, each checked the same way:
 * a call that reports success without writing its output (some ROCm
 * releases do) is a failure, HA_ST_NOT_WRITTEN; an aligned reserve the
 * runtime refuses is tried again with no alignment, as vLLM does. */
#ifndef HA_VMMMAP_H
#define HA_VMMMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu.h"

#define HA_MIB ((size_t)1024 * 1024)

static inline size_t ha_round_up(size_t v, size_t g) { return (v + g - 1) / g * g; }

/* The location of a backing type on this backend's device. */
ha_loc ha_vmm_backing_loc(const ha_backend *be, ha_loc_type t);

/* The allocation granularity for a backing (minimum, not recommended). */
int ha_vmm_granularity(const ha_backend *be, ha_loc backing, bool posix_fd, size_t *g);

/* size bytes of address space at hint (NULL: anywhere), aligned to align,
 * or with no alignment where that is refused. */
int ha_vmm_reserve(const ha_backend *be, void **va, size_t size, size_t align, void *hint);

/* A physical handle of size bytes on backing. */
int ha_vmm_create(const ha_backend *be, ha_vmm_handle *h, size_t size, ha_loc backing, bool posix_fd);

/* Read-write access over [va, va + size) for the device, and the host too
 * when host (the fix), in one SetAccess call. */
int ha_vmm_grant(const ha_backend *be, void *va, size_t size, bool host);

/* Unmaps the first `mapped` of n chunks of `chunk` bytes from va (the last
 * may be shorter: total bytes in all), releases every handle held (set to
 * HA_VMM_NO_HANDLE), and returns the first failure (0 if none); the step
 * that failed first is named in what when given. */
int ha_vmm_unmap_release(const ha_backend *be, void *va, size_t total, size_t chunk, int n, int mapped,
                         ha_vmm_handle *h, const char **what);

#endif
