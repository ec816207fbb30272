/* A/B sessions: the paired judgement and its sequential looks.
 *
 * Two runs made at different times differ by more than their processes
 * say: a cloud machine's host cores change speed state over minutes. An
 * A/B session (run_all.sh --ab) measures both sides in one session,
 * round after round, one A and one B process per round in a seeded random
 * order (Abedi and Brecht's randomized multiple interleaved trials), so a
 * state that comes and goes lands on both sides alike. Each row is judged
 * on the pairs of one round: d = log(B) - log(A), a t interval with the
 * pairs' degrees of freedom.
 *
 * Sequential: the session looks at its rows after HA_AB_LOOK_ROUNDS
 * rounds and stops at the first look at which every row is decided (or at
 * its time budget). Each look spends its own share of the family-wise
 * alpha (ha_ab_look_alpha; the shares add up to alpha), so whatever look
 * the session stops at, the chance that an A/A session flags any row at
 * that look is at most alpha (a union bound over the looks: Bonferroni
 * spending, conservative for correlated looks, valid for any stopping
 * rule, including a look the budget forced early).
 *
 * Pure numbers: no records, no words (report/stats/abjudge.c reads the
 * records and says what the numbers mean). */
#ifndef HA_ABGATE_H
#define HA_ABGATE_H

#include <stddef.h>

#include "procstats.h"

#define HA_AB_MAX_LOOKS 4
/* The rounds at which a session looks; the last is its most rounds. */
extern const int ha_ab_look_rounds[HA_AB_MAX_LOOKS];
#define HA_AB_MAX_ROUNDS 24
#define HA_AB_MIN_ROUNDS 4

/* The A/B rule's constants (docs/gate.md "A/B sessions"): an A/A session
 * flags any row with probability at most HA_AB_ALPHA; a regression is an
 * interval wholly above 1 + HA_AB_THRESHOLD; a row is shown the same when
 * its interval lies inside +-HA_AB_SAME; a row is decided when it is one
 * of those; a row is resolvable when the session would put a change of
 * HA_AB_SAME wholly beyond the threshold with probability HA_AB_POWER. */
#define HA_AB_ALPHA 0.01
#define HA_AB_THRESHOLD 0.04
#define HA_AB_SAME 0.10
#define HA_AB_POWER 0.90

/* The share of alpha look k (0-based) spends: increasing, as
 * O'Brien-Fleming spends little early; they add up to 1. */
double ha_ab_look_alpha(double alpha, int look);

/* A row's estimate of B/A, one of two kinds:
 *
 * Paired (rows that follow the core clock: reads, memory, copies): the
 * values of A and B per round (NaN or <= 0: that side's process gave no
 * value, and the pair is left out), each already divided by its own
 * canary. A pair whose log ratio lies beyond the median of the others' by
 * more than max(HA_AB_OUTLIER_MADS robust sds, log HA_AB_OUTLIER_FLOOR) is
 * left out too, and counted: one process three times slower on every row
 * must not hide a change by widening the interval of every row it touches.
 *
 * Steady (rows that follow the host core's state: guarded, query,
 * hardened, fault): on the H200 that state changes from one process to the
 * next, so two neighbours share it no more than any two processes, and a
 * pair's spread is the state's (results/ab-h200/m1, tools/diag/ab_spread.py:
 * query rows' standard error 0.022-0.056 of log in pairs divided by their
 * syscall loop, against 0.011-0.033 this way). Each
 * side keeps the processes whose instrument (the syscall loop) lies
 * within HA_AB_STEADY_MARGIN of the steadiest of both sides, divided by
 * it, and the two sides are compared by Welch's t. The choice reads the
 * instrument alone, never the row, and one reference serves both sides;
 * the interleaved rounds give both sides the same times. */
#define HA_AB_OUTLIER_MADS 4.0
#define HA_AB_OUTLIER_FLOOR 1.15
#define HA_AB_STEADY_MARGIN 0.10
typedef struct ha_ab_est {
    size_t n;        /* pairs used; steady: processes of A kept */
    size_t n_b;      /* steady: processes of B kept; paired: n */
    size_t outliers; /* pairs left out as outliers; steady: processes left out as unsteady */
    double mean_a;   /* geometric mean of A over what was used (divided by its instrument) */
    ha_proc_ratio r; /* B/A: d, se, df (the interval: ha_ab_family) */
} ha_ab_est;

/* -1 with fewer than HA_GATE_MIN_PROCS pairs. */
int ha_ab_paired(const double *a, const double *b, size_t rounds, ha_ab_est *out);
/* a[i] with instrument ia[i] (na of them), b likewise. -1 with fewer than
 * HA_GATE_MIN_PROCS steady processes on a side. */
int ha_ab_steady(const double *a, const double *ia, size_t na, const double *b, const double *ib, size_t nb,
                 ha_ab_est *out);

typedef enum {
    HA_AB_SAME_ROW,     /* inside +-HA_AB_SAME */
    HA_AB_REGRESSION,   /* a Benjamini-Hochberg discovery, wholly above 1 + threshold */
    HA_AB_IMPROVEMENT,  /* the mirror */
    HA_AB_UNDECIDED,    /* resolvable, but neither yet */
    HA_AB_UNRESOLVABLE, /* the session cannot yet resolve HA_AB_SAME at HA_AB_POWER */
    HA_AB_TOO_FEW,      /* fewer than HA_GATE_MIN_PROCS pairs or steady processes */
} ha_ab_outcome;

typedef struct ha_ab_row {
    ha_ab_outcome outcome;
    ha_ab_est e;       /* its interval (e.r.lo, e.r.hi) at `level` */
    double level;      /* the interval's confidence */
    double detectable; /* the smallest change the session puts beyond the threshold at HA_AB_POWER, ratio - 1 */
} ha_ab_row;

/* n rows' estimates at once (ok[i] 0: row i had too few), at look `look`
 * (its alpha, ha_ab_look_alpha). Flagged rows are the Benjamini-Hochberg
 * discoveries among the p-values of "beyond the threshold" at q = the
 * look's alpha (with no change that bounds the chance of any flag by it,
 * as Bonferroni does), their interval at 1 - q R / n; the others are
 * judged at 1 - q / n. Returns R, or -1 out of memory. */
long ha_ab_family(const ha_ab_est *est, const int *ok, size_t n, int look, ha_ab_row *out);

/* Whether a row's outcome is a decision (same, regression, improvement). */
int ha_ab_decided(ha_ab_outcome o);

#endif
