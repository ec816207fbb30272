#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void ha_sort_doubles(double *x, size_t n) { qsort(x, n, sizeof *x, cmp_double); }

double ha_median(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double *tmp = malloc(n * sizeof *tmp);
    if (!tmp)
        return NAN;
    memcpy(tmp, x, n * sizeof *x);
    ha_sort_doubles(tmp, n);
    double m = n % 2 ? tmp[n / 2] : (tmp[n / 2 - 1] + tmp[n / 2]) / 2;
    free(tmp);
    return m;
}

double ha_overhead_share(double overhead_ns, double median_ns)
{
    return median_ns > 0 ? 100.0 * overhead_ns / median_ns : NAN;
}

double ha_percentile(const double *sorted, size_t n, double p)
{
    if (n == 0)
        return NAN;
    if (n == 1)
        return sorted[0];
    double h = (double)(n - 1) * p / 100.0;
    size_t lo = (size_t)floor(h);
    if (lo >= n - 1)
        return sorted[n - 1];
    return sorted[lo] + (h - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

int ha_stats_compute(const double *samples, size_t n, ha_stats *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return -1;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return -1;
    memcpy(s, samples, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += s[i];
    out->n = n;
    out->min = s[0];
    out->max = s[n - 1];
    out->mean = sum / (double)n;
    out->median = ha_percentile(s, n, 50);
    out->p90 = ha_percentile(s, n, 90);
    out->p99 = ha_percentile(s, n, 99);
    for (size_t i = 0; i < n; i++)
        s[i] = fabs(samples[i] - out->median);
    qsort(s, n, sizeof *s, cmp_double);
    out->mad = ha_percentile(s, n, 50);
    out->spread = 1.4826 * out->mad;
    /* Timings come in clock ticks: when most samples share one value the
     * MAD is 0, so the limit has a floor of 5 % of the median. */
    double limit = fmax(5 * out->spread, 0.05 * out->median);
    for (size_t i = 0; i < n; i++)
        if (fabs(samples[i] - out->median) > limit)
            out->outliers++;
    out->slow_first = samples[0] > out->median + fmax(limit, 0.2 * out->median);
    free(s);
    return 0;
}

double ha_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void ha_clock_measure(ha_clock_info *ci)
{
    struct timespec res;
    clock_getres(CLOCK_MONOTONIC, &res);
    ci->resolution_ns = (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
    enum { BATCH = 1000, ROUNDS = 31 };
    double per[ROUNDS];
    double step = INFINITY;
    for (int r = 0; r < ROUNDS; r++) {
        double t0 = ha_clock_ns(), prev = t0, now = t0;
        for (int i = 0; i < BATCH; i++) {
            now = ha_clock_ns();
            if (now > prev && now - prev < step)
                step = now - prev;
            prev = now;
        }
        per[r] = (now - t0) / BATCH;
    }
    qsort(per, ROUNDS, sizeof per[0], cmp_double);
    ci->read_ns = per[ROUNDS / 2];
    ci->min_step_ns = isfinite(step) ? step : ci->resolution_ns;
}
