/* Record text and folder names are untrusted: one function per place they
 * are written to, used everywhere that place is written. */
#ifndef HA_TEXT_H
#define HA_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* s as HTML text or attribute value: & < > " ' escaped, control bytes and
 * invalid UTF-8 as U+FFFD. */
void html_text(FILE *f, const char *s);

/* s made valid UTF-8 into out (invalid bytes become U+FFFD, control bytes
 * other than tab and newline too); out always ends with NUL. */
void utf8_clean(const char *s, char *out, size_t n);

/* s for a Markdown table cell or line: | < > ` [ ] \ escaped with a
 * backslash, control bytes as spaces, so record text can neither end a
 * cell nor become markup. Returns one of a ring of static buffers, valid
 * for the next 63 calls: use it inside one statement. */
const char *md_text(const char *s);

#endif
