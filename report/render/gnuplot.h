/* gnuplot without a shell. Record text (kind names, versions, folder names)
 * is untrusted: it reaches gnuplot only as quoted strings or as data, and
 * gnuplot runs by fork/exec in a working folder set with chdir, so no path
 * or string is ever parsed by a shell. */
#ifndef HA_GNUPLOT_H
#define HA_GNUPLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Whether an executable gnuplot is on PATH (looked up, not run). */
bool gp_available(void);

/* Runs `gnuplot SCRIPT` with dir as its working folder, its stderr in
 * dir/gnuplot.log. 0 when gnuplot exited 0; else -1 with err saying why,
 * gnuplot's complaint quoted (the log need not outlive the call). */
int gp_run(const char *dir, const char *script, char *err, size_t errlen);

/* Writes s as a gnuplot single-quoted string: ' doubled, control bytes
 * (a newline would end the command), invalid UTF-8 and hidden characters
 * (utf8.h) written as '?'. */
void gp_quote(FILE *f, const char *s);

/* Writes s as a double-quoted data-file field: quotes, control bytes,
 * invalid UTF-8 and hidden characters written as '?', so a field can never
 * end early, span lines or turn the text around it. */
void gp_data_str(FILE *f, const char *s);

#endif
