/* refpool: a small sleep-mode memory pool built like vLLM's cumem allocator,
 * carrying the host-access fix.
 *
 * alloc rounds to the allocation granularity, reserves the range, creates
 * it in chunks (each its own handle, mapped back to back) and grants access
 * in one SetAccess call: the device, plus the host when host access is on
 * (the fix; without it a host dereference of pool memory faults). sleep
 * copies the allocations whose tags are offloaded to pinned host memory,
 * then unmaps and releases every allocation, so device memory really
 * returns; wake re-creates, re-maps, re-grants and restores. Host access is
 * lost on every unmap, which is why the fix belongs at map time. */
#ifndef HA_REFPOOL_H
#define HA_REFPOOL_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu.h"

typedef enum {
    REFPOOL_OK = 0,
    REFPOOL_E_INVALID = -1,     /* zero, negative or impossible size; bad argument */
    REFPOOL_E_UNKNOWN_TAG = -2, /* no allocation carries that tag */
    REFPOOL_E_NOT_FOUND = -3,   /* not an allocation of this pool (double free) */
    REFPOOL_E_STATE = -4,       /* sleep while asleep, wake while awake, alloc while asleep */
    REFPOOL_E_RUNTIME = -5,     /* a runtime call failed: refpool_last_error() says which */
    REFPOOL_E_NOMEM = -6,       /* host memory for bookkeeping or backups */
    REFPOOL_E_UNSUPPORTED = -7, /* the platform refuses what the configuration asks */
} refpool_err;

typedef struct refpool_config {
    size_t chunk_size;      /* bytes per handle; 0: 256 MiB (vLLM's ROCm default) */
    bool host_access;       /* the fix: a host descriptor in the SetAccess call */
    ha_loc_type backing;    /* HA_LOC_DEVICE, or HA_LOC_HOST for host-backed VMM */
    bool re_reserve;        /* on sleep, free and re-reserve each range (vLLM on ROCm) */
} refpool_config;

/* The defaults for a backend: 256 MiB chunks, host access on, device
 * backing, re-reserve on hip. */
refpool_config refpool_default_config(const ha_backend *be);

typedef struct refpool refpool;

/* Creates a pool. With host access on, it first tries the grant on one
 * granule: a platform that refuses host access to that backing gives
 * REFPOOL_E_UNSUPPORTED, and refpool_last_error() names the refusal. */
int refpool_create(const ha_backend *be, const refpool_config *cfg, refpool **out,
                   char *why, size_t whylen);
void refpool_destroy(refpool *p);

int refpool_alloc(refpool *p, size_t size, const char *tag, void **ptr);
int refpool_free(refpool *p, void *ptr);

/* Waits for the device (a kernel still writing pool memory finishes
 * first), offloads the allocations tagged with any of offload_tags (ntags
 * may be 0), then unmaps and releases everything. */
int refpool_sleep(refpool *p, const char *const *offload_tags, size_t ntags);

/* Forgets what sleep offloaded for these tags (every one must exist and be
 * asleep): their pinned backups are freed, and a later wake gives them
 * fresh memory. For contents the caller will load again itself. */
int refpool_discard(refpool *p, const char *const *tags, size_t ntags);

typedef struct refpool_tag_info {
    size_t allocations;     /* carrying the tag */
    size_t asleep;          /* of them, asleep */
    size_t bytes;           /* mapped when awake (granularity-rounded) */
    size_t offloaded_bytes; /* held in backups for the next wake */
} refpool_tag_info;

/* What the pool holds under a tag: REFPOOL_OK, or REFPOOL_E_UNKNOWN_TAG. */
int refpool_tag(const refpool *p, const char *tag, refpool_tag_info *out);

/* The distinct tags, newest allocation's first; returns how many there are
 * (at most max are written). */
size_t refpool_tags(const refpool *p, const char **tags, size_t max);

/* Wakes the allocations with these tags (NULL/0: every sleeping one). On a
 * failure everything this call mapped is undone: the pool stays asleep and
 * a later wake can succeed. */
int refpool_wake(refpool *p, const char *const *tags, size_t ntags);

const char *refpool_strerror(int err);
const char *refpool_last_error(const refpool *p);

/* Bytes currently mapped (awake), and reserved in all. */
size_t refpool_mapped_bytes(const refpool *p);
size_t refpool_granularity(const refpool *p);
/* Handles currently held: what a leak would leave behind. */
size_t refpool_live_handles(const refpool *p);

/* Test hook, used by pool_check on real runtimes too: the pool's nth VMM
 * create or map, or nth chunk copy of a sleep's offload, from now on fails
 * as if the runtime refused it. */
enum { REFPOOL_INJECT_CREATE, REFPOOL_INJECT_MAP, REFPOOL_INJECT_OFFLOAD };
void refpool_inject_failure(refpool *p, int what, int nth);

#endif
