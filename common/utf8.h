/* UTF-8, the one check every writer of untrusted text uses: records,
 * Markdown, HTML, XML, CSV and gnuplot data all take strings through it. */
#ifndef HA_UTF8_H
#define HA_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if there is none:
 * overlong forms, surrogates and code points past U+10FFFF are invalid. */
size_t ha_utf8_len(const unsigned char *s);

#define HA_UTF8_REPLACEMENT "\xef\xbf\xbd"

#endif
