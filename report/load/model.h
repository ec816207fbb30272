/* A run folder as one typed model. The loader (model.c) is the only code
 * that reads JSON: it checks every field of every record against its
 * declaration (common/fields.def) and copies what it finds into these
 * structs; the renderers (Markdown, the PR comment, JUnit, CSV, benchmark
 * JSON, plots, the trend and fleet pages, compare's findings) take the
 * model and nothing else. Facts more than one renderer needs — which
 * kinds are readable, which candidates distinguish, the headline, the
 * goals — are derived once here (derive.c). */
#ifndef HA_MODEL_H
#define HA_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "families.h"
#include "verdictname.h"

/* The records a run folder may hold, in run order. */
enum { RUN_ENV, RUN_PROBE, RUN_MGA, RUN_BENCH, RUN_POOL, RUN_NREC };

extern const char *const run_files[RUN_NREC]; /* "env.json", ... */
extern const char *const run_tools[RUN_NREC]; /* "env", "probe_discriminator", ... */
extern const char *const run_files_b[RUN_NREC]; /* an A/B session's side B: "b_env.json", ...; NULL: the bench */

/* The largest record read (or decompressed): the biggest real one is a few MiB. */
#define REC_MAX_BYTES (64ll << 20)

typedef struct m_fallback {
    const char *backend;
    long long status;
    const char *why;
} m_fallback;

typedef struct m_attr {
    const char *name;
    long long status;
    bool has_value;
    long long value;
} m_attr;

typedef struct m_bar {
    long long index;
    double size;
    bool prefetchable;
} m_bar;

/* Strings are never NULL: "" where the record has null or lacks the field
 * (the has_* flags and -1 for numbers say which, where it matters). */
typedef struct m_env {
    const char *tool_version, *backend, *sim_profile, *guards, *header_version, *runtime_version,
        *driver_version, *kernel_driver, *version_warning, *layout_skew, *device_name, *arch, *pci_bus_id,
        *firmware, *rocm_version, *kernel, *cpu, *cpu_governor, *clocksource, *host, *boot_id, *time_utc,
        *iommu_sysfs, *iommu_cmdline, *lb_runtime_note, *lb_sysfs_note;
    bool simulated;
    long long device, device_count, cpu_count; /* -1 unknown */
    double vram_bytes;
    int vmm_supported, lb_runtime, lb_sysfs; /* 1, 0, or -1 unknown */
    long long lb_vis_vram, lb_vram, lb_kfd_heap; /* -1 absent */
    m_attr *attrs;
    size_t nattrs;
    m_bar *bars;
    size_t nbars;
} m_env;

typedef struct m_head {
    bool present;
    long long schema_version;
    const char *tool, *backend_choice;
    bool simulated;
    m_fallback *fallbacks;
    size_t nfallbacks;
    m_env env;
} m_head;

typedef struct m_kind {
    const char *name, *description, *detail, *truth_note, *create_status_name, *read_status, *write_status,
        *fork_read, *fork_write;
    bool control, torch_allocator, created;
    long long create_status;
    int readable, writable, isolation_agrees; /* 1, 0, -1 */
} m_kind;

typedef struct m_cell {
    const char *kind, *outcome, *status_name, *value, *cls;
    long long status;
} m_cell;


typedef struct m_wrong {
    const char *kind, *outcome;
    bool false_positive; /* says readable of memory that faults (the crash) */
} m_wrong;

typedef struct m_cand {
    const char *name, *api, *source, *why;
    ha_verdict_kind verdict;
    bool distinguishes;
    m_wrong *wrong;
    size_t nwrong;
    m_cell *cells;
    size_t ncells;
    const m_cell **by_kind; /* cells indexed like m_probe.kinds; NULL where not asked */
} m_cand;

typedef struct m_probe {
    m_head head;
    double wall;
    const char *isolation;
    m_kind *kinds;
    size_t nkinds;
    m_cand *cands;
    size_t ncands;
    long *kslot; /* kind names hashed to indices, made as the kinds are read */
    size_t kcap;
} m_probe;

typedef struct m_access {
    const char *location, *outcome, *status_name;
    long long status;
    bool has_flags;
    long long flags;
} m_access;

