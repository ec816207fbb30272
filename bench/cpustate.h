/* Keeping every block on a CPU in its uncontended state.
 *
 * On the H200 VM a vCPU whose host core is shared runs high-IPC code
 * (the empty loop, system calls, the runtime's queries) up to twice as
 * slow, for a fraction of a second to seconds at a time, per CPU; about
 * half the CPUs are in that state at any moment, and a CPU chosen at the
 * start spends half the run in it (tools/diag/cpustate.c). A latency-bound
 * chain (the canary, the chained read) hardly moves, so no instrument of
 * the machine's speed can correct a figure for it. Instead the state is
 * probed after every block: a contended CPU is left for the quickest one
 * near the GPU, and a block that ran on it is taken again. */
#ifndef HA_BENCH_CPUSTATE_H
#define HA_BENCH_CPUSTATE_H

#include <stdbool.h>
#include <stddef.h>

#include "cpupick.h"

/* A probe above fast_ns times this is contended: the two states are 1.5
 * to 2x apart, the readings within a state a few % (H200). */
#define CPUSTATE_FACTOR 1.25
/* Takes of one block before it is kept, marked, as it is. */
#define CPUSTATE_TAKES 4

typedef struct cpu_state {
    int cpus[CPUPICK_MAX]; /* where a move may go */
    int ncpus;
    int cur;               /* the CPU held now; -1 not pinned */
    bool may_move;         /* false with --cpu or without affinity */
    double fast_ns;        /* the uncontended level: the lowest probe seen */
    size_t probes, contended, moves, retaken, kept, blocks;
    /* Blocks that may still be taken again: a machine contended throughout
     * (a busy CI host) must not make the run several times as long. */
    size_t retake_budget;
    /* Test only: HOSTACCESS_TEST_CONTENDED=1 makes every probe read
     * contended and every move leave the CPU it is on, so that the retake
     * and move rules can be seen on any machine of two CPUs or more. */
    bool test_contended;
} cpu_state;

/* Retakes allowed, as a share of the blocks a run plans. */
#define CPUSTATE_RETAKE_SHARE 0.3

/* From the CPU choice: the CPUs a move may use, the one held, and the
 * fast level, probed on each of them. */
void cpustate_init(cpu_state *s, const cpu_choice *c);

/* Probes the CPU held; true when it is contended (counted). */
bool cpustate_check(cpu_state *s, double *probe);

/* Moves to the quickest CPU, probing each; the probe on the new one is in
 * *probe. Returns whether it moved (false when it may not). */
bool cpustate_move(cpu_state *s, double *probe);

#endif
