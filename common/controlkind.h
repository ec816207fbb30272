/* The control kind, offered on every backend: memory that is not a GPU's
 * but is mapped the way amdgpu maps large-BAR VRAM for the CPU. */
#ifndef HA_CONTROLKIND_H
#define HA_CONTROLKIND_H

#include "gpu.h"

/* Ended by a NULL name. */
extern const ha_kind ha_control_kinds[];

#endif
