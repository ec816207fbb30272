/* The arena: everything a run holds, allocated from blocks and freed at
 * once with the run. */
#include "model.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"

struct m_arena {
    struct m_arena *next;
    size_t used, cap;
    max_align_t data[];
};

void *m_alloc(m_run *r, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    m_arena *a = r->arena;
    if (!a || a->cap - a->used < n) {
        size_t cap = n > (1u << 20) ? n : (1u << 20);
        m_arena *b = malloc(sizeof *b + cap);
        if (!b)
            rf_out_of_memory("holding a run's records");
        b->next = a;
        b->used = 0;
        b->cap = cap;
        r->arena = a = b;
    }
    void *p = (char *)a->data + a->used;
    a->used += n;
    memset(p, 0, n);
    return p;
}

char *m_strdup(m_run *r, const char *s)
{
    size_t n = strlen(s ? s : "") + 1;
    char *d = m_alloc(r, n);
    if (d)
        memcpy(d, s ? s : "", n);
    return d ? d : "";
}

char *m_printf(m_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = rf_vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        return "";
    char *d = m_strdup(r, s);
    free(s);
    return d;
}

void m_arena_free(m_run *r)
{
    for (m_arena *a = r->arena, *n; a; a = n) {
        n = a->next;
        free(a);
    }
    r->arena = NULL;
}
