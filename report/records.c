#include "records.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define HEAD                                                                                      \
    {"schema_version", RT_INT}, {"tool", RT_STR}, {"simulated", RT_BOOL}, {"env", RT_OBJ},         \
    {"env.backend", RT_STR}, {"env.simulated", RT_BOOL}, {"env.tool_version", RT_STR},             \
    {"env.header_version", RT_STR}, {"env.runtime_version", RT_STR},                               \
    {"env.driver_version", RT_STR}, {"env.device_name", RT_STR}, {"env.arch", RT_STR},             \
    {"env.vram_bytes", RT_INT}, {"env.device", RT_INT}, {"env.large_bar", RT_OBJ},                 \
    {"env.large_bar.runtime", RT_BOOL | RT_NULL}, {"env.large_bar.sysfs", RT_BOOL | RT_NULL},      \
    {"env.large_bar.sysfs_note", RT_STR}, {"env.kernel", RT_STR}, {"env.cpu", RT_STR},             \
    {"env.host", RT_STR}, {"env.time_utc", RT_STR}, {"env.version_warning", RT_STR | RT_NULL}

static const rec_field env_fields[] = {HEAD, {NULL, 0}};

static const rec_field probe_fields[] = {
    HEAD,
    {"wall_time_s", RT_NUM},
    {"isolation", RT_STR},
    {"kinds", RT_ARR},
    {"kinds[].name", RT_STR},
    {"kinds[].created", RT_BOOL},
    {"kinds[].detail", RT_STR},
    {"kinds[].readable", RT_BOOL | RT_NULL},
    {"kinds[].writable", RT_BOOL | RT_NULL},
    {"kinds[].isolation_agrees", RT_BOOL | RT_NULL},
    {"kinds[].truth_note", RT_STR},
    {"candidates", RT_ARR},
    {"candidates[].name", RT_STR},
    {"candidates[].verdict", RT_STR},
    {"candidates[].distinguishes", RT_BOOL},
    {"candidates[].wrong_on", RT_ARR},
    {"candidates[].wrong_on[].kind", RT_STR},
    {"candidates[].wrong_on[].error", RT_STR},
    {"candidates[].results", RT_ARR},
    {"candidates[].results[].kind", RT_STR},
    {"candidates[].results[].outcome", RT_STR},
    {"candidates[].results[].status", RT_INT},
    {"candidates[].results[].status_name", RT_STR},
    {"candidates[].results[].value", RT_STR},
    {"candidates[].results[].class", RT_STR},
    {NULL, 0},
};

static const rec_field mga_fields[] = {
    HEAD,
    {"shapes", RT_ARR},
    {"shapes[].kind", RT_STR},
    {"shapes[].created", RT_BOOL},
    {"shapes[].detail", RT_STR},
    {"shapes[].stages", RT_ARR},
    {"shapes[].stages[].stage", RT_STR},
    {"shapes[].stages[].stage_status_name", RT_STR},
    {"shapes[].stages[].host_read", RT_STR | RT_NULL},
    {"shapes[].stages[].access", RT_ARR},
    {"shapes[].stages[].access[].location", RT_STR},
    {"shapes[].stages[].access[].status_name", RT_STR},
    {"shapes[].stages[].access[].flags", RT_INT | RT_NULL},
    {NULL, 0},
};

static const rec_field bench_fields[] = {
    HEAD,
    {"wall_time_s", RT_NUM},
    {"clock", RT_OBJ},
    {"clock.read_ns", RT_NUM},
    {"headline", RT_OBJ | RT_NULL},
    {"rows", RT_ARR},
    {"rows[].path", RT_STR},
    {"rows[].kind", RT_STR | RT_NULL},
    {"rows[].candidate", RT_STR | RT_NULL},
    {"rows[].repeat", RT_INT},
    {"rows[].skipped", RT_BOOL},
    {"rows[].comparable_to_bar_read", RT_BOOL},
    {"sweep", RT_OBJ | RT_NULL},
    {NULL, 0},
};

/* Fields present only on measured rows, checked where skipped is false. */
static const rec_field bench_row_fields[] = {
    {"median_ns", RT_NUM}, {"spread_ns", RT_NUM}, {"min_ns", RT_NUM}, {"p90_ns", RT_NUM},
    {"p99_ns", RT_NUM},    {"max_ns", RT_NUM},    {"n", RT_INT},      {"samples_ns", RT_ARR},
    {NULL, 0},
};

static const rec_field pool_fields[] = {
    HEAD,
    {"checks", RT_ARR},
    {"checks[].name", RT_STR},
    {"checks[].mode", RT_STR},
    {"checks[].passed", RT_BOOL | RT_NULL},
    {"checks[].status", RT_STR},
    {"checks[].detail", RT_STR},
    {"summary", RT_OBJ},
    {"summary.failed", RT_INT},
    {"throughput", RT_ARR},
    {"throughput[].pool_bytes", RT_INT},
    {"throughput[].measured", RT_BOOL},
    {NULL, 0},
};

