/* The judgement of compare: what counts as a regression between two runs.
 *
 * Exactly compared, on any two runs: a candidate that stopped
 * distinguishing, a kind that lost host readability, can no longer be made
 * or is no longer probed, a pool check that fails, stopped passing or
 * disappeared, a record the old run had and the new one lacks. Their
 * opposites are improvements. Across backends only what both have is
 * compared; the rest is listed as present on one side.
 *
 * Timings (and throughput), only for two runs of one machine start (host,
 * device, PCI bus, CPU model and count, boot id; or --same-machine), both
 * with the CPU-state hold and its instruments (schema 2), and of
 * HA_GATE_MIN_PROCS processes or more (one process is one sample); a
 * simulated run's are reported as changes, never gated:
 * - Judged per process (docs/gate.md, "The process is the unit"): a row's
 *   value in one process is the median of its block medians over that
 *   process's instrument (the canary to the family's clock share, or the
 *   syscall loop); processes contended throughout, or in a slow state for
 *   the steady_only families, are left out; each row's new/old interval is
 *   a t interval on the logs, its spread shrunk toward its path's
 *   (varprior.h); the rows flagged are the Benjamini-Hochberg discoveries
 *   beyond the family's pct; a row is same, regression, improvement,
 *   inconclusive, monitor-only (the pair cannot resolve GATE_RESOLVE) or
 *   too few. The pair is clean only when
 *   GATE_DECIDED_SHARE of its timed rows were decided; else unresolved.
 * - Inconclusive, never a regression, where the canary moved more than
 *   normalisation corrects (INSTR_CANARY_LIMIT): every row held.
 * Judgement (numbers and outcomes) and wording sit apart inside regress.c:
 * the process-level rows are judged into a proc_verdicts, then said. */
#ifndef HA_REGRESS_H
#define HA_REGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "families.h"
#include "findings.h"
#include "model.h"
#include "procstats.h"
#include "rowest.h"

/* A pool throughput goal's move counts only beyond this (a fraction of the
 * ceiling): one run is one figure, and two runs of one build on one H200
 * differ by 1.3 points at the median and 3.8 at most over 43 A/A pairs from
 * 13 machine starts (results/gate-proc-h200/, m1-m14); that spread,
 * sd 2.0 points, puts 1 % per pair over two sizes at 5.5 points. The
 * 3-point margin before flagged two of those pairs. */
#define HA_THROUGHPUT_MARGIN 0.055
#define INSTR_CANARY_LIMIT 0.30
/* The process-level gate (docs/gate.md): an A/A pair flags any row with
 * probability at most GATE_ALPHA; a row is gated when the pair resolves a
 * change of GATE_RESOLVE with probability GATE_POWER. */
#define GATE_ALPHA 0.01
#define GATE_RESOLVE 0.15
#define GATE_POWER 0.95
/* A pair says clean only when at least this share of its timed rows was
 * decided (shown the same, or flagged); otherwise, with no regression,
 * unresolved (exit 7): a pair that resolved nothing has not shown that
 * nothing changed. The A/B session's share (abjudge.c) is the same. */
#define GATE_DECIDED_SHARE 0.90
typedef struct family_threshold {
    const char *family;
    double pct;         /* the practical threshold (docs/gate.md) */
    double clock_share; /* how much of the figure follows the core clock */
    bool state_bound;   /* follows the host core's state (empty loop, syscall loop) */
    bool steady_only;   /* slows by more than the syscall loop in a slow state: such processes are left out */
} family_threshold;

#define REGRESS_NFAM HA_NPATH_FAMILIES

typedef struct regress_cfg {
    family_threshold thr[REGRESS_NFAM]; /* the path families, in families.def's order */
    bool same_machine;                  /* --same-machine: judge timings whatever the machine facts say */
    m_est_rules rules;                  /* which processes a normalised row leaves out (rowest.h) */
} regress_cfg;

void regress_defaults(regress_cfg *c);

/* "FAMILY=PCT" or "all=PCT" (PCT from 0.1 to 1000). Returns 0, or -1 with
 * the reason in err. */
int regress_set_threshold(regress_cfg *c, const char *spec, char *err, size_t n);

/* A family's row of the table (the loosest threshold for one unknown). */
family_threshold regress_family(const regress_cfg *c, const char *family);

void regress_analyse(const regress_cfg *c, const m_run *a, const m_run *b, findings *out);

/* An A/B session's side B (run->side_b) against its side A, added to out
 * (not cleared: the bench's paired judgement is there): the machine facts,
 * and the kinds, candidates and pool checks as between two runs, exactly,
 * simulated or not. A session without side B's records is said so. */
void regress_side_b(const regress_cfg *c, const m_run *run, findings *out);

/* Which rows compare judges (rowclass.c). */
/* A path's row, not one of the instruments. */
bool regress_row_judged(const m_row *r);
/* Its cost follows the layout or the run's memory placement: reported, never gated. */
bool regress_row_run_bound(const m_row *r);
/* The rows the gate judges: timed, repeat 1, not an instrument, not bound
 * to the process's layout or the run's memory. */
bool regress_row_gated(const m_row *r);
/* The rows an A/B session judges: every timed row of repeat 1. */
bool regress_row_session_judged(const m_row *r);
/* A run's finished processes (1 for a record before the processes). */
size_t regress_usable_procs(const m_bench *b);

/* "path / kind / candidate", as compare names a row, whole (malloc'd; NULL out of memory). */
char *regress_row_name(const m_row *r);

#endif
