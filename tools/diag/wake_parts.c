/* Diagnostic: where a pool wake's time goes. For one pool size and several
 * chunk sizes it times, each as the best of 6 (the first run dropped):
 *   setup   create + map + grant of every chunk, no copy
 *   fresh   one H2D copy of the whole range just after the setup
 *   warm    the same copy again (what the pinned-copy ceiling measures)
 *   piped   create + map + grant chunk i, then enqueue its copy (the pool's wake)
 *   release unmap + release of every chunk
 * If piped ~ setup + fresh, nothing overlaps; if fresh < warm by the gap
 * the pool sees, the copy into new memory is the limit, not the calls.
 *   wake_parts [BACKEND] [POOL_MIB] */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "tool.h"
#include "vmmmap.h"

#define REPS 7

static int check(int st, const char *what)
{
    if (st)
        fprintf(stderr, "wake_parts: %s failed: %d\n", what, st);
    return st;
}

static int setup(const ha_backend *be, char *va, size_t bytes, size_t chunk, ha_vmm_handle *h,
                 const char *src)
{
    ha_loc dev = {HA_LOC_DEVICE, be->device};
    for (size_t off = 0, i = 0; off < bytes; off += chunk, i++) {
        if (check(ha_vmm_create(be, &h[i], chunk, dev, false), "create") ||
            check(be->ops->vmm->map(be, va + off, chunk, h[i]), "map") ||
            check(ha_vmm_grant(be, va + off, chunk, false), "grant"))
            return -1;
        if (src && check(be->ops->copy_h2d_enqueue(be, va + off, src + off, chunk), "enqueue"))
            return -1;
    }
    return src ? check(be->ops->stream_sync(be), "sync") : 0;
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
    size_t chunks[] = {2 * HA_MIB, 8 * HA_MIB, 32 * HA_MIB, 128 * HA_MIB, bytes};
    void *pinned, *va;
    ha_vmm_handle *h = calloc(bytes / (2 * HA_MIB), sizeof *h);
    if (!h || check(be.ops->host_alloc_pinned(&be, &pinned, bytes), "pinned") ||
        check(ha_vmm_reserve(&be, &va, bytes, 0, NULL), "reserve"))
        return 1;
    printf("pool %zu MiB on %s; ms, best of %d\n", bytes / HA_MIB, be.ops->name, REPS - 1);
    printf("%10s %8s %8s %8s %8s %8s %10s %10s\n", "chunk MiB", "setup", "fresh", "warm", "piped",
           "release", "piped/warm", "fresh/warm");
    for (size_t c = 0; c < sizeof chunks / sizeof *chunks; c++) {
        size_t chunk = chunks[c], n = bytes / chunk;
        if (chunk > bytes || (c && chunk == chunks[c - 1]))
            continue;
        double best[5] = {1e9, 1e9, 1e9, 1e9, 1e9};
        for (int r = 0; r < REPS; r++) {
            double t[6];
            t[0] = ha_now_s();
            if (setup(&be, va, bytes, chunk, h, NULL))
                return 1;
            t[1] = ha_now_s();
            if (check(be.ops->copy_h2d(&be, va, pinned, bytes), "fresh copy"))
                return 1;
            t[2] = ha_now_s();
            if (check(be.ops->copy_h2d(&be, va, pinned, bytes), "warm copy"))
                return 1;
            t[3] = ha_now_s();
            if (check(ha_vmm_unmap_release(&be, va, bytes, chunk, (int)n, (int)n, h, NULL), "release"))
                return 1;
            t[4] = ha_now_s();
            if (setup(&be, va, bytes, chunk, h, pinned) ||
                check(ha_vmm_unmap_release(&be, va, bytes, chunk, (int)n, (int)n, h, NULL), "release"))
                return 1;
            t[5] = ha_now_s();
            double part[5] = {t[1] - t[0], t[2] - t[1], t[3] - t[2], t[5] - t[4] - (t[4] - t[3]), t[4] - t[3]};
            for (int k = 0; r && k < 5; k++)
                if (part[k] < best[k])
                    best[k] = part[k];
        }
        printf("%10zu %8.2f %8.2f %8.2f %8.2f %8.2f %9.1f%% %9.1f%%\n", chunk / HA_MIB, best[0] * 1e3,
               best[1] * 1e3, best[2] * 1e3, best[3] * 1e3, best[4] * 1e3, 100 * best[2] / best[3],
               100 * best[2] / best[1]);
    }
    return 0;
}
