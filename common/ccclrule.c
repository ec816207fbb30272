#include "ccclrule.h"

#define HA_CU_MEMORYTYPE_HOST 1u /* cuda.h's CU_MEMORYTYPE_HOST, here without cuda.h */

bool ha_cccl_host_accessible(const ha_cccl_attrs *a)
{
    if (a->memory_type == 0 || (!a->has_pool && (a->is_managed || a->memory_type == HA_CU_MEMORYTYPE_HOST)))
        return true;
    return a->has_pool && a->pool_host_read;
}
