/* An A/B session's SPEC, side B's account and its judge (ab.h); the
 * session's rounds are abrun.c. */
#include "ab.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "log.h"
#include "stats.h"

/* ---- SPEC ---- */

/* NAME= at s, NAME of capitals, digits and '_' not starting with a digit:
 * the length of NAME, or 0. */
static size_t var_name(const char *s)
{
    size_t n = 0;
    while ((s[n] >= 'A' && s[n] <= 'Z') || s[n] == '_' || (n && s[n] >= '0' && s[n] <= '9'))
        n++;
    return n && s[n] == '=' ? n : 0;
}

static int parse_env(ab_session *s, const char *list, char *why, size_t n)
{
    const char *p = list;
    while (*p) {
        size_t name = var_name(p);
        if (!name) {
            snprintf(why, n, "--ab env: takes NAME=VALUE[,NAME=VALUE...] with NAME in capitals, digits and '_'; "
                             "'%.60s%s' is not one", p, strlen(p) > 60 ? "..." : "");
            return -1;
        }
        /* The value runs to the next ",NAME=" or the end. */
        const char *end = p + name + 1;
        while (*end && !(*end == ',' && var_name(end + 1)))
            end++;
        for (int i = 0; i < s->nvars; i++)
            if (!strncmp(s->vars[i], p, name + 1)) {
                snprintf(why, n, "--ab env: %.*s is given twice", (int)name, p);
                return -1;
            }
        if (s->nvars == AB_MAX_VARS) {
            snprintf(why, n, "--ab env: at most %d variables", AB_MAX_VARS);
            return -1;
        }
        if (!(s->vars[s->nvars] = strndup(p, (size_t)(end - p)))) {
            snprintf(why, n, "out of memory reading --ab");
            return -1;
        }
        s->nvars++;
        p = *end ? end + 1 : end; /* a ',' ends a value only before NAME=, so p is not empty here */
    }
    if (!s->nvars) {
        snprintf(why, n, "--ab env: names no variable: give env:NAME=VALUE");
        return -1;
    }
    return 0;
}

static bool executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

static int parse_build(ab_session *s, const char *dir, char *why, size_t n)
{
    static const char *const where[] = {"%s/bench_discriminator", "%s/build/bench_discriminator", NULL};
    struct stat st;
    if (!*dir || stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(why, n, "--ab build: '%.200s' is not a folder: name another hostaccess build (or its tree)", dir);
        return -1;
    }
    for (int i = 0; where[i]; i++) {
        char *p = NULL;
        if (asprintf(&p, where[i], dir) < 0) {
            snprintf(why, n, "out of memory reading --ab");
            return -1;
        }
        if (executable(p)) {
            s->b_exe = p;
            return 0;
        }
        free(p);
    }
    snprintf(why, n, "--ab build: no bench in '%.200s' (looked for bench_discriminator and build/bench_discriminator): "
                     "run make probes there first", dir);
    return -1;
}

int ab_parse_spec(ab_session *s, const char *spec, char *why, size_t n)
{
    s->spec = spec;
    int rc;
    if (!strncmp(spec, "env:", 4))
        rc = parse_env(s, spec + 4, why, n);
    else if (!strncmp(spec, "build:", 6))
        rc = parse_build(s, spec + 6, why, n);
    else {
        snprintf(why, n, "--ab takes env:NAME=VALUE[,...] or build:DIR, not '%.60s%s'", spec,
                 strlen(spec) > 60 ? "..." : "");
        rc = -1;
    }
    if (rc)
        ab_free(s);
    else
        s->on = true;
    return rc;
}

void ab_free(ab_session *s)
{
    free(s->b_exe);
    s->b_exe = NULL;
    free(s->stopped);
    s->stopped = NULL;
    for (int i = 0; i < s->nvars; i++)
        free(s->vars[i]);
    s->nvars = 0;
}

int ab_print_side_b(const ab_session *s, FILE *f)
{
    if (s->b_exe) {
        const char *slash = strrchr(s->b_exe, '/');
        int len = slash ? (int)(slash - s->b_exe) : 1;
        fprintf(f, "build%c%.*s%c", 0, len, slash ? s->b_exe : ".", 0);
    } else {
        fprintf(f, "env%c", 0);
        for (int i = 0; i < s->nvars; i++)
            fprintf(f, "%s%c", s->vars[i], 0);
    }
    return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}

/* ---- the looks ---- */

void ab_find_judge(ab_session *s)
{
    char self[4096];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    s->judge[0] = 0;
    if (l <= 0 || (size_t)l >= sizeof self - 1)
        return;
    self[l] = 0;
    char *slash = strrchr(self, '/');
    if (!slash)
        return;
    *slash = 0;
    int w = snprintf(s->judge, sizeof s->judge, "%s/bin/compare", self);
    if (w < 0 || (size_t)w >= sizeof s->judge) {
        ha_log(HA_LOG_WARN, "A/B session: the build folder's path is longer than %zu bytes: compare is not run for "
                            "the looks", sizeof s->judge - 16);
        s->judge[0] = 0;
    } else if (!executable(s->judge)) {
        s->judge[0] = 0;
    }
}
