/* The stand-in's virtual memory management: hipMemAddressReserve through
 * hipMemSetAccess, hipMemRetainAllocationHandle and the shareable-handle
 * calls, release by release (FACTS.md, "HIP across versions"). */
#include "standin.h"

#include <stdint.h>
#include <string.h>

hipError_t hipMemGetAllocationGranularity(size_t *g, const hipMemAllocationProp *prop,
                                          hipMemAllocationGranularity_flags option)
{
    (void)option;
    if (!prop)
        return hipErrorInvalidValue;
    *g = GRANULE;
    return hipSuccess;
}

hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t align, void *addr, unsigned long long flags)
{
    (void)flags;
    int v = V();
    if (!size || size % GRANULE || (align && align % GRANULE))
        return v >= 60100000 && v < 70000000 ? hipErrorMemoryAllocation : hipErrorInvalidValue;
    if (v < 50300000)
        return hipSuccess; /* 5.2: a stub that writes no address */
    if (v < 60100000) {
        /* <= 6.0: roc::Device::virtualAlloc returns nullptr (rocdevice.cpp:2314) */
        *ptr = NULL;
        return hipSuccess;
    }
    return sd_lb_error(lb_reserve(ptr, size, align, addr));
}

hipError_t hipMemAddressFree(void *ptr, size_t size) { return sd_lb_error(lb_free_va(ptr, size)); }

/* Which location types hipMemCreate and SetAccess take, by release. */
static bool host_type(int t) { return t == LOC_HOST || (V() >= 71600000 && (t == LOC_HOST_NUMA || t == LOC_HOST_NUMA_CURRENT)); }

hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *h, size_t size, const hipMemAllocationProp *prop,
                        unsigned long long flags)
{
    (void)flags;
    int v = V();
    if (!prop || !size || size % GRANULE)
        return hipErrorInvalidValue;
    int t = (int)prop->location.type;
    /* Device only before 7.1 (hip_vm.cpp:49-54 in 5.2.3, :89 in 6.4.3) */
    bool host = v >= 70100000 && host_type(t);
    if (t != LOC_DEVICE && !host)
        return hipErrorInvalidValue;
    if (t == LOC_DEVICE && prop->location.id != 0)
        return hipErrorInvalidValue;
    if (prop->requestedHandleType == hipMemHandleTypePosixFileDescriptor && v >= 60100000 && v < 60200000)
        return hipErrorNotSupported; /* 6.1: accepted from 6.2 */
    lb_handle lh = 0;
    int st = lb_create(&lh, size, host);
    if (st == LB_OK)
        *h = (hipMemGenericAllocationHandle_t)lh;
    return sd_lb_error(st);
}

hipError_t hipMemRelease(hipMemGenericAllocationHandle_t h) { return sd_lb_error(lb_release((lb_handle)h)); }

/* 6.1's VirtualMap maps the whole reservation (rocvirtual.cpp:2603): once
 * one chunk is mapped, the reservation is taken and a second map fails. */
static bool reservation_has_mapping(void *ptr)
{
    void *start;
    size_t size;
    if (!lb_reserve_find(ptr, &start, &size))
        return false;
    sd_chunk c;
    for (size_t off = 0; off < size; off += GRANULE)
        if (sd_chunk_of((char *)start + off, &c))
            return true;
    return false;
}

hipError_t hipMemMap(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t h,
                     unsigned long long flags)
{
    (void)flags;
    int v = V();
    if (v < 50300000)
        return hipSuccess; /* 5.2: a no-op */
    if (offset || !ptr)
        return hipErrorInvalidValue; /* <= 6.0 maps on the NULL its reserve wrote */
    if (v >= 60100000 && v < 60200000 && reservation_has_mapping(ptr))
        return hipErrorInvalidValue;
    return sd_lb_error(lb_map(ptr, size, (lb_handle)h));
}

hipError_t hipMemUnmap(void *ptr, size_t size) { return sd_lb_error(lb_unmap(ptr, size)); }

/* What one descriptor asks for on [ptr, ptr + size), as the profile's
 * release reads it: device access (1/0, -1 untouched) and host mapping
 * (1 read-write, 2 read-only, 0 none, -1 untouched). */
typedef struct want {
    int device, host;
} want;

