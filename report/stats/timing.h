/* The fallback judgement, for runs of fewer than HA_GATE_MIN_PROCS
 * processes (or records before schema 3), and the instruments' run-to-run
 * ratios (the canary, empty and syscall loops) compare prints: whether a
 * row got slower or faster, decided on process 1's raw samples. Runs of
 * several processes are judged per process instead (regress.c over
 * procstats.h). Here the unit is the block: the samples one row took in one
 * interleaved round. Samples inside a block are neighbours in time and move
 * together; blocks from rounds seconds apart are close to independent. So
 * the figure compared is the median of the block medians, and its
 * uncertainty comes from resampling blocks (a percentile bootstrap of the
 * ratio of the two runs' figures), not from treating thousands of
 * correlated samples as independent. Blocks the bench kept although the
 * CPU was contended (block_state_ns < 0) are left out. */
#ifndef HA_TIMING_H
#define HA_TIMING_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define TIMING_RESAMPLES 2000

typedef struct row_blocks {
    double *med; /* one median per block */
    size_t n;
    size_t contended; /* blocks left out: kept although the CPU was contended */
} row_blocks;

/* The block medians of one row key (path, kind, candidate) over all its
 * repeats. Returns 0, or -1 when the record holds no samples in blocks
 * for it (no samples, or a record from before the rounds). */
int timing_blocks(const m_bench *b, const char *path, const char *kind, const char *cand, row_blocks *out);
void timing_blocks_free(row_blocks *b);

typedef struct timing_change {
    double a, b;   /* each run's figure: median of block medians, ns */
    double ratio;  /* b / a */
    double lo, hi; /* 95 % percentile-bootstrap interval of the ratio */
} timing_change;

/* Compares two sets of block medians. The bootstrap's generator is seeded
 * with seed, so a comparison repeats exactly. Returns -1 if either is empty. */
int timing_compare(const row_blocks *a, const row_blocks *b, unsigned long long seed, timing_change *out);

#endif
