#include "timing.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "stats.h"

static double median_inplace(double *x, size_t n)
{
    ha_sort_doubles(x, n);
    return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

double timing_median(const double *x, size_t n)
{
    if (n == 0 || n > TIMING_MAX_BLOCKS)
        return NAN;
    double tmp[TIMING_MAX_BLOCKS];
    memcpy(tmp, x, n * sizeof *x);
    return median_inplace(tmp, n);
}

/* Appends the medians of blocks of `per` samples from arr[from, to). */
static void add_blocks(const json_t *arr, size_t from, size_t to, size_t per, row_blocks *out)
{
    double tmp[4096];
    for (size_t s = from; s + per <= to && out->n < TIMING_MAX_BLOCKS; s += per) {
        size_t m = per < 4096 ? per : 4096;
        for (size_t k = 0; k < m; k++)
            tmp[k] = json_number_value(json_array_get(arr, s + k));
        out->med[out->n++] = median_inplace(tmp, m);
    }
}

int timing_blocks(const json_t *bench, const char *path, const char *kind, const char *cand, row_blocks *out)
{
    memset(out, 0, sizeof *out);
    for (int rep = 1; rep <= 1000; rep++) {
        const json_t *r = rec_bench_row(bench, path, kind, cand, rep);
        if (!r)
            break;
        const json_t *arr = json_object_get(r, "samples_ns");
        size_t n = json_array_size(arr);
        long long per = rec_int(r, "block_samples");
        if (n == 0)
            continue;
        /* Without blocks (a record older than the rounds) the samples are
         * one back-to-back run each: no honest unit to resample. */
        if (per < 1 || (size_t)per > n || n % (size_t)per)
            return -1;
        add_blocks(arr, 0, n, (size_t)per, out);
    }
    return out->n ? 0 : -1;
}

static double resampled_median(const row_blocks *x, unsigned long long *seed)
{
    double tmp[TIMING_MAX_BLOCKS];
    for (size_t i = 0; i < x->n; i++)
        tmp[i] = x->med[ha_xorshift64(seed) % x->n];
    return median_inplace(tmp, x->n);
}

int timing_compare(const row_blocks *a, const row_blocks *b, unsigned long long seed, timing_change *out)
{
    memset(out, 0, sizeof *out);
    if (a->n == 0 || b->n == 0)
        return -1;
    out->a = timing_median(a->med, a->n);
    out->b = timing_median(b->med, b->n);
    out->ratio = out->a > 0 ? out->b / out->a : NAN;
    static double r[TIMING_RESAMPLES];
    unsigned long long s = seed ? seed : 1;
    size_t m = 0;
    for (int i = 0; i < TIMING_RESAMPLES; i++) {
        double ma = resampled_median(a, &s), mb = resampled_median(b, &s);
        if (ma > 0)
            r[m++] = mb / ma;
    }
    if (m == 0) {
        out->lo = out->hi = NAN;
        return 0;
    }
    ha_sort_doubles(r, m);
    out->lo = r[(size_t)floor(0.025 * (double)(m - 1))];
    out->hi = r[(size_t)ceil(0.975 * (double)(m - 1))];
    return 0;
}
