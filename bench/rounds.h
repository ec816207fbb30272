/* Interleaved rounds: every row takes a block of its samples in each round,
 * in a shuffled order, so all rows see the same slow minutes, warm caches
 * and bimodal driver states in the same proportion, instead of one row
 * catching a quiet second and its neighbour a busy one. */
#ifndef HA_BENCH_ROUNDS_H
#define HA_BENCH_ROUNDS_H

#include "cpustate.h"
#include "measure.h"

typedef struct bench_job {
    bench_row *row;
    bench_fn f;
    bench_ctx c;       /* its own: the allocation, candidate and reference it reads */
    bool session;      /* fault-guard handlers installed around each block */
    double slowdown;   /* test only (HOSTACCESS_TEST_SLOWDOWN): 0 normally */
} bench_job;

/* The seed of the per-round shuffles of a run's first process: fixed, so
 * its rows come in the same order in every run; the other processes of a
 * run take their own seeds (procs.h). */
#define BENCH_ROUND_SEED 0x9e3779b97f4a7c15ull

/* Calibrates every job, then runs plan->rounds x repeats rounds; a job of
 * repeat r takes part in the rounds where round % repeats == r - 1, taking
 * one unrecorded batch (caches warm again after the other rows) and then
 * its block. After each block the CPU's state is probed (cpustate.h): a
 * contended CPU is left, and the block taken again, up to CPUSTATE_TAKES
 * times. Returns -1 when memory for samples runs out (those rows are
 * marked skipped). The orders it ran go into *log. Statistics are left
 * to bench_summarise. */
int bench_run_rounds(bench_job *jobs, size_t n, const bench_plan *plan, int repeats,
                     const ha_clock_info *ci, cpu_state *cs, bench_order_log *log);

#endif
