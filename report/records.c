#include "records.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#define HEAD                                                                                      \
    {"schema_version", RT_INT, 0, 0}, {"tool", RT_STR, 0, 0}, {"simulated", RT_BOOL, 0, 0}, {"env", RT_OBJ, 0, 0},         \
    {"env.backend", RT_STR, 0, 0}, {"env.simulated", RT_BOOL, 0, 0}, {"env.tool_version", RT_STR, 0, 0},             \
    {"env.header_version", RT_STR, 0, 0}, {"env.runtime_version", RT_STR, 0, 0},                               \
    {"env.driver_version", RT_STR, 0, 0}, {"env.device_name", RT_STR, 0, 0}, {"env.arch", RT_STR, 0, 0},             \
    {"env.vram_bytes", RT_INT, 0, 1ll << 50}, {"env.device", RT_INT, 0, 1023}, {"env.large_bar", RT_OBJ, 0, 0},                 \
    {"env.large_bar.runtime", RT_BOOL | RT_NULL, 0, 0}, {"env.large_bar.sysfs", RT_BOOL | RT_NULL, 0, 0},      \
    {"env.large_bar.sysfs_note", RT_STR, 0, 0}, {"env.kernel", RT_STR, 0, 0}, {"env.cpu", RT_STR, 0, 0},             \
    {"env.host", RT_STR, 0, 0}, {"env.time_utc", RT_STR, 0, 0}, {"env.version_warning", RT_STR | RT_NULL, 0, 0}

static const rec_field env_fields[] = {HEAD, {NULL, 0, 0, 0}};

static const rec_field probe_fields[] = {
    HEAD,
    {"wall_time_s", RT_NUM, 0, 0},
    {"isolation", RT_STR, 0, 0},
    {"kinds", RT_ARR, 0, 0},
    {"kinds[].name", RT_STR, 0, 0},
    {"kinds[].created", RT_BOOL, 0, 0},
    {"kinds[].detail", RT_STR, 0, 0},
    {"kinds[].readable", RT_BOOL | RT_NULL, 0, 0},
    {"kinds[].writable", RT_BOOL | RT_NULL, 0, 0},
    {"kinds[].isolation_agrees", RT_BOOL | RT_NULL, 0, 0},
    {"kinds[].truth_note", RT_STR, 0, 0},
    {"candidates", RT_ARR, 0, 0},
    {"candidates[].name", RT_STR, 0, 0},
    {"candidates[].verdict", RT_STR, 0, 0},
    {"candidates[].distinguishes", RT_BOOL, 0, 0},
    {"candidates[].wrong_on", RT_ARR, 0, 0},
    {"candidates[].wrong_on[].kind", RT_STR, 0, 0},
    {"candidates[].wrong_on[].error", RT_STR, 0, 0},
    {"candidates[].results", RT_ARR, 0, 0},
    {"candidates[].results[].kind", RT_STR, 0, 0},
    {"candidates[].results[].outcome", RT_STR, 0, 0},
    {"candidates[].results[].status", RT_INT, INT32_MIN, INT32_MAX},
    {"candidates[].results[].status_name", RT_STR, 0, 0},
    {"candidates[].results[].value", RT_STR, 0, 0},
    {"candidates[].results[].class", RT_STR, 0, 0},
    {NULL, 0, 0, 0},
};

static const rec_field mga_fields[] = {
    HEAD,
    {"shapes", RT_ARR, 0, 0},
    {"shapes[].kind", RT_STR, 0, 0},
    {"shapes[].created", RT_BOOL, 0, 0},
    {"shapes[].detail", RT_STR, 0, 0},
    {"shapes[].stages", RT_ARR, 0, 0},
    {"shapes[].stages[].stage", RT_STR, 0, 0},
    {"shapes[].stages[].stage_status_name", RT_STR, 0, 0},
    {"shapes[].stages[].host_read", RT_STR | RT_NULL, 0, 0},
    {"shapes[].stages[].access", RT_ARR, 0, 0},
    {"shapes[].stages[].access[].location", RT_STR, 0, 0},
    {"shapes[].stages[].access[].status_name", RT_STR, 0, 0},
    {"shapes[].stages[].access[].flags", RT_INT | RT_NULL, 0, UINT32_MAX},
    {NULL, 0, 0, 0},
};

