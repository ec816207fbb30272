#include "refpool.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpuhelpers.h"
#include "vmmkinds.h"
#include "vmmmap.h"

#define TAG_MAX 64
#define INJECTED_STATUS HA_ST_UNAVAILABLE
/* Tries at taking an address range back after sleep freed it, as vLLM
 * does on ROCm: another address is given back and asked for again. */
#define RE_RESERVE_TRIES 3

typedef struct rp_alloc {
    struct rp_alloc *next;
    char tag[TAG_MAX];
    void *va;
    size_t size;    /* asked for */
    size_t mapped;  /* rounded to the granularity */
    int nchunks;
    ha_vmm_handle *h;
    bool awake;
    bool reserved;  /* the address range is held (a failed re-reserve loses it) */
    bool waking;    /* woken by the wake in progress: undone if a later one fails */
    void *backup;   /* pinned host copy; kept across cycles, as PyTorch caches pinned blocks */
    bool offloaded; /* the backup holds this sleep's contents */
    int released;   /* chunks [0, released) given back by the sleep in progress */
} rp_alloc;

struct refpool {
    const ha_backend *be;
    refpool_config cfg;
    size_t gran;
    size_t total_vram;
    rp_alloc *head;
    char err[768];
    int inject_what, inject_nth; /* -1: no injection */
};

static int fail(refpool *p, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, sizeof p->err, fmt, ap);
    va_end(ap);
    return code;
}

const char *refpool_strerror(int err)
{
    switch (err) {
    case REFPOOL_OK: return "ok";
    case REFPOOL_E_INVALID: return "invalid argument";
    case REFPOOL_E_UNKNOWN_TAG: return "unknown tag";
    case REFPOOL_E_NOT_FOUND: return "not an allocation of this pool";
    case REFPOOL_E_STATE: return "wrong state";
    case REFPOOL_E_RUNTIME: return "runtime call failed";
    case REFPOOL_E_NOMEM: return "out of host memory";
    case REFPOOL_E_UNSUPPORTED: return "unsupported on this platform";
    }
    return "unknown error";
}

const char *refpool_last_error(const refpool *p) { return p->err; }

refpool_config refpool_default_config(const ha_backend *be)
{
    refpool_config c = {256 * HA_MIB, true, HA_LOC_DEVICE, be->ops->vram_held_while_reserved};
    return c;
}

/* ---- the runtime calls, with the test hook in front ---- */

static bool injected(refpool *p, int what)
{
    if (p->inject_nth < 0 || p->inject_what != what)
        return false;
    if (p->inject_nth-- == 0) {
        p->inject_nth = -1;
        return true;
    }
    return false;
}

static int vmm_create(refpool *p, ha_vmm_handle *h, size_t size)
{
    if (injected(p, REFPOOL_INJECT_CREATE))
        return INJECTED_STATUS;
    return ha_vmm_create(p->be, h, size, ha_vmm_backing_loc(p->be, p->cfg.backing), false);
}

static int vmm_map(refpool *p, void *va, size_t size, ha_vmm_handle h)
{
    if (injected(p, REFPOOL_INJECT_MAP))
        return INJECTED_STATUS;
    return p->be->ops->vmm->map(p->be, va, size, h);
}

static int offload_enqueue(refpool *p, void *dst, const void *src, size_t n)
{
    if (injected(p, REFPOOL_INJECT_OFFLOAD))
        return INJECTED_STATUS;
    return p->be->ops->copy_d2h_enqueue(p->be, dst, src, n);
}

static const char *st_name(refpool *p, int st)
{
    return st == INJECTED_STATUS ? "injected failure" : ha_status_name(p->be, st);
}

static size_t chunk_len(const refpool *p, const rp_alloc *a, int i)
{
    size_t off = (size_t)i * p->cfg.chunk_size;
    size_t left = a->mapped - off;
    return left < p->cfg.chunk_size ? left : p->cfg.chunk_size;
}

/* Unmaps the first `mapped` chunks and releases every handle held. */
static int unmap_release(refpool *p, rp_alloc *a, int mapped)
{
    return ha_vmm_unmap_release(p->be, a->va, a->mapped, p->cfg.chunk_size, a->nchunks, mapped, a->h, NULL);
}