typedef struct m_stage {
    const char *stage, *status_name, *host_read;
    long long status;
    int reached;
    m_access *access;
    size_t naccess;
} m_stage;

typedef struct m_shape {
    const char *kind, *detail;
    bool created;
    m_stage *stages;
    size_t nstages;
} m_shape;

typedef struct m_mga {
    m_head head;
    double wall;
    m_shape *shapes;
    size_t nshapes;
} m_mga;

typedef struct m_stats {
    double min, median, p90, p99, max, mean, mad, spread; /* NaN where absent */
} m_stats;

/* One process's blocks of a row (schema 3). */
typedef struct m_rowproc {
    long long process;
    double *blocks; /* block medians, ns */
    size_t nblocks;
} m_rowproc;

typedef struct m_row {
    const char *path, *kind, *candidate, *what, *family, *skip_reason;
    bool comparable_to_bar, skipped, capped, slow_first;
    long long repeat, loop_status, fallbacks, batch, n, block_samples, outliers, retaken;
    m_stats st;
    double first_batch, overhead, overhead_pct;
    double *samples; /* empty unless loaded with samples */
    size_t nsamples;
    double *block_state; /* per block; negative: kept contended; empty in older records */
    size_t nblock_state;
    m_rowproc *procs; /* per process (schema 3); empty in older records */
    size_t nprocs;
    m_rowproc *procs_b; /* an A/B session's side B (m_ab) */
    size_t nprocs_b;
} m_row;

typedef struct m_point {
    long long size;
    m_stats copy, read, read_nt;
    bool has_read_nt;
} m_point;

typedef struct m_slowdown {
    const char *path;
    long long percent;
} m_slowdown;

/* One process of a bench run (schema 3). */
typedef struct m_proc {
    long long index, start_cpu; /* start_cpu -1: not pinned */
    bool ok;
    const char *detail;
    double wall, open, prepare, measure;
    size_t rows_kept; /* derived (m_derive): the rows in which it kept an uncontended block */
    char side;        /* an A/B session's 'a' or 'b'; 0 in a plain run */
    long long round, slot; /* its round (0: none) and place in it */
} m_proc;

/* An A/B session (bench/ab.h). The loader splits it: the run's processes
 * and rows' by_process are side A's (every renderer shows A, as a plain
 * run), side B's are in procs_b and each row's procs_b. */
typedef struct m_ab {
    bool on;
    const char *spec, *b_bench, *stopped;
    const char **vars;
    size_t nvars;
    const char *seed;
    double budget_s;
    long long rounds, rounds_started;
    long long *looks; /* the paired rounds at each look taken */
    size_t nlooks;
    bool decided;
    m_proc *procs_b;
    size_t nprocs_b;
    long long procs_b_finished;
} m_ab;

typedef struct m_bench {
    m_head head;
    bool has_procs;                 /* a record of several processes (schema 3) */
    long long procs_requested, procs_finished;
    m_proc *procs;
    size_t nprocs;
    m_ab ab;
    double wall;
    bool has_rounds;
    long long iterations, repeat, rounds;
    long long pinned_cpu; /* -1 none */
    const char *cpu_how;
    bool has_state;
    double state_fast_ns, state_factor, state_share;
    long long state_blocks, state_retaken, state_kept, state_moves;
    bool has_window;
    double window_from, window_until;
    m_slowdown *slowdowns;
    size_t nslowdowns;
    double clock_read_ns;
    const char **distinguishing;
    size_t ndistinguishing;
    bool has_headline;
    const char *fast_kind, *slow_kind;
    double fast_median, slow_median, slow_over_fast;
    bool fast_crosses_bar;
    m_row *rows;
    size_t *row_index; /* open addressing over (path, kind, candidate, repeat): row + 1, 0 empty */
    size_t row_index_mask;
    size_t nrows;
    bool has_sweep;
    const char *sweep_kind, *sweep_timing;
    long long crossover; /* -1 none */
    m_point *points;
    size_t npoints;
} m_bench;

typedef struct m_check {
    const char *name, *mode, *status, *detail;
    int passed; /* 1, 0, -1 unsupported */
} m_check;

