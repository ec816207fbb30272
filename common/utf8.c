#include "utf8.h"

unsigned ha_utf8_code(const unsigned char *s, size_t n)
{
    unsigned cp = n == 1 ? s[0] : n == 2 ? (s[0] & 0x1fu) : n == 3 ? (s[0] & 0x0fu) : (s[0] & 0x07u);
    for (size_t i = 1; i < n; i++)
        cp = cp << 6 | (s[i] & 0x3fu);
    return cp;
}

size_t ha_utf8_announced(unsigned char c)
{
    return c < 0x80 ? 1 : c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 && c < 0xf0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
}

size_t ha_utf8_len(const unsigned char *s)
{
    size_t n = ha_utf8_announced(s[0]);
    if (n <= 1)
        return n;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80)
            return 0;
    unsigned cp = ha_utf8_code(s, n);
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return n;
}

bool ha_utf8_hidden(unsigned c)
{
    return (c >= 0x80 && c <= 0x9f) || c == 0x61c || c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
           (c >= 0x2066 && c <= 0x2069);
}

bool ha_utf8_hidden_at(const unsigned char *s, size_t n) { return n > 1 && ha_utf8_hidden(ha_utf8_code(s, n)); }