/* Takes a's range back after freeing it: the same addresses, or after
 * RE_RESERVE_TRIES tries an error, with the range lost (a->reserved false:
 * a later wake of a fails, saying so, rather than mapping elsewhere while
 * the caller holds the old pointer). A range the runtime gives at another
 * address is freed again before the next try. */
static int re_reserve(refpool *p, rp_alloc *a)
{
    const ha_backend *be = p->be;
    int st = be->ops->vmm->free_va(be, a->va, a->mapped);
    if (st != HA_ST_OK)
        return st;
    a->reserved = false;
    for (int t = 0; t < RE_RESERVE_TRIES; t++) {
        void *again = NULL;
        st = ha_vmm_reserve(be, &again, a->mapped, p->gran, a->va);
        if (st != HA_ST_OK)
            continue;
        if (again == a->va) {
            a->reserved = true;
            return HA_ST_OK;
        }
        be->ops->vmm->free_va(be, again, a->mapped);
        st = HA_ST_NOT_WRITTEN;
    }
    return st;
}

/* Unmaps and releases a's chunks; where the runtime keeps VRAM while a
 * range stays reserved (ROCm: re_reserve), also gives the range back and
 * takes the same addresses again. Sleep does this, and so does a wake that
 * undoes itself: without it a failed wake would hold the memory it made. */
static int give_back(refpool *p, rp_alloc *a, int mapped)
{
    int st = unmap_release(p, a, mapped);
    if (!p->cfg.re_reserve || st != HA_ST_OK)
        return st;
    return re_reserve(p, a);
}

/* Creates, maps and grants chunk i of a, and with restore enqueues the
 * copy of its bytes back from the backup. On failure *what names the step
 * and *mapped says whether the chunk got mapped; its handle stays in a->h
 * for the caller's unmap_release. */
static int make_chunk(refpool *p, rp_alloc *a, int i, bool restore, const char **what, bool *mapped)
{
    *mapped = false;
    size_t off = (size_t)i * p->cfg.chunk_size, len = chunk_len(p, a, i);
    char *at = (char *)a->va + off;
    int st;
    *what = "create";
    if ((st = vmm_create(p, &a->h[i], len)))
        return st;
    *what = "map";
    if ((st = vmm_map(p, at, len, a->h[i])))
        return st;
    *mapped = true;
    *what = p->cfg.host_access ? "set access (device+host)" : "set access (device)";
    if ((st = ha_vmm_grant(p->be, at, len, p->cfg.host_access)))
        return st;
    if (restore && off < a->size) {
        *what = "restore";
        size_t n = a->size - off < len ? a->size - off : len;
        st = p->be->ops->copy_h2d_enqueue(p->be, at, (char *)a->backup + off, n);
    }
    return st;
}

/* Creates, maps and grants a's chunks one after another (vLLM creates
 * every handle first; here chunk i is granted before chunk i+1 is made, so
 * a wake's restore of chunk i is enqueued before the runtime makes the
 * next and the calls hide behind the copy. tools/diag/wake_parts.c on the
 * H200, 1 GiB in 256 MiB chunks, 50 ms after sleep: this order 97.3 % of
 * the pinned-copy ceiling, vLLM's 96.9 %; with 32 MiB chunks 96.6 % and
 * 93.4 %). The grant is the device descriptor plus, with the fix, the host
 * one. Undoes itself on failure (waking: giving the range back too, as
 * sleep did). */
static int create_and_map(refpool *p, rp_alloc *a, bool waking)
{
    int mapped = 0, st = HA_ST_OK;
    const char *what = "create";
    bool restore = waking && a->offloaded;
    for (int i = 0; i < a->nchunks && st == HA_ST_OK; i++) {
        bool made = false;
        st = make_chunk(p, a, i, restore, &what, &made);
        mapped += made;
    }
    if (restore && st == HA_ST_OK) {
        what = "restore";
        st = p->be->ops->stream_sync(p->be);
    }
    if (st == HA_ST_OK)
        return REFPOOL_OK;
    if (restore)
        p->be->ops->stream_sync(p->be); /* no copy may land after the unmap */
    int ust = waking ? give_back(p, a, mapped) : unmap_release(p, a, mapped);
    return fail(p, REFPOOL_E_RUNTIME, "%s of a %zu-byte allocation (%s): %s%s%s", what, a->mapped,
                a->tag, st_name(p, st), ust ? "; undoing it also failed: " : "",
                ust ? ha_status_name(p->be, ust) : "");
}