typedef struct m_tput {
    double bytes;
    const char *mode, *note;
    bool measured;
    double sleep, wake, d2h, h2d, sleep_frac, wake_frac, wake_now, wake_now_frac; /* NaN absent */
    long long pause_ms; /* -1 absent */
    double *sleep_cyc, *wake_cyc; /* each steady cycle's fraction (schema-2 records may lack them) */
    size_t nsleep_cyc, nwake_cyc;
    int sleep_goal, wake_goal; /* ha_goal_outcome, derived */
} m_tput;

typedef struct m_pool {
    m_head head;
    double wall;
    long long cycles, passed, failed, unsupported;
    m_check *checks;
    size_t nchecks;
    m_tput *tputs;
    size_t ntputs;
} m_pool;

typedef struct m_step {
    const char *name, *record, *sha256;
    long long exit_status, bytes; /* -1 null */
} m_step;

typedef struct m_attach {
    const char *name, *sha256;
    long long bytes;
} m_attach;

typedef struct m_manifest {
    bool present;
    bool complete;
    const char *interrupted, *backend, *tool_version, *backend_choice;
    long long device;
    m_fallback *fallbacks;
    size_t nfallbacks;
    m_step *steps;
    size_t nsteps;
    m_attach *attach; /* sealed beside the records: torch_pool.txt */
    size_t nattach;
} m_manifest;

/* A broken expectation is a failed JUnit case; the rest pass or skip. */
typedef enum { EXP_PASS, EXP_FAIL, EXP_SKIP } m_expect_status;

typedef struct m_expect {
    const char *suite, *name, *message;
    m_expect_status status;
} m_expect;

/* The facts the renderers share, derived once (derive.c). */
/* A timed row's figure, in the one unit compare judges with (common/procstats.h). */
typedef struct m_figure {
    double ns;     /* the geometric mean of the processes' medians; an older record's pooled median */
    double lo, hi; /* its 95 % interval over the processes; NaN with fewer than two */
    double sd_log; /* the spread between processes (sd of logs); NaN without processes */
    size_t k;      /* processes with a value; 0: a record of one process, pooled */
} m_figure;

typedef struct m_derived {
    bool simulated, slowed;
    const char *sim_profile;
    const char *group; /* "device / backend", SIMULATED marked */
    /* The one definition of a series: one device of a backend,
     * "group devN". compare --series pairs each run with the one before it
     * in its series, trend draws one per group of plots, the exports name
     * theirs by it. machine_class splits a series where the CPU model or
     * count differs: changes finds change points within a class, so a step
     * is never another machine's. */
    const char *series, *machine_class;
    const m_kind **readable, **unreadable; /* created GPU kinds by truth */
    size_t nreadable, nunreadable;
    const m_cand **distinguishing, **false_pos, **false_neg; /* false_pos: a wrong "readable" */
    size_t ndistinguishing, nfalse_pos, nfalse_neg;
    size_t nruntime, nruntime_distinguishing; /* the runtime's own queries (source "runtime") */
    const m_cand *torch_rule; /* the model of PyTorch's rule, when probed */
    const m_kind *fixed;      /* vmm-device+host, the fix */
    /* the headline's rows (repeat 1) */
    const m_row *fast, *cold, *fault_fallback;
    const m_row *copies[HA_HEADLINE_NCOPIES]; /* the runtime's copies of the slow kind (families.h) */
    bool fast_crosses_bar;  /* the fast row reads device memory across the PCIe BAR */
    const m_row **hardened, **alone;
    size_t nhardened;
    const m_row *slow;     /* the headline's copy (copy_pageable of the slow kind) */
    m_figure *figs;        /* one per bench row, in the rows' order (m_row_figure) */
    bool by_process;       /* some row's figure comes from processes */
    size_t pool_failed;
    bool pool_goal_known; /* some size was measured */
    int pool_goal;        /* ha_goal_outcome over sleep and wake of every measured size: the worst */
    const char *fallback_reason; /* why a simulated run did not use a GPU, "" if not */
    m_expect *expects;
    size_t nexpects, expects_cap;
} m_derived;

typedef struct m_arena m_arena;

