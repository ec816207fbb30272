/* The judgement of compare: what counts as a regression between two runs.
 *
 * Verdicts, kinds and pool checks are compared exactly: a candidate that
 * stopped distinguishing, a kind that lost host readability, could no
 * longer be made or is no longer probed, a pool check that fails, stopped
 * passing or disappeared, a record the old run had and the new one lacks,
 * a throughput that fell below the goal: regressions. Their opposites are
 * improvements.
 *
 * Throughput counts only past a margin: it must cross the goal and move
 * by more than HA_THROUGHPUT_MARGIN of the ceiling (the H200's wake sits
 * within a point of the goal and its A/A spread is about that).
 *
 * Timings are judged on the raw samples (timing.h): a row is slower when
 * the 95 % interval of new/old lies wholly above 1 (significant) and the
 * ratio is beyond its family's practical threshold (large enough to
 * matter); faster likewise below 1 and below 1/(1 + threshold). When both
 * runs carry the machine-speed canary, each ratio is first divided by the
 * canary's ratio raised to the family's clock share: 1 for paths the CPU
 * does alone, 1/2 for copies, whose round trip through the device half
 * follows the core clock (both measured on the H200 over 15 A/A pairs: the
 * VM's speed moves by up to 12 % from run to run and the CPU-bound rows
 * move with it). Runs from different hosts or devices are compared for
 * timings only when asked. */
#ifndef HA_REGRESS_H
#define HA_REGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "findings.h"
#include "rundir.h"

#define HA_THROUGHPUT_MARGIN 0.03

typedef struct family_threshold {
    const char *family;
    double pct;         /* the practical threshold */
    double clock_share; /* how much of the figure follows the core clock */
} family_threshold;

#define REGRESS_NFAM 7

typedef struct regress_cfg {
    family_threshold thr[REGRESS_NFAM]; /* read, memory, guarded, query, hardened, copy, fault */
    bool timings_across_hosts;
} regress_cfg;

void regress_defaults(regress_cfg *c);

/* "FAMILY=PCT" or "all=PCT" (PCT from 0.1 to 1000). Returns 0, or -1 with
 * the reason in err. */
int regress_set_threshold(regress_cfg *c, const char *spec, char *err, size_t n);

/* A family's row of the table (the loosest threshold for one unknown). */
family_threshold regress_family(const regress_cfg *c, const char *family);

void regress_analyse(const regress_cfg *c, const rundir *a, const rundir *b, findings *out);

#endif
