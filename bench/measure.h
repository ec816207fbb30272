/* Timing one path: warm it up, size the batch so the clock and the loop
 * cost at most 1 % of the figure, take samples in blocks, summarise them. */
#ifndef HA_BENCH_MEASURE_H
#define HA_BENCH_MEASURE_H

#include <stdbool.h>
#include <stddef.h>

#include "paths.h"
#include "procs.h"
#include "stats.h"

typedef struct bench_plan {
    long iterations;    /* operations per row, as upstream counts them */
    long warmup;        /* operations before timing */
    long min_samples;   /* at least this many batches, whatever the batch size */
    double row_seconds; /* a row takes no more samples than fill this long */
    double min_row_seconds; /* and at least enough to fill this long: a few
                             * milliseconds of samples drift with the clock rate */
    long rounds;        /* interleaved rounds each row takes part in */
    unsigned long long order_seed; /* the rounds' shuffles; 0: BENCH_ROUND_SEED */
    double warm_seconds; /* a row's warm-up before calibration runs at least this long */
} bench_plan;

typedef struct bench_row {
    char path[32];
    char kind[40];
    char candidate[64];
    char what[200];
    const char *family;  /* the path's family (pathdefs.h) */
    bool comparable_to_bar;
    int repeat;
    bool skipped;
    char skip_reason[200];
    int status;          /* first failing status inside the loop, 0 if none */
    unsigned fallbacks;  /* hardened rows: reads that fell back to the copy */
    size_t batch;        /* operations per sample */
    double est_ns;       /* one operation, as calibration found it */
    size_t nsamples;
    size_t block_samples; /* samples taken per round: the samples are blocks of this many */
    bool capped;         /* fewer samples than planned: row_seconds would be passed */
    double *samples;     /* ns per operation, one per batch, in order taken */
    double *block_state; /* per block: the CPU-state probe after it, negative when kept contended */
    int *block_cpu;      /* per block: the CPU it ran on */
    size_t nblocks;
    size_t retaken;      /* blocks taken again: the CPU became contended during them */
    ha_stats st;
    double overhead_ns;  /* clock share per operation + the empty loop's cost */
    double overhead_pct; /* overhead_ns against the median */
    double first_batch_ns;
    double *proc_med[BENCH_MAX_PROCS]; /* per process of the run: its uncontended blocks' medians */
    size_t nproc_med[BENCH_MAX_PROCS];
} bench_row;

/* Warm-up and batch sizing: sets r->batch and r->est_ns. */
void bench_calibrate(bench_fn f, bench_ctx *c, long warmup, double warm_s, const ha_clock_info *ci, bench_row *r);

/* How many samples the plan asks of a calibrated row, a whole number of
 * blocks of r->block_samples (set here) over `rounds` blocks. */
size_t bench_plan_samples(const bench_plan *plan, long rounds, bench_row *r);

/* The significant digits a sample keeps, here and in the record: the
 * reader derives every figure from the record's samples (onread.c), so the
 * bench keeps them as written and its own figures are the readers'. */
#define BENCH_SAMPLE_DIGITS 5

/* Appends n samples of r->batch operations, each kept to
 * BENCH_SAMPLE_DIGITS once the block is timed. slowdown (test only,
 * normally 0) stretches each batch by that fraction of its own time. */
void bench_take(bench_fn f, bench_ctx *c, bench_row *r, size_t n, double slowdown);

/* Statistics and the harness's share, once every sample is in. empty_ns
 * is the empty loop's cost per operation (0 for the empty loop itself). */
void bench_summarise(bench_fn f, bench_row *r, const ha_clock_info *ci, double empty_ns);

/* Calibrate, take the planned samples in one block, summarise: for rows
 * that are not interleaved with others (the size sweep). */
int bench_measure(bench_fn f, bench_ctx *c, const bench_plan *plan, const ha_clock_info *ci,
                  double empty_ns, bench_row *r);

void bench_row_free(bench_row *r);

#endif
