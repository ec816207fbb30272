/* What compare found between two runs: regressions, improvements, other
 * changes, notes on how it decided, and the run-to-run figures; and their
 * two renderings, Markdown and JSON. */
#ifndef HA_FINDINGS_H
#define HA_FINDINGS_H

#include <stdio.h>

#include "jsonw.h"
#include "rundir.h"

enum { REGRESSION, IMPROVEMENT, CHANGE, NCLASS };

typedef struct finding {
    int cls;
    char what[24];
    char name[200];
    char detail[480];
} finding;

/* How far the two runs' figures are apart: what "repeatable" means for
 * this pair, whatever the verdicts. A figure is a row's median over all
 * its blocks (the median of block medians, as judged); |new - old| / old
 * in %, as measured and after the canary. */
typedef struct stability {
    int have;
    size_t rows, copies;          /* figures in both runs, of them copies */
    double p50, p90, max;         /* as measured */
    double np90, nmax;            /* after the canary */
    double copy_p90, copy_max, copy_np90, copy_nmax;
    double overhead_old, overhead_new; /* the largest harness share on any row, % */
} stability;

#define FINDINGS_MAX_NOTES 16

typedef struct findings {
    finding *v;
    size_t n, cap;
    char notes[FINDINGS_MAX_NOTES][400];
    int nnotes;
    stability st;
} findings;

void findings_add(findings *f, int cls, const char *what, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
void findings_note(findings *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
size_t findings_count(const findings *f, int cls);
void findings_clear(findings *f); /* empties, keeps the memory */
void findings_free(findings *f);

void findings_markdown(FILE *out, const findings *f, const rundir *a, const rundir *b);
void findings_json(jw *w, const findings *f, const rundir *a, const rundir *b);

/* A folder name as valid UTF-8 for JSON (a ring of four buffers). */
const char *findings_utf8(const char *s);

#endif
