/* Which CPU the bench runs on. A migration mid-row mixes two cores' caches
 * and clock rates into one figure, and on a VM some vCPUs share a physical
 * core with a busy neighbour part of the time; so the bench surveys the
 * CPUs near the GPU and holds the quietest one for the whole run. */
#ifndef HA_BENCH_CPUPICK_H
#define HA_BENCH_CPUPICK_H

#include <stdbool.h>
#include <stddef.h>

#define CPUPICK_MAX 256

typedef struct cpu_score {
    int cpu;
    double p50_ns, p90_ns; /* empty-loop ns per iteration over 1 ms blocks */
} cpu_score;

typedef struct cpu_choice {
    int cpu;               /* -1: not pinned */
    bool forced;           /* --cpu: held, never moved */
    char how[200];         /* why this one */
    cpu_score scores[CPUPICK_MAX];
    int nscores;
} cpu_choice;

/* forced >= 0 holds that CPU (it must be one this process may use).
 * Otherwise: the CPUs this process may use that are in the GPU's
 * local_cpulist (sysfs_root "" for the live system, pci_bus_id may be
 * empty), each timed for 10 ms; the one with the lowest p90 wins. Pins
 * the calling thread. Returns 0, or -1 when the forced CPU cannot be held. */
int cpupick_choose(const char *sysfs_root, const char *pci_bus_id, int forced, cpu_choice *out);

/* A worker of a run (--start-cpu): holds cpu, where the first process
 * placed it, and lists the CPUs cpupick_choose would have surveyed, not
 * timed (p50_ns, p90_ns NaN), as where it may move off a contended CPU
 * (cpustate.h). Without that list a worker could only take a block again
 * on the CPU that spoilt it. 0, or -1 when cpu cannot be held. */
int cpupick_start_at(const char *sysfs_root, const char *pci_bus_id, int cpu, cpu_choice *out);

/* Pins the calling thread to cpu; 0, or -1 as sched_setaffinity. */
int cpupick_hold(int cpu);

#endif
