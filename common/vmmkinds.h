#ifndef HA_VMMKINDS_H
#define HA_VMMKINDS_H

#include "gpu.h"
#include "vmmmap.h"

#define HA_VMM_MAX_CHUNKS 8

/* Rows appended to every backend that has VMM, ended by a NULL name. */
extern const ha_kind ha_vmm_kinds[];

/* A candidate's raw call: the backend's MemGetAccess for location q->arg. */
int ha_raw_get_access(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out);

#endif