const rec_field *rec_schema(const char *tool)
{
    static const struct { const char *tool; const rec_field *f; } t[] = {
        {"env", env_fields},
        {"probe_discriminator", probe_fields},
        {"probe_memgetaccess", mga_fields},
        {"bench_discriminator", bench_fields},
        {"pool_check", pool_fields},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (tool && strcmp(t[i].tool, tool) == 0)
            return t[i].f;
    return NULL;
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

static bool type_ok(const json_t *j, int types)
{
    switch (json_typeof(j)) {
    case JSON_NULL: return types & RT_NULL;
    case JSON_TRUE:
    case JSON_FALSE: return types & RT_BOOL;
    case JSON_INTEGER: return types & (RT_INT | RT_REAL);
    case JSON_REAL: return types & RT_REAL;
    case JSON_STRING: return types & RT_STR;
    case JSON_OBJECT: return types & RT_OBJ;
    case JSON_ARRAY: return types & RT_ARR;
    }
    return false;
}

static void expected(int types, char *out, size_t n)
{
    static const struct { int t; const char *name; } names[] = {
        {RT_OBJ, "an object"}, {RT_ARR, "an array"}, {RT_STR, "a string"}, {RT_INT, "an integer"},
        {RT_REAL, "a number"}, {RT_BOOL, "a boolean"}, {RT_NULL, "null"},
    };
    out[0] = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!(types & names[i].t) || (names[i].t == RT_INT && (types & RT_REAL)))
            continue;
        size_t l = strlen(out);
        snprintf(out + l, n - l, "%s%s", l ? " or " : "", names[i].name);
    }
}

/* Walks one path, descending into every element at each []. */
static int walk(const json_t *node, const char *path, char *where, size_t wlen, int types,
                char *err, size_t errlen)
{
    if (!*path) {
        if (type_ok(node, types))
            return 0;
        char want[96];
        expected(types, want, sizeof want);
        snprintf(err, errlen, "%s: expected %s, found %s", where, want, type_name(node));
        return -1;
    }
    char key[64];
    size_t k = strcspn(path, ".[");
    if (k >= sizeof key)
        k = sizeof key - 1;
    memcpy(key, path, k);
    key[k] = 0;
    const char *rest = path + k;
    size_t wl = strlen(where);
    snprintf(where + wl, wlen - wl, ".%s", key);
    if (!json_is_object(node)) {
        snprintf(err, errlen, "%s: expected an object around it, found %s", where, type_name(node));
        return -1;
    }
    const json_t *child = json_object_get(node, key);
    if (!child) {
        snprintf(err, errlen, "%s: missing", where);
        return -1;
    }
    if (strncmp(rest, "[]", 2) == 0) {
        rest += 2;
        if (*rest == '.')
            rest++;
        if (!json_is_array(child)) {
            snprintf(err, errlen, "%s: expected an array, found %s", where, type_name(child));
            return -1;
        }
        size_t i;
        const json_t *el;
        size_t wl2 = strlen(where);
        json_array_foreach(child, i, el) {
            snprintf(where + wl2, wlen - wl2, "[%zu]", i);
            if (!*rest) {
                if (!type_ok(el, types)) {
                    char want[96];
                    expected(types, want, sizeof want);
                    snprintf(err, errlen, "%s: expected %s, found %s", where, want, type_name(el));
                    return -1;
                }
            } else if (walk(el, rest, where, wlen, types, err, errlen)) {
                return -1;
            }
            where[wl2] = 0;
        }
        where[wl] = 0;
        return 0;
    }
    if (*rest == '.')
        rest++;
    int rc = walk(child, rest, where, wlen, types, err, errlen);
    if (rc == 0)
        where[wl] = 0;
    return rc;
}

int rec_validate(const json_t *root, const char *tool, char *err, size_t errlen)
{
    if (!json_is_object(root)) {
        snprintf(err, errlen, "$: expected a record (a JSON object), found %s", type_name(root));
        return -1;
    }
    const json_t *sv = json_object_get(root, "schema_version");
    if (!json_is_integer(sv) || json_integer_value(sv) != 1) {
        snprintf(err, errlen, "$.schema_version: expected 1 (this reader's schema)%s",
                 sv ? ", found another" : ", missing");
        return -1;
    }
    const char *t = json_string_value(json_object_get(root, "tool"));
    if (tool && (!t || strcmp(t, tool) != 0)) {
        snprintf(err, errlen, "$.tool: expected \"%s\", found %s%s%s", tool, t ? "\"" : "",
                 t ? t : "none", t ? "\"" : "");
        return -1;
    }
    const rec_field *f = rec_schema(tool ? tool : t);
    if (!f) {
        snprintf(err, errlen, "$.tool: expected a hostaccess tool's name, found %s", t ? t : "none");
        return -1;
    }
    char where[256];
    for (; f->path; f++) {
        snprintf(where, sizeof where, "$");
        if (walk(root, f->path, where, sizeof where, f->types, err, errlen))
            return -1;
    }
    if (f == NULL || !t || strcmp(t, "bench_discriminator") != 0)
        return 0;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(root, "rows"), i, row) {
        if (json_is_true(json_object_get(row, "skipped")))
            continue;
        for (const rec_field *rf = bench_row_fields; rf->path; rf++) {
            snprintf(where, sizeof where, "$.rows[%zu]", i);
            if (walk(row, rf->path, where, sizeof where, rf->types, err, errlen))
                return -1;
        }
    }
    return 0;
}

