/* What every tool shares: the common options, opening the record before
 * any work (so a bad --json path costs nothing), opening the backend, and
 * the head of every JSON record. */
#ifndef HA_TOOL_H
#define HA_TOOL_H

#include <stdbool.h>

#include "backend.h"
#include "envinfo.h"
#include "gpu.h"
#include "jsonw.h"
#include "opts.h"
#include "record.h"

typedef struct ha_tool {
    const char *name;
    const char *backend;
    int device;
    long device_opt;          /* --device as parsed */
    const char *isolate;      /* --isolate as parsed */
    ha_opt opts[14];          /* the shared options' table rows, pointing into this tool */
    const char *json;
    bool isolate_fork;
    bool list_backends;
    bool list_devices;
    bool env_only; /* write the environment record only */
    const char *sim_profile; /* --sim-profile: the hip backend over the stand-in ROCm runtime */
    bool list_sim_profiles;
    bool unsafe_queries; /* ask queries known to crash some releases, each in a child */
    bool require_gpu;    /* --require-gpu or HOSTACCESS_REQUIRE_GPU=1: no simulation fallback */
    ha_fallbacks fallbacks; /* what auto passed over, and why */
    ha_backend be;
    bool be_open;
    ha_record rec;
    bool have_rec;
    ha_env env;
    char chose[640]; /* what auto chose and why */
    /* The tool's own checks that need the open backend (a kind name is
     * known only to the backend's table): run before --list-devices
     * answers too, so run_all.sh refuses a bad value before a folder is
     * made. Returns 0 or an exit status after one line. */
    int (*check_opened)(void *ctx);
    void *check_ctx;
} ha_tool;

void ha_tool_init(ha_tool *t, const char *name);

/* Parses the command line with the shared rows and the tool's own
 * (cli->shared is set here). Returns 0, -1 when --help was served, or
 * HA_EXIT_USAGE after one line. */
int ha_tool_parse(ha_tool *t, ha_cli *cli, int argc, char **argv);

/* One line, "TOOL: problem (TOOL --help lists the options)"; returns
 * HA_EXIT_USAGE. For what a tool checks after parsing. */
int ha_tool_usage(const ha_tool *t, const char *problem);

/* Opens record and backend and collects the environment. Returns HA_EXIT_OK,
 * another HA_EXIT_* after printing one line, or -1 when a listing option was
 * served and the tool should exit 0. */
int ha_tool_start(ha_tool *t);

/* Writes schema_version, tool, simulated, backend_choice, the fallbacks
 * and env. The caller has opened the top-level object. */
void ha_tool_json_head(ha_tool *t, jw *w);

/* Closes the top-level object, commits the record, closes the backend.
 * Returns rc, or HA_EXIT_OUTPUT if the record could not be written. */
int ha_tool_finish(ha_tool *t, jw *w, int rc);

/* Aborts the record (nothing written) and closes the backend. */
void ha_tool_abort(ha_tool *t);

double ha_now_s(void);

#endif
