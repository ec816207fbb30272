/* Process-level statistics: the process is the unit of measurement.
 *
 * Two processes of one build differ (memory layout, page placement, which
 * CPU and its speed state) far more than two blocks inside one process, so
 * a figure's uncertainty comes from its spread between processes, with the
 * degrees of freedom of the processes (Kalibera and Jones, "Rigorous
 * Benchmarking in Reasonable Time", ISMM 2013: the top level decides).
 *
 * One process gives one value: the median of its block medians. A run of K
 * processes is summarised on the log scale (timings are ratios): the
 * estimate is the geometric mean of the K values, and the spread is the
 * standard deviation of their logs. Two runs are compared on the logs: a
 * row's interval of new/old is exp(d +- t * se), with its variance shrunk
 * toward its path's rows' (varprior.h, limma's moderated t) or, without
 * that prior, Welch's with the Welch-Satterthwaite degrees of freedom; the
 * rows of a pair form one family, judged at once (ha_gate_family:
 * Benjamini-Hochberg over "beyond the threshold").
 *
 * compare, report and trend use this unit alone for process-level figures. */
#ifndef HA_PROCSTATS_H
#define HA_PROCSTATS_H

#include <stddef.h>

#include "varprior.h"

/* A run's figure from its processes. */
typedef struct ha_proc_est {
    size_t k;        /* processes with a value */
    double mean_log; /* mean of log values */
    double sd_log;   /* their standard deviation (n - 1), 0 for one process */
    double gmean;    /* exp(mean_log): the geometric mean */
} ha_proc_est;

/* new/old between two runs. */
typedef struct ha_proc_ratio {
    double ratio;  /* exp(d), d = mean_log(new) - mean_log(old) */
    double d, se;  /* on the log scale */
    double df;     /* Welch-Satterthwaite */
    double lo, hi; /* the interval at the level asked for */
} ha_proc_ratio;

/* One process's value: the median of its block medians (copied, not
 * reordered); NaN for none. */
double ha_proc_value(const double *blocks, size_t n);

/* A process's block medians from its samples, the one rule the bench
 * (bench/procrun.c) and the reader of a record (report/load/onread.c)
 * share: samples hold blocks of per in order, state[k] < 0 marks block k
 * kept on a contended CPU, which gives none. At most nstate values into
 * out; their count. */
size_t ha_block_medians(const double *samples, size_t nsamples, size_t per, const double *state, size_t nstate,
                        double *out);

/* One process's value in the host core's fast state: the least of its
 * block medians; NaN for none. On the H200 machines a process's blocks
 * move between two levels (55 and 95 ns for one row in one process) as
 * the host core's state comes and goes, and the median of four such blocks
 * is any mixture of the two; the least is the fast level whenever one
 * block saw it. A change of B's scales every block, so the least moves
 * with it. The A/B judgement takes this value; a process that never saw
 * the fast state is left for its outlier rule. */
double ha_proc_fast_value(const double *blocks, size_t n);

/* Summarises k per-process values; values that are not positive and
 * finite are left out (k counts the rest). Returns -1 when none is left. */
int ha_proc_summary(const double *v, size_t k, ha_proc_est *out);

/* The interval of one run's geometric mean over its processes, at
 * two-sided confidence `level`: exp(mean_log +- t(k - 1) * sd_log / sqrt(k)).
 * What report and trend draw around a figure. Needs two processes;
 * returns -1 otherwise (lo and hi NaN). */
int ha_proc_interval(const ha_proc_est *e, double level, double *lo, double *hi);

/* Welch's interval of b/a at two-sided confidence `level` (0.5 .. 1).
 * Needs two processes on each side; returns -1 otherwise. */
int ha_proc_compare(const ha_proc_est *a, const ha_proc_est *b, double level, ha_proc_ratio *out);

/* The gate judges a row only where both runs kept this many processes'
 * values for it. The processes a row keeps are not a random draw of the
 * run's: a process loses a row when its blocks fell on a contended CPU,
 * and compare leaves out the processes in a slow state. With two or three
 * left, they may share a state the run's others did not (m12 of
 * results/gate-proc-h200: the two a run kept, both 30-45 % slow on one
 * query), and their own spread cannot say so. */
#define HA_GATE_MIN_PROCS 4

/* A row of a group whose spread is beyond the prior's (s^2 / s0^2 above
 * F(d, d0)'s 1 - this quantile) keeps its own: the prior does not
 * describe it (one query row of a path spreading five times the others'
 * would otherwise be shrunk, and an A/A pair flag it 2.75 % of the time
 * with no threshold, against the 1 % the family rule states). */