/* ---- pool ---- */

int refpool_create(const ha_backend *be, const refpool_config *cfg, refpool **out, char *why,
                   size_t whylen)
{
    *out = NULL;
    if (!be->ops->vmm) {
        snprintf(why, whylen, "the %s backend has no VMM calls", be->ops->name);
        return REFPOOL_E_UNSUPPORTED;
    }
    refpool *p = calloc(1, sizeof *p);
    if (!p)
        return REFPOOL_E_NOMEM;
    p->be = be;
    p->cfg = *cfg;
    p->inject_nth = -1;
    size_t g = 0;
    int st = be->ops->vmm->granularity(be, ha_vmm_backing_loc(be, cfg->backing), false, &g);
    if (st || g == 0) {
        snprintf(why, whylen, "allocation granularity for %s backing: %s",
                 ha_loc_name(cfg->backing), st ? ha_status_name(be, st) : "none reported");
        free(p);
        return st == HA_ST_UNAVAILABLE || st == HA_ST_SYMBOL_MISSING ? REFPOOL_E_UNSUPPORTED
                                                                    : REFPOOL_E_RUNTIME;
    }
    p->gran = g;
    if (p->cfg.chunk_size == 0)
        p->cfg.chunk_size = 256 * HA_MIB;
    p->cfg.chunk_size = ha_round_up(p->cfg.chunk_size, g);
    size_t free_b = 0;
    be->ops->mem_info(be, &free_b, &p->total_vram);
    /* Try the configured grant on one granule: a refusal is a property of
     * the platform, better known now than at the first allocation. */
    void *ptr;
    int rc = refpool_alloc(p, g, "refpool-probe", &ptr);
    if (rc != REFPOOL_OK) {
        snprintf(why, whylen, "%s", p->err);
        free(p);
        return rc == REFPOOL_E_RUNTIME && cfg->host_access ? REFPOOL_E_UNSUPPORTED : rc;
    }
    refpool_free(p, ptr);
    p->err[0] = 0;
    *out = p;
    return REFPOOL_OK;
}

static rp_alloc *find(refpool *p, void *ptr, rp_alloc ***link)
{
    for (rp_alloc **l = &p->head; *l; l = &(*l)->next)
        if ((*l)->va == ptr) {
            if (link)
                *link = l;
            return *l;
        }
    return NULL;
}

static void drop(refpool *p, rp_alloc *a)
{
    if (a->backup)
        p->be->ops->host_free_pinned(p->be, a->backup);
    free(a->h);
    free(a);
}

int refpool_alloc(refpool *p, size_t size, const char *tag, void **ptr)
{
    *ptr = NULL;
    if (size == 0)
        return fail(p, REFPOOL_E_INVALID, "size 0");
    if (size > (size_t)1 << 50 || (p->total_vram && p->cfg.backing == HA_LOC_DEVICE &&
                                   size > p->total_vram))
        return fail(p, REFPOOL_E_INVALID, "size %zu is more than the device has (%zu)", size,
                    p->total_vram);
    if (!tag || !*tag || strlen(tag) >= TAG_MAX)
        return fail(p, REFPOOL_E_INVALID, "a tag of 1 to %d characters is needed", TAG_MAX - 1);
    for (rp_alloc *a = p->head; a; a = a->next)
        if (!a->awake)
            return fail(p, REFPOOL_E_STATE, "the pool is asleep: wake it before allocating");
    rp_alloc *a = calloc(1, sizeof *a);
    if (!a)
        return REFPOOL_E_NOMEM;
    snprintf(a->tag, sizeof a->tag, "%s", tag);
    a->size = size;
    a->mapped = ha_round_up(size, p->gran);
    a->nchunks = (int)((a->mapped + p->cfg.chunk_size - 1) / p->cfg.chunk_size);
    a->h = malloc((size_t)a->nchunks * sizeof *a->h);
    if (!a->h) {
        free(a);
        return REFPOOL_E_NOMEM;
    }
    for (int i = 0; i < a->nchunks; i++)
        a->h[i] = HA_VMM_NO_HANDLE;
    void *va = NULL;
    int st = ha_vmm_reserve(p->be, &va, a->mapped, p->gran, NULL);
    if (st) {
        size_t mapped = a->mapped;
        drop(p, a);
        return fail(p, REFPOOL_E_RUNTIME, "address reserve of %zu bytes: %s", mapped,
                    ha_status_name(p->be, st));
    }
    a->va = va;
    a->reserved = true;
    int rc = create_and_map(p, a, false);
    if (rc != REFPOOL_OK) {
        p->be->ops->vmm->free_va(p->be, a->va, a->mapped);
        drop(p, a);
        return rc;
    }
    a->awake = true;
    a->next = p->head;
    p->head = a;
    *ptr = va;
    return REFPOOL_OK;
}