typedef struct m_run {
    char *path;
    char *name; /* the folder's own name (the last part of its real path) */
    bool complete;
    char *incomplete; /* why not, when !complete */
    bool has[RUN_NREC];
    m_head envrec;
    m_probe probe;
    m_mga mga;
    m_bench bench;
    m_pool pool;
    m_manifest manifest;
    const m_env *env; /* the environment of the first record present */
    const char *torch_text; /* torch_pool.txt, "" when absent */
    const char *torch_file; /* the file that holds it: torch_pool.txt or, compacted, torch_pool.txt.gz */
    bool has_torch;
    m_derived d;
    m_arena *arena;
    bool keep_samples; /* M_WITH_SAMPLES: the rows keep the samples their figures came from */
    /* An A/B session's side B, run by run_all.sh --ab after side A with
     * B's variables or B's build: its env, probe and pool records, sealed
     * by this run's manifest (the bench record above holds both sides).
     * NULL for any other run, and for a session whose run_all.sh ran only
     * the bench as an A/B session. Lives in this run's arena. */
    struct m_run *side_b;
} m_run;

enum {
    M_ALLOW_INCOMPLETE = 1, /* load a run that is not whole, marked so */
    M_WITH_SAMPLES = 2,     /* keep the raw samples (compare); otherwise dropped once read */
};

/* Reads and checks every record of the run folder at path, and nothing
 * more: r->d is left for derive.h's m_derive (m_load_run does both). A
 * present record that does not parse or check fails the read, naming the
 * file, the place and what was expected; so does a run with no record and
 * one that is not whole (m_check_whole) unless M_ALLOW_INCOMPLETE. Returns
 * 0, or -1 with a one-line reason in *err (malloc'd; the caller frees it). */
int m_read_run(m_run *r, const char *path, unsigned flags, char **err);
void m_free_run(m_run *r);

/* Whether the folder is a whole run: a manifest that says complete and
 * seals every record it names with a size and SHA-256, each record there
 * with those (of the JSON, also when stored as NAME.json.gz; checked on
 * the bytes that are parsed), no record it does not name, no tool's
 * temporary file. 0, or -1 with the reason in *why (malloc'd). */
int m_check_whole(const char *path, char **why);

/* One record from a buffer, as the fuzz targets feed it: parsed, checked
 * and put into r by its tool (r zeroed first); r->d is not derived. 0, or
 * -1 with *err (r then holds nothing to free). */
int m_read_buffer(m_run *r, const char *buf, size_t len, char **err);

/* The run folders under dir (holding env.json or a probe record, plain or
 * compressed), sorted by name, which run_all.sh makes time order: a
 * malloc'd array of malloc'd names. Returns the count, or -1 when dir
 * cannot be read. */
long m_list_runs(const char *dir, char ***names);

/* The same, and the runs in the folders below dir that are not runs, down
 * to depth levels (a campaign's machine folders: results/gate-proc-h200/
 * m1/RUN), each named by its path under dir. A symbolic link to a folder
 * is not descended into (no loop). Sorted by name. */
long m_list_runs_below(const char *dir, int depth, char ***names);
void m_free_names(char **names, long n);

/* A bench row by key and repeat, not skipped; kind and candidate "" match
 * a row without one; NULL matches any. */
const m_row *m_bench_row(const m_bench *b, const char *path, const char *kind, const char *cand, long long repeat);

/* A row's family, or for records older than the field the one its path
 * name implies ("" when neither says). */
const char *m_row_family(const m_row *r);

/* A candidate or kind by name; NULL when absent. */
const m_cand *m_probe_cand(const m_probe *p, const char *name);
const m_kind *m_probe_kind(const m_probe *p, const char *name);
long m_probe_kind_index(const m_probe *p, const char *name);

/* An arena allocation that lives as long as the run (NULL when out of memory). */
void *m_alloc(m_run *r, size_t n);
char *m_strdup(m_run *r, const char *s);
char *m_printf(m_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Frees every allocation of the run's arena (arena.c). */
void m_arena_free(m_run *r);

/* The loader's indices, built once a run's kinds and rows are read
 * (lookup.c): what m_probe_kind_index and m_bench_row then look in. */
void m_index_kinds(m_run *r, m_probe *p);
void m_index_rows(m_run *r, m_bench *b);

#endif
