#include "tool.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "rocm_profiles.h"
#include "stats.h"

void ha_tool_init(ha_tool *t, const char *name, const char *usage_extra)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    t->usage_extra = usage_extra;
    t->backend = "auto";
}

int ha_tool_usage(const ha_tool *t, const char *problem)
{
    if (problem)
        fprintf(stderr, "%s: %s\n", t->name, problem);
    fprintf(stderr, "usage: %s %s%s%s\n", t->name, HA_COMMON_USAGE, t->usage_extra ? " " : "",
            t->usage_extra ? t->usage_extra : "");
    return HA_EXIT_USAGE;
}

int ha_parse_long(const char *s, long min, long max, long *out)
{
    /* Digits only, with an optional minus: strtol would also take " 5" and "+5". */
    if (!s || !(*s == '-' ? s[1] >= '0' && s[1] <= '9' : *s >= '0' && *s <= '9'))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int ha_parse_size(const char *s, unsigned long long min, unsigned long long max,
                  unsigned long long *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    static const struct { const char *unit; unsigned long long mul; } units[] = {
        {"", 1}, {"B", 1}, {"K", 1ull << 10}, {"KiB", 1ull << 10}, {"M", 1ull << 20},
        {"MiB", 1ull << 20}, {"G", 1ull << 30}, {"GiB", 1ull << 30}, {"KB", 1000ull},
        {"MB", 1000000ull}, {"GB", 1000000000ull},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].unit) != 0)
            continue;
        if (v > max / units[i].mul)
            return -1;
        v *= units[i].mul;
        if (v < min || v > max)
            return -1;
        *out = v;
        return 0;
    }
    return -1;
}

int ha_tool_option(ha_tool *t, int c, const char *arg)
{
    long v;
    char msg[256];
    switch (c) {
    case HA_OPT_BACKEND:
        if (strcmp(arg, "auto") && !ha_backend_find(arg)) {
            snprintf(msg, sizeof msg, "unknown backend '%s'", arg);
            return ha_tool_usage(t, msg);
        }
        t->backend = arg;
        return 1;
    case HA_OPT_DEVICE:
        if (ha_parse_long(arg, 0, 1023, &v)) {
            snprintf(msg, sizeof msg, "bad device index '%s'", arg);
            return ha_tool_usage(t, msg);
        }
        t->device = (int)v;
        return 1;
    case HA_OPT_JSON:
        t->json = arg;
        return 1;
    case HA_OPT_ISOLATE:
        if (strcmp(arg, "fork") == 0)
            t->isolate_fork = true;
        else if (strcmp(arg, "none") == 0)
            t->isolate_fork = false;
        else
            return ha_tool_usage(t, "--isolate takes none or fork");
        return 1;
    case HA_OPT_LIST_BACKENDS:
        t->list_backends = true;
        return 1;
    case HA_OPT_LIST_DEVICES:
        t->list_devices = true;
        return 1;
    case HA_OPT_ENV_ONLY:
        t->env_only = true;
        return 1;
    case HA_OPT_SIM_PROFILE:
        if (!ha_rocm_profile_find(arg)) {
            char list[96] = "";
            for (const ha_rocm_profile *p = ha_rocm_profiles; p->name; p++) {
                size_t l = strlen(list);
                snprintf(list + l, sizeof list - l, "%s%s", l ? ", " : "", p->name);
            }
            snprintf(msg, sizeof msg, "unknown sim profile '%.40s' (profiles: %.96s)", arg, list);
            return ha_tool_usage(t, msg);
        }
        t->sim_profile = arg;
        return 1;
    case HA_OPT_LIST_SIM_PROFILES:
        t->list_sim_profiles = true;
        return 1;
    case HA_OPT_UNSAFE_QUERIES:
        t->unsafe_queries = true;
        return 1;
    default:
        return 0;
    }
}

/* The stand-in runtime beside the tool: BUILD/standin/libamdhip64.so. */
static int standin_path(char *out, size_t n)
{
    char exe[4096];
    ssize_t l = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (l <= 0)
        return -1;
    exe[l] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = 0;
    /* the tools live in BUILD/, the report tools in BUILD/bin/ */
    snprintf(out, n, "%s/standin/libamdhip64.so", exe);
    if (access(out, R_OK) != 0)
        snprintf(out, n, "%s/../standin/libamdhip64.so", exe);
    return access(out, R_OK) == 0 ? 0 : -1;
}

/* --sim-profile: the hip backend, over the stand-in runtime acting as that
 * ROCm release. */
