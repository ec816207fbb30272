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
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend.h"
#include "dynload.h"
#include "log.h"
#include "rocm_profiles.h"
#include "sha256.h"
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

static bool has_var(const ab_session *s, const char *name)
{
    size_t l = strlen(name);
    for (int i = 0; i < s->nvars; i++)
        if (!strncmp(s->vars[i], name, l) && s->vars[i][l] == '=')
            return true;
    return false;
}

/* ROCM_PATH and CUDA_PATH choose headers at build time; at run time no
 * tool loads a runtime by them. A session that sets them alone would set a
 * runtime against itself and read as a release comparison. */
static int swaps_nothing(const ab_session *s, char *why, size_t n)
{
    if ((has_var(s, "ROCM_PATH") || has_var(s, "CUDA_PATH")) && !has_var(s, HA_HIP_LIBRARY_ENV) &&
        !has_var(s, "LD_LIBRARY_PATH")) {
        snprintf(why, n, "--ab env:ROCM_PATH (or CUDA_PATH) changes no runtime: the tools load theirs by the "
                         "loader's path; give --ab rocm:PREFIX (B built against PREFIX's headers, loading its "
                         "libamdhip64), or env:LD_LIBRARY_PATH=DIR for another libcuda");
        return -1;
    }
    return 0;
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
    return swaps_nothing(s, why, n);
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

/* ---- side builds: rocm: and sim-profile: ---- */

/* The folder beside this bench named by var, else this bench's folder's
 * sub (malloc'd), or NULL. */
static char *beside_me(const char *var, const char *sub)
{
    const char *v = getenv(var);
    if (v && *v)
        return strdup(v);
    char self[4096];
    ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
    if (l <= 0)
        return NULL;
    self[l] = 0;
    char *slash = strrchr(self, '/'), *out = NULL;
    if (!slash)
        return NULL;
    *slash = 0;
    return asprintf(&out, "%s/%s", self, sub) < 0 ? NULL : out;
}

/* Whether a path can be handed to make and its compiler lines as it is:
 * make expands $ and the recipes split on blanks and ; (a folder named
 * "$(shell ...)" or "a;b" would run as a command). */
static bool plain_path(const char *p)
{
    return *p && strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-/") == strlen(p);
}

/* B's tools in the side build TAG, made against headers; they must be
 * there unless planning. */
static int side_build(ab_session *s, const char *tag, const char *headers, bool planning, char *why, size_t n)
{
    char *root = beside_me(HA_SIDE_BUILDS_ENV, "side");
    if (!root || asprintf(&s->b_exe, "%s/%s/bench_discriminator", root, tag) < 0 ||
        !(s->b_headers = strdup(headers))) {
        free(root);
        snprintf(why, n, "out of memory reading --ab");
        return -1;
    }
    free(root);
    if (!plain_path(s->b_exe) || !plain_path(headers)) {
        snprintf(why, n, "--ab %s: a side build is made with make, which cannot carry '%s' or '%s' safely (only "
                         "letters, digits, '.', '_', '+', '-' and '/'): link the folder from a plain path",
                 s->spec, headers, s->b_exe);
        return -1;
    }
    if (!planning && !executable(s->b_exe)) {
        snprintf(why, n, "--ab %s: side B's tools are not built (%s): ./run_all.sh --ab makes them", s->spec,
                 s->b_exe);
        return -1;
    }
    return 0;
}

static int parse_profile(ab_session *s, const char *name, const char *a_profile, bool planning, char *why, size_t n)
{
    const ha_rocm_profile *p = ha_rocm_profile_find(name);
    if (!p) {
        snprintf(why, n, "%s '%.40s%s' is not a stand-in release: --list-sim-profiles names them",
                 s->alone ? "--sim-profile" : "--ab sim-profile:", name, strlen(name) > 40 ? "..." : "");
        return -1;
    }
    if (!a_profile && !s->alone) {
        snprintf(why, n, "--ab sim-profile:%s sets one stand-in release against another: give side A's with "
                         "--sim-profile NAME too", p->name);
        return -1;
    }
    if (a_profile && !strcmp(a_profile, p->name)) {
        snprintf(why, n, "--ab sim-profile:%s: side A acts as ROCm %s already: name another release for side B",
                 p->name, p->rocm);
        return -1;
    }
    s->b_profile = p->name;
    s->b_hip = true;
    if (ha_rocm_profile_fits(p, ha_backend_hip.header_version))
        return 0; /* this build's own tools act as it */
    const char *era = ha_hip_era_of(p->version)->matrix;
    char *matrix = beside_me(HA_HIP_MATRIX_ENV, "hip-matrix"), *headers = NULL, *tag = NULL, *api = NULL;
    int rc = -1;
    if (!matrix || asprintf(&headers, "%s/%s/root/usr", matrix, era) < 0 || asprintf(&tag, "hip%s", era) < 0 ||
        asprintf(&api, "%s/include/hip/hip_runtime_api.h", headers) < 0)
        snprintf(why, n, "out of memory reading --ab");
    else if (access(api, R_OK) != 0)
        snprintf(why, n, "--ab sim-profile:%s: acting as ROCm %s needs tools built against HIP %s headers, and "
                         "%.200s has none: run make hip-matrix (it fetches them)", p->name, p->rocm, era, headers);
    else
        rc = side_build(s, tag, headers, planning, why, n);
    free(matrix);
    free(headers);
    free(tag);
    free(api);
    return rc;
}

/* PREFIX's libamdhip64, as ROCm and Debian lay it out (malloc'd), or NULL. */
static char *rocm_library(const char *prefix)
{
    static const char *const where[] = {"lib/libamdhip64.so", "lib64/libamdhip64.so",
                                        "lib/x86_64-linux-gnu/libamdhip64.so", NULL};
    for (int i = 0; where[i]; i++) {
        char *p = NULL;
        if (asprintf(&p, "%s/%s", prefix, where[i]) < 0)
            return NULL;
        char *real = realpath(p, NULL);
        free(p);
        if (real)
            return real;
    }
    return NULL;
}

/* The side build's name: the prefix's last part (its first 40 letters,
 * digits, '.', '_' and '-'; others as '_') and a hash of its whole path,
 * so two prefixes never share one. */
static char *rocm_tag(const char *real)
{
    ha_sha256 h;
    char d[65];
    ha_sha256_init(&h);
    ha_sha256_add(&h, real, strlen(real));
    ha_sha256_hex(&h, d);
    const char *base = strrchr(real, '/');
    base = base && base[1] ? base + 1 : "root";
    char safe[41];
    size_t k = 0;
    for (; base[k] && k < sizeof safe - 1; k++)
        safe[k] = strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-", base[k]) ? base[k] : '_';
    safe[k] = 0;
    char *tag = NULL;
    return asprintf(&tag, "rocm-%s-%.8s", safe, d) < 0 ? NULL : tag;
}

static int parse_rocm(ab_session *s, const char *prefix, const char *a_profile, bool planning, char *why, size_t n)
{
    if (a_profile) {
        snprintf(why, n, "--ab rocm: sets one ROCm runtime against another, and side A acts as a stand-in release "
                         "(--sim-profile): for two stand-in releases give --ab sim-profile:NAME");
        return -1;
    }
    char *real = *prefix ? realpath(prefix, NULL) : NULL, *api = NULL, *lib = NULL, *tag = NULL, *var = NULL;
    struct stat st;
    int rc = -1;
    if (!real || stat(real, &st) != 0 || !S_ISDIR(st.st_mode))
        snprintf(why, n, "--ab rocm: '%.200s' is not a folder: name a ROCm install, such as /opt/rocm-7.2.0", prefix);
    else if (asprintf(&api, "%s/include/hip/hip_runtime_api.h", real) < 0)
        snprintf(why, n, "out of memory reading --ab");
    else if (access(api, R_OK) != 0)
        snprintf(why, n, "--ab rocm: '%.200s' has no HIP headers (include/hip/hip_runtime_api.h): name a ROCm install "
                         "with its development files", prefix);
    else if (!(lib = rocm_library(real)))
        snprintf(why, n, "--ab rocm: '%.200s' has no HIP runtime (lib/libamdhip64.so): name a ROCm install", prefix);
    else if (ha_dlopen_try(lib, why, n) != 0)
        ; /* why names the library and the loader's reason */
    else if (!(tag = rocm_tag(real)) || asprintf(&var, "%s=%s", HA_HIP_LIBRARY_ENV, lib) < 0)
        snprintf(why, n, "out of memory reading --ab");
    else if ((rc = side_build(s, tag, real, planning, why, n)) == 0) {
        s->vars[s->nvars++] = var;
        var = NULL;
        s->b_hip = true;
    }
    free(real);
    free(api);
    free(lib);
    free(tag);
    free(var);
    return rc;
}

int ab_parse_spec(ab_session *s, const char *spec, const char *a_profile, bool planning, char *why, size_t n)
{
    s->spec = spec;
    int rc;
    if (!strncmp(spec, "env:", 4))
        rc = parse_env(s, spec + 4, why, n);
    else if (!strncmp(spec, "build:", 6))
        rc = parse_build(s, spec + 6, why, n);
    else if (!strncmp(spec, "rocm:", 5))
        rc = parse_rocm(s, spec + 5, a_profile, planning, why, n);
    else if (!strncmp(spec, "sim-profile:", 12))
        rc = parse_profile(s, spec + 12, a_profile, planning, why, n);
    else {
        snprintf(why, n, "--ab takes rocm:PREFIX, sim-profile:NAME, build:DIR or env:NAME=VALUE[,...], not "
                         "'%.60s%s'", spec, strlen(spec) > 60 ? "..." : "");
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
    free(s->b_headers);
    s->b_headers = NULL;
    s->b_profile = NULL;
    free(s->stopped);
    s->stopped = NULL;
    for (int i = 0; i < s->nvars; i++)
        free(s->vars[i]);
    s->nvars = 0;
}

static int put(int fd, const char *key, const char *value, int len)
{
    char nul = 0;
    size_t kl = strlen(key) + 1, vl = len < 0 ? strlen(value) : (size_t)len;
    struct iovec v[3] = {{(void *)key, kl}, {(void *)value, vl}, {&nul, 1}};
    ssize_t w;
    while ((w = writev(fd, v, 3)) < 0 && errno == EINTR)
        ;
    return w == (ssize_t)(kl + vl + 1) ? 0 : -1;
}

int ab_print_side_b(const ab_session *s, int fd)
{
    int rc = 0;
    if (s->b_exe) {
        const char *slash = strrchr(s->b_exe, '/');
        rc |= slash ? put(fd, "build", s->b_exe, (int)(slash - s->b_exe)) : put(fd, "build", ".", -1);
    }
    if (s->b_headers)
        rc |= put(fd, "headers", s->b_headers, -1);
    if (s->b_profile)
        rc |= put(fd, "profile", s->b_profile, -1);
    if (s->b_hip)
        rc |= put(fd, "backend", "hip", -1);
    for (int i = 0; i < s->nvars; i++)
        rc |= put(fd, "var", s->vars[i], -1);
    return rc;
}

