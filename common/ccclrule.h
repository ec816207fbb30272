/* NVIDIA CCCL's answer as a candidate row: cuda::is_host_accessible
 * (libcudacxx include/cuda/__memory/is_pointer_accessible.h, NVIDIA/cccl
 * at 004ad19), a peer library's rule for the question this tool asks,
 * judged against the ground truth like every candidate. Its inputs are
 * three pointer attributes and, for pool memory, the pool's host access;
 * the rule itself is pure, so it is tested here without a GPU. */
#ifndef HA_CCCLRULE_H
#define HA_CCCLRULE_H

#include <stdbool.h>

/* What the driver answered for one pointer. memory_type 0 is what
 * cuPointerGetAttributes leaves for memory it does not know (pageable
 * host memory); pool_host_read is whether cuMemPoolGetAccess(pool, HOST)
 * includes PROT_READ, asked only when has_pool. */
typedef struct ha_cccl_attrs {
    unsigned memory_type; /* CU_MEMORYTYPE_*: 1 host, 2 device, 3 array, 4 unified */
    bool is_managed;
    bool has_pool;
    bool pool_host_read;
} ha_cccl_attrs;

/* The rule: unknown memory, or managed or host memory outside a pool, is
 * host accessible; pool memory is when its pool grants the host read;
 * anything else is not (device memory, VMM mappings whatever their grants:
 * CCCL never asks cuMemGetAccess). NULL is never (the caller's check). */
bool ha_cccl_host_accessible(const ha_cccl_attrs *a);

#endif
