/* compare on an A/B session (bench/ab.h): each timed row judged over the
 * processes of its rounds, both sides at once (common/abgate.h), the
 * family at the look the session stopped at, in findings with their words. */
#ifndef HA_ABJUDGE_H
#define HA_ABJUDGE_H

#include <stdbool.h>
#include <stddef.h>

#include "findings.h"
#include "model.h"
#include "regress.h"

/* What the session decided, in numbers. */
typedef struct ab_tally {
    size_t rows, same, regressions, improvements, undecided, unresolvable, too_few, outliers;
    size_t zone;   /* of the rows shown the same, those not yet within +-HA_AB_THRESHOLD */
    size_t pairs;  /* paired rounds judged */
    int look;      /* 0-based: the share of alpha spent */
    double lo, hi; /* the widest bound of the rows shown the same: B/A within [lo, hi] */
    unsigned use;  /* the instruments the fits took (HA_AB_USE_*): those side B left alone */
    bool settled;  /* every row flagged or the same within the flag threshold: more rounds buy nothing */
} ab_tally;

/* Whether r holds an A/B session compare can judge: 0, or -1 with one
 * line in why (sides that contradict their rounds, a process listed
 * twice, fewer than HA_AB_MIN_ROUNDS pairs, ...). */
int abjudge_usable(const m_run *r, char *why, size_t n);

/* The judgement into f (cleared first; f->session points at t, which
 * must outlive f's use) and t. Simulated timings are reported, never
 * gated. 0, or -1 out of memory. */
int abjudge(const m_run *r, findings *f, ab_tally *t);

#endif
