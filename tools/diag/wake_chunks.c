/* Diagnostic: sleep and wake GB/s of a 1 GiB pool for several chunk sizes,
 * against the pinned-copy ceiling, on the chosen backend. */
#include <stdio.h>
#include <stdlib.h>
#include "backend.h"
#include "refpool.h"
#include "tool.h"
int main(int argc, char **argv)
{
    ha_backend be; char msg[300];
    if (ha_backend_open(argc > 1 ? argv[1] : "auto", 0, &be, msg, sizeof msg)) { puts(msg); return 1; }
    size_t bytes = 1ull << 30, chunks[] = {32u << 20, 64u << 20, 128u << 20, 256u << 20, 1u << 30};
    void *pinned; be.ops->host_alloc_pinned(&be, &pinned, bytes);
    for (int c = 0; c < 5; c++) {
        refpool_config cfg = refpool_default_config(&be); cfg.host_access = false; cfg.chunk_size = chunks[c];
        refpool *p; char why[300];
        if (refpool_create(&be, &cfg, &p, why, sizeof why)) { puts(why); continue; }
        void *w; refpool_alloc(p, bytes, "w", &w);
        const char *t[] = {"w"};
        double best_s = 1e9, best_w = 1e9, best_d = 1e9, best_h = 1e9;
        for (int i = 0; i < 5; i++) {
            double t0 = ha_now_s(); refpool_sleep(p, t, 1); double t1 = ha_now_s(); refpool_wake(p, NULL, 0); double t2 = ha_now_s();
            be.ops->copy_d2h(&be, pinned, w, bytes); double t3 = ha_now_s(); be.ops->copy_h2d(&be, w, pinned, bytes); double t4 = ha_now_s();
            if (i) { if (t1-t0 < best_s) best_s = t1-t0; if (t2-t1 < best_w) best_w = t2-t1; if (t3-t2 < best_d) best_d = t3-t2; if (t4-t3 < best_h) best_h = t4-t3; }
        }
        printf("chunk %4zu MiB: sleep %.1f%% wake %.1f%% of ceiling (wake %.2f ms, h2d %.2f ms)\n", chunks[c] >> 20,
               100 * best_d / best_s, 100 * best_h / best_w, best_w * 1e3, best_h * 1e3);
        refpool_destroy(p);
    }
    return 0;
}
