/* A timed row's estimates: the one home of the figure every view shows
 *. The flow, from the bench to the words:
 *
 *   sample   one batch's ns per access (bench/measure.c)
 *   block    one row's samples in one interleaved round: their median
 *            (bench/rounds.c; blocks taken on a contended CPU are retaken
 *            or marked)
 *   process  the median of its uncontended block medians (ha_proc_value):
 *            the unit of measurement, one sample of the run
 *   run      the row's estimate over its processes (ha_proc_summary: the
 *            geometric mean, the spread of the logs), of one of two kinds:
 *   - M_EST_RAW: every process's value as timed, in ns. What a reader pays:
 *     report's tables and plots, trend's points and the exports show it
 *     (m_row_figure, derive.h);
 *   - M_EST_NORMALISED: each process's value over its own instrument (the
 *     canary to the family's clock share; for the families that follow the
 *     host core's state, the syscall loop), the processes contended
 *     throughout and, for the steady_only families, those in a slow state
 *     left out. A ratio, not ns: what compare judges (report/stats/
 *     regress.c) and changes follows over a series.
 *   judgement  report/stats/ (regress.c, abjudge.c) over these estimates;
 *   words      what it found, said by compare's findings (render/).
 *
 * Records before the processes (schema 1 and 2) have no estimate here: their
 * views show the median the bench pooled, and say so. */
#ifndef HA_ROWEST_H
#define HA_ROWEST_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "procstats.h"

/* The two rules that leave a process out of a row's normalised estimate:
 * the gate's configuration (compare --steady-margin, --contended-share),
 * never a constant of the build.
 *   steady_margin    a process whose syscall loop ran more than this share
 *                    above its run's steadiest process is left out of the
 *                    steady_only families' rows (docs/gate.md: chosen on
 *                    m5-m17 of results/gate-proc-h200, held out on m18-m24;
 *                    tools/diag/steady_margin.sh judges them at others);
 *   contended_share  a process that kept an uncontended block in fewer than
 *                    this share of the rows its run's most complete process
 *                    kept is left out of every row (docs/gate.md;
 *                    tools/diag/rule_sweep.sh contended-share 50 70 90:
 *                    results/gate-proc-h200 judged within 2 % alike). */
typedef struct m_est_rules {
    double steady_margin, contended_share;
} m_est_rules;

/* 0.10 and 0.7: what every view uses unless compare is told otherwise. */
extern const m_est_rules m_est_default_rules;

/* What a path family's timings follow, whatever the gate's thresholds. */
typedef struct m_family_traits {
    const char *family;
    double clock_share; /* how much of the figure follows the core clock */
    bool state_bound;   /* follows the host core's state (empty loop, syscall loop) */
    bool steady_only;   /* slows by more than the syscall loop in a slow state: such processes are left out */
} m_family_traits;

/* A family's traits; for a family the table does not know, the cautious
 * ones (clock share 1, state-bound). */
m_family_traits m_family_traits_of(const char *family);

typedef enum m_est_kind { M_EST_RAW, M_EST_NORMALISED } m_est_kind;

/* The row's estimate over its processes, of the kind asked (the rules
 * shape the normalised one only). 0, or -1 when no process kept a value
 * (or out of memory). */
int m_row_estimate(const m_bench *b, const m_row *r, m_est_kind kind, const m_est_rules *rules, ha_proc_est *out);

/* Whether a process spent most of its blocks on a contended CPU (its
 * normalised values are left out), and the steadiest process's syscall
 * loop with whether a value sits in a slow state against it: compare names
 * the processes each rule leaves out. */
bool m_proc_contended(const m_bench *b, long long process, const m_est_rules *rules);
double m_steadiest(const m_bench *b, const m_row *syscall, const m_est_rules *rules);
bool m_slow_state(double syscall_value, double low, const m_est_rules *rules);

#endif
