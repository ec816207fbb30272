/* What the integration tests share: running a command and keeping its
 * output, and a scratch folder per test binary. */
#ifndef HA_ITEST_H
#define HA_ITEST_H

#include <stddef.h>

/* Output (both streams) of the last it_sh() call. */
extern char it_out[1 << 16];

/* Runs a shell command built like printf; returns its exit status (128 if
 * it did not exit normally). */
int it_sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Makes /tmp/ha-<name>-XXXXXX into dir; 0 on success. */
int it_tmpdir(char *dir, size_t n, const char *name);

/* The build folder under test: $BUILD, or build. */
const char *it_build(void);

#endif
