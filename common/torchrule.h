/* PyTorch's own decision as a candidate row: whether PyTorch ROCm's
 * .item() would read the scalar with a host load (a model of its rule, not
 * a call into PyTorch), judged against the truth like every query. */
#ifndef HA_TORCHRULE_H
#define HA_TORCHRULE_H

#include "gpu.h"

/* Rows appended to every backend's candidates, ended by a NULL name. */
extern const ha_query ha_torch_queries[];

#endif
