/* The judgement of compare: what counts as a regression between two runs.
 *
 * Verdicts, kinds and pool checks are compared exactly: a candidate that
 * stopped distinguishing, a kind that lost host readability, could no
 * longer be made or is no longer probed, a pool check that fails, stopped
 * passing or disappeared, a record the old run had and the new one lacks,
 * a throughput that fell below the goal: regressions. Their opposites are
 * improvements.
 *
 * Timings are judged on the raw samples (timing.h): a row is slower when
 * the 95 % interval of new/old lies wholly above 1 (significant) and the
 * ratio is beyond its family's practical threshold (large enough to
 * matter); faster likewise below 1 and below 1/(1 + threshold). When the
 * machine-speed canary (the empty loop) moved significantly, every ratio
 * is divided by the canary's first. Runs from different hosts or devices
 * are compared for timings only when asked. */
#ifndef HA_REGRESS_H
#define HA_REGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "findings.h"
#include "rundir.h"

typedef struct family_threshold {
    const char *family;
    double pct;
} family_threshold;

#define REGRESS_NFAM 6

typedef struct regress_cfg {
    family_threshold thr[REGRESS_NFAM]; /* read, guarded, query, hardened, copy, fault */
    bool timings_across_hosts;
} regress_cfg;

void regress_defaults(regress_cfg *c);

/* "FAMILY=PCT" or "all=PCT" (PCT from 0.1 to 1000). Returns 0, or -1 with
 * the reason in err. */
int regress_set_threshold(regress_cfg *c, const char *spec, char *err, size_t n);

/* The practical threshold of a family, in % (the largest for one unknown). */
double regress_threshold(const regress_cfg *c, const char *family);

void regress_analyse(const regress_cfg *c, const rundir *a, const rundir *b, findings *out);

#endif