static hipError_t read_desc(void *ptr, const hipMemAccessDesc *d, want *w)
{
    int t = (int)d->location.type, v = V();
    int on = d->flags != hipMemAccessFlagsProtNone;
    *w = (want){-1, -1};
    /* An access flag that is none of None, Read, ReadWrite: hip-tests'
     * Unit_hipMemSetAccess_negative expects InvalidValue from 6.1 (CLR
     * passes it to ROCr as an hsa permission, which refuses it). */
    if (d->flags != hipMemAccessFlagsProtNone && d->flags != hipMemAccessFlagsProtRead &&
        d->flags != hipMemAccessFlagsProtReadWrite)
        return hipErrorInvalidValue;
    if (v < 70100000 || t == LOC_DEVICE) {
        /* 6.1 - 6.4 ignore the type and take id as a device index: {Host, 0}
         * grants device 0. A bad device id is InvalidValue, not InvalidDevice. */
        if (d->location.id != 0)
            return hipErrorInvalidValue;
        w->device = on;
        return hipSuccess;
    }
    if (!host_type(t))
        return hipErrorInvalidValue; /* HostNuma, HostNumaCurrent: refused from 7.1 until 10.1 */
    if (d->location.id != 0 && v < 71600000)
        return hipErrorInvalidValue; /* 10.1 ignores the Host id */
    sd_chunk c;
    bool mapped = sd_chunk_of(ptr, &c);
    if (v < 70200000 && mapped && !lb_is_host_backed(c.h))
        return hipErrorInvalidValue; /* 7.1: Host refused on device-backed memory */
    if (v >= 71500000 && v < 71600000 && mapped && lb_is_imported(c.h))
        return hipErrorInvalidValue; /* 7.15: Host refused on an imported handle (rocm-systems#11185) */
    w->host = d->flags == hipMemAccessFlagsProtReadWrite ? 1 : d->flags == hipMemAccessFlagsProtRead ? 2 : 0;
    return hipSuccess;
}

hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count)
{
    int v = V();
    if (!desc || !count)
        return hipErrorInvalidValue;
    if (v < 60100000)
        return hipSuccess; /* 5.2 - 6.0: a stub (hip_vm.cpp:132-142 in 6.0) */
    if (v < 60200000 && count > 1)
        return hipErrorInvalidValue; /* 6.1: count descriptors read from one on the stack: garbage past it */
    want all = {-1, -1};
    for (size_t i = 0; i < count; i++) {
        want w;
        hipError_t e = read_desc(ptr, &desc[i], &w);
        if (e != hipSuccess)
            return e; /* refused before anything changes */
        if (w.device >= 0)
            all.device = w.device;
        if (w.host >= 0)
            all.host = w.host;
    }
    /* 7.x: whole sub-buffers from a chunk start (common/largebar.c) */
    return sd_lb_error(lb_grant(ptr, size, all.device, all.host));
}

hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *loc, void *ptr)
{
    if (V() < 60100000)
        return hipSuccess; /* 5.2 - 6.0: a stub that writes nothing */
    sd_chunk c;
    /* Device locations only, on VMM memory only (hipMalloc: invalid value);
     * null flags or location refused (hip_vm.cpp checks both first). */
    if (!flags || !loc || !sd_chunk_of(ptr, &c) || (int)loc->type != LOC_DEVICE || loc->id != 0)
        return hipErrorInvalidValue;
    *flags = c.device ? hipMemAccessFlagsProtReadWrite : hipMemAccessFlagsProtNone;
    return hipSuccess;
}

hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *h, void *addr)
{
    int v = V();
    if (v < 50300000)
        return hipSuccess; /* 5.2: success, no handle written */
    sd_chunk c;
    if (sd_chunk_of(addr, &c)) {
        if (v >= 71200000)
            lb_retain(c.h); /* from 7.12 retain takes a reference (rocm-systems#2696) */
        *h = (hipMemGenericAllocationHandle_t)c.h;
        return hipSuccess;
    }
    void *start;
    size_t size;
    unsigned flags;
    if (sd_unit(addr, &start, &size, &flags) != U_NONE && v >= 60200000 && v < 71400000) {
        /* 6.2 (f5ca620b) to the 7.14 fix: every pointer the runtime knows
         * that is not VMM has a null physical-memory object, dereferenced
         * without a test. Really: the tool's guard must keep it from here. */
        volatile int *null_phys = NULL;
        return (hipError_t)*null_phys;
    }
    *h = NULL; /* 6.0, 6.1 and from 7.14: InvalidValue, handle NULL */
    return hipErrorInvalidValue;
}

hipError_t hipMemExportToShareableHandle(void *shareable, hipMemGenericAllocationHandle_t h,
                                         hipMemAllocationHandleType type, unsigned long long flags)
{
    if (!shareable || flags || type != hipMemHandleTypePosixFileDescriptor)
        return hipErrorInvalidValue;
    int fd = -1;
    int st = lb_export_fd((lb_handle)h, &fd);
    if (st == LB_OK)
        memcpy(shareable, &fd, sizeof fd);
    return sd_lb_error(st);
}

hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *h, void *os_handle,
                                           hipMemAllocationHandleType type)
{
    if (!h || type != hipMemHandleTypePosixFileDescriptor)
        return hipErrorInvalidValue;
    lb_handle lh = 0;
    int st = lb_import_fd((int)(intptr_t)os_handle, &lh);
    if (st == LB_OK)
        *h = (hipMemGenericAllocationHandle_t)lh;
    return sd_lb_error(st);
}
