/* The stand-in's pointer queries: hipPointerGetAttributes, the attribute
 * calls and hipMemGetAddressRange, as 7.2.4's CLR answers them, with what
 * changed before and after (FACTS.md). */
#include "standin.h"

#include <stdint.h>
#include <string.h>

hipError_t hipPointerGetAttributes(hipPointerAttribute_t *a, const void *p)
{
    void *start;
    size_t size;
    unsigned flags;
    int v = V();
    if (!a)
        return hipErrorInvalidValue;
    if (!p && v < 71600000)
        return hipErrorInvalidValue; /* NULL: Unregistered only in the newest CLR */
    unit_kind k = sd_unit(p, &start, &size, &flags);
    if (k == U_NONE && v < 60000000)
        return hipErrorInvalidValue; /* unknown: invalid value up to 5.7.1 (hip_memory.cpp:3375) */
    bool dev = sd_is_device(k) && k != U_FINE;
    bool host = k == U_PINNED || k == U_MANAGED || k == U_REGISTERED || k == U_FINE;
    memset(a, 0, sizeof *a);
    a->device = 0;
#if HIP_VERSION >= 60000000
    a->type = dev ? hipMemoryTypeDevice : k == U_MANAGED ? hipMemoryTypeManaged
              : host ? hipMemoryTypeHost : hipMemoryTypeUnregistered;
#elif HIP_VERSION >= 50500000
    a->type = dev ? hipMemoryTypeDevice : hipMemoryTypeHost;
#else
    a->memoryType = dev ? hipMemoryTypeDevice : hipMemoryTypeHost;
#endif
    a->devicePointer = (dev || host) ? (void *)p : NULL;
    /* fine-grained device memory reads as Host; its host pointer is taken
     * to be the address, as for host memory (unconfirmed) */
    a->hostPointer = host ? (void *)p : NULL;
    a->isManaged = k == U_MANAGED;
    a->allocationFlags = k == U_PINNED || k == U_REGISTERED ? flags : 0;
    return hipSuccess;
}

/* What a failing attribute query leaves in the caller's buffer: the
 * attribute's default, in the attribute's own width (FACTS.md: NULL, 0,
 * -2, false). Returns false for an attribute it does not know. */
static bool write_default(void *data, hipPointer_attribute attr)
{
    switch (attr) {
    case HIP_POINTER_ATTRIBUTE_CONTEXT:
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER:
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(void **)data = NULL; return true;
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE:
    case HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS:
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE:
    case HIP_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned *)data = 0; return true;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = -2; return true;
    case HIP_POINTER_ATTRIBUTE_MAPPED:
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED:
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS:
    case HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE: *(unsigned char *)data = 0; return true;
    default: return false;
    }
}

/* A 4-byte id unique to each allocation unit (6.4.3 hip_memory.cpp:4029). */
static unsigned buffer_id(const void *start)
{
    static const void *seen[4096];
    static unsigned n;
    for (unsigned i = 0; i < n; i++)
        if (seen[i] == start)
            return i + 1;
    if (n < sizeof seen / sizeof seen[0])
        seen[n++] = start;
    return n;
}

/* The answer for a pointer the runtime knows; an error leaves the default. */
static hipError_t answer(void *data, hipPointer_attribute attr, const void *ptr, unit_kind k, void *start, size_t size)
{
    static int context_token;
    bool dev = sd_is_device(k) && k != U_FINE;
    switch (attr) {
    case HIP_POINTER_ATTRIBUTE_CONTEXT:
        if (k == U_CHUNK)
            return hipErrorInvalidValue;
        *(void **)data = &context_token;
        return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE: /* managed memory reads Host here */
        *(unsigned *)data = dev ? hipMemoryTypeDevice : hipMemoryTypeHost;
        return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER: *(const void **)data = ptr; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
        if (dev)
            return hipErrorInvalidValue;
        *(const void **)data = ptr;
        return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_MAPPED: *(unsigned char *)data = 1; return hipSuccess; /* one byte */
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED: *(unsigned char *)data = k == U_MANAGED; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(unsigned char *)data = 0; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned *)data = buffer_id(start); return hipSuccess; /* four bytes */
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(void **)data = start; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: *(unsigned *)data = (unsigned)size; return hipSuccess; /* four bytes */
    case HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS: *(unsigned *)data = 0; return hipSuccess; /* allocation flags */
    case HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE:
        /* rocm-systems#1647 (7.11): 1 for hipMalloc memory (fine-grained
         * taken as hipMalloc's kin, unconfirmed), 0 for VMM, pool, host and
         * managed memory; one byte, as the other booleans */
        if (V() < 71100000)
            return hipErrorNotSupported;
        *(unsigned char *)data = k == U_BAR || k == U_FINE;
        return hipSuccess;
    default: return hipErrorInvalidValue;
    }
}

hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attr, hipDeviceptr_t ptr)
{
    if (!data)
        return hipErrorInvalidValue;
    void *start;
    size_t size;
    unsigned flags;
    unit_kind k = sd_unit(ptr, &start, &size, &flags);
    if (!write_default(data, attr))
        return hipErrorInvalidValue; /* an attribute it does not know */
    if (k == U_NONE)
        return attr == HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS ? hipSuccess : hipErrorInvalidValue;
    return answer(data, attr, ptr, k, start, size);
}

hipError_t hipDrvPointerGetAttributes(unsigned int n, hipPointer_attribute *attrs, void **data, hipDeviceptr_t ptr)
{
    if (!ptr || !attrs || !data || n == 0)
        return hipErrorInvalidValue;
    /* success otherwise; each slot gets its answer or its default */
    for (unsigned int i = 0; i < n; i++)
        (void)hipPointerGetAttribute(data[i], attrs[i], ptr);
    return hipSuccess;
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t *base, size_t *size, hipDeviceptr_t p)
{
    void *start;
    size_t sz;
    unsigned flags;
    if (!sd_is_device(sd_unit(p, &start, &sz, &flags)))
        return hipErrorInvalidValue;
    *base = start;
    *size = sz;
    return hipSuccess;
}
