#include "text.h"

#include <string.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
    if (s[0] < 0x80)
        return 1;
    size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : 0;
    if (!n)
        return 0;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    unsigned cp = n == 2 ? (s[0] & 0x1fu) : n == 3 ? (s[0] & 0x0fu) : (s[0] & 0x07u);
    for (size_t i = 1; i < n; i++)
        cp = cp << 6 | (s[i] & 0x3fu);
    /* overlong forms, surrogates and code points past U+10FFFF */
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

static const char replacement[] = "\xef\xbf\xbd";

void html_text(FILE *f, const char *s)
{
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    while (*u) {
        size_t n = utf8_len(u);
        if (!n || (*u < 0x20 && *u != '\t' && *u != '\n') || *u == 0x7f) {
            fputs(replacement, f);
            u++;
            continue;
        }
        switch (*u) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fwrite(u, 1, n, f);
        }
        u += n;
    }
}

void utf8_clean(const char *s, char *out, size_t n)
{
    const unsigned char *u = (const unsigned char *)(s ? s : "");
    size_t w = 0;
    while (*u) {
        size_t k = utf8_len(u);
        const char *src = (const char *)u;
        if (!k || (*u < 0x20 && *u != '\t' && *u != '\n') || *u == 0x7f) {
            src = replacement;
            k = 3;
            u++;
        } else {
            u += k;
        }
        if (w + k >= n)
            break;
        memcpy(out + w, src, k);
        w += k;
    }
    if (n)
        out[w] = 0;
}

const char *md_text(const char *s)
{
    static char ring[64][2048];
    static unsigned next;
    char *out = ring[next++ % 64];
    size_t w = 0;
    for (const char *c = s ? s : ""; *c && w + 3 < sizeof ring[0]; c++) {
        unsigned char u = (unsigned char)*c;
        if (strchr("|<>`[]\\", *c))
            out[w++] = '\\';
        out[w++] = u < 0x20 || u == 0x7f ? ' ' : *c;
    }
    out[w] = 0;
    return out;
}
