#include "validate.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "readfile.h"

/* Each container's members, worked out once from the table, and which of
 * them are figures derived from the container's measurements (F_DERIVED). */
static int *members[HF_COUNT];
static bool *derived[HF_COUNT];
static int nmembers[HF_COUNT];

static void index_members(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    for (int c = 1; c < HF_COUNT; c++) {
        if (!(ha_fields[c].types & (T_OBJ | T_ARR)))
            continue;
        members[c] = malloc(HF_COUNT * sizeof *members[c]);
        derived[c] = malloc(HF_COUNT * sizeof *derived[c]);
        if (!members[c] || !derived[c]) {
            free(members[c]);
            free(derived[c]);
            members[c] = NULL;
            derived[c] = NULL;
            continue;
        }
        for (int f = 1; f < HF_COUNT; f++)
            if (!(ha_fields[f].types & (F_ROOT | F_GROUP)) && ha_field_member(c, f)) {
                derived[c][nmembers[c]] = ha_field_derived(c, f);
                members[c][nmembers[c]++] = f;
            }
    }
}

static const char *type_name(const json_t *j)
{
    switch (json_typeof(j)) {
    case JSON_OBJECT: return "an object";
    case JSON_ARRAY: return "an array";
    case JSON_STRING: return "a string";
    case JSON_INTEGER: return "an integer";
    case JSON_REAL: return "a number";
    case JSON_TRUE:
    case JSON_FALSE: return "a boolean";
    case JSON_NULL: return "null";
    }
    return "?";
}

static bool type_ok(const json_t *j, unsigned t)
{
    switch (json_typeof(j)) {
    case JSON_NULL: return t & T_NULL;
    case JSON_TRUE:
    case JSON_FALSE: return t & T_BOOL;
    case JSON_INTEGER: return t & (T_INT | T_NUM);
    case JSON_REAL: return t & T_NUM;
    case JSON_STRING: return t & T_STR;
    case JSON_OBJECT: return t & T_OBJ;
    case JSON_ARRAY: return t & T_ARR;
    }
    return false;
}

static void expected(unsigned t, char *out, size_t n)
{
    static const struct { unsigned t; const char *name; } names[] = {
        {T_OBJ, "an object"}, {T_ARR, "an array"}, {T_STR, "a string"}, {T_INT, "an integer"},
        {T_NUM, "a number"}, {T_BOOL, "a boolean"}, {T_NULL, "null"},
    };
    out[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(t & names[i].t) || (names[i].t == T_INT && (t & T_NUM)))
            continue;
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%s", l ? " or " : "", names[i].name);
    }
}

typedef struct vctx {
    long long version;
    char version_text[24]; /* for fail(), which takes strings */
    char where[1024];
    char **err;
} vctx;

static int fail(vctx *v, const char *fmt, const char *a, const char *b)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, a, b);
    *v->err = rf_printf("%s: %s", v->where, msg);
    return -1;
}

/* A scalar against a field's types, range and values. */
static int scalar(vctx *v, const json_t *j, int id, unsigned types)
{
    const ha_field *f = &ha_fields[id];
    if (!type_ok(j, types)) {
        char want[96];
        expected(types, want, sizeof want);
        return fail(v, "expected %s, found %s", want, type_name(j));
    }
    if (json_is_number(j) && f->min <= f->max) {
        double x = json_number_value(j);
        if (!(x >= f->min && x <= f->max)) {
            char range[96], got[48];
            snprintf(range, sizeof range, "from %.15g to %.15g", f->min, f->max);
            snprintf(got, sizeof got, "%.15g", x);
            return fail(v, "expected a number %s, found %s", range, got);
        }
    }
    if (json_is_string(j) && !ha_field_value_ok(id, json_string_value(j))) {
        char vals[200];
        snprintf(vals, sizeof vals, "%s", f->vals);
        for (char *c = vals; *c; c++)
            if (*c == '|')
                *c = ',';
        return fail(v, "expected one of %s, found another string%s", vals, "");
    }
    return 0;
}

static int object(vctx *v, const json_t *obj, int container);

static int field(vctx *v, const json_t *j, int id)
{
    const ha_field *f = &ha_fields[id];
    if (scalar(v, j, id, f->types & T_TYPES))
        return -1;
    if (json_is_object(j))
        return object(v, j, id);
    if (!json_is_array(j))
        return 0;
    size_t wl = strlen(v->where), i;
    const json_t *el;
    json_array_foreach(j, i, el) {
        /* The place is written only where it is needed: an array of
         * samples holds hundreds of thousands of elements. */
        bool ok = f->elem ? type_ok(el, f->elem) && (!json_is_number(el) || f->min > f->max ||
                                                      (json_number_value(el) >= f->min &&
                                                       json_number_value(el) <= f->max))
                          : json_is_object(el);
        if (ok && f->elem)
            continue;
        snprintf(v->where + wl, sizeof v->where - wl, "[%zu]", i);
        if (!f->elem) {
            if (!ok)
                return fail(v, "expected an object, found %s%s", type_name(el), "");
            if (object(v, el, id))
                return -1;
        } else if (scalar(v, el, id, f->elem)) {
            return -1;
        }
    }
    v->where[wl] = 0;
    return 0;
}

