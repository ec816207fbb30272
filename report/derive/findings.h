/* What compare found between two runs: regressions, improvements, what it
 * could not judge, other changes, notes on how it decided, what differs
 * between the two runs and the run-to-run figures. Their words are
 * render/findingsout.h's. */
#ifndef HA_FINDINGS_H
#define HA_FINDINGS_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

enum { REGRESSION, IMPROVEMENT, INCONCLUSIVE, CHANGE, NCLASS };

typedef struct finding {
    int cls;
    char *what, *name, *detail; /* malloc'd, whole */
} finding;

/* How far the two runs' figures are apart: what "repeatable" means for
 * this pair, whatever the verdicts. A figure is the row's figure over its
 * processes, as report shows it (m_row_figure); |new - old| / old
 * in %, as measured and after normalisation. */
typedef struct stability {
    int have;
    size_t rows, copies;
    double p50, p90, max;
    double np90, nmax;
    double copy_p90, copy_np90;
    double overhead_old, overhead_new;
} stability;

typedef struct findings {
    finding *v;
    size_t n, cap;
    char **notes;
    size_t nnotes;
    char **differ; /* the facts in which the runs differ, "host: a → b" */
    size_t ndiffer;
    bool same_machine;
    bool sides;          /* an A/B session: the two runs shown are its sides A and B, not old and new */
    const char *timings; /* what is done with timings, said in the first lines (a static string), or NULL */
    char *unresolved;    /* no regression, but too few rows shown the same to say clean: why, and what would
                            resolve them (malloc'd), or NULL */
    char *bound;         /* clean's bound, every timed row within it, in words (malloc'd), or NULL */
    const struct ab_tally *session; /* an A/B session's judgement in numbers (stats/abjudge.h), or NULL */
    stability st;
} findings;

void findings_add(findings *f, int cls, const char *what, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void findings_note(findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void findings_differ(findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t findings_count(const findings *f, int cls);
void findings_clear(findings *f);
void findings_free(findings *f);

/* The verdict in one word and the exit status it stands for: regression
 * (1), inconclusive (6, never 1), unresolved (7: too few rows shown the
 * same), clean (0). */
void findings_unresolved(findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void findings_bound(findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
const char *findings_verdict(const findings *f);
int findings_status(const findings *f);

#endif
