#ifndef HA_VMMKINDS_H
#define HA_VMMKINDS_H

#include "gpu.h"

#define HA_VMM_MAX_CHUNKS 8

/* Rows appended to every backend that has VMM, ended by a NULL name. */
extern const ha_kind ha_vmm_kinds[];

/* The location of a backing type on this backend's device. */
ha_loc ha_vmm_backing_loc(const ha_backend *be, ha_loc_type t);

/* A candidate's raw call: the backend's MemGetAccess for location q->arg. */
int ha_raw_get_access(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out);

#endif
