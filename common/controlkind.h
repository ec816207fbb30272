/* The control kind, offered on every backend: memory that is not a GPU's
 * but is mapped the way amdgpu maps large-BAR VRAM for the CPU. */
#ifndef HA_CONTROLKIND_H
#define HA_CONTROLKIND_H

#include "gpu.h"

/* Ended by a NULL name. */
extern const ha_kind ha_control_kinds[];

/* The first mapping whose /proc/self/maps name is name ("[vvar]"); 1
 * found, 0 not, -1 the file could not be read. */
int ha_maps_find_named(const char *name, void **start, size_t *size);

#endif