#define HA_PRIOR_UNLIKE_P 0.01

/* The smallest change (as a log ratio) that the pair would put wholly
 * beyond log(1 + threshold) with probability `power`, at two-sided
 * confidence `level`: log(1 + threshold) + (t_level + t_power) * se. */
double ha_proc_detectable(const ha_proc_ratio *r, double level, double power, double threshold);

/* The gate's rule for one row (docs/gate.md). The interval is
 * simultaneous over the family: level 1 - alpha / m for m rows judged in
 * the pair (Bonferroni), so an A/A pair flags any row with probability at
 * most alpha under the model. */
typedef enum {
    HA_GATE_SAME,         /* the interval lies inside +-resolve: no change the gate promises to see */
    HA_GATE_REGRESSION,   /* the whole interval above 1 + threshold */
    HA_GATE_IMPROVEMENT,  /* the whole interval below 1 / (1 + threshold) */
    HA_GATE_INCONCLUSIVE, /* neither */
    HA_GATE_MONITOR,      /* the pair cannot resolve +resolve at `power`: reported, not gated */
    HA_GATE_TOO_FEW,      /* fewer than HA_GATE_MIN_PROCS processes on a side */
} ha_gate_outcome;

typedef struct ha_gate_rule {
    double alpha;     /* family-wise false-alarm bound of one pair */
    size_t m;         /* rows in the family */
    double threshold; /* a change beyond this is a regression (0.05: 5 %) */
    double resolve;   /* the change the gate promises to catch (0.15) */
    double power;     /* with this probability (0.95) */
    size_t group;     /* rows of one group (not 0) share a prior of their spread; 0: the row's own */
} ha_gate_rule;

typedef struct ha_gate_row {
    ha_gate_outcome outcome;
    ha_proc_ratio r;    /* at the family level */
    double level;       /* 1 - alpha / m */
    double detectable;  /* the smallest change caught at `power`, as a ratio - 1 */
    double prior_df;    /* d0 of its group's prior; 0: Welch on its own spread */
} ha_gate_row;

void ha_gate_judge(const ha_gate_rule *g, const ha_proc_est *a, const ha_proc_est *b, ha_gate_row *out);

/* The p-value of "the change lies beyond +-threshold" (two one-sided Welch
 * tests on the log scale, the smaller doubled): small when the whole
 * interval at a high level lies above 1 + threshold or below its inverse. */
double ha_proc_p_beyond(const ha_proc_ratio *r, double threshold);

/* The whole family at once: n rows judged (rule[i], a[i], b[i]: row i's
 * rule and runs; rule[i].m is the family's size, at least n, the same for
 * all). The rows flagged are the Benjamini-Hochberg discoveries at q =
 * alpha among the p-values of "beyond the row's threshold": when no row
 * changed (an A/A pair) that bounds the chance of flagging any row by
 * alpha, as Bonferroni does, and when a family of rows moved together it
 * flags far more of them (the k-th smallest p is held to alpha * k / m, not
 * alpha / m). A flagged row's interval is at 1 - alpha * R / m for R
 * flagged (Benjamini and Yekutieli's false-coverage level); it is a
 * regression or improvement even where the pair could not promise to
 * resolve it (a monitor-only row is not promised, not ignored). Every other
 * row is judged as ha_gate_judge does, without those two outcomes.
 * The rows of a group (rule[i].group) are judged on their variance shrunk
 * toward the group's (ha_proc_compare_prior, a prior fitted to the group's
 * judged rows' pooled variances); the others on their own (Welch).
 * Returns R, or -1 out of memory. */
long ha_gate_family(const ha_gate_rule *rule, size_t n, const ha_proc_est *a, const ha_proc_est *b, ha_gate_row *out);

/* The Benjamini-Hochberg step-up over n p-values of a family of m (>= n)
 * at q: the number of discoveries R (the largest rank k whose p-value is
 * within q k / m) and the cut, the R-th smallest p-value (every p at or
 * below it is a discovery; -1 for none). -1 out of memory. */
long ha_bh_step_up(const double *p, size_t n, size_t m, double q, double *cut);

/* Student's t: the distribution function and its inverse (p in (0, 1)),
 * df > 0 (real: Welch's df is not whole). */
double ha_t_cdf(double t, double df);
double ha_t_quantile(double p, double df);
/* Snedecor's F with d1 and d2 df: P(F > x). */
double ha_f_sf(double x, double d1, double d2);

#endif