int refpool_free(refpool *p, void *ptr)
{
    rp_alloc **link;
    rp_alloc *a = find(p, ptr, &link);
    if (!a)
        return fail(p, REFPOOL_E_NOT_FOUND, "%p is not an allocation of this pool (double free?)",
                    ptr);
    int st = a->awake ? unmap_release(p, a, a->nchunks) : HA_ST_OK;
    int fst = a->reserved ? p->be->ops->vmm->free_va(p->be, a->va, a->mapped) : HA_ST_OK;
    *link = a->next;
    drop(p, a);
    if (st || fst)
        return fail(p, REFPOOL_E_RUNTIME, "free: %s", ha_status_name(p->be, st ? st : fst));
    return REFPOOL_OK;
}

void refpool_destroy(refpool *p)
{
    if (!p)
        return;
    while (p->head)
        refpool_free(p, p->head->va);
    free(p);
}

static bool tagged(const rp_alloc *a, const char *const *tags, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (tags[i] && strcmp(tags[i], a->tag) == 0)
            return true;
    return false;
}

/* Every tag named must be carried by some allocation. */
static int check_tags(refpool *p, const char *const *tags, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        bool seen = false;
        for (rp_alloc *a = p->head; a && !seen; a = a->next)
            seen = tags[i] && strcmp(tags[i], a->tag) == 0;
        if (!seen)
            return fail(p, REFPOOL_E_UNKNOWN_TAG, "no allocation is tagged '%s'",
                        tags[i] ? tags[i] : "(null)");
    }
    return REFPOOL_OK;
}

/* ---- sleep: each chunk released as soon as its copy is done ---- */

/* Unmaps and releases a's chunks from a->released on. */
static int release_rest(refpool *p, rp_alloc *a)
{
    size_t off = (size_t)a->released * p->cfg.chunk_size;
    int left = a->nchunks - a->released;
    return ha_vmm_unmap_release(p->be, (char *)a->va + off, a->mapped - off, p->cfg.chunk_size, left, left,
                                a->h + a->released, NULL);
}

/* Releases the next chunk of a, whose copy has finished. A release that
 * fails is kept in *first and the sleep goes on, as a whole release does. */
static void release_next(refpool *p, rp_alloc *a, int *first)
{
    size_t off = (size_t)a->released * p->cfg.chunk_size;
    int st = ha_vmm_unmap_release(p->be, (char *)a->va + off, chunk_len(p, a, a->released),
                                  p->cfg.chunk_size, 1, 1, a->h + a->released, NULL);
    a->released++;
    if (st && !*first)
        *first = st;
}

/* A copy failed after some chunks were released: make them again from the
 * backup, which holds their bytes (their copies finished), so the pool
 * stays awake as it was. Where that fails too, the allocation is given
 * back whole and its contents are lost; the message says so. */
static int undo_offload(refpool *p, const char *what, rp_alloc *at, int st)
{
    const ha_backend *be = p->be;
    be->ops->stream_sync(be); /* no copy may still be writing a backup */
    char lost[400] = "";
    for (rp_alloc *a = p->head; a; a = a->next) {
        int made = 0, rst = HA_ST_OK;
        const char *step = "create";
        for (; made < a->released && rst == HA_ST_OK; made++) {
            bool mapped = false;
            if ((rst = make_chunk(p, a, made, true, &step, &mapped)) && !mapped)
                break;
        }
        if (rst == HA_ST_OK)
            rst = be->ops->stream_sync(be);
        a->offloaded = false; /* awake again, or lost: no backup is for a wake */
        if (rst == HA_ST_OK) {
            a->released = 0;
            continue;
        }
        be->ops->stream_sync(be); /* the restores enqueued must land before the unmap */
        int ust = ha_vmm_unmap_release(be, a->va, (size_t)a->released * p->cfg.chunk_size,
                                       p->cfg.chunk_size, a->released, made, a->h, NULL);
        int ust2 = release_rest(p, a);
        ust = ust ? ust : ust2;
        a->released = 0;
        a->awake = false;
        snprintf(lost, sizeof lost, "; making '%s' again failed at %s (%s): it is released%s%s and its "
                 "contents are lost (a wake gives it fresh memory)", a->tag, step, st_name(p, rst),
                 ust ? ", though not cleanly: " : "", ust ? ha_status_name(be, ust) : "");
    }
    return fail(p, REFPOOL_E_RUNTIME, "offload of '%s' (%zu bytes): %s: %s%s", at->tag, at->size, what,
                st_name(p, st), *lost ? lost : "; nothing was lost, the pool stays awake");
}

