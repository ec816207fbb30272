#include "jsonw.h"

#include "utf8.h"

#include <errno.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void jw_init(jw *w, FILE *f, bool pretty)
{
    memset(w, 0, sizeof *w);
    w->f = f;
    w->pretty = pretty;
    w->first[0] = true;
}

static void indent(jw *w)
{
    if (!w->pretty || w->flat[w->depth])
        return;
    putc_unlocked('\n', w->f);
    for (int i = 0; i < w->depth; i++)
        fputs_unlocked("  ", w->f);
}

/* Separator and indentation before any value or key. */
static void before_value(jw *w)
{
    if (w->after_key) {
        w->after_key = false;
        return;
    }
    if (!w->first[w->depth])
        fputs_unlocked(w->flat[w->depth] && w->pretty ? ", " : ",", w->f);
    w->first[w->depth] = false;
    if (w->depth > 0)
        indent(w);
}

static void open_level(jw *w, char c, bool flat)
{
    before_value(w);
    putc_unlocked(c, w->f);
    if (w->depth + 1 >= JW_MAX_DEPTH) {
        w->err = 1;
        return;
    }
    w->depth++;
    w->first[w->depth] = true;
    w->flat[w->depth] = flat || w->flat[w->depth - 1];
}

static void close_level(jw *w, char c)
{
    if (w->depth == 0 || w->after_key) {
        w->err = 1;
        return;
    }
    bool empty = w->first[w->depth], flat = w->flat[w->depth];
    w->depth--;
    if (!empty && !flat)
        indent(w);
    putc_unlocked(c, w->f);
}

void jw_obj(jw *w) { open_level(w, '{', false); }
void jw_obj_end(jw *w) { close_level(w, '}'); }
void jw_arr(jw *w) { open_level(w, '[', false); }
void jw_arr_flat(jw *w) { open_level(w, '[', true); }
void jw_arr_end(jw *w) { close_level(w, ']'); }

/* Valid JSON whatever the bytes: invalid UTF-8 (a folder name, a host
 * name from the environment) is written as U+FFFD, never passed through;
 * a hidden character (utf8.h) as its escape, so the text is kept whole
 * and yet cannot turn a line around where the file is read as text. */
static void put_string(jw *w, const char *s)
{
    putc_unlocked('"', w->f);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        size_t n = ha_utf8_len(p);
        if (n == 0) {
            fputs_unlocked("\\ufffd", w->f);
            continue;
        }
        if (ha_utf8_hidden_at(p, n)) {
            fprintf(w->f, "\\u%04x", ha_utf8_code(p, n));
            p += n - 1;
            continue;
        }
        if (n > 1) {
            fwrite_unlocked(p, 1, n, w->f);
            p += n - 1;
            continue;
        }
        switch (*p) {
        case '"': fputs_unlocked("\\\"", w->f); break;
        case '\\': fputs_unlocked("\\\\", w->f); break;
        case '\n': fputs_unlocked("\\n", w->f); break;
        case '\r': fputs_unlocked("\\r", w->f); break;
        case '\t': fputs_unlocked("\\t", w->f); break;
        case '\b': fputs_unlocked("\\b", w->f); break;
        case '\f': fputs_unlocked("\\f", w->f); break;
        default:
            if (*p < 0x20 || *p == 0x7f)
                fprintf(w->f, "\\u%04x", *p);
            else
                putc_unlocked(*p, w->f);
        }
    }
    putc_unlocked('"', w->f);
}

void jw_key(jw *w, const char *k)
{
    before_value(w);
    put_string(w, k);
    fputs_unlocked(w->pretty ? ": " : ":", w->f);
    w->after_key = true;
}

void jw_str(jw *w, const char *s)
{
    if (!s) {
        jw_null(w);
        return;
    }
    before_value(w);
    put_string(w, s);
}

void jw_int(jw *w, int64_t v)
{
    before_value(w);
    fprintf(w->f, "%" PRId64, v);
}

void jw_uint(jw *w, uint64_t v)
{
    before_value(w);
    fprintf(w->f, "%" PRIu64, v);
}

void jw_dbl(jw *w, double v)
{
    if (!isfinite(v)) {
        jw_null(w);
        return;
    }
    before_value(w);
    /* %.17g round-trips a double; integral values keep a JSON number form */
    fprintf(w->f, "%.17g", v);
}

void jw_dbl_prec(jw *w, double v, int digits)
{
    if (!isfinite(v)) {
        jw_null(w);
        return;
    }
    before_value(w);
    fprintf(w->f, "%.*g", digits, v);
}

double jw_dbl_as_written(double v, int digits)
{
    if (!isfinite(v))
        return v;
    char text[64];
    snprintf(text, sizeof text, "%.*g", digits, v);
    return strtod(text, NULL);
}

void jw_bool(jw *w, bool v)
{
    before_value(w);
    fputs_unlocked(v ? "true" : "false", w->f);
}

void jw_null(jw *w)
{
    before_value(w);
    fputs_unlocked("null", w->f);
}

void jw_kstr(jw *w, const char *k, const char *v) { jw_key(w, k); jw_str(w, v); }
void jw_kint(jw *w, const char *k, int64_t v) { jw_key(w, k); jw_int(w, v); }
void jw_kuint(jw *w, const char *k, uint64_t v) { jw_key(w, k); jw_uint(w, v); }
void jw_kdbl(jw *w, const char *k, double v) { jw_key(w, k); jw_dbl(w, v); }
void jw_kbool(jw *w, const char *k, bool v) { jw_key(w, k); jw_bool(w, v); }

void jw_ktri(jw *w, const char *k, int v)
{
    jw_key(w, k);
    if (v < 0)
        jw_null(w);
    else
        jw_bool(w, v != 0);
}

int jw_finish(jw *w)
{
    if (w->depth != 0 || w->after_key)
        w->err = 1;
    if (w->pretty)
        putc_unlocked('\n', w->f);
    if (fflush(w->f) != 0 || ferror(w->f)) {
        w->err = 1;
        w->write_errno = errno ? errno : EIO;
    }
    return w->err;
}
