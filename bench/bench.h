/* The bench's state, shared by its units: options (options.c) -> plan
 * (plan.c) -> measure (run.c) -> headline (headline.c) -> print
 * (output.c) and record (benchrec.c). bench_discriminator.c strings them
 * together. */
#ifndef HA_BENCH_BENCH_H
#define HA_BENCH_BENCH_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ab.h"
#include "cpupick.h"
#include "cpustate.h"
#include "discriminate.h"
#include "families.h"
#include "measure.h"
#include "pathdefs.h"
#include "procrun.h"
#include "paths.h"
#include "rounds.h"
#include "tool.h"

#define MAX_ROWS 512
#define SWEEP_LIMIT (1u << 20) /* the largest --sweep-max */
#define COPY_BUF SWEEP_LIMIT
#define MAX_ITERATIONS 10000000L
#define MAX_SWEEP 20
#define MAX_SLOWED 16

typedef struct sweep_point {
    size_t size;
    bench_row copy, read, read_nt;
} sweep_point;

typedef struct bench {
    ha_tool t;
    bench_plan plan;
    long repeat;
    long sweep_iterations;
    unsigned long long sweep_max;
    bool sweep;
    const char *sweep_csv;
    const char *only_kinds[HA_MAX_KINDS];
    int nonly_kinds;
    const char *only_paths[32];
    int nonly_paths;
    ha_discrimination d;
    ha_clock_info clock;
    bench_row rows[MAX_ROWS];
    size_t nrows;
    double empty_ns;
    ha_alloc allocs[HA_MAX_KINDS]; /* fresh allocations per kind index */
    bool have_alloc[HA_MAX_KINDS];
    int headline;                  /* kind index of the headline readable kind, -1 none */
    int device_kind;               /* the runtime's own device memory, -1 none */
    int bad_kind;                  /* an unreadable kind, -1 none */
    cpu_choice cpu;                /* the CPU the run started on, and why */
    cpu_state state;               /* how every block was kept on an uncontended CPU */
    bench_order_log order_log;     /* the row orders this process ran */
    long forced_cpu;               /* --cpu, -1 none */
    bench_job jobs[MAX_ROWS];      /* the rows that are timed, one job each */
    size_t njobs;
    struct { const path_def *p; long pct; } slow[MAX_SLOWED]; /* HOSTACCESS_TEST_SLOWDOWN */
    int nslow;
    double timed_from, timed_until; /* wall-clock seconds: when the rows and the sweep were timed */
    const ha_query *good[HA_MAX_QUERIES];
    size_t ngood;
    char no_readable_reason[200];
    char no_pinned_reason[200];
    sweep_point sweep_pts[MAX_SWEEP];
    size_t nsweep;
    long crossover; /* bytes, -1 none */
    long nprocs_requested;            /* --processes */
    bench_proc procs[BENCH_MAX_PROCS];
    int nprocs;                       /* started so far (the first counts) */
    unsigned long long order_seed;    /* this process's row order */
    long process_index;               /* --process-index: 1 for the first process */
    long start_cpu;                   /* --start-cpu: a worker's first CPU, -1 survey */
    const char *worker_out;           /* --worker-out: a worker's rows go there, no record */
    cpu_set_t allowed;                /* the CPUs the process could use before it pinned itself */
    bool have_allowed;
    ab_session ab;                    /* --ab: an A/B session (ab.h) */
} bench;

/* What the process runner (procrun.c) may see of b, and fill. */
static inline bench_procs_view bench_procs_of(bench *b)
{
    return (bench_procs_view){.rows = b->rows,
                              .nrows = b->nrows,
                              .procs = b->procs,
                              .nprocs = &b->nprocs,
                              .nprocs_requested = b->nprocs_requested,
                              .process_index = b->process_index,
                              .order_seed = b->order_seed,
                              .worker_out = b->worker_out,
                              .cpu = &b->cpu,
                              .state = &b->state,
                              .order_log = &b->order_log,
                              .allowed = b->have_allowed ? &b->allowed : NULL,
                              .ab = &b->ab,
                              .sim_profile = b->t.sim_profile};
}

/* The headline, found once in the rows and then printed and recorded. */
typedef struct headline {
    const char *kind;            /* the fast path's kind; NULL: no readable kind */
    const bench_row *fast, *cold, *slow, *fault;
    const bench_row *slows[HA_HEADLINE_NCOPIES]; /* the runtime copies of the fast kind (families.h) */
    struct { const char *q; const bench_row *h, *d; } hard[HA_MAX_QUERIES];
    size_t nhard;
} headline;

/* options.c: the defaults; the command line and HOSTACCESS_TEST_SLOWDOWN
 * (0, -1 when a listing was served, or an exit status); what can be checked
 * only once the backend is open (0 or an exit status, the tool aborted). */
void bench_defaults(bench *b);
int bench_options(bench *b, int argc, char **argv);
int bench_check_started(bench *b);

/* plan.c: the kinds and the working discriminators on this machine, fresh
 * allocations, the copy buffers and every row (the timed ones as jobs);
 * then what bench_prepare took. 0 or an exit status. */
int bench_prepare(bench *b, bench_ctx *c);
void bench_release(bench *b, bench_ctx *c);
/* The allocations alone (the rows stay): before the other processes run. */
void bench_release_memory(bench *b, bench_ctx *c);

/* run.c: the CPU held, the interleaved rounds, each row's statistics and
 * the size sweep, inside the timed window. */
void bench_measure_all(bench *b, bench_ctx *c);

/* headline.c */
const bench_row *bench_find_row(const bench *b, const char *path, const char *kind, const char *cand, int rep);
headline bench_find_headline(const bench *b);

/* abrun.c: an A/B session's rounds, from process 2 on. Returns 0, or
 * HA_EXIT_FAIL when the session could not pair HA_AB_MIN_ROUNDS rounds
 * (it is not whole). */
int bench_ab_run(bench *b, int argc, char **argv);

/* output.c: the human output. */
void bench_print(const bench *b, const headline *h, double wall);

/* benchrec.c: the sweep CSV (0 or HA_EXIT_OUTPUT); the record through the
 * field table into w, which ha_tool_finish closes and commits. */
int bench_write_sweep_csv(const bench *b);
void bench_record(bench *b, const headline *h, double wall, jw *w);

#endif
