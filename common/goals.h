/* The lines the reference pool is held to, in one place: pool_check judges
 * a run by them and compare judges a change by them. */
#ifndef HA_GOALS_H
#define HA_GOALS_H

#include <stdbool.h>
#include <stddef.h>

/* Sleep must hand back at least this share of the mapped bytes to the
 * device's free memory (the rest is granularity and runtime bookkeeping). */
#define HA_POOL_FREED_FRACTION 0.95

/* Sleep and wake move bytes at no less than this share of a plain pinned
 * copy of the same size. */
#define HA_POOL_THROUGHPUT_GOAL 0.95

static inline bool ha_pool_freed_enough(double freed_bytes, double mapped_bytes)
{
    return mapped_bytes > 0 && freed_bytes >= HA_POOL_FREED_FRACTION * mapped_bytes;
}

static inline bool ha_pool_throughput_met(double fraction_of_ceiling)
{
    return fraction_of_ceiling >= HA_POOL_THROUGHPUT_GOAL;
}

/* A throughput goal is judged on the steady cycles of one run, not on their
 * median: 1 and 4 GiB sleeps on one H200 spread over about 4 points from
 * cycle to cycle, so a median within that of the goal says nothing. */
typedef enum ha_goal_outcome {
    HA_GOAL_MET,          /* every cycle at or above the goal */
    HA_GOAL_WITHIN_NOISE, /* the cycles straddle it */
    HA_GOAL_MISSED,       /* every cycle below it */
    HA_GOAL_NOT_JUDGED,   /* a SIMULATED run's: the machine's that ran it, never a GPU's */
} ha_goal_outcome;

/* by_cycle: the steady cycles' fractions of the ceiling; with fewer than
 * two (records from before they were kept) the one figure decides. */
static inline ha_goal_outcome ha_pool_goal_judge(const double *by_cycle, size_t n, double figure)
{
    if (n < 2)
        return ha_pool_throughput_met(figure) ? HA_GOAL_MET : HA_GOAL_MISSED;
    size_t above = 0;
    for (size_t i = 0; i < n; i++)
        above += ha_pool_throughput_met(by_cycle[i]);
    return above == n ? HA_GOAL_MET : above ? HA_GOAL_WITHIN_NOISE : HA_GOAL_MISSED;
}

/* The lowest and highest of n cycles' fractions (n > 0). */
static inline void ha_cycles_range(const double *by_cycle, size_t n, double *lo, double *hi)
{
    *lo = *hi = by_cycle[0];
    for (size_t i = 1; i < n; i++) {
        *lo = by_cycle[i] < *lo ? by_cycle[i] : *lo;
        *hi = by_cycle[i] > *hi ? by_cycle[i] : *hi;
    }
}

/* The one word for an outcome, wherever it is shown (report, exports,
 * trend page). */
static inline const char *ha_goal_name(ha_goal_outcome o)
{
    return o == HA_GOAL_MET              ? "met"
           : o == HA_GOAL_MISSED         ? "missed"
           : o == HA_GOAL_NOT_JUDGED     ? "not judged (simulated)"
                                         : "at the goal, within noise";
}

#endif
