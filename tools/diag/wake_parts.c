/* Diagnostic: where a pool wake's time goes. For one pool size and several
 * chunk sizes it times, each as the median of 6 (a first run dropped):
 *   setup   create + map + grant of every chunk, no copy
 *   busy    the same setup while an H2D copy into other memory runs
 *   fresh   one H2D copy of the whole range just after the setup
 *   warm    the same copy again (what the pinned-copy ceiling measures)
 *   piped   create + map + grant chunk i, then enqueue its copy (one thread)
 *   thread  a second thread creates, maps and grants; this one enqueues
 *           each chunk's copy as soon as it is granted
 *   pool    refpool_wake of a pool of that chunk size (what pool_check times)
 * busy ~ setup: the calls do not wait for the copy engine. piped ~ fresh:
 * the calls hide behind the copies. fresh < warm: the first copy into new
 * memory is the limit, not the calls.
 *   wake_parts [BACKEND] [POOL_MIB] */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "refpool.h"
#include "stats.h"
#include "tool.h"
#include "vmmmap.h"

#define REPS 7
enum { SETUP, BUSY, FRESH, WARM, PIPED, THREAD, POOL, NCOL };
static const char *const col[NCOL] = {"setup", "busy", "fresh", "warm", "piped", "thread", "pool"};

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

static double pool_wake_s(const ha_backend *be, size_t bytes, size_t chunk)
{
    refpool_config cfg = refpool_default_config(be);
    cfg.host_access = false;
    cfg.chunk_size = chunk;
    refpool *p;
    char why[300];
    void *w;
    const char *tag[] = {"w"};
    if (refpool_create(be, &cfg, &p, why, sizeof why) || refpool_alloc(p, bytes, "w", &w) ||
        refpool_sleep(p, tag, 1))
        return -1;
    double t0 = ha_now_s();
    int rc = refpool_wake(p, NULL, 0);
    double t = ha_now_s() - t0;
    refpool_destroy(p);
    return rc ? -1 : t;
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
    size_t chunks[] = {8 * HA_MIB, 32 * HA_MIB, 64 * HA_MIB, 128 * HA_MIB, 256 * HA_MIB, bytes};
    void *pinned, *va, *other;
    ha_vmm_handle *h = calloc(bytes / (2 * HA_MIB), sizeof *h);
    if (!h || check(be.ops->host_alloc_pinned(&be, &pinned, bytes), "pinned") ||
        check(ha_vmm_reserve(&be, &va, bytes, 0, NULL), "reserve"))
        return 1;
    /* Memory the busy column's copy goes to: already mapped and touched. */
    job busy = {&be, NULL, bytes, bytes, calloc(1, sizeof(ha_vmm_handle)), 0, 0};
    if (check(ha_vmm_reserve(&be, &other, bytes, 0, NULL), "reserve") || (busy.va = other, wake(&busy, pinned, false)))
        return 1;
    printf("pool %zu MiB on %s; ms, median of %d; %% of warm in brackets\n", bytes / HA_MIB, be.ops->name,
           REPS - 1);
    printf("%9s", "chunk MiB");
    for (int k = 0; k < NCOL; k++)
        printf(" %15s", col[k]);
    printf("\n");
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        size_t chunk = chunks[c];
        if (chunk > bytes || (chunk == bytes && c + 1 < sizeof chunks / sizeof *chunks))
            continue;
        job j = {&be, va, bytes, chunk, h, 0, 0};
        double v[NCOL][REPS];
        for (int r = 0; r < REPS; r++) {
            double t0 = ha_now_s();
            if (wake(&j, NULL, false))
                return 1;
            double t1 = ha_now_s();
            if (check(be.ops->copy_h2d(&be, va, pinned, bytes), "fresh copy"))
                return 1;
            double t2 = ha_now_s();
            if (release(&j))
                return 1;
            double t3 = ha_now_s();
            if (check(be.ops->copy_h2d_enqueue(&be, other, pinned, bytes), "busy copy") || wake(&j, NULL, false))
                return 1;
            double t4 = ha_now_s();
            if (check(be.ops->stream_sync(&be), "busy sync") || release(&j))
                return 1;
            double t5 = ha_now_s();
            if (wake(&j, pinned, false))
                return 1;
            double t6 = ha_now_s();
            if (release(&j))
                return 1;
            double t7 = ha_now_s();
            if (wake(&j, pinned, true))
                return 1;
            double t8 = ha_now_s();
            if (release(&j))
                return 1;
            v[SETUP][r] = t1 - t0, v[FRESH][r] = t2 - t1, v[BUSY][r] = t4 - t3;
            v[PIPED][r] = t6 - t5, v[THREAD][r] = t8 - t7;
            /* warm: into the other, mapped memory, so no release is timed */
            double ts = ha_now_s();
            if (check(be.ops->copy_h2d(&be, other, pinned, bytes), "warm copy"))
                return 1;
            v[WARM][r] = ha_now_s() - ts;
            v[POOL][r] = pool_wake_s(&be, bytes, chunk);
            if (v[POOL][r] < 0)
                return 1;
        }
        double med[NCOL];
        for (int k = 0; k < NCOL; k++) {
            ha_stats st;
            med[k] = ha_stats_compute(v[k] + 1, REPS - 1, &st) == 0 ? st.median : -1;
        }
        printf("%9zu", chunk / HA_MIB);
        for (int k = 0; k < NCOL; k++) {
            printf(" %7.2f", med[k] * 1e3);
            if (k >= FRESH)
                printf(" (%4.0f%%)", 100 * med[WARM] / med[k]);
            else
                printf("        ");
        }
        printf("\n");
    }
    return 0;
}
