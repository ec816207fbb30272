#include "gpuhelpers.h"

#include "controlkind.h"
#include "oscand.h"
#include "torchrule.h"
#include "vmmkinds.h"

size_t ha_kinds(const ha_backend *be, const ha_kind **out, size_t max)
{
    size_t n = 0;
    for (const ha_kind *k = be->ops->kinds; k && k->name && n < max; k++)
        out[n++] = k;
    if (be->ops->vmm)
        for (const ha_kind *k = ha_vmm_kinds; k->name && n < max; k++)
            out[n++] = k;
    for (const ha_kind *k = ha_control_kinds; k->name && n < max; k++)
        out[n++] = k;
    return n;
}

size_t ha_queries(const ha_backend *be, const ha_query **out, size_t max)
{
    size_t n = 0;
    for (const ha_query *q = be->ops->queries; q && q->name && n < max; q++)
        out[n++] = q;
    for (const ha_query *q = ha_os_queries; q->name && n < max; q++)
        out[n++] = q;
    for (const ha_query *q = ha_torch_queries; q->name && n < max; q++)
        out[n++] = q;
    return n;
}
