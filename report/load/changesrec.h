/* changes --json read back (trend --changes marks its page with it): the
 * file is untrusted (people attach it), so it is read with a size limit and
 * checked whole against its declaration in common/fields.def before one
 * field is kept, as every run record is (parse.h). */
#ifndef HA_CHANGESREC_H
#define HA_CHANGESREC_H

#include <stdbool.h>
#include <stddef.h>

typedef struct chg_row {
    char *row;
    double step, lo, hi, p;
} chg_row;

typedef struct chg_point {
    char *before, *after; /* the two runs' folders */
    char *tool_before, *tool_after, *runtime_before, *runtime_after;
    bool machine_changed, tool_changed, regression;
    chg_row *rows;
    size_t nrows;
} chg_point;

typedef struct chg_fact {
    char *at, *was, *now;
} chg_fact;

typedef struct chg_class {
    char *name;
    bool simulated;
    long long runs;
    chg_point *points;
    size_t npoints;
    chg_fact *facts;
    size_t nfacts;
} chg_class;

typedef struct chg_record {
    char *results;
    long long skipped;
    bool regression;
    chg_class *classes;
    size_t nclasses;
} chg_record;

/* Reads path, a changes --json record. 0 with *out (chg_free it), or -1
 * with a malloc'd one-line reason in *err, starting with path; *out is
 * then empty. */
int chg_load(const char *path, chg_record *out, char **err);
/* The same from buf[0..len) (left as it was: the parse reads it, never
 * past len); name prefixes every message. */
int chg_read_buffer(const char *name, char *buf, size_t len, chg_record *out, char **err);
void chg_free(chg_record *c);

#endif
