#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

static double median_inplace(double *x, size_t n)
{
    ha_sort_doubles(x, n);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}


void timing_blocks_free(row_blocks *b)
{
    free(b->med);
    memset(b, 0, sizeof *b);
}

/* Appends the medians of one repeat's blocks; -1 when they do not tile. */
static int add_row(const m_row *r, row_blocks *out)
{
    size_t n = r->nsamples, per = r->block_samples > 0 ? (size_t)r->block_samples : 0;
    if (n == 0)
        return 0;
    /* Without blocks (a record older than the rounds) the samples are one
     * back-to-back run each: no honest unit to resample. A ragged last
     * block is a record the bench did not write. */
    if (per < 1 || per > n || n % per)
        return -1;
    size_t nb = n / per;
    double *med = realloc(out->med, (out->n + nb) * sizeof *med), *tmp = malloc(per * sizeof *tmp);
    if (!med || !tmp) {
        free(tmp);
        if (med)
            out->med = med;
        return -1;
    }
    out->med = med;
    for (size_t k = 0; k < nb; k++) {
        bool contended = k < r->nblock_state && r->block_state[k] < 0;
        if (contended) {
            out->contended++;
            continue;
        }
        memcpy(tmp, r->samples + k * per, per * sizeof *tmp);
        out->med[out->n++] = median_inplace(tmp, per);
    }
    free(tmp);
    return 0;
}

int timing_blocks(const m_bench *b, const char *path, const char *kind, const char *cand, row_blocks *out)
{
    memset(out, 0, sizeof *out);
    for (long long rep = 1; rep <= 1000; rep++) {
        const m_row *r = m_bench_row(b, path, kind, cand, rep);
        if (!r)
            break;
        if (add_row(r, out) != 0) {
            timing_blocks_free(out);
            return -1;
        }
    }
    if (!out->n) {
        timing_blocks_free(out);
        return -1;
    }
    return 0;
}

static double resampled_median(const row_blocks *x, double *tmp, unsigned long long *seed)
{
    for (size_t i = 0; i < x->n; i++)
        tmp[i] = x->med[ha_xorshift64(seed) % x->n];
    return median_inplace(tmp, x->n);
}

int timing_compare(const row_blocks *a, const row_blocks *b, unsigned long long seed, timing_change *out)
{
    memset(out, 0, sizeof *out);
    if (a->n == 0 || b->n == 0)
        return -1;
    out->a = ha_median(a->med, a->n);
    out->b = ha_median(b->med, b->n);
    out->ratio = out->a > 0 ? out->b / out->a : NAN;
    double *r = malloc(TIMING_RESAMPLES * sizeof *r);
    double *tmp = malloc((a->n > b->n ? a->n : b->n) * sizeof *tmp);
    if (!r || !tmp) {
        free(r);
        free(tmp);
        out->lo = out->hi = NAN;
        return 0;
    }
    unsigned long long s = seed ? seed : 1;
    size_t m = 0;
    for (int i = 0; i < TIMING_RESAMPLES; i++) {
        double ma = resampled_median(a, tmp, &s), mb = resampled_median(b, tmp, &s);
        if (ma > 0)
            r[m++] = mb / ma;
    }
    if (m == 0) {
        out->lo = out->hi = NAN;
    } else {
        ha_sort_doubles(r, m);
        out->lo = r[(size_t)floor(0.025 * (double)(m - 1))];
        out->hi = r[(size_t)ceil(0.975 * (double)(m - 1))];
    }
    free(r);
    free(tmp);
    return 0;
}
