/* What every tool shares: the common options, opening the record before
 * any work (so a bad --json path costs nothing), opening the backend, and
 * the head of every JSON record. */
#ifndef HA_TOOL_H
#define HA_TOOL_H

#include <getopt.h>
#include <stdbool.h>

#include "envinfo.h"
#include "gpu.h"
#include "jsonw.h"
#include "record.h"

#define HA_SCHEMA_VERSION 1

enum {
    HA_OPT_BACKEND = 0x100,
    HA_OPT_DEVICE,
    HA_OPT_JSON,
    HA_OPT_ISOLATE,
    HA_OPT_LIST_BACKENDS,
    HA_OPT_LIST_DEVICES,
    HA_OPT_ENV_ONLY,
    HA_OPT_SIM_PROFILE,
    HA_OPT_LIST_SIM_PROFILES,
    HA_OPT_UNSAFE_QUERIES,
    HA_OPT_TOOL_BASE = 0x200, /* a tool's own options start here */
};

#define HA_COMMON_LONGOPTS                                               \
    {"backend", required_argument, 0, HA_OPT_BACKEND},                   \
    {"device", required_argument, 0, HA_OPT_DEVICE},                     \
    {"json", required_argument, 0, HA_OPT_JSON},                         \
    {"isolate", required_argument, 0, HA_OPT_ISOLATE},                   \
    {"list-backends", no_argument, 0, HA_OPT_LIST_BACKENDS},             \
    {"list-devices", no_argument, 0, HA_OPT_LIST_DEVICES},               \
    {"env-only", no_argument, 0, HA_OPT_ENV_ONLY},                       \
    {"sim-profile", required_argument, 0, HA_OPT_SIM_PROFILE},           \
    {"list-sim-profiles", no_argument, 0, HA_OPT_LIST_SIM_PROFILES},     \
    {"unsafe-queries", no_argument, 0, HA_OPT_UNSAFE_QUERIES},           \
    {"help", no_argument, 0, 'h'}

#define HA_COMMON_USAGE                                                              \
    "[--backend auto|hip|cuda|sim] [--device N] [--json FILE] [--isolate=none|fork]" \
    " [--list-backends] [--list-devices] [--env-only] [--sim-profile NAME] [--list-sim-profiles]"   \
    " [--unsafe-queries] [--help]"

typedef struct ha_tool {
    const char *name;
    const char *usage_extra; /* the tool's own options, for the usage line */
    const char *backend;
    int device;
    const char *json;
    bool isolate_fork;
    bool list_backends;
    bool list_devices;
    bool env_only; /* write the environment record only */
    const char *sim_profile; /* --sim-profile: the hip backend over the stand-in ROCm runtime */
    bool list_sim_profiles;
    bool unsafe_queries; /* ask queries known to crash some releases, each in a child */
    ha_backend be;
    bool be_open;
    ha_record rec;
    bool have_rec;
    ha_env env;
    char chose[640]; /* what auto chose and why */
} ha_tool;

void ha_tool_init(ha_tool *t, const char *name, const char *usage_extra);

/* Handles a common option. Returns 1 if it was one, 0 if not, and
 * HA_EXIT_USAGE after printing the usage line when its value is bad. */
int ha_tool_option(ha_tool *t, int c, const char *arg);

/* Prints "usage: ..." to stderr and returns HA_EXIT_USAGE. */
int ha_tool_usage(const ha_tool *t, const char *problem);

/* Range-checked integer parsing; 0 on success. */
int ha_parse_long(const char *s, long min, long max, long *out);

/* A byte count: a whole number with an optional unit B, K/KiB, M/MiB,
 * G/GiB (powers of 1024; KB, MB, GB are read as 1000s). Range-checked; 0 on
 * success. */
int ha_parse_size(const char *s, unsigned long long min, unsigned long long max,
                  unsigned long long *out);

/* Opens record and backend and collects the environment. Returns HA_EXIT_OK,
 * another HA_EXIT_* after printing one line, or -1 when a listing option was
 * served and the tool should exit 0. */
int ha_tool_start(ha_tool *t);

/* Writes schema_version, tool, simulated, backend_choice and env. The
 * caller has opened the top-level object. */
void ha_tool_json_head(ha_tool *t, jw *w);

/* Closes the top-level object, commits the record, closes the backend.
 * Returns rc, or HA_EXIT_OUTPUT if the record could not be written. */
int ha_tool_finish(ha_tool *t, jw *w, int rc);

/* Aborts the record (nothing written) and closes the backend. */
void ha_tool_abort(ha_tool *t);

double ha_now_s(void);

#endif
