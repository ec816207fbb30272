/* Candidates the operating system answers, on every backend: the kernel
 * knows what is mapped even when the runtime will not say. */
#ifndef HA_OSCAND_H
#define HA_OSCAND_H

#include "gpu.h"

extern const ha_query ha_os_queries[];

#endif
