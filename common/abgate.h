/* A/B sessions: the judgement and its sequential looks.
 *
 * Two runs made at different times differ by more than their processes
 * say: a cloud machine's host cores change speed state over minutes. An
 * A/B session (run_all.sh --ab) measures both sides in one session,
 * round after round, one A and one B process per round in a seeded random
 * order (Abedi and Brecht's randomized multiple interleaved trials), so a
 * state that comes and goes lands on both sides alike. Each row is judged
 * on every process of both sides (ha_ab_adjusted): B/A with each process's
 * instruments as covariates, a t interval with the fit's degrees of
 * freedom.
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
/* The most rounds: 1 + 2 x this processes stay within BENCH_MAX_PROCS;
 * at about 4 s a round on the H200 the default budget ends a session
 * before it. */
#define HA_AB_MAX_ROUNDS 39
#define HA_AB_MIN_ROUNDS 4

/* The A/B rule's constants (docs/gate.md "A/B sessions"): an A/A session
 * flags any row with probability at most HA_AB_ALPHA; a regression is an
 * interval wholly above 1 + HA_AB_THRESHOLD; a row is shown the same when
 * its interval at 1 - 2 HA_AB_SAME_ALPHA (the look's share of it) lies
 * inside +-HA_AB_SAME: two one-sided tests, each at that alpha, the
 * equivalence test of bioequivalence, so a row that truly moved by
 * HA_AB_SAME is shown the same with probability at most HA_AB_SAME_ALPHA
 * whatever look the session stops at; a row is decided when it is one
 * of those; a row is resolvable when the session would put a change of
 * HA_AB_SAME wholly beyond the threshold with probability HA_AB_POWER. */
#define HA_AB_ALPHA 0.01
#define HA_AB_THRESHOLD 0.04
#define HA_AB_SAME 0.10
#define HA_AB_SAME_ALPHA 0.05
#define HA_AB_POWER 0.90

/* The share of alpha look k (0-based) spends: increasing, as
 * O'Brien-Fleming spends little early (an early look rarely decides every
 * row, and what it spends the last look lacks); they add up to 1. The
 * same shares spend HA_AB_SAME_ALPHA. */
double ha_ab_look_alpha(double alpha, int look);

/* A row's estimate of B/A from every process of the session's taken
 * rounds, both sides at once: the least-squares fit
 *
 *     log v = mu + delta [B] + beta_s log syscall + beta_c log canary
 *
 * over the processes, each with its own syscall loop and canary (the
 * instruments, measured in the same process). The H200's host cores change
 * speed state from one process to the next; a row follows that state as
 * far as it is bound to it (a query almost wholly, a read of GPU memory
 * hardly), and the fit learns how far from the session itself, row by
 * row, instead of dividing every row by one instrument or keeping only
 * the processes that ran in the fast state (results/ab-h200: the
 * standard errors of both those ways, tools/diag/ab_spread.py). The
 * rounds randomise which side ran when, so delta stays unbiased whatever
 * the slopes; the instruments must be what B does not change (B's build
 * or runtime changes the rows, not getppid or an empty loop).
 *
 * A process whose residual lies beyond the median of the others' by more
 * than max(HA_AB_OUTLIER_MADS robust sds, log HA_AB_OUTLIER_FLOOR) is left
 * out, once, and counted: one process three times slower on every row
 * must not hide a change by widening the interval of every row it
 * touches. An instrument that did not move adds no column. */
#define HA_AB_OUTLIER_MADS 4.0
#define HA_AB_OUTLIER_FLOOR 1.15
#define HA_AB_COLS 4 /* intercept, syscall, canary, side */
typedef struct ha_ab_obs {
    double v, sys, can; /* the row's value, its syscall loop's and canary's, in one process (ns) */
    int b;              /* 1: side B */
} ha_ab_obs;
typedef struct ha_ab_est {
    size_t n;        /* processes of A used */
    size_t n_b;      /* processes of B used */
    size_t outliers; /* processes left out as outliers */
    double mean_a;   /* geometric mean of A's values used (ns) */
    ha_proc_ratio r; /* B/A: d = delta, se, df = processes - columns (the interval: ha_ab_family) */
} ha_ab_est;

/* The instruments a fit takes as covariates: a bit each. One side B moved
 * is left out (ha_ab_instrument_shift), as it would bias delta by its
 * slope times the move. */
enum { HA_AB_USE_SYSCALL = 1, HA_AB_USE_CANARY = 2, HA_AB_USE_BOTH = 3 };

/* -1 with fewer than HA_GATE_MIN_PROCS processes on a side, or fewer than
 * two degrees of freedom left. An instrument not in `use` is neither read
 * nor fitted. */
int ha_ab_adjusted(const ha_ab_obs *o, size_t n, unsigned use, ha_ab_est *out);

