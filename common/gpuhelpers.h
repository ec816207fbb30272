/* What every tool asks of a backend's tables, over gpu.h's types: the
 * walks over a backend's own rows and the shared ones (VMM, control, OS,
 * the PyTorch model). The statuses and one query's run are below it
 * (gpustatus.h), for the rows' recipes. */
#ifndef HA_GPUHELPERS_H
#define HA_GPUHELPERS_H

#include "gpu.h"
#include "gpustatus.h"

/* The kinds of a backend: its own rows, then the shared VMM rows when it has
 * VMM. Returns the count written. */
size_t ha_kinds(const ha_backend *be, const ha_kind **out, size_t max);

/* The candidates of a backend: its runtime's rows, the OS-level rows, then
 * the model of PyTorch's rule. */
size_t ha_queries(const ha_backend *be, const ha_query **out, size_t max);

#endif
