/* The probe's core, shared with the bench: for each allocation kind, make
 * it, have the device write a pattern, ask every candidate, then establish
 * the truth (a fault-contained host read and write); then a verdict per
 * candidate. */
#ifndef HA_DISCRIMINATE_H
#define HA_DISCRIMINATE_H

#include "gpu.h"
#include "hostread.h"
#include "verdict.h"

typedef struct ha_kind_run {
    const ha_kind *kind;
    ha_alloc a;
    int create_status;
    bool created;
    ha_truth readable, writable;
    ha_hr_status read_st, write_st;
    int fork_read, fork_write; /* ha_hr_status, or -1 when not run */
    char truth_note[200];
    ha_result res[HA_MAX_QUERIES];
} ha_kind_run;

typedef struct ha_discrimination {
    bool isolate_fork; /* also access in a child first (--isolate=fork) */
    const ha_kind *kinds[HA_MAX_KINDS];
    size_t nk;
    const ha_query *queries[HA_MAX_QUERIES];
    size_t nq;
    ha_kind_run runs[HA_MAX_KINDS];
    ha_verdict verdicts[HA_MAX_QUERIES];
    char keys[HA_MAX_QUERIES][HA_MAX_KINDS][96];
} ha_discrimination;

/* Fills kinds and queries from the backend's tables. */
void ha_discriminate_init(const ha_backend *be, ha_discrimination *d, bool isolate_fork);

/* Runs kind ki: create, pattern, candidates, truth, destroy. */
void ha_discriminate_kind(const ha_backend *be, ha_discrimination *d, size_t ki);

/* A verdict for every candidate, from the kinds run so far. */
void ha_discriminate_verdicts(ha_discrimination *d);

/* Writes the same pattern generator the probe uses. */
void ha_make_pattern(unsigned char *p, size_t n, unsigned seed);

#endif
