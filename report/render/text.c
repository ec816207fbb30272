#include "text.h"
#include "units.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "readfile.h"
#include "utf8.h"

/* ---- a pool of strings the renderers print and forget ---- */

static char **pool;
static size_t npool, cap;

static const char *keep(char *s)
{
    if (!s)
        return "";
    if (npool == cap) {
        size_t n = cap ? 2 * cap : 256;
        char **p = realloc(pool, n * sizeof *p);
        if (!p) {
            free(s);
            return "";
        }
        pool = p;
        cap = n;
    }
    return pool[npool++] = s;
}

void text_pool_free(void)
{
    for (size_t i = 0; i < npool; i++)
        free(pool[i]);
    free(pool);
    pool = NULL;
    npool = cap = 0;
}

const char *text_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = rf_vprintf(fmt, ap);
    va_end(ap);
    return keep(s);
}

/* ---- escaping ---- */

/* Walks s as UTF-8: each valid character goes to put(); each invalid byte,
 * each control byte (tab and newline too unless keep_ws) and each hidden
 * character (utf8.h: C1 controls, bidirectional formatting) to bad(), with
 * u_ at its first byte. */
#define WALK(s, keep_ws, put, bad)                                                                             \
    for (const unsigned char *u_ = (const unsigned char *)((s) ? (s) : ""); *u_;) {                          \
        size_t n_ = ha_utf8_len(u_);                                                                         \
        bool ctl_ = *u_ < 0x20 || *u_ == 0x7f || ha_utf8_hidden_at(u_, n_);                                  \
        if (!n_ || (ctl_ && !((keep_ws) && (*u_ == '\t' || *u_ == '\n')))) {                                 \
            bad;                                                                                             \
            u_ += n_ ? n_ : 1;                                                                               \
            continue;                                                                                        \
        }                                                                                                    \
        put;                                                                                                 \
        u_ += n_;                                                                                            \
    }

static void entity(FILE *f, unsigned char c, size_t n, const unsigned char *u)
{
    switch (c) {
    case '&': fputs_unlocked("&amp;", f); break;
    case '<': fputs_unlocked("&lt;", f); break;
    case '>': fputs_unlocked("&gt;", f); break;
    case '"': fputs_unlocked("&quot;", f); break;
    case '\'': fputs_unlocked("&#39;", f); break;
    default: fwrite_unlocked(u, 1, n, f);
    }
}

void html_text(FILE *f, const char *s) { WALK(s, true, entity(f, *u_, n_, u_), fputs_unlocked(HA_UTF8_REPLACEMENT, f)) }

void xml_text(FILE *f, const char *s)
{
    /* XML 1.0 holds tab, newline and carriage return, nothing else below 0x20;
     * U+FFFE and U+FFFF are not characters either. */
    WALK(s, true,
         (n_ == 3 && u_[0] == 0xef && u_[1] == 0xbf && u_[2] >= 0xbe) ? fputs_unlocked(HA_UTF8_REPLACEMENT, f)
                                                                       : (entity(f, *u_, n_, u_), 0),
         fputs_unlocked(HA_UTF8_REPLACEMENT, f))
}

void csv_text(FILE *f, const char *s)
{
    const char *t = s ? s : "";
    bool formula = strchr("=+-@\t\r", *t) && *t;
    bool quote = formula || strpbrk(t, ",\"\n\r\t") || *t == ' ';
    if (quote)
        putc_unlocked('"', f);
    if (formula)
        putc_unlocked('\'', f);
    WALK(t, false, (*u_ == '"' ? fputs_unlocked("\"\"", f) : (fwrite_unlocked(u_, 1, n_, f), 0)),
         (*u_ < 0x20 || *u_ == 0x7f) ? putc_unlocked(' ', f) : fputs_unlocked(HA_UTF8_REPLACEMENT, f))
    if (quote)
        putc_unlocked('"', f);
}

