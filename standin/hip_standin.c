/* A stand-in ROCm runtime: libamdhip64.so as ROCm's sources say it answers,
 * on a model of a large-BAR platform, so the hip backend's code runs line
 * for line where no AMD GPU is (CI, this project's machines). It is not
 * ROCm: everything it answers is labelled SIMULATED by the tools, with the
 * profile's name. Built against real HIP headers (the system's, or a
 * release fetched by make hip-matrix), so every entry point has the
 * header's own prototype and the name the header maps it to.
 *
 * The platform is common/largebar.c, the project's one model of a
 * large-BAR GPU (the sim backend runs on it too): what the memory *is*
 * lives there; what each ROCm release *answers* about it lives here.
 * What differs by release is in common/rocm_profiles.h and below, each
 * marked with the profile test that decides it. The profile comes from
 * $HOSTACCESS_STANDIN_PROFILE (--sim-profile sets it). */
#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "largebar.h"
#include "rocm_profiles.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define HAS_HOST_LOCATION (HIP_VERSION >= 70100000)
#define GRANULE (2u << 20)
#define VRAM_BYTES (192ull << 30)

static const ha_rocm_profile *profile(void)
{
    static const ha_rocm_profile *p;
    if (!p) {
        p = ha_rocm_profile_find(getenv(HA_STANDIN_PROFILE_ENV));
        if (!p)
            p = ha_rocm_profile_find(HA_STANDIN_DEFAULT_PROFILE);
    }
    return p;
}

static int V(void) { return profile()->version; }

/* The tools look for this to label everything the runtime answered as
 * simulated, naming the profile. */
const char *hostaccess_standin_profile(void) { return profile()->name; }

/* Host memory the runtime hands out (hipHostMalloc, hipMallocManaged):
 * not the platform's device memory, but the pointer queries know it. */
typedef enum { HOST_FREE, HOST_PINNED, HOST_MANAGED } host_kind;
typedef struct host_obj {
    host_kind k;
    char *va;
    size_t size;
} host_obj;

#define MAX_HOST 1024
static host_obj hosts[MAX_HOST];

static host_obj *host_find(const void *p, host_kind k)
{
    const char *c = p;
    for (int i = 0; i < MAX_HOST; i++)
        if (hosts[i].k == k && c >= hosts[i].va && c < hosts[i].va + hosts[i].size)
            return &hosts[i];
    return NULL;
}

/* An MI300X: 192 GiB, 2 MiB granules. */
__attribute__((constructor)) static void configure(void) { lb_configure(VRAM_BYTES, GRANULE); }

static hipError_t lb_error(int st)
{
    switch (st) {
    case LB_OK: return hipSuccess;
    case LB_E_NOMEM: return hipErrorOutOfMemory;
    default: return hipErrorInvalidValue;
    }
}

/* The mapped VMM chunk holding p, if any. */
typedef struct chunk {
    void *start;
    size_t size;
    lb_handle h;
    bool device, host;
} chunk;

static bool chunk_of(const void *p, chunk *c)
{
    return lb_chunk_find(p, &c->start, &c->size, &c->h, &c->device, &c->host);
}

/* ---- errors, versions, devices ---- */

const char *hipGetErrorName(hipError_t e)
{
    switch (e) {
    case hipSuccess: return "hipSuccess";
    case hipErrorInvalidValue: return "hipErrorInvalidValue";
    case hipErrorOutOfMemory: return "hipErrorOutOfMemory";
    case hipErrorInvalidDevice: return "hipErrorInvalidDevice";
    case hipErrorNotSupported: return "hipErrorNotSupported";
    default: return "hipErrorUnknown";
    }
}

hipError_t hipInit(unsigned int flags) { return flags ? hipErrorInvalidValue : hipSuccess; }
hipError_t hipRuntimeGetVersion(int *v) { *v = V(); return hipSuccess; }
hipError_t hipDriverGetVersion(int *v) { *v = V(); return hipSuccess; }
hipError_t hipGetDeviceCount(int *n) { *n = 1; return hipSuccess; }
hipError_t hipSetDevice(int d) { return d == 0 ? hipSuccess : hipErrorInvalidDevice; }

hipError_t hipDeviceGetName(char *name, int len, hipDevice_t d)
{
    if (d != 0 || len <= 0)
        return hipErrorInvalidValue;
    snprintf(name, (size_t)len, "AMD Instinct MI300X (stand-in, ROCm %s profile)", profile()->name);
    return hipSuccess;
}

hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t d)
{
    if (d != 0)
        return hipErrorInvalidDevice;
    *bytes = VRAM_BYTES;
    return hipSuccess;
}

hipError_t hipDeviceGetPCIBusId(char *bus, int len, int d)
{
    if (d != 0 || len <= 0)
        return hipErrorInvalidValue;
    snprintf(bus, (size_t)len, "0000:00:00.0");
    return hipSuccess;
}

hipError_t hipDeviceGetAttribute(int *v, hipDeviceAttribute_t a, int d)
{
    if (d != 0)
        return hipErrorInvalidDevice;
    switch (a) {
    case hipDeviceAttributeIsLargeBar: *v = 1; return hipSuccess;
#if HIP_VERSION >= 50300000
    case hipDeviceAttributeVirtualMemoryManagementSupported: *v = 1; return hipSuccess;
#endif
    default: *v = 0; return hipSuccess;
    }
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *p, int d)
{
    if (d != 0)
        return hipErrorInvalidDevice;
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "AMD Instinct MI300X (stand-in)");
    snprintf(p->gcnArchName, sizeof p->gcnArchName, "gfx942:sramecc+:xnack-");
    p->totalGlobalMem = VRAM_BYTES;
    p->isLargeBar = 1;
    return hipSuccess;
}

hipError_t hipMemGetInfo(size_t *free_b, size_t *total)
{
    lb_mem_info(free_b, total);
    return hipSuccess;
}

hipError_t hipStreamCreateWithFlags(hipStream_t *s, unsigned int flags)
{
    (void)flags;
    static int token;
    *s = (hipStream_t)&token;
    return hipSuccess;
}
hipError_t hipStreamDestroy(hipStream_t s) { (void)s; return hipSuccess; }
hipError_t hipStreamSynchronize(hipStream_t s) { (void)s; return hipSuccess; }
/* The model's copies are done when they return: nothing to wait for. */
hipError_t hipDeviceSynchronize(void) { return hipSuccess; }

/* ---- plain allocations ---- */

/* Large BAR: all of VRAM is visible, so hipMalloc memory is mapped for the
 * CPU at its device address. */
hipError_t hipMalloc(void **p, size_t size) { return lb_error(lb_bar_alloc(p, size, true)); }

static hipError_t host_alloc(void **p, size_t size, host_kind k)
{
    if (!size)
        return hipErrorInvalidValue;
    for (int i = 0; i < MAX_HOST; i++)
        if (hosts[i].k == HOST_FREE) {
            char *va = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (va == MAP_FAILED)
                return hipErrorOutOfMemory;
            hosts[i] = (host_obj){k, va, size};
            *p = va;
            return hipSuccess;
        }
    return hipErrorOutOfMemory;
}

hipError_t hipHostMalloc(void **p, size_t size, unsigned int flags)
{
    (void)flags;
    return host_alloc(p, size, HOST_PINNED);
}

hipError_t hipMallocManaged(void **p, size_t size, unsigned int flags)
{
    (void)flags;
    return host_alloc(p, size, HOST_MANAGED);
}

static hipError_t host_free(void *p, host_kind k)
{
    host_obj *o = host_find(p, k);
    if (!o || o->va != p)
        return hipErrorInvalidValue;
    munmap(o->va, o->size);
    o->k = HOST_FREE;
    return hipSuccess;
}

hipError_t hipFree(void *p)
{
    if (!p)
        return hipSuccess;
    if (lb_bar_free(p) == LB_OK)
        return hipSuccess;
    return host_free(p, HOST_MANAGED);
}

hipError_t hipHostFree(void *p) { return host_free(p, HOST_PINNED); }

/* ---- copies: the device's side of its memory ---- */

/* A chunk without device access makes the copy engine fault. */
hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind kind)
{
    (void)kind;
    return lb_error(lb_copy(dst, src, n));
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, hipMemcpyKind kind, hipStream_t s)
{
    (void)kind;
    (void)s;
    return lb_error(lb_copy(dst, src, n));
}

/* ---- virtual memory management ---- */

static int loc_type(const hipMemLocation *l) { return (int)l->type; }

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
    if (!size || size % GRANULE || (align && align % GRANULE))
        return hipErrorInvalidValue;
    if (V() < 50300000)
        return hipSuccess; /* 5.2: a stub that writes no address */
    return lb_error(lb_reserve(ptr, size, align, addr));
}

