#include "trendmarks.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"
#include "text.h"

/* changes.json of 1,000 runs x 85 rows is a few MB; far more is not it. */
#define MARKS_MAX_BYTES (256u << 20)

static char *str_of(json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? strdup(s) : NULL;
}

/* "row ×step [lo, hi]" for every row, joined; whole, however long, in
 * time linear in it (a stream, not a string copied once per row). */
static char *rows_text(json_t *rows)
{
    char *t = NULL;
    size_t len = 0, i;
    FILE *f = open_memstream(&t, &len);
    if (!f)
        return NULL;
    json_t *r;
    json_array_foreach(rows, i, r) {
        const char *name = json_string_value(json_object_get(r, "row"));
        fprintf(f, "%s%s ×%.3f [%.3f, %.3f]", i ? "; " : "", name ? name : "?",
                json_number_value(json_object_get(r, "step")), json_number_value(json_object_get(r, "lo")),
                json_number_value(json_object_get(r, "hi")));
    }
    if (fclose(f) != 0) {
        free(t);
        return NULL;
    }
    return t;
}

static const char *cause_of(json_t *cp)
{
    bool machine = json_is_true(json_object_get(cp, "machine_changed")),
         tool = json_is_true(json_object_get(cp, "tool_changed"));
    return machine && tool ? "the tool and the machine changed together"
           : machine       ? "the machine changed, not the code"
           : tool          ? "the tool changed"
                           : "neither the tool nor the machine changed";
}

static int fail(char **err, const char *path, const char *why)
{
    *err = rf_printf("%s: %s (expected the file report/changes --json writes)", path, why);
    return -1;
}

int trend_marks_load(const char *path, trend_mark **marks, size_t *n, char **err)
{
    *marks = NULL;
    *n = 0;
    *err = NULL;
    char *buf = NULL, *rerr = NULL;
    size_t len = 0;
    if (rf_read(path, MARKS_MAX_BYTES, false, &buf, &len, &rerr) != 0) {
        *err = rf_printf("%s: %s", path, rerr ? rerr : "cannot be read");
        free(rerr);
        return -1;
    }
    json_error_t je;
    json_t *root = json_loadb(buf, len, 0, &je);
    free(buf);
    if (!root)
        return fail(err, path, "not JSON");
    json_t *classes = json_object_get(root, "classes");
    const char *tool = json_string_value(json_object_get(root, "tool"));
    const char *bad = !tool || strcmp(tool, "changes") ? "its \"tool\" is not \"changes\""
                      : !json_is_array(classes)        ? "no classes of change points"
                                                       : NULL;
    size_t ci, pi, cap = 0;
    json_t *c, *cp;
    /* The shape, whole, before any mark is kept: a class is an object
     * with an array of change points, each an object with its rows. */
    json_array_foreach(classes, ci, c) {
        json_t *cps = json_object_get(c, "change_points");
        if (!bad && (!json_is_object(c) || !json_is_array(cps)))
            bad = "a class that is not an object with an array of change_points";
        json_array_foreach(cps, pi, cp) {
            if (!bad && (!json_is_object(cp) || !json_is_string(json_object_get(cp, "before")) ||
                         !json_is_string(json_object_get(cp, "after")) || !json_is_array(json_object_get(cp, "rows"))))
                bad = "a change point without its two runs and its rows";
        }
    }
    if (bad) {
        json_decref(root);
        return fail(err, path, bad);
    }
    json_array_foreach(classes, ci, c) {
        json_array_foreach(json_object_get(c, "change_points"), pi, cp) {
            trend_mark m = {str_of(cp, "before"), str_of(cp, "after"), rows_text(json_object_get(cp, "rows")),
                            strdup(cause_of(cp)), json_is_true(json_object_get(cp, "regression_in_window"))};
            trend_mark *more = *marks;
            if (*n == cap) { /* doubled: linear in the marks */
                more = realloc(*marks, (cap = cap ? 2 * cap : 16) * sizeof **marks);
                if (more)
                    *marks = more;
            }
            if (!m.before || !m.after || !m.what || !m.cause || !more) {
                const char *why = m.before && m.after ? "out of memory" : "a change point without its two runs";
                free(m.before), free(m.after), free(m.what), free(m.cause);
                json_decref(root);
                trend_marks_free(*marks, *n);
                *marks = NULL;
                *n = 0;
                return fail(err, path, why);
            }
            (*marks)[(*n)++] = m;
        }
    }
    json_decref(root);
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
