/* A worker process's environment: the first process's, side B's variables
 * over it, and padding of the size bench_procs_place drew (so each process
 * starts with its stack at another address). */
#ifndef HA_BENCH_WORKERENV_H
#define HA_BENCH_WORKERENV_H

#include <stddef.h>

/* base (NULL-ended) less any HOSTACCESS_ENV_PAD and any variable of the
 * same name as one of extra's NAME=VALUE (the whole name: TMP replaces
 * TMP, never TMPDIR), then extra, HOSTACCESS_ENV_PAD of pad 'x's and, when
 * neither sets HOSTACCESS_LOG, HOSTACCESS_LOG=warn. The array and *padvar
 * are malloc'd (the strings are base's and extra's); NULL out of memory. */
char **bench_worker_env(char *const *base, size_t pad, char **padvar, char *const *extra, int nextra);

#endif
