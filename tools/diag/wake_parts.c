/* Diagnostic: where a pool wake's time goes, and which way of restoring
 * reaches the pinned-copy ceiling. For one pool size and chunk size, each
 * round runs every variant once, in a shuffled order, after a D2H copy (as
 * a wake follows a sleep's offload); medians over the rounds:
 *   piped   create + map + grant chunk i, then enqueue its copy (one thread)
 *   thread  a second thread creates, maps and grants; this one enqueues
 *           each chunk's copy as soon as it is granted
 *   sync    every chunk created, mapped and granted, then one synchronous
 *           copy of the whole (vLLM's wake)
 *   async   the same, the one copy enqueued on the stream and waited for
 *   ceil    a synchronous copy into the mapped range (pool_check's ceiling)
 *   aceil   the same copy enqueued on the stream and waited for
 *   setup   create + map + grant of every chunk, no copy
 * GAP_MS idles between the offload's release and the timed variant (the
 * driver may still be clearing the memory that release gave back).
 *   wake_parts [BACKEND] [POOL_MIB] [CHUNK_MIB] [ROUNDS] [GAP_MS] */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "backend.h"
#include "stats.h"
#include "tool.h"
#include "vmmmap.h"

enum { PIPED, THREAD, SYNC, ASYNC, CEIL, ACEIL, SETUP, NCOL };
static const char *const col[NCOL] = {"piped", "thread", "sync", "async", "ceil", "aceil", "setup"};

static int check(int st, const char *what)
{
    if (st)
        fprintf(stderr, "wake_parts: %s failed: %d\n", what, st);
    return st;
}

typedef struct job {
    const ha_backend *be;
    char *va;
    size_t bytes, chunk;
    ha_vmm_handle *h;
    atomic_size_t granted; /* chunks ready for their copy */
    int st;
} job;

static int setup_one(job *j, size_t i)
{
    ha_loc dev = {HA_LOC_DEVICE, j->be->device};
    char *at = j->va + i * j->chunk;
    return check(ha_vmm_create(j->be, &j->h[i], j->chunk, dev, false), "create") ||
           check(j->be->ops->vmm->map(j->be, at, j->chunk, j->h[i]), "map") ||
           check(ha_vmm_grant(j->be, at, j->chunk, false), "grant");
}

static void *setup_all(void *arg)
{
    job *j = arg;
    for (size_t i = 0; i < j->bytes / j->chunk; i++) {
        if (setup_one(j, i)) {
            j->st = -1;
            break;
        }
        atomic_store(&j->granted, i + 1);
    }
    return NULL;
}

/* Setup of every chunk, each chunk's copy from src enqueued after it when
 * src is given, on this thread or (threaded) with the calls on another. */
static int wake(job *j, const char *src, bool threaded)
{
    size_t n = j->bytes / j->chunk;
    atomic_store(&j->granted, 0);
    j->st = 0;
    pthread_t t;
    if (threaded && pthread_create(&t, NULL, setup_all, j))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (threaded) {
            while (atomic_load(&j->granted) <= i && j->st == 0)
                ;
            if (j->st)
                break;
        } else if (setup_one(j, i)) {
            return -1;
        }
        if (src && check(j->be->ops->copy_h2d_enqueue(j->be, j->va + i * j->chunk, src + i * j->chunk, j->chunk),
                         "enqueue"))
            break;
    }
    if (threaded)
        pthread_join(t, NULL);
    return j->st ? -1 : src ? check(j->be->ops->stream_sync(j->be), "sync") : 0;
}

static int release(job *j)
{
    int n = (int)(j->bytes / j->chunk);
    return check(ha_vmm_unmap_release(j->be, j->va, j->bytes, j->chunk, n, n, j->h, NULL), "release");
}

/* Every chunk set up, then one copy of the whole: sync or enqueued. */
static int setup_then_copy(job *j, const char *src, bool sync)
{
    if (wake(j, NULL, false))
        return -1;
    if (sync)
        return check(j->be->ops->copy_h2d(j->be, j->va, src, j->bytes), "copy");
    return check(j->be->ops->copy_h2d_enqueue(j->be, j->va, src, j->bytes), "enqueue") ||
           check(j->be->ops->stream_sync(j->be), "sync");
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
    int gap_ms = argc > 5 ? atoi(argv[5]) : 0;
    if (chunk > bytes)
        chunk = bytes;
    void *pinned, *va;
    ha_vmm_handle *h = calloc(bytes / chunk + 1, sizeof *h);
    double (*v)[64] = calloc(NCOL, sizeof *v);
    if (!h || !v || rounds < 2 || rounds > 64 || check(be.ops->host_alloc_pinned(&be, &pinned, bytes), "pinned") ||
        check(ha_vmm_reserve(&be, &va, bytes, 0, NULL), "reserve"))
        return 1;
    job j = {&be, va, bytes, chunk, h, 0, 0};
    unsigned long long seed = 0x5eed;
    for (int r = 0; r < rounds; r++) {
        int order[NCOL];
        for (int k = 0; k < NCOL; k++)
            order[k] = k;
        for (int k = NCOL - 1; k > 0; k--) {
            int o = (int)(ha_xorshift64(&seed) % (uint64_t)(k + 1)), t = order[k];
            order[k] = order[o], order[o] = t;
        }
        for (int i = 0; i < NCOL; i++) {
            int k = order[i];
            /* as after a sleep's offload: the range mapped, copied out, released */
            if (wake(&j, NULL, false) || check(be.ops->copy_d2h(&be, pinned, va, bytes), "d2h"))
                return 1;
            bool ceiling = k == CEIL || k == ACEIL;
            if (!ceiling && release(&j))
                return 1;
            if (gap_ms > 0)
                nanosleep(&(struct timespec){gap_ms / 1000, (long)(gap_ms % 1000) * 1000000}, NULL);
            double t0 = ha_now_s();
            int rc = k == PIPED ? wake(&j, pinned, false)
                   : k == THREAD ? wake(&j, pinned, true)
                   : k == SYNC || k == ASYNC ? setup_then_copy(&j, pinned, k == SYNC)
                   : k == CEIL ? check(be.ops->copy_h2d(&be, va, pinned, bytes), "copy")
                   : k == ACEIL ? check(be.ops->copy_h2d_enqueue(&be, va, pinned, bytes), "enqueue") ||
                                      check(be.ops->stream_sync(&be), "sync")
                   : wake(&j, NULL, false);
            v[k][r] = ha_now_s() - t0;
            if (rc || release(&j))
                return 1;
        }
    }
    double med[NCOL];
    for (int k = 0; k < NCOL; k++) {
        ha_stats st;
        med[k] = ha_stats_compute(v[k], (size_t)rounds, &st) == 0 ? st.median : -1;
    }
    printf("pool %zu MiB, chunks of %zu MiB, on %s, %d ms after the release: median ms of %d rounds; %% of ceil (of aceil)\n",
           bytes / HA_MIB, chunk / HA_MIB, be.ops->name, gap_ms, rounds);
    for (int k = 0; k < NCOL; k++)
        printf("  %-6s %8.2f  %5.1f%%  (%5.1f%%)\n", col[k], med[k] * 1e3, 100 * med[CEIL] / med[k],
               100 * med[ACEIL] / med[k]);
    return 0;
}
