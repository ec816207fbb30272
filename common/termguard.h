/* What a tool prints goes to a terminal, a CI log or a pager, and holds
 * folder names and record text that travel with pull requests. A name
 * holding ESC [ ... could move the cursor, retitle the window or hide the
 * line it is on; a bidirectional override could make one name read as
 * another. The guard passes stdout and stderr through one filter, so no
 * message has to remember to: control bytes other than tab, newline and
 * NUL (which a terminal ignores, and machine output separates by),
 * invalid UTF-8 and hidden characters (utf8.h) are printed as '?'. */
#ifndef HA_TERMGUARD_H
#define HA_TERMGUARD_H

#include <stddef.h>

/* Puts stdout and stderr behind the filter (once; later calls do nothing).
 * Buffering is kept as it was: stderr unbuffered, stdout by line on a
 * terminal and in blocks elsewhere. Every tool calls it first, through
 * ha_cli_parse (opts.h). */
void ha_term_guard(void);

/* The filter, in place: buf[0..n) cleaned, its new length returned. A
 * sequence the end of buf cuts short (a character written in two pieces)
 * is left out of the returned length and its length put in *held: the
 * caller passes it again in front of what comes next. */
size_t ha_term_clean(unsigned char *buf, size_t n, size_t *held);

#endif
