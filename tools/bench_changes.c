/* The change-point method's size benchmark (not a timed test):
 * 1,000 runs x 85 rows, each run K = 8 processes of 5.1 % process-level
 * noise, a +5 % step planted in every tenth row at a known run; every row
 * searched as changes searches it. Prints the time on one core, how many
 * planted steps were found within one run, and how many rows without a
 * step had any change point.
 *   build/bench_changes [RUNS] [ROWS] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "changepoint.h"
#include "stats.h"

static double uniform(unsigned long long *s) { return ((double)(ha_xorshift64(s) >> 11) + 0.5) / 9007199254740992.0; }
static double normal(unsigned long long *s) { return sqrt(-2 * log(uniform(s))) * cos(6.283185307179586 * uniform(s)); }

int main(int argc, char **argv)
{
    long runs = argc > 1 ? atol(argv[1]) : 1000, rows = argc > 2 ? atol(argv[2]) : 85;
    if (runs < 8 || rows < 1 || runs > 1000000 || rows > 100000) {
        fprintf(stderr, "bench_changes: usage: bench_changes [RUNS >= 8] [ROWS >= 1]\n");
        return 2;
    }
    double *y = malloc((size_t)runs * sizeof *y);
    ha_cp *cps = malloc((size_t)runs * sizeof *cps);
    if (!y || !cps)
        return 2;
    ha_cp_cfg c;
    ha_cp_defaults(&c);
    unsigned long long s = 1;
    long planted = 0, hit = 0, flat = 0, false_rows = 0, total = 0;
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (long r = 0; r < rows; r++) {
        long at = r % 10 == 0 ? runs / 2 + r % 7 : -1;
        for (long i = 0; i < runs; i++) {
            double sum = 0;
            for (int p = 0; p < 8; p++)
                sum += 0.051 * normal(&s);
            y[i] = log(3000.0 * (at >= 0 && i >= at ? 1.05 : 1)) + sum / 8;
        }
        long n = ha_changepoints(y, (size_t)runs, &c, 42 + (unsigned long long)r, cps, (size_t)runs);
        if (n < 0)
            return 2;
        total += n;
        if (at >= 0) {
            planted++;
            for (long k = 0; k < n; k++)
                hit += labs((long)cps[k].at - at) <= 1;
        } else {
            flat++;
            false_rows += n > 0;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    double secs = (double)(b.tv_sec - a.tv_sec) + 1e-9 * (double)(b.tv_nsec - a.tv_nsec);
    printf("bench_changes: %ld runs x %ld rows in %.2f s (target < 10 s: %s); %ld change points; +5 %% steps found "
           "within one run: %ld of %ld; rows without a step that had one: %ld of %ld\n",
           runs, rows, secs, secs < 10 ? "met" : "MISSED", total, hit, planted, false_rows, flat);
    free(y);
    free(cps);
    return 0;
}
