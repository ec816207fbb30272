/* The one way the report tools read a file they did not write: a regular
 * file only (a FIFO, device or folder named like a record is refused, never
 * waited on), opened without blocking, at most max bytes; a NAME.gz is
 * inflated with zlib under the same bound, so a compressed record and its
 * JSON read alike. */
#ifndef HA_READFILE_H
#define HA_READFILE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Reads path whole into a malloc'd, NUL-terminated buffer. Returns 0, or
 * -1 with a one-line reason in *err (malloc'd). gz: inflate it. */
int rf_read(const char *path, size_t max, bool gz, char **buf, size_t *len, char **err);

/* dir/name, or dir/name.gz where only that exists (inflated). *found is
 * false, and 0 returned, when neither exists; *which names the file read. */
int rf_read_either(const char *dir, const char *name, size_t max, char **buf, size_t *len, bool *found,
                   char **which, char **err);

/* Out of memory reading or holding records: a run dropped or a field left
 * empty would be judged as if whole, so the tool stops here, with one line
 * naming what it was doing, and HA_EXIT_NO_MEMORY. */
_Noreturn void rf_out_of_memory(const char *doing);

/* dir/name joined, malloc'd (NULL when out of memory). */
char *rf_join(const char *dir, const char *name);

/* A malloc'd string built like printf (NULL when out of memory). */
char *rf_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Every string the report tools format is made through this: vasprintf,
 * unless a test puts its own here to fail one call in turn. A seam of the
 * project's own: replacing vasprintf by name does nothing where
 * _FORTIFY_SOURCE sends the calls to __vasprintf_chk (Ubuntu's default). */
extern int (*rf_vasprintf)(char **strp, const char *fmt, va_list ap);
char *rf_vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
