/* The lines the reference pool is held to, in one place: pool_check judges
 * a run by them and compare judges a change by them. */
#ifndef HA_GOALS_H
#define HA_GOALS_H

#include <stdbool.h>

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

#endif