static const rec_field bench_fields[] = {
    HEAD,
    {"wall_time_s", RT_NUM, 0, 0},
    {"clock", RT_OBJ, 0, 0},
    {"clock.read_ns", RT_NUM, 0, 0},
    {"headline", RT_OBJ | RT_NULL, 0, 0},
    {"rows", RT_ARR, 0, 0},
    {"rows[].path", RT_STR, 0, 0},
    {"rows[].kind", RT_STR | RT_NULL, 0, 0},
    {"rows[].candidate", RT_STR | RT_NULL, 0, 0},
    {"rows[].repeat", RT_INT, 1, 1000},
    {"rows[].skipped", RT_BOOL, 0, 0},
    {"rows[].comparable_to_bar_read", RT_BOOL, 0, 0},
    {"rows[].family", RT_STR | RT_ABSENT, 0, 0},
    {"test_slowdown", RT_ARR | RT_NULL | RT_ABSENT, 0, 0},
    {"sweep", RT_OBJ | RT_NULL, 0, 0},
    {NULL, 0, 0, 0},
};

/* Fields present only on measured rows, checked where skipped is false. */
static const rec_field bench_row_fields[] = {
    {"median_ns", RT_NUM, 0, 0},
    {"spread_ns", RT_NUM, 0, 0},
    {"min_ns", RT_NUM, 0, 0},
    {"p90_ns", RT_NUM, 0, 0},
    {"p99_ns", RT_NUM, 0, 0},
    {"max_ns", RT_NUM, 0, 0},
    {"n", RT_INT, 0, 1ll << 40},
    {"samples_ns", RT_ARR, 0, 0},
    {"samples_ns[]", RT_NUM, 0, 0}, /* every raw sample a number: a 200 MB array of objects is refused */
    {"block_samples", RT_INT | RT_ABSENT, 1, 1ll << 40},
    {NULL, 0, 0, 0},
};

static const rec_field pool_fields[] = {
    HEAD,
    {"checks", RT_ARR, 0, 0},
    {"checks[].name", RT_STR, 0, 0},
    {"checks[].mode", RT_STR, 0, 0},
    {"checks[].passed", RT_BOOL | RT_NULL, 0, 0},
    {"checks[].status", RT_STR, 0, 0},
    {"checks[].detail", RT_STR, 0, 0},
    {"summary", RT_OBJ, 0, 0},
    {"summary.failed", RT_INT, 0, 1000000},
    {"throughput", RT_ARR, 0, 0},
    {"throughput[].pool_bytes", RT_INT, 0, 1ll << 50},
    {"throughput[].measured", RT_BOOL, 0, 0},
    {NULL, 0, 0, 0},
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
static int in_range(const json_t *j, const rec_field *f, const char *where, char *err, size_t errlen)
{
    if (!json_is_integer(j) || f->max <= f->min)
        return 0;
    long long v = json_integer_value(j);
    if (v >= f->min && v <= f->max)
        return 0;
    snprintf(err, errlen, "%s: expected an integer from %lld to %lld, found %lld", where, f->min, f->max, v);
    return -1;
}

static int walk(const json_t *node, const char *path, char *where, size_t wlen, const rec_field *f,
                char *err, size_t errlen)
{
    int types = f->types;
    if (!*path) {
        if (type_ok(node, types))
            return in_range(node, f, where, err, errlen);
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
        if (f->types & RT_ABSENT) /* a field newer records carry and older ones lack */
            return 0;
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
                if (in_range(el, f, where, err, errlen))
                    return -1;
            } else if (walk(el, rest, where, wlen, f, err, errlen)) {
                return -1;
            }
            where[wl2] = 0;
        }
        where[wl] = 0;
        return 0;
    }
    if (*rest == '.')
        rest++;
    int rc = walk(child, rest, where, wlen, f, err, errlen);
    if (rc == 0)
        where[wl] = 0;
    return rc;
}