hipError_t hipMemAddressFree(void *ptr, size_t size) { return lb_error(lb_free_va(ptr, size)); }

hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *h, size_t size, const hipMemAllocationProp *prop,
                        unsigned long long flags)
{
    (void)flags;
    if (!prop || !size || size % GRANULE)
        return hipErrorInvalidValue;
    bool host = false;
    /* Before 7.1 (profiles 6.x) the location type is not looked at. From 7.1
     * the HIP layer takes Device and Host only. */
    if (V() >= 70100000) {
        int t = loc_type(&prop->location);
        if (t != hipMemLocationTypeDevice && t != 2 /* Host */)
            return hipErrorInvalidValue;
        host = t == 2;
    }
    lb_handle lh = 0;
    int st = lb_create(&lh, size, host);
    *h = (hipMemGenericAllocationHandle_t)lh;
    return lb_error(st);
}

hipError_t hipMemRelease(hipMemGenericAllocationHandle_t h) { return lb_error(lb_release((lb_handle)h)); }

hipError_t hipMemMap(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t h,
                     unsigned long long flags)
{
    (void)flags;
    if (V() < 50300000)
        return hipSuccess; /* 5.2: a no-op */
    if (offset)
        return hipErrorInvalidValue;
    return lb_error(lb_map(ptr, size, (lb_handle)h));
}

hipError_t hipMemUnmap(void *ptr, size_t size) { return lb_error(lb_unmap(ptr, size)); }

/* Applies one descriptor to [ptr, ptr + size), as the profile's release does. */
static hipError_t grant(void *ptr, size_t size, const hipMemAccessDesc *d)
{
    int t = loc_type(&d->location);
    int v = V();
    if (v < 60100000)
        return hipSuccess; /* 5.2 - 6.0: a stub */
    int on = d->flags != hipMemAccessFlagsProtNone;
    if (v < 70100000) {
        /* 6.1 - 6.4: the type is ignored and id taken as a device index:
         * {Host, 0} grants device 0. */
        if (d->location.id != 0)
            return hipErrorInvalidDevice;
        return lb_error(lb_grant(ptr, size, on, -1));
    }
    if (t == hipMemLocationTypeDevice) {
        if (d->location.id != 0)
            return hipErrorInvalidDevice;
        return lb_error(lb_grant(ptr, size, on, -1));
    }
    if (t != 2 /* Host */)
        return hipErrorInvalidValue; /* HostNuma, HostNumaCurrent: refused from 7.1 */
    chunk c;
    if (v < 70200000 && chunk_of(ptr, &c) && !lb_is_host_backed(c.h))
        return hipErrorInvalidValue; /* 7.1: Host refused on device-backed memory */
    int host = d->flags == hipMemAccessFlagsProtReadWrite ? 1 : d->flags == hipMemAccessFlagsProtRead ? 2 : 0;
    return lb_error(lb_grant(ptr, size, -1, host));
}

hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count)
{
    if (!desc || !count)
        return hipErrorInvalidValue;
    for (size_t i = 0; i < count; i++) {
        hipError_t e = grant(ptr, size, &desc[i]);
        if (e != hipSuccess)
            return e;
    }
    return hipSuccess;
}

hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *loc, void *ptr)
{
    if (V() < 60100000)
        return hipSuccess; /* 5.2 - 6.0: a stub that writes nothing */
    chunk c;
    /* Device locations only, on VMM memory only (hipMalloc: invalid value). */
    if (!chunk_of(ptr, &c) || loc_type(loc) != hipMemLocationTypeDevice || loc->id != 0)
        return hipErrorInvalidValue;
    *flags = c.device ? hipMemAccessFlagsProtReadWrite : hipMemAccessFlagsProtNone;
    return hipSuccess;
}

hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *h, void *addr)
{
    if (V() < 50300000)
        return hipSuccess; /* 5.2: success, no handle written */
    chunk c;
    if (chunk_of(addr, &c)) {
        if (V() >= 71200000)
            lb_retain(c.h); /* from 7.12 retain takes a reference */
        *h = (hipMemGenericAllocationHandle_t)c.h;
        return hipSuccess;
    }
    void *start;
    size_t size;
    if (lb_bar_find(addr, &start, &size) && V() >= 60200000 && V() < 71400000) {
        /* 6.2 (f5ca620b) to the 7.14 fix: a null physical-memory object is
         * dereferenced. Really: the tool's guard must keep it from here. */
        volatile int *null_phys = NULL;
        return (hipError_t)*null_phys;
    }
    return hipErrorInvalidValue;
}

