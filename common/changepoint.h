/* Change points in a series of runs: which run moved a figure, by how
 * much, and how sure we are.
 *
 * The unit is the run: each run's value is the mean of its processes' log
 * values (procstats.h), so a run's noise is whatever its processes and its
 * machine start gave it, and the degrees of freedom come from runs, the top
 * level (Kalibera and Jones). The method is of the E-Divisive / Otava
 * family: binary segmentation, each split at the run that maximises
 * Student's t (Otava's test) between the runs before and after it, kept only when a permutation test
 * of that maximum (the series' runs shuffled, the whole search repeated)
 * gives p below alpha, and the step is at least min_step. Permutations use
 * a seeded generator: the same series always gives the same answer. */
#ifndef HA_CHANGEPOINT_H
#define HA_CHANGEPOINT_H

#include <stddef.h>

typedef struct ha_cp_cfg {
    double alpha;    /* a split is kept when its permutation p is at most this (0.01) */
    size_t min_seg;  /* runs on each side of a change point, at least (4) */
    double min_step; /* smallest relative step kept, 0.01 = 1 % (Chromium's floor) */
    unsigned perms;  /* permutations per split tried (199) */
    double level;    /* the step's interval (0.95) */
} ha_cp_cfg;

void ha_cp_defaults(ha_cp_cfg *c);

typedef struct ha_cp {
    size_t at;        /* the first run after the change (index into the series) */
    size_t from, to;  /* the segments compared: [from, at) and [at, to) */
    double step;      /* after / before, geometric means of the runs' values */
    double lo, hi;    /* its interval at cfg.level (Welch over the runs) */
    double p;         /* the permutation p-value of the split */
} ha_cp;

/* y[0..n): the series' run values on the log scale, in time order. Writes
 * at most max change points into out, in run order; returns how many, or
 * -1 out of memory. seed makes the permutations repeatable per series. */
long ha_changepoints(const double *y, size_t n, const ha_cp_cfg *cfg, unsigned long long seed, ha_cp *out,
                     size_t max);

#endif