char *utf8_fix(const char *s)
{
    size_t n = strlen(s ? s : "");
    char *out = malloc(3 * n + 1), *w = out;
    if (!out)
        return NULL;
    WALK(s, true, (memcpy(w, u_, n_), w += n_), (memcpy(w, HA_UTF8_REPLACEMENT, 3), w += 3))
    *w = 0;
    return out;
}

/* GitHub turns @name into a mention that notifies people, #123 into a
 * reference, and bare URLs, www. and e-mail addresses into links, even
 * after a backslash escape. An invisible WORD JOINER (U+2060) after each
 * trigger keeps the text as it reads and breaks the pattern. */
#define WORD_JOINER "\xe2\x81\xa0"
static char *no_autolinks(const char *s)
{
    size_t n = strlen(s);
    char *out = malloc(4 * n + 1), *w = out;
    if (!out)
        return NULL;
    for (const char *p = s; *p; p++) {
        if (!strncasecmp(p, "www.", 4)) {
            memcpy(w, p, 3), w += 3, p += 2;
            memcpy(w, WORD_JOINER, 3), w += 3;
            continue;
        }
        *w++ = *p;
        if (*p == '@' || *p == '#' || (*p == ':' && p[1] == '/' && p[2] == '/'))
            memcpy(w, WORD_JOINER, 3), w += 3;
    }
    *w = 0;
    return out;
}

const char *md_text(const char *s)
{
    size_t n = strlen(s ? s : "");
    char *out = malloc(3 * n + 1), *w = out;
    if (!out)
        return "";
    WALK(s, false,
         ((*u_ < 0x80 && strchr("\\`*_[]<>|!&~#$", *u_)) ? (*w++ = '\\', *w++ = (char)*u_)
                                                                              : (memcpy(w, u_, n_), w += n_, 0)),
         (*u_ < 0x20 || *u_ == 0x7f) ? (*w++ = ' ') : (memcpy(w, HA_UTF8_REPLACEMENT, 3), w += 3, 0))
    *w = 0;
    char *safe = no_autolinks(out);
    free(out);
    return safe ? keep(safe) : "";
}

void md_code_block(FILE *f, const char *s)
{
    size_t run = 0, longest = 0;
    for (const char *c = s ? s : ""; *c; c++) {
        run = *c == '`' ? run + 1 : 0;
        if (run > longest)
            longest = run;
    }
    size_t fence = longest < 3 ? 3 : longest + 1;
    for (size_t i = 0; i < fence; i++)
        putc_unlocked('`', f);
    fputs_unlocked("text\n", f);
    char *clean = utf8_fix(s);
    if (clean) {
        fputs_unlocked(clean, f);
        if (*clean && clean[strlen(clean) - 1] != '\n')
            putc_unlocked('\n', f);
        free(clean);
    }
    for (size_t i = 0; i < fence; i++)
        putc_unlocked('`', f);
    putc_unlocked('\n', f);
}

/* ---- units ---- */

/* v with 3 significant digits, never in exponent form for 0.01 .. 99999. */
static const char *sig3(double v, const char *unit)
{
    double a = fabs(v);
    int dec = a >= 100 ? 0 : a >= 10 ? 1 : 2;
    return text_printf("%.*f %s", dec, v, unit);
}

const char *fmt_ns(double ns)
{
    if (!isfinite(ns))
        return "n/a";
    double a = fabs(ns);
    if (a < 1e3)
        return sig3(ns, "ns");
    if (a < 1e6)
        return sig3(ns / 1e3, "µs");
    if (a < 1e9)
        return sig3(ns / 1e6, "ms");
    return sig3(ns / 1e9, "s");
}

const char *fmt_bytes(double b)
{
    char buf[48];
    ha_bytes_text(b, buf, sizeof buf);
    return text_printf("%s", buf);
}

const char *fmt_times(double x)
{
    if (!isfinite(x) || x <= 0)
        return "n/a";
    return x >= 10 ? text_printf("%.0f×", x) : text_printf("%.1f×", x);
}

const char *fmt_pct(double f)
{
    if (!isfinite(f))
        return "n/a";
    return text_printf("%.1f %%", 100 * f);
}

