/* The run's processes, run: the first one's own blocks kept, the workers
 * started, waited for (bounded) and read back, and what a worker writes
 * (procs.h says why a run is several processes). It sees of the bench only
 * what a bench_procs_view lends it (bench.h makes one), never the bench. */
#ifndef HA_BENCH_PROCRUN_H
#define HA_BENCH_PROCRUN_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>

#include "ab.h"
#include "cpupick.h"
#include "cpustate.h"
#include "measure.h"
#include "procs.h"

typedef struct bench_procs_view {
    bench_row *rows;              /* each process's block medians go into its rows */
    size_t nrows;
    bench_proc *procs;            /* BENCH_MAX_PROCS of them; [0] is this process */
    int *nprocs;                  /* started so far */
    long nprocs_requested;        /* --processes */
    long process_index;           /* this process's index: 1 for the first */
    unsigned long long order_seed;
    const char *worker_out;       /* a worker's rows go there */
    const cpu_choice *cpu;        /* the CPU survey, and the CPU this process ran on */
    const cpu_state *state;       /* how its blocks were kept uncontended */
    const bench_order_log *order_log;
    const cpu_set_t *allowed;     /* the CPUs this process could use before it pinned itself; NULL unknown */
    const ab_session *ab;         /* side B's variables and bench, in an A/B session */
    const char *sim_profile;      /* --sim-profile: the stand-in release this process acts as; NULL none */
} bench_procs_view;

/* The first process: its own blocks as process 1. */
void bench_procs_collect_self(bench_procs_view *v);
/* Every worker in turn, their rows matched by (path, kind, candidate, repeat). */
void bench_procs_run_workers(bench_procs_view *v, int argc, char **argv);
/* One worker: where it starts, then process pi run, waited for and read. */
void bench_procs_place(const bench_procs_view *v, bench_proc *p);
void bench_procs_run_one(bench_procs_view *v, int argc, char **argv, int pi);

/* A worker: its rows to --worker-out. 0, or HA_EXIT_OUTPUT. */
int bench_procs_write_worker(const bench_procs_view *v);

#endif
