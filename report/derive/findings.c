#include "findings.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "readfile.h"

static void oom(void) { rf_out_of_memory("listing what changed"); }

void findings_add(findings *f, int cls, const char *what, const char *name, const char *fmt, ...)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        finding *g = realloc(f->v, cap * sizeof *f->v);
        if (!g)
            oom();
        f->v = g;
        f->cap = cap;
    }
    va_list ap;
    va_start(ap, fmt);
    finding x = {cls, strdup(what), strdup(name), rf_vprintf(fmt, ap)};
    va_end(ap);
    if (!x.what || !x.name || !x.detail)
        oom();
    f->v[f->n++] = x;
}

static void push(char ***list, size_t *n, char *s)
{
    char **g = realloc(*list, (*n + 1) * sizeof *g);
    if (!g || !s)
        oom();
    *list = g;
    g[(*n)++] = s;
}

void findings_note(findings *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    push(&f->notes, &f->nnotes, rf_vprintf(fmt, ap));
    va_end(ap);
}

void findings_unresolved(findings *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(f->unresolved);
    f->unresolved = rf_vprintf(fmt, ap);
    va_end(ap);
    if (!f->unresolved) /* never clean for want of memory to say why not */
        findings_add(f, INCONCLUSIVE, "verdict", "unresolved", "out of memory saying why the pair is not clean");
}

void findings_bound(findings *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(f->bound);
    f->bound = rf_vprintf(fmt, ap);
    va_end(ap);
}

void findings_differ(findings *f, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    push(&f->differ, &f->ndiffer, rf_vprintf(fmt, ap));
    va_end(ap);
}

size_t findings_count(const findings *f, int cls)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        n += f->v[i].cls == cls;
    return n;
}

void findings_clear(findings *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->v[i].what);
        free(f->v[i].name);
        free(f->v[i].detail);
    }
    for (size_t i = 0; i < f->nnotes; i++)
        free(f->notes[i]);
    for (size_t i = 0; i < f->ndiffer; i++)
        free(f->differ[i]);
    free(f->notes);
    free(f->differ);
    f->notes = f->differ = NULL;
    f->n = f->nnotes = f->ndiffer = 0;
    f->same_machine = false;
    f->sides = false;
    f->session = NULL;
    f->timings = NULL;
    free(f->unresolved);
    f->unresolved = NULL;
    free(f->bound);
    f->bound = NULL;
    memset(&f->st, 0, sizeof f->st);
}

void findings_free(findings *f)
{
    findings_clear(f);
    free(f->v);
    memset(f, 0, sizeof *f);
}

const char *findings_verdict(const findings *f)
{
    return findings_count(f, REGRESSION)     ? "regression"
           : findings_count(f, INCONCLUSIVE) ? "inconclusive"
           : f->unresolved                   ? "unresolved"
                                             : "clean";
}

int findings_status(const findings *f)
{
    return findings_count(f, REGRESSION)     ? HA_EXIT_FAIL
           : findings_count(f, INCONCLUSIVE) ? HA_EXIT_INCONCLUSIVE
           : f->unresolved                   ? HA_EXIT_UNRESOLVED
                                             : HA_EXIT_OK;
}