/* Whether the object was measured, where one of its booleans says. */
static bool measured(const json_t *obj, int container)
{
    for (int k = 0; k < nmembers[container]; k++) {
        int id = members[container][k];
        unsigned t = ha_fields[id].types;
        if (!(t & (F_GATE_TRUE | F_GATE_FALSE)))
            continue;
        const json_t *g = json_object_get(obj, ha_fields[id].key);
        return (t & F_GATE_TRUE) ? json_is_true(g) : json_is_false(g);
    }
    return true;
}

static int object(vctx *v, const json_t *obj, int container)
{
    bool meas = measured(obj, container);
    size_t wl = strlen(v->where);
    for (int k = 0; k < nmembers[container]; k++) {
        int id = members[container][k];
        const ha_field *f = &ha_fields[id];
        snprintf(v->where + wl, sizeof v->where - wl, ".%s", f->key);
        const json_t *j = json_object_get(obj, f->key);
        /* from HA_SCHEMA_DERIVED_ON_READ a figure has one source: the reader */
        bool on_read = derived[container][k] && v->version >= HA_SCHEMA_DERIVED_ON_READ;
        if (j && on_read)
            return fail(v, "a figure derived from the record's measurements, which records of schema version %s "
                           "leave to the reader: a record that carries it says one thing twice%s",
                        v->version_text, "");
        if (!j) {
            bool required = f->since && v->version >= f->since && !on_read && (!(f->types & F_MEAS) || meas);
            if (required)
                return fail(v, "missing (schema version %s%s)", v->version_text, "");
            continue;
        }
        if (field(v, j, id))
            return -1;
    }
    v->where[wl] = 0;
    return 0;
}

int v_check(const json_t *root, int root_field, long long version, char **err)
{
    index_members();
    vctx v = {.version = version, .where = "$", .err = err};
    snprintf(v.version_text, sizeof v.version_text, "%lld", version);
    if (!json_is_object(root)) {
        *err = rf_printf("$: expected a record (a JSON object), found %s", type_name(root));
        return -1;
    }
    for (int c = 1; c < HF_COUNT; c++)
        if ((ha_fields[c].types & (T_OBJ | T_ARR)) && !members[c])
            rf_out_of_memory("checking a record");
    return object(&v, root, root_field);
}

/* The process of `entry` (a by_process element or a processes.list one),
 * by its field id; 0 when it names none. */
static long long proc_id(const json_t *entry, int id)
{
    const json_t *x = json_object_get(entry, ha_fkey(id));
    return json_is_integer(x) ? json_integer_value(x) : 0;
}

int v_bench_processes(const json_t *root, long long version, char **err)
{
    bool on_read = version >= HA_SCHEMA_DERIVED_ON_READ;
    const json_t *list = json_object_get(json_object_get(root, ha_fkey(HF_PROCS)), ha_fkey(HF_PROCS_LIST));
    size_t n = json_array_size(list), i, k;
    const json_t *e, *row;
    /* v_check held every index to its field's range: one flag each */
    long long most = (long long)ha_fields[HF_RBP_PROCESS].max;
    bool *listed = calloc((size_t)most + 1, sizeof *listed), *seen = calloc((size_t)most + 1, sizeof *seen);
    int rc = -1;
    if (!listed || !seen)
        rf_out_of_memory("checking a record");
    json_array_foreach(list, i, e) {
        long long p = proc_id(e, HF_PROC_INDEX);
        if (p < 1 || p > most || listed[p]) {
            *err = rf_printf("$.%s.%s[%zu]: process %lld is listed twice: a record that contradicts itself",
                             ha_fkey(HF_PROCS), ha_fkey(HF_PROCS_LIST), i, p);
            goto done;
        }
        listed[p] = true;
    }
    json_array_foreach(json_object_get(root, ha_fkey(HF_ROWS)), i, row) {
        if (on_read && json_is_false(json_object_get(row, ha_fkey(HF_ROW_SKIPPED))) &&
            !json_array_size(json_object_get(row, ha_fkey(HF_ROW_SAMPLES)))) {
            *err = rf_printf("$.%s[%zu].%s: a measured row without samples, from which a record of schema "
                             "version %lld has its figures derived", ha_fkey(HF_ROWS), i, ha_fkey(HF_ROW_SAMPLES),
                             version);
            goto done;
        }
        memset(seen, 0, ((size_t)most + 1) * sizeof *seen);
        json_array_foreach(json_object_get(row, ha_fkey(HF_ROW_BY_PROCESS)), k, e) {
            long long p = proc_id(e, HF_RBP_PROCESS);
            if (p < 1 || p > most || (n && !listed[p]) || seen[p]) {
                *err = rf_printf("$.%s[%zu].%s[%zu]: process %lld %s: a record that contradicts itself",
                                 ha_fkey(HF_ROWS), i, ha_fkey(HF_ROW_BY_PROCESS), k, p,
                                 p >= 1 && p <= most && seen[p] ? "is given twice in one row"
                                                                : "is not in processes.list");
                goto done;
            }
            if (on_read && p == 1) {
                *err = rf_printf("$.%s[%zu].%s[%zu]: process 1's block medians, which a record of schema version "
                                 "%lld leaves to the reader (from samples_ns): a record that carries them says one "
                                 "thing twice", ha_fkey(HF_ROWS), i, ha_fkey(HF_ROW_BY_PROCESS), k, version);
                goto done;
            }
            seen[p] = true;
        }
    }
    rc = 0;
done:
    free(listed);
    free(seen);
    return rc;
}
