#include "changesrec.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "parse.h"
#include "readfile.h"

/* changes.json of 1,000 runs x 85 rows is a few MB; far more is not it. */
#define CHANGES_MAX_BYTES (256u << 20)

/* Every string kept is a copy; ok turns false at the first that cannot be
 * made (the shape was checked already, so only memory can fail here). */
static char *str(const json_t *o, int id, bool *ok)
{
    const char *s = json_string_value(ld_get(o, id));
    char *c = strdup(s ? s : "");
    *ok &= c != NULL;
    return c;
}

static double num(const json_t *o, int id) { return json_number_value(ld_get(o, id)); }
static bool flag(const json_t *o, int id) { return json_is_true(ld_get(o, id)); }

/* calloc'd room for the array field id's elements (none: NULL, *n 0). */
static void *room(const json_t *o, int id, size_t size, size_t *n, bool *ok)
{
    *n = json_array_size(ld_get(o, id));
    if (!*n)
        return NULL;
    void *p = calloc(*n, size);
    if (!p) {
        *n = 0;
        *ok = false;
    }
    return p;
}

static void read_point(const json_t *o, chg_point *p, bool *ok)
{
    p->before = str(o, HF_CP_BEFORE, ok);
    p->after = str(o, HF_CP_AFTER, ok);
    p->tool_before = str(o, HF_CP_TOOL_BEFORE, ok);
    p->tool_after = str(o, HF_CP_TOOL_AFTER, ok);
    p->runtime_before = str(o, HF_CP_RUNTIME_BEFORE, ok);
    p->runtime_after = str(o, HF_CP_RUNTIME_AFTER, ok);
    p->machine_changed = flag(o, HF_CP_MACHINE);
    p->tool_changed = flag(o, HF_CP_TOOL);
    p->regression = flag(o, HF_CP_REGRESSION);
    p->rows = room(o, HF_CP_ROWS, sizeof *p->rows, &p->nrows, ok);
    for (size_t i = 0; i < p->nrows; i++) {
        const json_t *r = json_array_get(ld_get(o, HF_CP_ROWS), i);
        p->rows[i] = (chg_row){str(r, HF_CPR_ROW, ok), num(r, HF_CPR_STEP), num(r, HF_CPR_LO), num(r, HF_CPR_HI),
                               num(r, HF_CPR_P)};
    }
}

static void read_class(const json_t *o, chg_class *c, bool *ok)
{
    c->name = str(o, HF_CLS_NAME, ok);
    c->simulated = flag(o, HF_CLS_SIMULATED);
    c->runs = json_integer_value(ld_get(o, HF_CLS_RUNS));
    c->points = room(o, HF_CLS_POINTS, sizeof *c->points, &c->npoints, ok);
    for (size_t i = 0; i < c->npoints; i++)
        read_point(json_array_get(ld_get(o, HF_CLS_POINTS), i), &c->points[i], ok);
    c->facts = room(o, HF_CLS_FACTS, sizeof *c->facts, &c->nfacts, ok);
    for (size_t i = 0; i < c->nfacts; i++) {
        const json_t *f = json_array_get(ld_get(o, HF_CLS_FACTS), i);
        c->facts[i] = (chg_fact){str(f, HF_FACT_AT, ok), str(f, HF_FACT_WAS, ok), str(f, HF_FACT_NOW, ok)};
    }
}

int chg_load(const char *path, chg_record *out, char **err)
{
    memset(out, 0, sizeof *out);
    *err = NULL;
    char *buf = NULL, *rerr = NULL;
    size_t len = 0;
    if (rf_read(path, CHANGES_MAX_BYTES, false, &buf, &len, &rerr) != 0) {
        *err = rf_printf("%s: %s", path, rerr ? rerr : "cannot be read");
        free(rerr);
        return -1;
    }
    int rc = chg_read_buffer(path, buf, len, out, err);
    free(buf);
    return rc;
}

int chg_read_buffer(const char *name, char *buf, size_t len, chg_record *out, char **err)
{
    memset(out, 0, sizeof *out);
    *err = NULL;
    json_t *j;
    int root;
    if (ld_parse_checked(name, buf, len, HF_ROOT_CHANGES, &j, &root, err) != 0)
        return -1;
    bool ok = true;
    out->results = str(j, HF_CHG_RESULTS, &ok);
    out->skipped = json_integer_value(ld_get(j, HF_CHG_SKIPPED));
    out->regression = flag(j, HF_CHG_REGRESSION);
    out->classes = room(j, HF_CHG_CLASSES, sizeof *out->classes, &out->nclasses, &ok);
    for (size_t i = 0; i < out->nclasses; i++)
        read_class(json_array_get(ld_get(j, HF_CHG_CLASSES), i), &out->classes[i], &ok);
    json_decref(j);
    if (!ok) {
        chg_free(out);
        *err = rf_printf("%s: out of memory", name);
        return -1;
    }
    return 0;
}

void chg_free(chg_record *c)
{
    for (size_t i = 0; i < c->nclasses; i++) {
        chg_class *k = &c->classes[i];
        for (size_t p = 0; p < k->npoints; p++) {
            chg_point *q = &k->points[p];
            for (size_t r = 0; r < q->nrows; r++)
                free(q->rows[r].row);
            free(q->rows), free(q->before), free(q->after), free(q->tool_before), free(q->tool_after);
            free(q->runtime_before), free(q->runtime_after);
        }
        for (size_t f = 0; f < k->nfacts; f++)
            free(k->facts[f].at), free(k->facts[f].was), free(k->facts[f].now);
        free(k->points), free(k->facts), free(k->name);
    }
    free(c->classes), free(c->results);
    memset(c, 0, sizeof *c);
}