/* Copies the tagged allocations out chunk by chunk and releases each chunk
 * once its copy is done, while the next copy runs: the unmap and release
 * hide behind the copy instead of following it (sleep had reached 92.5 to
 * 97.2 % of the pinned-copy ceiling with the release after the copy).
 * One copy is kept queued ahead of the chunk being released. */
static int offload_releasing(refpool *p, const char *const *tags, size_t ntags, int *first)
{
    const ha_backend *be = p->be;
    rp_alloc *prev = NULL;
    int seq = 0;
    for (rp_alloc *a = p->head; a; a = a->next) {
        if (!tagged(a, tags, ntags))
            continue;
        for (int i = 0; i < a->nchunks; i++, seq++) {
            size_t off = (size_t)i * p->cfg.chunk_size, len = chunk_len(p, a, i);
            size_t n = off < a->size ? (a->size - off < len ? a->size - off : len) : 0;
            int st = n ? offload_enqueue(p, (char *)a->backup + off, (char *)a->va + off, n) : HA_ST_OK;
            if (st)
                return undo_offload(p, "copy", a, st);
            if ((st = be->ops->stream_mark(be, seq % HA_STREAM_MARKS)))
                return undo_offload(p, "stream mark", a, st);
            if (prev) {
                if ((st = be->ops->mark_wait(be, (seq - 1) % HA_STREAM_MARKS)))
                    return undo_offload(p, "copy", prev, st);
                release_next(p, prev, first);
            }
            prev = a;
        }
        a->offloaded = true;
    }
    if (prev) {
        int st = be->ops->mark_wait(be, (seq - 1) % HA_STREAM_MARKS);
        if (st)
            return undo_offload(p, "copy", prev, st);
        release_next(p, prev, first);
    }
    return REFPOOL_OK;
}

int refpool_sleep(refpool *p, const char *const *offload_tags, size_t ntags)
{
    if (!p->head)
        return fail(p, REFPOOL_E_STATE, "nothing to put to sleep");
    for (rp_alloc *a = p->head; a; a = a->next)
        if (!a->awake)
            return fail(p, REFPOOL_E_STATE, "already asleep");
    int rc = check_tags(p, offload_tags, ntags);
    if (rc)
        return rc;
    const ha_backend *be = p->be;
    /* Drain first, as vLLM does: a kernel enqueued before sleep may still be
     * writing pool memory; its final bytes are the ones to offload, and no
     * write may land after the unmap. */
    int dst = be->ops->synchronize(be);
    if (dst)
        return fail(p, REFPOOL_E_RUNTIME, "waiting for the device before sleep: %s", ha_status_name(be, dst));
    for (rp_alloc *a = p->head; a; a = a->next) {
        a->offloaded = false;
        a->released = 0;
        int st = HA_ST_OK;
        if (tagged(a, offload_tags, ntags) && !a->backup)
            st = be->ops->host_alloc_pinned(be, &a->backup, a->size);
        if (st)
            return fail(p, REFPOOL_E_RUNTIME, "pinned backup of '%s' (%zu bytes): %s", a->tag, a->size,
                        ha_status_name(be, st));
    }
    int first = HA_ST_OK;
    rc = offload_releasing(p, offload_tags, ntags, &first);
    if (rc)
        return rc;
    for (rp_alloc *a = p->head; a; a = a->next) {
        int st = release_rest(p, a);
        if (st == HA_ST_OK && p->cfg.re_reserve)
            st = re_reserve(p, a);
        a->awake = false;
        a->released = 0;
        if (st && !first)
            first = st;
    }
    if (first)
        return fail(p, REFPOOL_E_RUNTIME, "releasing device memory: %s", ha_status_name(be, first));
    return REFPOOL_OK;
}

