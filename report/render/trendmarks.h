/* Change points from report/changes' JSON, as marks for the trend page:
 * which two runs a step lies between and what moved. The file is untrusted
 * input (people attach it): read and checked by the loader (changesrec.h),
 * every string kept whole and escaped where the page writes it; nothing
 * from it reaches the gnuplot script but the position trend computes. */
#ifndef HA_TRENDMARKS_H
#define HA_TRENDMARKS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct trend_mark {
    char *before, *after; /* the runs' folder names */
    char *what;           /* "fast / cuMemAlloc ×1.10 [1.07, 1.13]; ..." */
    char *cause;          /* "the tool changed", "the machine changed, not the code", ... */
    bool regression;      /* a regression among its class's newest runs */
} trend_mark;

/* Reads path (report/changes --json). 0, or -1 with a malloc'd one-line
 * reason in *err (not readable, not JSON, or not changes' record of this
 * schema). */
int trend_marks_load(const char *path, trend_mark **marks, size_t *n, char **err);
/* Frees the marks and the array. */
void trend_marks_free(trend_mark *marks, size_t n);

#endif