/* Whether side B moved an instrument: B/A of its values (one a process),
 * Welch's interval at 1 - HA_AB_INSTRUMENT_ALPHA; moved when it excludes 1.
 * The rounds randomise which side ran in which state, so in a session where
 * B leaves the instrument alone the interval excludes 1 with probability
 * HA_AB_INSTRUMENT_ALPHA, and then the rows lose some precision, never
 * their aim; a B that moves it (a libc, a kernel, a preload, another build
 * of the loop) would otherwise lend its move to every row that follows
 * the instrument. -1 with fewer than HA_GATE_MIN_PROCS values a side. */
#define HA_AB_INSTRUMENT_ALPHA 0.01
int ha_ab_instrument_shift(const double *a, size_t na, const double *b, size_t nb, ha_proc_ratio *out, int *moved);

typedef enum {
    HA_AB_SAME_ROW,     /* inside +-HA_AB_SAME */
    HA_AB_REGRESSION,   /* a Benjamini-Hochberg discovery, wholly above 1 + threshold */
    HA_AB_IMPROVEMENT,  /* the mirror */
    HA_AB_UNDECIDED,    /* resolvable, but neither yet */
    HA_AB_UNRESOLVABLE, /* the session cannot yet resolve HA_AB_SAME at HA_AB_POWER */
    HA_AB_TOO_FEW,      /* fewer than HA_GATE_MIN_PROCS processes a side */
} ha_ab_outcome;

typedef struct ha_ab_row {
    ha_ab_outcome outcome;
    int in_zone;       /* shown the same, yet its interval reaches past +-HA_AB_THRESHOLD: a change between the
                          flag threshold and the same margin is neither excluded nor flagged */
    ha_ab_est e;       /* its interval (e.r.lo, e.r.hi) at `level` */
    double level;      /* the interval's confidence */
    double detectable; /* the smallest change the session puts beyond the threshold at HA_AB_POWER, ratio - 1 */
} ha_ab_row;

/* n rows' estimates at once (ok[i] 0: row i had too few), at look `look`
 * (its alpha, ha_ab_look_alpha). Flagged rows are the Benjamini-Hochberg
 * discoveries among the p-values of "beyond the threshold" at q = the
 * look's alpha (with no change that bounds the chance of any flag by it,
 * as Bonferroni does), their interval at 1 - q R / n; the others are
 * judged at 1 - q / n, and a row whose equivalence interval (1 - 2 x the
 * look's share of HA_AB_SAME_ALPHA) lies inside +-HA_AB_SAME is the same,
 * its interval at that level. Returns R, or -1 out of memory. */
long ha_ab_family(const ha_ab_est *est, const int *ok, size_t n, int look, ha_ab_row *out);

/* A session's timed rows over its processes, as plain arrays: what the
 * bench holds at a look, and what compare reads from the record, each
 * built by its owner and judged by ha_ab_judge, so the bench stops on the
 * judgement compare then makes. Only the processes of the rounds judged. */
typedef struct ha_ab_table {
    size_t nrows, nprocs;
    const double *v;           /* nrows x nprocs, row-major: a process's value of a row (NaN: none) */
    const double *sys, *can;   /* per process: its instruments' values (NaN: none) */
    const unsigned char *is_b; /* per process: 1 on side B */
} ha_ab_table;

/* An instrument's B/A over the table's processes (Welch), and whether
 * side B moved it (ha_ab_instrument_shift). */
typedef struct ha_ab_instrument {
    ha_proc_ratio r;
    size_t n_a, n_b;
    int judged, moved;
} ha_ab_instrument;

/* The rows of t judged at look `look` into out[nrows]: the instruments
 * side B moved left out of every fit (*use: the ones kept; inst[0] the
 * syscall loop, inst[1] the canary), each row fitted, the family judged.
 * The rows flagged, or -1 out of memory. */
long ha_ab_judge(const ha_ab_table *t, int look, ha_ab_row *out, unsigned *use, ha_ab_instrument inst[2]);

/* Whether a session that has started `started` rounds, `now_s` seconds
 * into its rounds, stops before the next: once it has its fewest rounds,
 * when a round as long as its longest so far (a tenth to spare) would end
 * past the budget. */
int ha_ab_budget_ends(int started, double now_s, double longest_round_s, double budget_s);

/* The budget (s) the first look needs at rounds that long: what a
 * session that stopped before it tells its user to give. */
double ha_ab_budget_for_first_look(double longest_round_s);

/* Whether a row's outcome is a decision (same, regression, improvement). */
int ha_ab_decided(ha_ab_outcome o);

/* Whether more rounds would buy this row nothing: flagged, or shown the
 * same within the flag threshold itself (out of the zone). A session
 * keeps adding rounds, within its budget, until every row is settled. */
int ha_ab_settled(const ha_ab_row *r);

/* Whether n rows are every one settled (none: not). */
int ha_ab_all_settled(const ha_ab_row *rows, size_t n);

#endif