int refpool_wake(refpool *p, const char *const *tags, size_t ntags)
{
    int rc = check_tags(p, tags, ntags);
    if (rc)
        return rc;
    size_t targets = 0;
    for (rp_alloc *a = p->head; a; a = a->next) {
        if (ntags && !tagged(a, tags, ntags))
            continue;
        if (a->awake && ntags)
            return fail(p, REFPOOL_E_STATE, "'%s' is awake: wake without sleep", a->tag);
        targets += !a->awake;
    }
    if (targets == 0)
        return fail(p, REFPOOL_E_STATE, "nothing is asleep: wake without sleep");
    for (rp_alloc *a = p->head; a; a = a->next)
        a->waking = false;
    for (rp_alloc *a = p->head; a; a = a->next) {
        if (a->awake || (ntags && !tagged(a, tags, ntags)))
            continue;
        rc = a->reserved ? create_and_map(p, a, true)
                         : fail(p, REFPOOL_E_RUNTIME, "'%s': its address range could not be taken back at "
                                                      "sleep, so it cannot wake where its users point", a->tag);
        if (rc != REFPOOL_OK) {
            /* Undo this call's work: the pool stays asleep, the backups
             * of what was restored still hold its contents. */
            for (rp_alloc *b = p->head; b; b = b->next)
                if (b->waking) {
                    give_back(p, b, b->nchunks);
                    b->waking = false;
                }
            return rc;
        }
        a->waking = true;
    }
    for (rp_alloc *a = p->head; a; a = a->next)
        if (a->waking) {
            a->awake = true;
            a->waking = false;
            a->offloaded = false;
        }
    return REFPOOL_OK;
}

int refpool_discard(refpool *p, const char *const *tags, size_t ntags)
{
    if (ntags == 0)
        return fail(p, REFPOOL_E_INVALID, "discard needs at least one tag");
    int rc = check_tags(p, tags, ntags);
    if (rc)
        return rc;
    for (rp_alloc *a = p->head; a; a = a->next)
        if (tagged(a, tags, ntags) && a->awake)
            return fail(p, REFPOOL_E_STATE, "'%s' is awake: only what sleeps can be discarded", a->tag);
    for (rp_alloc *a = p->head; a; a = a->next) {
        if (!tagged(a, tags, ntags))
            continue;
        if (a->backup)
            p->be->ops->host_free_pinned(p->be, a->backup);
        a->backup = NULL;
        a->offloaded = false;
    }
    return REFPOOL_OK;
}

int refpool_tag(const refpool *p, const char *tag, refpool_tag_info *out)
{
    memset(out, 0, sizeof *out);
    for (const rp_alloc *a = p->head; a; a = a->next) {
        if (!tag || strcmp(a->tag, tag))
            continue;
        out->allocations++;
        out->asleep += !a->awake;
        out->bytes += a->mapped;
        out->offloaded_bytes += a->offloaded ? a->size : 0;
    }
    return out->allocations ? REFPOOL_OK : REFPOOL_E_UNKNOWN_TAG;
}

size_t refpool_tags(const refpool *p, const char **tags, size_t max)
{
    size_t n = 0;
    for (const rp_alloc *a = p->head; a; a = a->next) {
        bool seen = false;
        for (const rp_alloc *b = p->head; b != a && !seen; b = b->next)
            seen = strcmp(a->tag, b->tag) == 0;
        if (seen)
            continue;
        if (n < max)
            tags[n] = a->tag;
        n++;
    }
    return n;
}

size_t refpool_mapped_bytes(const refpool *p)
{
    size_t n = 0;
    for (const rp_alloc *a = p->head; a; a = a->next)
        n += a->awake ? a->mapped : 0;
    return n;
}

size_t refpool_granularity(const refpool *p) { return p->gran; }

size_t refpool_live_handles(const refpool *p)
{
    size_t n = 0;
    for (const rp_alloc *a = p->head; a; a = a->next)
        for (int i = 0; i < a->nchunks; i++)
            n += a->h[i] != HA_VMM_NO_HANDLE;
    return n;
}

void refpool_inject_failure(refpool *p, int what, int nth)
{
    p->inject_what = what;
    p->inject_nth = nth;
}
