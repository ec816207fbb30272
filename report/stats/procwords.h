/* compare's process-level judgement in words: the notes
 * on the processes each rule left out, each flagged row's finding, the
 * family's rule and tally, the rows not judged and why, and whether the
 * pair decided enough of its rows. Reads the runs and proc_verdicts
 * (procjudge.h); decides nothing. */
#ifndef HA_PROCWORDS_H
#define HA_PROCWORDS_H

#include <stdbool.h>

#include "findings.h"
#include "procjudge.h"
#include "regress.h"

/* The processes each run leaves out (not finished, contended, in a slow
 * state), the rules that chose them, and CPUs or counts that differ. */
void proc_say_notes(const regress_cfg *cfg, const m_bench *a, const m_bench *b, findings *f);
/* Each old row the new run did not time (v->missing), and each new row
 * the old run did not. */
void proc_say_missing(const m_bench *a, const m_bench *b, const proc_verdicts *v, findings *f);
/* Each row flagged or inconclusive, in the old run's order. -1: out of
 * memory naming one. */
int proc_say_flagged(const regress_cfg *cfg, const m_bench *a, const proc_verdicts *v, findings *f);
/* The family's rule and tally in one note. */
void proc_say_family(const proc_verdicts *v, findings *f);
/* The rows not judged, and why. */
void proc_say_unjudged(const proc_verdicts *v, findings *f);
/* Unresolved when too few rows were decided: never clean without evidence. */
void proc_say_resolved(const proc_verdicts *v, findings *f);

#endif
