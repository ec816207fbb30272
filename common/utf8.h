/* UTF-8, the one check every writer of untrusted text uses: records,
 * Markdown, HTML, XML, CSV, gnuplot data and the terminal all take strings
 * through it. */
#ifndef HA_UTF8_H
#define HA_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if there is none:
 * overlong forms, surrogates and code points past U+10FFFF are invalid. */
size_t ha_utf8_len(const unsigned char *s);

/* The length a sequence starting with byte c announces (1..4), or 0 when
 * no valid sequence starts with it. */
size_t ha_utf8_announced(unsigned char c);

/* The code point of the valid sequence of n bytes at s (n from ha_utf8_len). */
unsigned ha_utf8_code(const unsigned char *s, size_t n);

/* Whether code point c changes how the text around it reads while showing
 * nothing itself: a C1 control (U+0080..U+009F, which some terminals take
 * as commands) or a bidirectional formatting character (U+061C, U+200E,
 * U+200F, U+202A..U+202E, U+2066..U+2069), with which a row's or a
 * folder's name can be made to read as another's ("Trojan Source",
 * CVE-2021-42574). Writers show them as a replacement, or in JSON as an
 * escape, never as they are. */
bool ha_utf8_hidden(unsigned c);

/* Whether the valid sequence of n bytes at s is such a character. */
bool ha_utf8_hidden_at(const unsigned char *s, size_t n);

#define HA_UTF8_REPLACEMENT "\xef\xbf\xbd"

#endif
