#include "tool.h"

#include "gpuhelpers.h"
#include "log.h"
#include "rtwatch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "recw.h"
#include "rocm_profiles.h"
#include "stats.h"

void ha_tool_init(ha_tool *t, const char *name)
{
    memset(t, 0, sizeof *t);
    t->name = name;
    ha_log_name(name);
    ha_rtwatch_enable(name);
    t->backend = "auto";
}

int ha_tool_usage(const ha_tool *t, const char *problem)
{
    return ha_usage_error(t->name, problem ? problem : "bad usage");
}

static int known_backend(const char *v, char *why, size_t n)
{
    if (!strcmp(v, "auto") || ha_backend_find(v))
        return 0;
    ha_backend_names(why, n);
    return -1;
}

static int known_isolation(const char *v, char *why, size_t n)
{
    if (!strcmp(v, "none") || !strcmp(v, "fork"))
        return 0;
    snprintf(why, n, "none or fork");
    return -1;
}

static int known_profile(const char *v, char *why, size_t n)
{
    if (ha_rocm_profile_find(v))
        return 0;
    size_t l = (size_t)snprintf(why, n, "a stand-in ROCm profile (");
    for (const ha_rocm_profile *p = ha_rocm_profiles; p->name && l < n; p++)
        l += (size_t)snprintf(why + l, n - l, "%s%s", p == ha_rocm_profiles ? "" : ", ", p->name);
    if (l < n)
        snprintf(why + l, n - l, ")");
    return -1;
}

/* The options every GPU tool takes, as option-table rows that write into
 * t (ha_cli's shared table): --backend, --device, --json, --isolate, the
 * listings, --env-only, --sim-profile, --unsafe-queries. */
static const ha_opt *ha_tool_opts(ha_tool *t)
{
    const ha_opt rows[] = {
        {"backend", HA_OPT_STRING, 0, 0, &t->backend, "NAME", "auto (default), hip, cuda or sim", known_backend},
        {"device", HA_OPT_LONG, 0, 1023, &t->device_opt, "N", "the device index (default 0)", NULL},
        {"json", HA_OPT_STRING, 0, 0, &t->json, "FILE", "write the record to FILE (a new file)", NULL},
        {"isolate", HA_OPT_STRING, 0, 0, &t->isolate, "MODE", "none, or fork: each host read in a child", known_isolation},
        {"list-backends", HA_OPT_FLAG, 0, 0, &t->list_backends, NULL, "list the backends and whether each is built", NULL},
        {"list-devices", HA_OPT_FLAG, 0, 0, &t->list_devices, NULL, "print the backend chosen and its device count", NULL},
        {"env-only", HA_OPT_FLAG, 0, 0, &t->env_only, NULL, "write the environment record only", NULL},
        {"sim-profile", HA_OPT_STRING, 0, 0, &t->sim_profile, "NAME",
         "the hip backend over the stand-in ROCm runtime acting as release NAME (SIMULATED)", known_profile},
        {"list-sim-profiles", HA_OPT_FLAG, 0, 0, &t->list_sim_profiles, NULL, "list the stand-in's release profiles", NULL},
        {"unsafe-queries", HA_OPT_FLAG, 0, 0, &t->unsafe_queries, NULL,
         "also ask queries known to crash some releases, each in a child", NULL},
        {"require-gpu", HA_OPT_FLAG, 0, 0, &t->require_gpu, NULL,
         "fail (exit 3 or 4, with the reason) instead of falling back to the simulation; also "
         "HOSTACCESS_REQUIRE_GPU=1", NULL},

        {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
    };
    _Static_assert(sizeof rows <= sizeof t->opts, "ha_tool.opts holds the shared rows");
    memcpy(t->opts, rows, sizeof rows);
    return t->opts;
}

int ha_tool_parse(ha_tool *t, ha_cli *cli, int argc, char **argv)
{
    cli->shared = ha_tool_opts(t);
    const char *pos[1];
    int npos;
    int rc = ha_cli_parse(cli, argc, argv, pos, &npos);
    if (rc)
        return rc;
    t->device = (int)t->device_opt;
    t->isolate_fork = t->isolate && !strcmp(t->isolate, "fork");
    const char *req = getenv("HOSTACCESS_REQUIRE_GPU");
    if (req && *req && strcmp(req, "0")) {
        if (strcmp(req, "1"))
            return ha_tool_usage(t, "HOSTACCESS_REQUIRE_GPU takes 1 (require a GPU backend) or 0");
        t->require_gpu = true;
    }
    if (t->require_gpu && t->sim_profile)
        return ha_tool_usage(t, "--sim-profile runs the stand-in ROCm runtime, a simulation, which --require-gpu "
                                "(or HOSTACCESS_REQUIRE_GPU=1) refuses");
    char host[64], why[200];
    if (ha_env_host(host, sizeof host, why, sizeof why) != 0)
        return ha_tool_usage(t, why);
    return 0;
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
        ha_log(HA_LOG_ERROR, "--sim-profile needs the hip backend and the stand-in runtime, which are built only "
                             "where HIP headers are (apt-get install libamdhip64-dev, then make probes)");
        return HA_EXIT_NO_RUNTIME;
    }
    /* Across a header line what depends on it is refused for skew (the
     * backend's guards, which the stand-in's tests exercise): said at the
     * start, with the build that acts as the release whole. */
    const ha_rocm_profile *p = ha_rocm_profile_find(t->sim_profile);
    if (!ha_rocm_profile_fits(p, ha_backend_hip.header_version))
        ha_log(HA_LOG_WARN, "tools built against %s act as ROCm %s across a layout line from its headers: what "
                            "depends on it is refused for skew; ./run_all.sh --sim-profile %s runs tools built "
                            "against HIP %s headers (make hip-matrix fetches them)", ha_backend_hip.header_label,
               p->rocm, p->name, ha_hip_era_of(p->version)->matrix);
    t->backend = "hip";
    setenv(HA_STANDIN_PROFILE_ENV, t->sim_profile, 1);
    setenv(HA_HIP_LIBRARY_ENV, lib, 1);
    return HA_EXIT_OK;
}