static json_t *finish(json_t *j, const json_error_t *je, const char *name, const char *tool,
                      char *err, size_t errlen)
{
    if (!j) {
        snprintf(err, errlen, "%s: line %d, column %d: expected valid JSON (%s)", name, je->line,
                 je->column, je->text);
        return NULL;
    }
    char why[400];
    if (rec_validate(j, tool, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", name, why);
        json_decref(j);
        return NULL;
    }
    return j;
}

json_t *rec_load(const char *path, const char *tool, char *err, size_t errlen)
{
    json_error_t je;
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "%s: cannot be read: expected a record file", path);
        return NULL;
    }
    json_t *j = json_loadf(f, JSON_REJECT_DUPLICATES, &je);
    fclose(f);
    return finish(j, &je, path, tool, err, errlen);
}

/* Drops the contents of "samples_ns": [ ... ] arrays, where they hold only
 * number characters, compacting buf; returns the new length. Strings
 * elsewhere are stepped over, so a key inside a string is never taken for
 * one. */
static size_t drop_samples(char *buf, size_t len)
{
    static const char key[] = "\"samples_ns\"";
    const size_t klen = sizeof key - 1;
    static bool numeric[256];
    if (!numeric['0'])
        for (const char *c = "0123456789.eE+-, \n\tnul"; *c; c++)
            numeric[(unsigned char)*c] = true;
    size_t w = 0;
    for (size_t i = 0; i < len;) {
        if (buf[i] != '"') {
            buf[w++] = buf[i++];
            continue;
        }
        if (len - i > klen && !memcmp(buf + i, key, klen)) {
            size_t j = i + klen;
            while (j < len && (buf[j] == ' ' || buf[j] == ':' || buf[j] == '\n'))
                j++;
            size_t k = j + 1;
            while (j < len && buf[j] == '[' && k < len && numeric[(unsigned char)buf[k]])
                k++;
            if (j < len && buf[j] == '[' && k < len && buf[k] == ']') {
                memmove(buf + w, buf + i, j + 1 - i);
                w += j + 1 - i;
                i = k;
                continue;
            }
        }
        /* a string: copied whole, escapes included */
        buf[w++] = buf[i++];
        while (i < len && buf[i] != '"') {
            if (buf[i] == '\\' && i + 1 < len)
                buf[w++] = buf[i++];
            buf[w++] = buf[i++];
        }
        if (i < len)
            buf[w++] = buf[i++];
    }
    return w;
}

json_t *rec_load_summary(const char *path, const char *tool, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot be read: expected a record file", path);
        return NULL;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    rewind(f);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    size_t got = buf ? fread(buf, 1, (size_t)n, f) : 0;
    fclose(f);
    if (!buf || got != (size_t)n) {
        free(buf);
        snprintf(err, errlen, "%s: cannot be read: expected a record file", path);
        return NULL;
    }
    got = drop_samples(buf, got);
    json_error_t je;
    json_t *j = json_loadb(buf, got, JSON_REJECT_DUPLICATES, &je);
    free(buf);
    return finish(j, &je, path, tool, err, errlen);
}

json_t *rec_load_buffer(const char *buf, size_t len, char *err, size_t errlen)
{
    json_error_t je;
    json_t *j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    return finish(j, &je, "(buffer)", NULL, err, errlen);
}

const char *rec_str(const json_t *o, const char *key)
{
    const char *s = json_string_value(json_object_get(o, key));
    return s ? s : "";
}

double rec_num(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

int rec_tri(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    return json_is_true(v) ? 1 : json_is_false(v) ? 0 : -1;
}

const json_t *rec_bench_row(const json_t *bench, const char *path, const char *kind,
                            const char *candidate, int repeat)
{
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(bench, "rows"), i, r) {
        if (json_integer_value(json_object_get(r, "repeat")) != repeat ||
            json_is_true(json_object_get(r, "skipped")) || strcmp(rec_str(r, "path"), path))
            continue;
        if (kind && strcmp(rec_str(r, "kind"), kind))
            continue;
        if (candidate && strcmp(rec_str(r, "candidate"), candidate))
            continue;
        return r;
    }
    return NULL;
}
