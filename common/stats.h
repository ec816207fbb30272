/* Robust statistics over timing samples, and the clock they come from.
 *
 * Percentiles interpolate linearly between order statistics (the
 * definition of numpy's default and Hyndman-Fan type 7): the p-th
 * percentile of sorted x[0..n-1] is x[h] + (h - floor h)(x[h+1] - x[h])
 * with h = (n - 1) p / 100. MAD is the median of |x - median|; the robust
 * spread reported is 1.4826 MAD, which estimates the standard deviation
 * for normal data without letting outliers move it. */
#ifndef HA_STATS_H
#define HA_STATS_H

#include <stddef.h>

typedef struct ha_stats {
    size_t n;
    double min, median, p90, p99, max, mean;
    double mad;       /* median absolute deviation */
    double spread;    /* 1.4826 * mad */
    size_t outliers;  /* samples beyond median +- max(5 spread, 5 % of median) */
    int slow_first;   /* the first sample beyond median + max(that, 20 % of median) */
} ha_stats;

/* Sorts n doubles ascending, in place. */
void ha_sort_doubles(double *x, size_t n);

/* The next value of a xorshift64 generator (state must not be 0): cheap,
 * and the same sequence from the same seed on every machine. */
static inline unsigned long long ha_xorshift64(unsigned long long *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* FNV-1a of s, continuing from h (start with HA_FNV_OFFSET): a seed or a
 * hash-table slot from a name, the same on every machine. */
#define HA_FNV_OFFSET 1469598103934665603ull
#define HA_FNV_PRIME 1099511628211ull
static inline unsigned long long ha_fnv1a(unsigned long long h, const char *s)
{
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * HA_FNV_PRIME;
    return h;
}

/* The median of n values, which are copied, not reordered; NaN for none
 * (or when memory runs out). */
double ha_median(const double *x, size_t n);

/* The harness's cost (overhead_ns per operation) as a share of a row's
 * median, in percent: what the bench writes and what the loader derives
 * from a schema-4 record, so both are one formula. NaN when the median is
 * not positive (all-zero samples give no share). */
double ha_overhead_share(double overhead_ns, double median_ns);

/* Percentile p (0..100) of sorted samples. */
double ha_percentile(const double *sorted, size_t n, double p);

/* Computes every figure; samples is left in its original order. Returns -1
 * when n is 0 or memory runs out. */
int ha_stats_compute(const double *samples, size_t n, ha_stats *out);

/* The monotonic clock, in nanoseconds. */
double ha_clock_ns(void);

typedef struct ha_clock_info {
    double resolution_ns; /* clock_getres */
    double read_ns;       /* the cost of one clock read, median of batches */
    double min_step_ns;   /* the smallest nonzero difference seen between reads */
} ha_clock_info;

void ha_clock_measure(ha_clock_info *ci);

#endif
