#include "pagelink.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The next component of *p ('/'-separated, empty ones skipped): its start
 * and length; 0 at the end. */
static size_t component(const char **p, const char **start)
{
    while (**p == '/')
        (*p)++;
    *start = *p;
    while (**p && **p != '/')
        (*p)++;
    return (size_t)(*p - *start);
}

static void encoded(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || strchr("-._~", c))
            fputc(c, f);
        else
            fprintf(f, "%%%02X", c);
    }
}

char *page_link(const char *from, const char *to)
{
    if (!from || !to || from[0] != '/' || to[0] != '/')
        return NULL;
    const char *a = from, *b = to, *sa, *sb;
    size_t na, nb;
    /* the common folders */
    for (;;) {
        const char *a0 = a, *b0 = b;
        na = component(&a, &sa);
        nb = component(&b, &sb);
        if (!na || na != nb || memcmp(sa, sb, na)) {
            a = a0, b = b0;
            break;
        }
    }
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    if (!f)
        return NULL;
    bool first = true;
    while ((na = component(&a, &sa)) > 0) { /* up out of what is left of from */
        fputs(first ? ".." : "/..", f);
        first = false;
    }
    while ((nb = component(&b, &sb)) > 0) {
        if (!first)
            fputc('/', f);
        encoded(f, sb, nb);
        first = false;
    }
    if (first)
        fputc('.', f);
    if (fclose(f) != 0) {
        free(out);
        return NULL;
    }
    return out;
}
