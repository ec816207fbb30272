/* The headline: the fast path, the slow path it is compared with, the
 * hardened paths; found once, then printed and recorded. */
#include <string.h>

#include "bench.h"
#include "families.h"

const bench_row *bench_find_row(const bench *b, const char *path, const char *kind, const char *cand, int rep)
{
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->repeat == rep && !r->skipped && strcmp(r->path, path) == 0 &&
            (!kind || strcmp(r->kind, kind) == 0) && (!cand || strcmp(r->candidate, cand) == 0))
            return r;
    }
    return NULL;
}

/* The slow path the headline compares against: the runtime's copy of the
 * same allocation the fast path reads, so the ratio is of one memory read
 * two ways (on ROCm the seed's: a BAR read of VRAM against hipMemcpy; on
 * CUDA host DRAM read against its copy), never a ratio across kinds. */
headline bench_find_headline(const bench *b)
{
    headline h = {0};
    if (b->headline < 0)
        return h;
    h.kind = b->d.kinds[b->headline]->name;
    h.fast = bench_find_row(b, ha_headline.fast, h.kind, NULL, 1);
    h.cold = bench_find_row(b, ha_headline.cold, h.kind, NULL, 1);
    for (int i = 0; i < HA_HEADLINE_NCOPIES; i++)
        h.slows[i] = bench_find_row(b, ha_headline.copies[i], h.kind, NULL, 1);
    h.slow = h.slows[0];
    for (size_t qi = 0; qi < b->ngood && h.fast; qi++) {
        const bench_row *hr = bench_find_row(b, ha_headline.hardened, h.kind, b->good[qi]->name, 1);
        if (!hr)
            continue;
        h.hard[h.nhard].q = b->good[qi]->name;
        h.hard[h.nhard].h = hr;
        h.hard[h.nhard++].d = bench_find_row(b, ha_headline.alone, h.kind, b->good[qi]->name, 1);
    }
    h.fault = bench_find_row(b, ha_headline.fault, NULL, NULL, 1);
    return h;
}

