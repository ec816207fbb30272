/* Timing one path: warm up, size the batch so the clock costs at most 1 %
 * of the figure, take samples, summarise them. */
#ifndef HA_BENCH_MEASURE_H
#define HA_BENCH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "paths.h"
#include "stats.h"

typedef struct bench_plan {
    long iterations;    /* operations per row, as upstream counts them */
    long warmup;        /* operations before timing */
    long min_samples;   /* at least this many batches, whatever the batch size */
    double row_seconds; /* a row stops taking samples after this long */
    double min_row_seconds; /* and goes on until at least this long: a few
                             * milliseconds of samples drift with the clock rate */
} bench_plan;

typedef struct bench_row {
    char path[32];
    char kind[40];
    char candidate[64];
    char what[200];
    bool comparable_to_bar;
    int repeat;
    bool skipped;
    char skip_reason[200];
    int status;          /* first failing status inside the loop, 0 if none */
    unsigned fallbacks;  /* hardened rows: reads that fell back to the copy */
    size_t batch;        /* operations per sample */
    size_t nsamples;
    bool capped;         /* stopped early by row_seconds */
    double *samples;     /* ns per operation, one per batch, in order taken */
    ha_stats st;
    double overhead_ns;  /* clock share per operation + the empty loop's cost */
    double overhead_pct; /* overhead_ns against the median */
    double first_batch_ns;
} bench_row;

/* Times f; fills the row's samples and statistics. empty_ns is the empty
 * loop's cost per operation (0 when timing the empty loop itself). */
int bench_measure(bench_fn f, bench_ctx *c, const bench_plan *plan, const ha_clock_info *ci,
                  double empty_ns, bench_row *r);

void bench_row_free(bench_row *r);

#endif
