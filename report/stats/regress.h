/* The judgement of compare: what counts as a regression between two runs.
 *
 * Exactly compared, on any two runs: a candidate that stopped
 * distinguishing, a kind that lost host readability, can no longer be made
 * or is no longer probed, a pool check that fails, stopped passing or
 * disappeared, a record the old run had and the new one lacks. Their
 * opposites are improvements.
 *
 * Timings (and throughput), only for two runs of one machine start (host,
 * device, PCI bus, CPU model and count, boot id; or --same-machine), both
 * with the CPU-state hold and its instruments (schema 2):
 * - The unit is the block median (timing.h); blocks the bench kept
 *   contended are left out.
 * - Normalised by the canary (a multiply-add chain: the core's clock)
 *   raised to the family's clock share.
 * - Inconclusive, never a regression, where the instruments moved more
 *   than that corrects: the canary by more than INSTR_CANARY_LIMIT, or
 *   the empty loop or the syscall loop against the canary by more than
 *   INSTR_STATE_LIMIT (the host core's state: the families that run
 *   high-IPC or system-call code follow it and the canary does not); and
 *   a row with too few uncontended blocks.
 * - A regression needs the 95 % interval wholly above 1 and the ratio
 *   beyond the family's threshold; an improvement the mirror.
 * Otherwise timings are inconclusive, with the reason: another machine,
 * or a record from before the hold. */
#ifndef HA_REGRESS_H
#define HA_REGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "findings.h"
#include "model.h"
#include "procstats.h"

/* A pool throughput goal's move counts only beyond this (a fraction of the
 * ceiling): one run is one figure, and two runs of one build on one H200
 * differ by 1.3 points at the median and 3.8 at most over 43 A/A pairs from
 * 13 machine starts (results/gate-proc-h200/, m1-m14); that spread,
 * sd 2.0 points, puts 1 % per pair over two sizes at 5.5 points. The
 * 3-point margin before flagged two of those pairs. */
#define HA_THROUGHPUT_MARGIN 0.055
#define INSTR_CANARY_LIMIT 0.30
#define INSTR_STATE_LIMIT 0.10
/* A row needs this many uncontended blocks in each run to be judged. */
#define MIN_CLEAN_BLOCKS 6
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
/* A process whose syscall loop ran more than this above its run's
 * steadiest process is left out of the steady_only families' rows
 * (docs/gate.md: chosen on m5-m17 of results/gate-proc-h200, held out on
 * m18-m24; tools/diag/steady_margin.sh builds compare at others). */
#ifndef STEADY_MARGIN
#define STEADY_MARGIN 0.10
#endif
/* A process that kept an uncontended block in fewer than this share of
 * the rows its run's most complete process kept is left out of every row
 * (docs/gate.md; tools/diag/rule_sweep.sh CONTENDED_ROWS_SHARE judges
 * results/gate-proc-h200 at others: 0.5 to 0.9 within 2 % of each other). */
#ifndef CONTENDED_ROWS_SHARE
#define CONTENDED_ROWS_SHARE 0.7
#endif

typedef struct family_threshold {
    const char *family;
    double pct;         /* the practical threshold (one process per run) */
    double proc_pct;    /* the same for runs of several processes (docs/gate.md) */
    double clock_share; /* how much of the figure follows the core clock */
    bool state_bound;   /* follows the host core's state (empty loop, syscall loop) */
    bool steady_only;   /* slows by more than the syscall loop in a slow state: such processes are left out */
} family_threshold;

#define REGRESS_NFAM 7

typedef struct regress_cfg {
    family_threshold thr[REGRESS_NFAM]; /* read, memory, guarded, query, hardened, copy, fault */
    bool same_machine;                  /* --same-machine: judge timings whatever the machine facts say */
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

/* The rows the gate judges: timed, repeat 1, not an instrument, not bound
 * to the process's layout or the run's memory. */
bool regress_row_gated(const m_row *r);

/* Row r of run b as the gate sees it: each process's value over its own
 * instrument (canary, or the syscall loop) to the family's clock share,
 * summarised (procstats.h). 0, or -1 when no process kept a value. */
int regress_row_estimate(const regress_cfg *c, const m_bench *b, const m_row *r, ha_proc_est *out);

/* The same, per process: the values kept and their processes (ids and v
 * hold r->nprocs each). Their count. paired (an A/B session): no process
 * is left out for its run's sake (contended throughout, or slower than the
 * run's steadiest): over a session of 49 processes the steadiest is far
 * from most, and the pair, not the run, is the unit (abjudge.c leaves out
 * a pair whose two processes sat in different states). */
size_t regress_row_values(const regress_cfg *c, const m_bench *b, const m_row *r, bool paired, long long *ids,
                          double *v);

/* "path / kind / candidate", as compare names a row, whole (malloc'd; NULL out of memory). */
char *regress_row_name(const m_row *r);

#endif
