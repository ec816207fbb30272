#include "trendmarks.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changesrec.h"
#include "readfile.h"

/* "row ×step [lo, hi]" for every row, joined; whole, however long, in
 * time linear in it (a stream, not a string copied once per row). */
static char *rows_text(const chg_point *p)
{
    char *t = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&t, &len);
    if (!f)
        return NULL;
    for (size_t i = 0; i < p->nrows; i++)
        fprintf(f, "%s%s ×%.3f [%.3f, %.3f]", i ? "; " : "", p->rows[i].row, p->rows[i].step, p->rows[i].lo,
                p->rows[i].hi);
    if (fclose(f) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

static const char *cause_of(const chg_point *p)
{
    return p->machine_changed && p->tool_changed ? "the tool and the machine changed together"
           : p->machine_changed                  ? "the machine changed, not the code"
           : p->tool_changed                     ? "the tool changed"
                                                 : "neither the tool nor the machine changed";
}

int trend_marks_load(const char *path, trend_mark **marks, size_t *n, char **err)
{
    *marks = NULL;
    *n = 0;
    *err = NULL;
    chg_record c;
    char *why = NULL;
    if (chg_load(path, &c, &why) != 0) {
        *err = rf_printf("%s (expected the file report/changes --json writes; one from an older version: "
                         "run changes again)", why ? why : "out of memory");
        free(why);
        return -1;
    }
    size_t total = 0;
    for (size_t i = 0; i < c.nclasses; i++)
        total += c.classes[i].npoints;
    *marks = total ? calloc(total, sizeof **marks) : NULL;
    bool ok = !total || *marks;
    for (size_t i = 0; i < c.nclasses && ok; i++)
        for (size_t k = 0; k < c.classes[i].npoints && ok; k++) {
            const chg_point *p = &c.classes[i].points[k];
            trend_mark m = {strdup(p->before), strdup(p->after), rows_text(p), strdup(cause_of(p)), p->regression};
            (*marks)[(*n)++] = m;
            ok = m.before && m.after && m.what && m.cause;
        }
    chg_free(&c);
    if (!ok) {
        trend_marks_free(*marks, *n);
        *marks = NULL;
        *n = 0;
        *err = rf_printf("%s: out of memory", path);
        return -1;
    }
    return 0;
}

void trend_marks_free(trend_mark *marks, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(marks[i].before);
        free(marks[i].after);
        free(marks[i].what);
        free(marks[i].cause);
    }
    free(marks);
}