int rec_check_fields(const json_t *root, const rec_field *f, char *err, size_t errlen)
{
    char where[256];
    for (; f->path; f++) {
        snprintf(where, sizeof where, "$");
        if (walk(root, f->path, where, sizeof where, f, err, errlen))
            return -1;
    }
    return 0;
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
    if (rec_check_fields(root, f, err, errlen))
        return -1;
    char where[256];
    if (!t || strcmp(t, "bench_discriminator") != 0)
        return 0;
    size_t i;
    const json_t *row;
    json_array_foreach(json_object_get(root, "rows"), i, row) {
        if (json_is_true(json_object_get(row, "skipped")))
            continue;
        for (const rec_field *rf = bench_row_fields; rf->path; rf++) {
            snprintf(where, sizeof where, "$.rows[%zu]", i);
            if (walk(row, rf->path, where, sizeof where, rf, err, errlen))
                return -1;
        }
    }
    return 0;
}

/* Reads a whole record file into a new buffer: a regular file only (a FIFO
 * would block, a folder has no bytes), opened without blocking, at most
 * REC_MAX_BYTES. */
static char *read_file(const char *path, size_t *len, char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        snprintf(err, errlen, "%s: cannot be read (%s): expected a record file", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: expected a regular file (a record), found %s", path,
                 S_ISDIR(st.st_mode) ? "a folder" : S_ISFIFO(st.st_mode) ? "a FIFO" : "something else");
        close(fd);
        return NULL;
    }
    if (st.st_size > REC_MAX_BYTES) {
        snprintf(err, errlen, "%s: %lld bytes: expected a record of at most %lld MiB", path,
                 (long long)st.st_size, REC_MAX_BYTES >> 20);
        close(fd);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf || got != (size_t)st.st_size) {
        free(buf);
        snprintf(err, errlen, "%s: cannot be read whole: expected a record file", path);
        return NULL;
    }
    *len = got;
    return buf;
}

static size_t drop_samples(char *buf, size_t len);

/* Reads path strictly and parses it; summary drops the raw samples first.
 * NULL with err set when the file cannot be read or is not JSON. */
static json_t *read_json(const char *path, bool summary, char *err, size_t errlen)
{
    size_t len;
    char *buf = read_file(path, &len, err, errlen);
    if (!buf)
        return NULL;
    if (summary)
        len = drop_samples(buf, len);
    json_error_t je;
    json_t *j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    free(buf);
    if (!j)
        snprintf(err, errlen, "%s: line %d, column %d: expected valid JSON (%s)", path, je.line, je.column,
                 je.text);
    return j;
}

/* A parsed document, checked as a record of tool; NULL with err otherwise. */
static json_t *checked(json_t *j, const char *name, const char *tool, char *err, size_t errlen)
{
    char why[400];
    if (j && rec_validate(j, tool, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", name, why);
        json_decref(j);
        return NULL;
    }
    return j;
}

json_t *rec_load(const char *path, const char *tool, char *err, size_t errlen)
{
    return checked(read_json(path, false, err, errlen), path, tool, err, errlen);
}

json_t *rec_load_json(const char *path, char *err, size_t errlen) { return read_json(path, false, err, errlen); }

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
    return checked(read_json(path, true, err, errlen), path, tool, err, errlen);
}

json_t *rec_load_buffer(const char *buf, size_t len, char *err, size_t errlen)
{
    json_error_t je;
    json_t *j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        snprintf(err, errlen, "(buffer): line %d, column %d: expected valid JSON (%s)", je.line, je.column, je.text);
        return NULL;
    }
    return checked(j, "(buffer)", NULL, err, errlen);
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

long long rec_int(const json_t *o, const char *key)
{
    const json_t *v = json_object_get(o, key);
    if (json_is_integer(v))
        return json_integer_value(v);
    double d = json_is_real(v) ? json_real_value(v) : 0;
    return isfinite(d) && fabs(d) < 9e18 ? (long long)d : 0;
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

const char *rec_row_family(const json_t *row)
{
    const char *f = rec_str(row, "family");
    if (*f)
        return f;
    /* Records from before the field: the path names of that bench. */
    static const struct { const char *prefix, *family; } legacy[] = {
        {"harness", "harness"}, {"canary", "canary"}, {"fast_cold", "memory"}, {"fast", "read"},   {"guarded", "guarded"}, {"disc", "query"},
        {"hardened", "hardened"}, {"copy", "copy"}, {"fault", "fault"},
    };
    const char *p = rec_str(row, "path");
    for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++)
        if (!strncmp(p, legacy[i].prefix, strlen(legacy[i].prefix)))
            return legacy[i].family;
    return "";
}