/* --version, --list-backends, --list-sim-profiles: served before anything opens. */
static int serve_listings(const ha_tool *t)
{

    if (t->list_backends) {
        ha_backend_list(stdout);
        return -1;
    }
    if (t->list_sim_profiles) {
        for (const ha_rocm_profile *p = ha_rocm_profiles; p->name; p++)
            printf("%-5s ROCm %-5s HIP %-5s runtime %d headers %-4s%s: %s\n", p->name, p->rocm, p->hip, p->version,
                   ha_hip_era_of(p->version)->matrix,
                   ha_rocm_profile_fits(p, ha_backend_hip.header_version) ? " (this build)" : "", p->what);
        return -1;
    }
    return HA_EXIT_OK;
}

/* The record is opened before any work, so a bad --json path costs nothing. */
static int open_record(ha_tool *t)
{
    char err[512];
    if (!t->json)
        return HA_EXIT_OK;
    if (ha_record_open(&t->rec, t->json, err, sizeof err) != 0) {
        ha_log(HA_LOG_ERROR, "%s", err);
        return HA_EXIT_OUTPUT;
    }
    t->have_rec = true;
    return HA_EXIT_OK;
}

/* The backend (auto says which and why); --list-devices is served here. */
static int open_backend(ha_tool *t)
{
    int rc = ha_backend_open_ex(t->backend, t->device, t->require_gpu, &t->be, t->chose, sizeof t->chose,
                                &t->fallbacks);
    if (rc != HA_EXIT_OK) {
        if (rc == HA_EXIT_USAGE)
            ha_tool_usage(t, t->chose);
        else
            ha_log(HA_LOG_INFO, "%s", t->chose);
        ha_tool_abort(t);
        return rc;
    }
    t->be_open = true;
    t->be.unsafe_queries = t->unsafe_queries;
    if (t->check_opened && (rc = t->check_opened(t->check_ctx)) != 0) {
        ha_tool_abort(t);
        return rc;
    }
    if (t->list_devices) {
        int n = 0;
        if (t->be.ops->device_count(&t->be, &n) != HA_ST_OK)
            n = 0;
        printf("%s %d\n", t->be.ops->name, n);
        /* run_all.sh keeps these in the manifest and says why a run fell back */
        for (int i = 0; i < t->fallbacks.n; i++)
            printf("fallback %s %d %s\n", t->fallbacks.v[i].backend, t->fallbacks.v[i].status, t->fallbacks.v[i].why);
        ha_tool_abort(t);
        return -1;
    }
    if (t->chose[0])
        ha_log(HA_LOG_INFO, "%s", t->chose);
    return HA_EXIT_OK;
}