/* ---- pointer attributes (7.2.4's answers, FACTS.md) ---- */

/* What the runtime knows of p: its allocation unit (the chunk for VMM, the
 * whole allocation otherwise) and its kind. */
typedef enum { U_NONE, U_BAR, U_CHUNK, U_PINNED, U_MANAGED } unit_kind;

static unit_kind unit(const void *p, void **start, size_t *size)
{
    chunk c;
    if (chunk_of(p, &c)) {
        *start = c.start;
        *size = c.size;
        return U_CHUNK;
    }
    if (lb_bar_find(p, start, size))
        return U_BAR;
    host_obj *o = host_find(p, HOST_PINNED);
    unit_kind k = U_PINNED;
    if (!o) {
        o = host_find(p, HOST_MANAGED);
        k = U_MANAGED;
    }
    if (!o)
        return U_NONE;
    *start = o->va;
    *size = o->size;
    return k;
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t *a, const void *p)
{
    void *start;
    size_t size;
    unit_kind k = unit(p, &start, &size);
    bool dev = k == U_BAR || k == U_CHUNK, host = k == U_PINNED || k == U_MANAGED;
    if (k == U_NONE && V() < 60000000)
        return hipErrorInvalidValue;
    memset(a, 0, sizeof *a);
    a->device = 0;
#if HIP_VERSION >= 60000000
    a->type = dev ? hipMemoryTypeDevice : k == U_PINNED ? hipMemoryTypeHost : k == U_MANAGED ? hipMemoryTypeManaged
                                                                                           : hipMemoryTypeUnregistered;
#elif HIP_VERSION >= 50500000
    a->type = dev ? hipMemoryTypeDevice : hipMemoryTypeHost;
#else
    a->memoryType = dev ? hipMemoryTypeDevice : hipMemoryTypeHost;
#endif
    a->devicePointer = (dev || host) ? (void *)p : NULL;
    a->hostPointer = host ? (void *)p : NULL;
    a->isManaged = k == U_MANAGED;
    return hipSuccess;
}

hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attr, hipDeviceptr_t ptr)
{
    void *start;
    size_t size;
    unit_kind k = unit(ptr, &start, &size);
    if (k == U_NONE || !data)
        return hipErrorInvalidValue;
    bool dev = k == U_BAR || k == U_CHUNK;
    static int context_token;
    switch (attr) {
    case HIP_POINTER_ATTRIBUTE_CONTEXT:
        if (k == U_CHUNK)
            return hipErrorInvalidValue;
        *(void **)data = &context_token;
        return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE:
        *(unsigned *)data = dev ? hipMemoryTypeDevice : hipMemoryTypeHost;
        return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER: *(void **)data = ptr; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
        if (dev)
            return hipErrorInvalidValue;
        *(void **)data = ptr;
        return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_MAPPED: *(unsigned char *)data = 1; return hipSuccess; /* one byte */
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED: *(unsigned char *)data = k == U_MANAGED; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(unsigned char *)data = 0; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned long long *)data = (uintptr_t)start; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(void **)data = start; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: *(unsigned *)data = (unsigned)size; return hipSuccess; /* four bytes */
    case HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS: *(unsigned *)data = 0; return hipSuccess; /* allocation flags */
    default: return hipErrorNotSupported;
    }
}

hipError_t hipDrvPointerGetAttributes(unsigned int n, hipPointer_attribute *attrs, void **data, hipDeviceptr_t ptr)
{
    /* always success; an attribute it cannot answer leaves its slot alone */
    for (unsigned int i = 0; i < n; i++)
        (void)hipPointerGetAttribute(data[i], attrs[i], ptr);
    return hipSuccess;
}

hipError_t hipMemGetAddressRange(hipDeviceptr_t *base, size_t *size, hipDeviceptr_t p)
{
    void *start;
    size_t sz;
    unit_kind k = unit(p, &start, &sz);
    if (k != U_BAR && k != U_CHUNK)
        return hipErrorInvalidValue;
    *base = start;
    *size = sz;
    return hipSuccess;
}
