/* Record text and folder names are untrusted (they travel with pull
 * requests): one function per place they are written to, used everywhere
 * that place is written. Every one of them makes the text valid UTF-8
 * (invalid bytes as U+FFFD), shows each hidden character (utf8.h: C1
 * controls, bidirectional formatting, with which one name can be made to
 * read as another) as U+FFFD, and cuts nothing. And the units people read:
 * figures with 2 to 3 significant digits in ns, µs, ms or s, bytes in
 * KiB, MiB, GiB. */
#ifndef HA_TEXT_H
#define HA_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* s as HTML text or attribute value: & < > " ' escaped, control bytes as U+FFFD. */
void html_text(FILE *f, const char *s);

/* s as XML 1.0 text or attribute value: & < > " ' escaped; control
 * characters (which XML 1.0 cannot hold, not even as references) as U+FFFD. */
void xml_text(FILE *f, const char *s);

/* s as one CSV field (RFC 4180, quoted when needed). A field that a
 * spreadsheet would run as a formula (starting with = + - @, a tab or a
 * carriage return) is written with a leading apostrophe, and control
 * characters become spaces, so a field can neither run nor split a row. */
void csv_text(FILE *f, const char *s);

/* s made valid UTF-8 (invalid bytes and control bytes other than tab and
 * newline as U+FFFD): a new malloc'd string, or NULL when out of memory. */
char *utf8_fix(const char *s);

/* s for Markdown text or a table cell: each character that could start
 * markup inside a line (\ ` * _ [ ] < > | ! & ~ # $) backslash-escaped,
 * control bytes as spaces, so record text can neither end a cell nor
 * become markup (emphasis, a link, an image, HTML, a code span, math),
 * whatever it holds; record text is never placed at the start of a line.
 * The string lives until text_pool_free(). */
const char *md_text(const char *s);

/* s as the lines of a fenced code block: a fence longer than any run of
 * backticks in s, so no line of s can close it. */
void md_code_block(FILE *f, const char *s);

/* Human units, each in a string that lives until text_pool_free(). */
const char *fmt_ns(double ns);        /* "2.33 ns", "4.48 µs", "1.2 s" */
const char *fmt_bytes(double bytes);  /* "512 B", "64 KiB", "256 GiB" */
const char *fmt_times(double x);      /* "1900×", "11×", "1.6×"; "n/a" if not finite and positive */
const char *fmt_pct(double fraction); /* 0.976 -> "97.6 %" */

/* A formatted string with the same lifetime (it says nothing of escaping:
 * what it formats must already be safe where it goes). */
const char *text_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The strings md_text and the fmt_ functions returned, freed. */
void text_pool_free(void);

#endif
