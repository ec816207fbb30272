#include "workerenv.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define PAD_VAR "HOSTACCESS_ENV_PAD="
#define LOG_VAR "HOSTACCESS_LOG="

static bool named(const char *var, const char *name_eq)
{
    return !strncmp(var, name_eq, strcspn(name_eq, "=") + 1);
}

static bool overridden(const char *var, char *const *extra, int nextra)
{
    for (int i = 0; i < nextra; i++)
        if (named(var, extra[i]))
            return true;
    return false;
}

char **bench_worker_env(char *const *base, size_t pad, char **padvar, char *const *extra, int nextra)
{
    size_t n = 0;
    while (base[n])
        n++;
    char **e = calloc(n + 3 + (size_t)nextra, sizeof *e);
    *padvar = malloc(pad + sizeof PAD_VAR);
    if (!e || !*padvar) {
        free(e);
        free(*padvar);
        *padvar = NULL;
        return NULL;
    }
    size_t k = 0;
    bool log = false;
    for (size_t i = 0; i < n; i++)
        if (!named(base[i], PAD_VAR) && !overridden(base[i], extra, nextra)) {
            log |= named(base[i], LOG_VAR);
            e[k++] = base[i];
        }
    for (int i = 0; i < nextra; i++) {
        log |= named(extra[i], LOG_VAR);
        e[k++] = extra[i];
    }
    memcpy(*padvar, PAD_VAR, sizeof PAD_VAR - 1);
    memset(*padvar + sizeof PAD_VAR - 1, 'x', pad);
    (*padvar)[sizeof PAD_VAR - 1 + pad] = 0;
    e[k++] = *padvar;
    if (!log)
        e[k++] = LOG_VAR "warn";
    return e;
}