static void collect_env(ha_tool *t)
{
    ha_env_init(&t->env, t->be.ops->name, ha_backend_simulated(&t->be));
    if (t->be.sim_profile)
        snprintf(t->env.sim_profile, sizeof t->env.sim_profile, "%s", t->be.sim_profile);
    t->env.device = t->device;
    t->be.ops->env(&t->be, &t->env);
    if (t->env.version_warning[0])
        ha_log(HA_LOG_WARN, "%s", t->env.version_warning);
    if (t->env.layout_skew[0])
        ha_log(HA_LOG_WARN, "%s", t->env.layout_skew);
}

/* --env-only: the environment, printed and recorded, is the whole run. */
static int finish_env_only(ha_tool *t)
{
    ha_env_print(&t->env);
    if (!t->have_rec) {
        ha_tool_abort(t);
        return -1;
    }
    jw w;
    jw_init(&w, t->rec.f, true);
    jw_obj(&w);
    ha_tool_json_head(t, &w);
    int rc = ha_tool_finish(t, &w, HA_EXIT_OK);
    return rc ? rc : -1;
}

int ha_tool_start(ha_tool *t)
{
    int rc = serve_listings(t);
    if (rc == HA_EXIT_OK && t->sim_profile)
        rc = use_standin(t);
    if (rc == HA_EXIT_OK)
        rc = open_record(t);
    if (rc == HA_EXIT_OK)
        rc = open_backend(t);
    if (rc != HA_EXIT_OK)
        return rc;
    collect_env(t);
    return t->env_only ? finish_env_only(t) : HA_EXIT_OK;
}

void ha_tool_json_head(ha_tool *t, jw *w)
{
    hw_ident(w, t->env_only ? "env" : t->name);
    hw_bool(w, HF_SIMULATED, ha_backend_simulated(&t->be));
    hw_str(w, HF_BACKEND_CHOICE, t->chose[0] ? t->chose : t->be.ops->name);
    hw_arr(w, HF_BACKEND_FALLBACKS);
    for (int i = 0; i < t->fallbacks.n; i++) {
        jw_obj(w);
        hw_str(w, HF_FALLBACK_BACKEND, t->fallbacks.v[i].backend);
        hw_int(w, HF_FALLBACK_STATUS, t->fallbacks.v[i].status);
        hw_str(w, HF_FALLBACK_WHY, t->fallbacks.v[i].why);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    hw_key(w, HF_ENV);
    ha_env_json(w, &t->env);
}

int ha_tool_finish(ha_tool *t, jw *w, int rc)
{
    if (t->have_rec) {
        char err[512];
        jw_obj_end(w);
        if (jw_finish(w) != 0) {
            if (w->write_errno)
                ha_log(HA_LOG_ERROR, "cannot write %s: %s; not written", t->json, strerror(w->write_errno));
            else
                ha_log(HA_LOG_ERROR, "internal error: unbalanced JSON for %s; not written", t->json);
            ha_record_abort(&t->rec);
            rc = HA_EXIT_OUTPUT;
        } else if (ha_record_commit(&t->rec, err, sizeof err) != 0) {
            ha_log(HA_LOG_ERROR, "%s", err);
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
