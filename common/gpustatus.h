/* A backend's statuses and one query's run, over gpu.h's types alone:
 * what a kind's or a candidate's recipe needs of the backend (vmmkinds.c,
 * torchrule.c) sits here, below the walks over every table (gpuhelpers.h),
 * so no recipe reaches up to the tables it is a row of. */
#ifndef HA_GPUSTATUS_H
#define HA_GPUSTATUS_H

#include "gpu.h"

/* Runs a query for the probe: q->run, or the default classification. */
void ha_query_run(const ha_backend *be, const ha_query *q, const ha_alloc *a, ha_result *r);

/* Whether what this backend answers is simulated: the sim backend, or a
 * real backend over the stand-in runtime. */
static inline bool ha_backend_simulated(const ha_backend *be)
{
    return be->ops->simulated || be->sim_profile != NULL;
}

/* A status's name for any status, ours or the runtime's. */
const char *ha_status_name(const ha_backend *be, int status);

/* Fills r as an error/ok outcome from a status. */
void ha_result_status(const ha_backend *be, ha_result *r, int status);

const char *ha_loc_name(ha_loc_type t);

/* Page-aligned anonymous host memory, for the kinds that register the
 * caller's own pages with a runtime; NULL when mmap fails. */
void *ha_host_pages(size_t n);
void ha_host_pages_free(void *p, size_t n);

#endif
