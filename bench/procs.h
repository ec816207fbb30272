/* Several processes per run: the process is the unit of measurement.
 *
 * Two processes of one build differ more than two blocks inside one
 * (memory layout, page placement, which CPU and which of its speed
 * states), so a run samples every timed row in K fresh processes, one
 * after another and never two at once on one GPU. The first process is the
 * bench itself; it then starts K - 1 workers: the same binary executed
 * again (a new address-space layout), each with its own row order (a
 * seed), its own starting CPU and an environment of another size (which
 * moves the stack: Mytkowicz et al., ASPLOS 2009). A worker measures the
 * rows and writes, per row, the medians of its uncontended blocks to a
 * file that the first process reads back; it writes no record. */
#ifndef HA_BENCH_PROCS_H
#define HA_BENCH_PROCS_H

#include <stdbool.h>
#include <stddef.h>

/* An A/B session's process 1 and two per round (ab.h). */
#define BENCH_MAX_PROCS 80
#define BENCH_DEFAULT_PROCS 8
/* A worker that runs longer than this is ended, and named. */
#define BENCH_WORKER_LIMIT_S 300

/* The processes' runner (starting, waiting for and reading workers) is
 * procrun.h; this header holds what the rows and the record need of a
 * process, and nothing of the bench. */

/* The row orders a process actually ran, for its record: a process whose
 * seed was ignored, or whose rounds were not shuffled, shows here (issue
 * 45: a worker running process 1's order looked like any other). */
typedef struct bench_order_log {
    unsigned long long digest; /* FNV-1a 64 over every round's row indices, in the order run */
    size_t unshuffled;         /* rounds run in the order of the round before of their repeat */
} bench_order_log;

/* What happened to one process of the run, and where its time went. */
typedef struct bench_proc {
    int index;                 /* 1 .. K; 1 is the bench itself */
    unsigned long long seed;   /* its row order */
    int start_cpu;             /* the CPU it started on, -1 unpinned */
    size_t env_pad;            /* bytes of padding in its environment */
    bool ok;                   /* finished and its rows read back */
    char detail[160];          /* otherwise why not */
    double wall_s;             /* from its start to its rows written */
    double open_s, prepare_s, measure_s; /* start to backend open; the kinds and rows made; the rows timed */
    char side;                 /* an A/B session's: 'a' or 'b'; 0 in a plain run */
    int round, slot;           /* its round (0: process 1, in none) and its place in it (1, 2) */
    /* its blocks and how they were kept on an uncontended CPU (cpustate.h):
     * which processes lose a row to a contended CPU, and why */
    size_t blocks, retaken, kept, moves;
    bench_order_log order;     /* the row orders it ran (rounds.h) */
} bench_proc;

/* The per-process seed of the row order: process 1 keeps the fixed seed of
 * one-process runs, so K = 1 takes rows in the order it always did. */
unsigned long long bench_proc_seed(int index);

#endif
