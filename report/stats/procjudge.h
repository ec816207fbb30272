/* compare's process-level judgement of a pair, in numbers only: which rows are judged, each row's estimate over its processes
 * on both sides, the gate's outcome for each (common/procstats.h) and the
 * tally. procwords.h says it; nothing here writes a sentence, so the
 * judgement is tested, and could be reused, without text. */
#ifndef HA_PROCJUDGE_H
#define HA_PROCJUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "procstats.h"
#include "regress.h"

typedef struct proc_verdicts {
    size_t m;                /* rows in the family: gated and timed on both sides */
    size_t n;                /* rows judged (the rest held by an instrument or ungated) */
    size_t *idx;             /* each judged row's index in the old run */
    ha_gate_rule *rule;
    ha_proc_est *ea, *eb;    /* each judged row's estimate, old and new */
    ha_gate_row *g;          /* the gate's outcome for each */
    bool *gated;             /* by the old run's row index: the pair resolves the row */
    size_t *missing;         /* old rows (their index) the new run did not time */
    size_t nmissing;
    long found;              /* the family's discoveries */
    size_t same, monitor, few, held, ungated, flagged;
    const m_row *worst, *few_row; /* the least resolved monitor-only row; the first with too few processes */
    double worst_det;
} proc_verdicts;

/* Bench b judged against bench a, row by row, the family at once (the
 * discoveries depend on every row's p-value), then tallied. clock_off: the
 * canary moved more than normalisation corrects, so every row is held, not
 * judged. 0, or -1 out of memory; *v is
 * proc_verdicts_free'd by the caller either way. */
int proc_judge(const regress_cfg *cfg, const m_bench *a, const m_bench *b, bool clock_off, proc_verdicts *v);
void proc_verdicts_free(proc_verdicts *v);

#endif
