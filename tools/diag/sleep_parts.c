/* Diagnostic: where a pool sleep's time goes, against the pinned-copy
 * ceiling. For one pool size and chunk size, each round maps the range and
 * runs every variant once, in a shuffled order; medians over the rounds:
 *   whole    a device wait, one D2H copy of the whole, then every chunk
 *            unmapped and released (the pool's sleep before the pipeline)
 *   piped    a device wait, then chunk by chunk: its copy enqueued, the
 *            previous chunk's copy waited for and that chunk released
 *            (fix/refpool.c's sleep)
 *   ceil     one D2H copy of the whole (pool_check's ceiling)
 *   release  every chunk unmapped and released, no copy
 *   wait     the device wait alone
 *   sleep_parts [BACKEND] [POOL_MIB] [CHUNK_MIB] [ROUNDS] */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "stats.h"
#include "tool.h"
#include "vmmmap.h"

enum { WHOLE, PIPED, CEIL, RELEASE, WAIT, NCOL };
static const char *const col[NCOL] = {"whole", "piped", "ceil", "release", "wait"};

typedef struct range {
    const ha_backend *be;
    char *va, *pinned;
    size_t bytes, chunk;
    int n;
    ha_vmm_handle *h;
} range;

static int check(int st, const char *what)
{
    if (st)
        fprintf(stderr, "sleep_parts: %s failed: %d\n", what, st);
    return st;
}

static int map_all(range *r)
{
    ha_loc dev = {HA_LOC_DEVICE, r->be->device};
    for (int i = 0; i < r->n; i++) {
        char *at = r->va + (size_t)i * r->chunk;
        if (check(ha_vmm_create(r->be, &r->h[i], r->chunk, dev, false), "create") ||
            check(r->be->ops->vmm->map(r->be, at, r->chunk, r->h[i]), "map") ||
            check(ha_vmm_grant(r->be, at, r->chunk, false), "grant"))
            return -1;
    }
    return 0;
}

static int release_from(range *r, int i, int count)
{
    return check(ha_vmm_unmap_release(r->be, r->va + (size_t)i * r->chunk, (size_t)count * r->chunk, r->chunk,
                                      count, count, r->h + i, NULL),
                 "release");
}

static int piped(range *r)
{
    const ha_backend *be = r->be;
    if (check(be->ops->synchronize(be), "wait"))
        return -1;
    for (int i = 0; i < r->n; i++) {
        size_t off = (size_t)i * r->chunk;
        if (check(be->ops->copy_d2h_enqueue(be, r->pinned + off, r->va + off, r->chunk), "enqueue") ||
            check(be->ops->stream_mark(be, i % HA_STREAM_MARKS), "mark"))
            return -1;
        if (i > 0 && (check(be->ops->mark_wait(be, (i - 1) % HA_STREAM_MARKS), "mark wait") ||
                      release_from(r, i - 1, 1)))
            return -1;
    }
    return check(be->ops->mark_wait(be, (r->n - 1) % HA_STREAM_MARKS), "mark wait") || release_from(r, r->n - 1, 1);
}

static int run(range *r, int k)
{
    const ha_backend *be = r->be;
    switch (k) {
    case WHOLE:
        return check(be->ops->synchronize(be), "wait") ||
               check(be->ops->copy_d2h(be, r->pinned, r->va, r->bytes), "copy") || release_from(r, 0, r->n);
    case PIPED: return piped(r);
    case CEIL: return check(be->ops->copy_d2h(be, r->pinned, r->va, r->bytes), "copy");
    case RELEASE: return release_from(r, 0, r->n);
    default: return check(be->ops->synchronize(be), "wait");
    }
}

int main(int argc, char **argv)
{
    ha_backend be;
    char msg[300];
    if (ha_backend_open(argc > 1 ? argv[1] : "auto", 0, &be, msg, sizeof msg)) {
        puts(msg);
        return 1;
    }
    size_t bytes = (size_t)(argc > 2 ? atol(argv[2]) : 1024) * HA_MIB;
    size_t chunk = (size_t)(argc > 3 ? atol(argv[3]) : 256) * HA_MIB;
    int rounds = argc > 4 ? atoi(argv[4]) : 12;
    if (chunk == 0 || chunk > bytes || bytes % chunk || rounds < 2 || rounds > 64) {
        fputs("sleep_parts: a pool a whole number of chunks, 2 to 64 rounds\n", stderr);
        return 2;
    }
    range r = {&be, NULL, NULL, bytes, chunk, (int)(bytes / chunk), calloc(bytes / chunk, sizeof(ha_vmm_handle))};
    double (*v)[64] = calloc(NCOL, sizeof *v);
    void *va = NULL, *pinned = NULL;
    if (!r.h || !v || check(be.ops->host_alloc_pinned(&be, &pinned, bytes), "pinned") ||
        check(ha_vmm_reserve(&be, &va, bytes, 0, NULL), "reserve"))
        return 1;
    r.va = va, r.pinned = pinned;
    unsigned long long seed = 0x51ee;
    for (int round = 0; round < rounds; round++) {
        int order[NCOL];
        for (int k = 0; k < NCOL; k++)
            order[k] = k;
        for (int k = NCOL - 1; k > 0; k--) {
            int o = (int)(ha_xorshift64(&seed) % (uint64_t)(k + 1)), t = order[k];
            order[k] = order[o], order[o] = t;
        }
        for (int i = 0; i < NCOL; i++) {
            int k = order[i];
            if (map_all(&r))
                return 1;
            double t0 = ha_now_s();
            int rc = run(&r, k);
            v[k][round] = ha_now_s() - t0;
            bool released = k == WHOLE || k == PIPED || k == RELEASE;
            if (rc || (!released && release_from(&r, 0, r.n)))
                return 1;
        }
    }
    double med[NCOL];
    for (int k = 0; k < NCOL; k++) {
        ha_stats st;
        med[k] = ha_stats_compute(v[k], (size_t)rounds, &st) == 0 ? st.median : -1;
    }
    printf("sleep of a %zu MiB pool, chunks of %zu MiB, on %s: median ms of %d rounds; %% of ceil\n", bytes / HA_MIB,
           chunk / HA_MIB, be.ops->name, rounds);
    for (int k = 0; k < NCOL; k++)
        printf("  %-8s %8.3f  %6.1f%%\n", col[k], med[k] * 1e3, 100 * med[CEIL] / med[k]);
    return 0;
}