static int use_standin(ha_tool *t)
{
    if (strcmp(t->backend, "auto") && strcmp(t->backend, "hip"))
        return ha_tool_usage(t, "--sim-profile runs the hip backend over the stand-in ROCm runtime: "
                                "leave --backend out or give hip");
    char lib[4200];
    if (!ha_backend_hip.compiled || standin_path(lib, sizeof lib) != 0) {
        fprintf(stderr, "%s: --sim-profile needs the hip backend and the stand-in runtime, which are built only "
                        "where HIP headers are (apt-get install libamdhip64-dev, then make probes)\n", t->name);
        return HA_EXIT_NO_RUNTIME;
    }
    t->backend = "hip";
    setenv(HA_STANDIN_PROFILE_ENV, t->sim_profile, 1);
    setenv(HA_HIP_LIBRARY_ENV, lib, 1);
    return HA_EXIT_OK;
}

int ha_tool_start(ha_tool *t)
{
    /* env_only finishes inside start; its record is the environment alone */
    if (t->list_backends) {
        ha_backend_list(stdout);
        return -1;
    }
    if (t->list_sim_profiles) {
        for (const ha_rocm_profile *p = ha_rocm_profiles; p->name; p++)
            printf("%-5s runtime %d: %s\n", p->name, p->version, p->what);
        return -1;
    }
    if (t->sim_profile) {
        int rc = use_standin(t);
        if (rc != HA_EXIT_OK)
            return rc;
    }
    char err[512];
    if (t->json) {
        if (ha_record_open(&t->rec, t->json, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", t->name, err);
            return HA_EXIT_OUTPUT;
        }
        t->have_rec = true;
    }
    int rc = ha_backend_open(t->backend, t->device, &t->be, t->chose, sizeof t->chose);
    if (rc != HA_EXIT_OK) {
        if (rc == HA_EXIT_USAGE)
            ha_tool_usage(t, t->chose);
        else
            fprintf(stderr, "%s: %s\n", t->name, t->chose);
        ha_tool_abort(t);
        return rc;
    }
    t->be_open = true;
    t->be.unsafe_queries = t->unsafe_queries;
    if (t->list_devices) {
        int n = 0;
        if (t->be.ops->device_count(&t->be, &n) != HA_ST_OK)
            n = 0;
        printf("%s %d\n", t->be.ops->name, n);
        ha_tool_abort(t);
        return -1;
    }
    if (t->chose[0])
        fprintf(stderr, "%s: %s\n", t->name, t->chose);
    ha_env_init(&t->env, t->be.ops->name, ha_backend_simulated(&t->be));
    if (t->be.sim_profile)
        snprintf(t->env.sim_profile, sizeof t->env.sim_profile, "%s", t->be.sim_profile);
    t->env.device = t->device;
    t->be.ops->env(&t->be, &t->env);
    if (t->env.version_warning[0])
        fprintf(stderr, "%s: warning: %s\n", t->name, t->env.version_warning);
    if (t->env.layout_skew[0])
        fprintf(stderr, "%s: warning: %s\n", t->name, t->env.layout_skew);
    if (t->env_only) {
        ha_env_print(&t->env);
        if (t->have_rec) {
            jw w;
            jw_init(&w, t->rec.f, true);
            jw_obj(&w);
            ha_tool_json_head(t, &w);
            int rc = ha_tool_finish(t, &w, HA_EXIT_OK);
            return rc ? rc : -1;
        }
        ha_tool_abort(t);
        return -1;
    }
    return HA_EXIT_OK;
}

void ha_tool_json_head(ha_tool *t, jw *w)
{
    jw_kint(w, "schema_version", HA_SCHEMA_VERSION);
    jw_kstr(w, "tool", t->env_only ? "env" : t->name);
    jw_kbool(w, "simulated", ha_backend_simulated(&t->be));
    jw_kstr(w, "backend_choice", t->chose[0] ? t->chose : t->be.ops->name);
    jw_key(w, "env");
    ha_env_json(w, &t->env);
}

int ha_tool_finish(ha_tool *t, jw *w, int rc)
{
    if (t->have_rec) {
        char err[512];
        jw_obj_end(w);
        if (jw_finish(w) != 0) {
            if (w->write_errno)
                fprintf(stderr, "%s: cannot write %s: %s; not written\n", t->name, t->json,
                        strerror(w->write_errno));
            else
                fprintf(stderr, "%s: internal error: unbalanced JSON for %s; not written\n", t->name,
                        t->json);
            ha_record_abort(&t->rec);
            rc = HA_EXIT_OUTPUT;
        } else if (ha_record_commit(&t->rec, err, sizeof err) != 0) {
            fprintf(stderr, "%s: %s\n", t->name, err);
            rc = HA_EXIT_OUTPUT;
        }
        t->have_rec = false;
    }
    if (t->be_open)
        ha_backend_close(&t->be);
    t->be_open = false;
    return rc;
}

void ha_tool_abort(ha_tool *t)
{
    if (t->have_rec)
        ha_record_abort(&t->rec);
    t->have_rec = false;
    if (t->be_open)
        ha_backend_close(&t->be);
    t->be_open = false;
}

double ha_now_s(void) { return ha_clock_ns() * 1e-9; }
