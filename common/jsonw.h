/* A small streaming JSON writer: records are written by the probes on
 * machines that have no JSON library, so the writer is the project's own.
 * Reading JSON (report, tests) uses jansson. */
#ifndef HA_JSONW_H
#define HA_JSONW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JW_MAX_DEPTH 32

typedef struct jw {
    FILE *f;
    int depth;
    bool first[JW_MAX_DEPTH]; /* nothing written yet at this level */
    bool flat[JW_MAX_DEPTH];  /* this level is written on one line */
    bool after_key;
    bool pretty;
    int err;         /* sticky: set on nesting errors or a failed write */
    int write_errno; /* the failed write's errno (a full disk), 0 if none */
} jw;

void jw_init(jw *w, FILE *f, bool pretty);
void jw_obj(jw *w);
void jw_obj_end(jw *w);
void jw_arr(jw *w);
void jw_arr_end(jw *w);
/* An array written on one line, even in pretty mode: long runs of numbers
 * (raw samples) stay compact and quick to read back. */
void jw_arr_flat(jw *w);
void jw_key(jw *w, const char *k);
void jw_str(jw *w, const char *s); /* NULL writes null */
void jw_int(jw *w, int64_t v);
void jw_uint(jw *w, uint64_t v);
void jw_dbl(jw *w, double v); /* non-finite writes null: JSON has no NaN */
/* With digits significant digits: raw samples need no more than the clock gives. */
void jw_dbl_prec(jw *w, double v, int digits);
/* v as jw_dbl_prec writes it and a reader parses it back: a tool that keeps
 * its values so derives from them what every reader of its record will. */
double jw_dbl_as_written(double v, int digits);
void jw_bool(jw *w, bool v);
void jw_null(jw *w);

/* key + value in one call */
void jw_kstr(jw *w, const char *k, const char *v);
void jw_kint(jw *w, const char *k, int64_t v);
void jw_kuint(jw *w, const char *k, uint64_t v);
void jw_kdbl(jw *w, const char *k, double v);
void jw_kbool(jw *w, const char *k, bool v);
/* -1 means unknown and writes null */
void jw_ktri(jw *w, const char *k, int v);

/* 0 when everything was balanced and written. */
int jw_finish(jw *w);

#endif
