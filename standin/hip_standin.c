/* A stand-in ROCm runtime: libamdhip64.so as ROCm's sources say it answers,
 * on a model of a large-BAR platform, so the hip backend's code runs line
 * for line where no AMD GPU is (CI, this project's machines). It is not
 * ROCm: everything it answers is labelled SIMULATED by the tools, with the
 * profile's name. Built against real HIP headers (the system's, or a
 * release fetched by make hip-matrix), so every entry point has the
 * header's own prototype and the name the header maps it to.
 *
 * The platform model:
 *   - "VRAM" is memfd memory; the runtime's own side of it (copies) goes
 *     through a private read-write view, never through the host's address.
 *   - hipMalloc memory on a large-BAR GPU is mapped for the CPU through the
 *     BAR: its address reads and writes like memory.
 *   - A VMM range is reserved PROT_NONE; a mapped chunk stays PROT_NONE for
 *     the CPU until a SetAccess names the host (where the release accepts
 *     it), as ROCr maps the buffer for the CPU agent only then. An unmap
 *     loses the host mapping; a later device-only SetAccess does not revoke
 *     it (ROCr updates only the agents a call lists).
 *   - VRAM released while its address range stays reserved is not given
 *     back until the range is freed (why vLLM frees and re-reserves on
 *     ROCm): hipMemGetInfo counts it as used until hipMemAddressFree.
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

#include "rocm_profiles.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define HAS_HOST_LOCATION (HIP_VERSION >= 70100000)
#define GRANULE (2u << 20)
#define VRAM_BYTES (192ull << 30)
#define MAX_OBJ 4096

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

/* ---- the model's objects ---- */

typedef enum { OBJ_FREE, OBJ_MALLOC, OBJ_HOST, OBJ_MANAGED, OBJ_PHYS, OBJ_MAP, OBJ_RESERVE } obj_kind;

typedef struct obj {
    obj_kind kind;
    char *va;          /* the host's address (MALLOC, HOST, MANAGED, MAP, RESERVE) */
    size_t size;
    int fd;            /* PHYS: the memfd */
    char *dev;         /* PHYS: the runtime's private view */
    int refs;          /* PHYS: handle references (create 1, retain from 7.12 +1) */
    bool host_backed;  /* PHYS: created with location Host */
    struct obj *phys;  /* MAP: the chunk mapped here */
    struct obj *range; /* PHYS: the reservation it was last mapped into */
    size_t held;       /* RESERVE: released VRAM the runtime keeps while reserved */
    bool host_access;  /* MAP: mapped for the CPU */
    bool dev_access;   /* MAP: granted to the device */
} obj;

static obj objs[MAX_OBJ];
static size_t used_bytes;

static obj *new_obj(obj_kind k)
{
    for (int i = 0; i < MAX_OBJ; i++)
        if (objs[i].kind == OBJ_FREE) {
            memset(&objs[i], 0, sizeof objs[i]);
            objs[i].kind = k;
            objs[i].fd = -1;
            return &objs[i];
        }
    return NULL;
}

/* The object of kind k whose host range holds p. */
static obj *find(obj_kind k, const void *p)
{
    const char *c = p;
    for (int i = 0; i < MAX_OBJ; i++)
        if (objs[i].kind == k && c >= objs[i].va && c < objs[i].va + objs[i].size)
            return &objs[i];
    return NULL;
}

/* Where the runtime itself reads and writes p: the private view of VRAM
 * for device memory, the address itself for host memory. */
static char *runtime_view(const void *p)
{
    obj *o = find(OBJ_MAP, p);
    if (o)
        return o->phys->dev + ((const char *)p - o->va);
    return (char *)p;
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
    *total = VRAM_BYTES;
    *free_b = VRAM_BYTES - used_bytes;
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

/* ---- plain allocations ---- */

static int vram(size_t size, int *fd, char **dev)
{
    *fd = memfd_create("standin-vram", MFD_CLOEXEC);
    if (*fd < 0 || ftruncate(*fd, (off_t)size) != 0)
        return -1;
    *dev = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, *fd, 0);
    return *dev == MAP_FAILED ? -1 : 0;
}

hipError_t hipMalloc(void **p, size_t size)
{
    if (!size)
        return hipErrorInvalidValue;
    obj *o = new_obj(OBJ_MALLOC), *ph = new_obj(OBJ_PHYS);
    if (!o || !ph || vram(size, &ph->fd, &ph->dev) != 0)
        return hipErrorOutOfMemory;
    /* Large BAR: all of VRAM is visible, so the allocation is mapped for the
     * CPU at its device address. The phys object stays internal to it. */
    o->va = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, ph->fd, 0);
    if (o->va == MAP_FAILED)
        return hipErrorOutOfMemory;
    o->size = ph->size = size;
    o->phys = ph;
    ph->refs = 1;
    used_bytes += size;
    *p = o->va;
    return hipSuccess;
}

static hipError_t host_alloc(void **p, size_t size, obj_kind k)
{
    obj *o = new_obj(k);
    if (!o || !size)
        return !size ? hipErrorInvalidValue : hipErrorOutOfMemory;
    o->va = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (o->va == MAP_FAILED) {
        o->kind = OBJ_FREE;
        return hipErrorOutOfMemory;
    }
    o->size = size;
    *p = o->va;
    return hipSuccess;
}

hipError_t hipHostMalloc(void **p, size_t size, unsigned int flags)
{
    (void)flags;
    return host_alloc(p, size, OBJ_HOST);
}

hipError_t hipMallocManaged(void **p, size_t size, unsigned int flags)
{
    (void)flags;
    return host_alloc(p, size, OBJ_MANAGED);
}

static void drop_phys(obj *ph)
{
    munmap(ph->dev, ph->size);
    close(ph->fd);
    /* device memory last mapped into a range that is still reserved stays
     * counted until that range is freed */
    if (ph->range && ph->range->kind == OBJ_RESERVE && !ph->host_backed)
        ph->range->held += ph->size;
    else if (!ph->host_backed)
        used_bytes -= ph->size;
    ph->kind = OBJ_FREE;
}

hipError_t hipFree(void *p)
{
    if (!p)
        return hipSuccess;
    obj *o = find(OBJ_MALLOC, p);
    if (!o)
        o = find(OBJ_MANAGED, p);
    if (!o || o->va != p)
        return hipErrorInvalidValue;
    munmap(o->va, o->size);
    if (o->phys)
        drop_phys(o->phys);
    o->kind = OBJ_FREE;
    return hipSuccess;
}

hipError_t hipHostFree(void *p)
{
    obj *o = find(OBJ_HOST, p);
    if (!o || o->va != p)
        return hipErrorInvalidValue;
    munmap(o->va, o->size);
    o->kind = OBJ_FREE;
    return hipSuccess;
}

/* ---- copies: the runtime's side of device memory ---- */

/* Bytes from p to the end of the VMM chunk holding it, or n outside one. */
static size_t in_chunk(const char *p, size_t n)
{
    obj *m = find(OBJ_MAP, p);
    size_t left = m ? (size_t)(m->va + m->size - p) : n;
    return left < n ? left : n;
}

static hipError_t copy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    /* chunk by chunk: a VMM range is separate memory behind each chunk */
    while (n) {
        size_t k = in_chunk(d, in_chunk(s, n));
        obj *dm = find(OBJ_MAP, d), *sm = find(OBJ_MAP, s);
        /* a mapped chunk with no device access: the copy engine faults */
        if ((dm && !dm->dev_access) || (sm && !sm->dev_access))
            return hipErrorInvalidValue;
        /* hipMalloc memory: the CPU mapping and the runtime's agree */
        memcpy(runtime_view(d), runtime_view(s), k);
        d += k;
        s += k;
        n -= k;
    }
    return hipSuccess;
}

hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind kind)
{
    (void)kind;
    return copy(dst, src, n);
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, hipMemcpyKind kind, hipStream_t s)
{
    (void)kind;
    (void)s;
    return copy(dst, src, n);
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
    obj *o = new_obj(OBJ_RESERVE);
    if (!o)
        return hipErrorOutOfMemory;
    /* Over-reserve to honour the alignment, then trim: ROCm aligns the range. */
    size_t a = align ? align : GRANULE;
    char *raw = mmap(addr, size + a, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) {
        o->kind = OBJ_FREE;
        return hipErrorOutOfMemory;
    }
    char *va = (char *)(((uintptr_t)raw + a - 1) / a * a);
    if (va > raw)
        munmap(raw, (size_t)(va - raw));
    if (raw + size + a > va + size)
        munmap(va + size, (size_t)(raw + size + a - (va + size)));
    o->va = va;
    o->size = size;
    *ptr = va;
    return hipSuccess;
}

hipError_t hipMemAddressFree(void *ptr, size_t size)
{
    obj *o = find(OBJ_RESERVE, ptr);
    if (!o || o->va != ptr || o->size != size || find(OBJ_MAP, ptr))
        return hipErrorInvalidValue;
    munmap(o->va, o->size);
    used_bytes -= o->held;
    o->held = 0;
    for (int i = 0; i < MAX_OBJ; i++)
        if (objs[i].kind == OBJ_PHYS && objs[i].range == o)
            objs[i].range = NULL; /* the slot may hold another range later */
    o->kind = OBJ_FREE;
    return hipSuccess;
}

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
    obj *ph = new_obj(OBJ_PHYS);
    if (!ph || vram(size, &ph->fd, &ph->dev) != 0)
        return hipErrorOutOfMemory;
    ph->size = size;
    ph->refs = 1;
    ph->host_backed = host;
    if (!host)
        used_bytes += size;
    *h = (hipMemGenericAllocationHandle_t)ph;
    return hipSuccess;
}

static obj *phys_of(hipMemGenericAllocationHandle_t h)
{
    obj *o = (obj *)h;
    return o >= objs && o < objs + MAX_OBJ && o->kind == OBJ_PHYS ? o : NULL;
}

hipError_t hipMemRelease(hipMemGenericAllocationHandle_t h)
{
    obj *ph = phys_of(h);
    if (!ph || ph->refs <= 0)
        return hipErrorInvalidValue;
    if (--ph->refs == 0) {
        for (int i = 0; i < MAX_OBJ; i++)
            if (objs[i].kind == OBJ_MAP && objs[i].phys == ph)
                return hipSuccess; /* freed when unmapped, as the runtime keeps it alive */
        drop_phys(ph);
    }
    return hipSuccess;
}

hipError_t hipMemMap(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t h,
                     unsigned long long flags)
{
    (void)flags;
    if (V() < 50300000)
        return hipSuccess; /* 5.2: a no-op */
    obj *ph = phys_of(h), *r = find(OBJ_RESERVE, ptr);
    if (!ph || !r || offset || size != ph->size || (char *)ptr + size > r->va + r->size || find(OBJ_MAP, ptr))
        return hipErrorInvalidValue;
    obj *m = new_obj(OBJ_MAP);
    if (!m)
        return hipErrorOutOfMemory;
    /* Not yet accessible to anyone: the CPU's view stays PROT_NONE. */
    if (mmap(ptr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, ph->fd, 0) == MAP_FAILED) {
        m->kind = OBJ_FREE;
        return hipErrorOutOfMemory;
    }
    m->va = ptr;
    m->size = size;
    m->phys = ph;
    ph->range = r;
    return hipSuccess;
}

hipError_t hipMemUnmap(void *ptr, size_t size)
{
    obj *m = find(OBJ_MAP, ptr);
    if (!m || m->va != ptr || m->size != size)
        return hipErrorInvalidValue;
    /* back to a reserved hole; host access goes with the mapping */
    mmap(ptr, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    obj *ph = m->phys;
    m->kind = OBJ_FREE;
    if (ph->refs == 0)
        drop_phys(ph);
    return hipSuccess;
}

/* Applies one descriptor to one mapped chunk, as the profile's release does. */
static hipError_t grant(obj *m, const hipMemAccessDesc *d)
{
    int t = loc_type(&d->location);
    int v = V();
    if (v < 60100000)
        return hipSuccess; /* 6.0: a stub */
    if (v < 70100000) {
        /* 6.1 - 6.4: the type is ignored and id taken as a device index:
         * {Host, 0} grants device 0. */
        if (d->location.id != 0)
            return hipErrorInvalidDevice;
        m->dev_access = d->flags != hipMemAccessFlagsProtNone;
        return hipSuccess;
    }
    if (t == hipMemLocationTypeDevice) {
        if (d->location.id != 0)
            return hipErrorInvalidDevice;
        m->dev_access = d->flags != hipMemAccessFlagsProtNone;
        return hipSuccess;
    }
    if (t != 2 /* Host */)
        return hipErrorInvalidValue; /* HostNuma, HostNumaCurrent: refused from 7.1 */
    if (v < 70200000 && !m->phys->host_backed)
        return hipErrorInvalidValue; /* 7.1: Host refused on device-backed memory */
    int prot = d->flags == hipMemAccessFlagsProtReadWrite ? PROT_READ | PROT_WRITE
               : d->flags == hipMemAccessFlagsProtRead    ? PROT_READ
                                                          : PROT_NONE;
    if (mprotect(m->va, m->size, prot) != 0)
        return hipErrorInvalidValue;
    m->host_access = prot != PROT_NONE;
    return hipSuccess;
}

hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count)
{
    if (!desc || !count)
        return hipErrorInvalidValue;
    /* every chunk in [ptr, ptr + size) must be mapped */
    for (size_t off = 0; off < size;) {
        obj *m = find(OBJ_MAP, (char *)ptr + off);
        if (!m)
            return hipErrorInvalidValue;
        for (size_t i = 0; i < count; i++) {
            hipError_t e = grant(m, &desc[i]);
            if (e != hipSuccess)
                return e;
        }
        off = (size_t)(m->va + m->size - (char *)ptr);
    }
    return hipSuccess;
}

hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *loc, void *ptr)
{
    if (V() < 60100000)
        return hipSuccess; /* 6.0: a stub that writes nothing */
    obj *m = find(OBJ_MAP, ptr);
    /* Device locations only, on VMM memory only (hipMalloc: invalid value). */
    if (!m || loc_type(loc) != hipMemLocationTypeDevice || loc->id != 0)
        return hipErrorInvalidValue;
    *flags = m->dev_access ? hipMemAccessFlagsProtReadWrite : hipMemAccessFlagsProtNone;
    return hipSuccess;
}

hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *h, void *addr)
{
    if (V() < 50300000)
        return hipSuccess; /* 5.2: success, no handle written */
    obj *m = find(OBJ_MAP, addr);
    if (m) {
        if (V() >= 71200000)
            m->phys->refs++; /* from 7.12 retain takes a reference */
        *h = (hipMemGenericAllocationHandle_t)m->phys;
        return hipSuccess;
    }
    if (find(OBJ_MALLOC, addr) && V() >= 60200000 && V() < 71400000) {
        /* 6.2 (f5ca620b) to the 7.14 fix: a null physical-memory object is
         * dereferenced. Really: the tool's guard must keep it from here. */
        volatile int *null_phys = NULL;
        return (hipError_t)*null_phys;
    }
    return hipErrorInvalidValue;
}

/* ---- pointer attributes (7.2.4's answers, FACTS.md) ---- */

static bool device_memory(const void *p) { return find(OBJ_MALLOC, p) || find(OBJ_MAP, p); }

hipError_t hipPointerGetAttributes(hipPointerAttribute_t *a, const void *p)
{
    obj *h = find(OBJ_HOST, p), *mg = find(OBJ_MANAGED, p);
    bool dev = device_memory(p);
    if (!h && !mg && !dev && V() < 60000000)
        return hipErrorInvalidValue;
    memset(a, 0, sizeof *a);
    a->device = 0;
#if HIP_VERSION >= 60000000
    a->type = dev ? hipMemoryTypeDevice : h ? hipMemoryTypeHost : mg ? hipMemoryTypeManaged : hipMemoryTypeUnregistered;
#elif HIP_VERSION >= 50500000
    a->type = dev ? hipMemoryTypeDevice : hipMemoryTypeHost;
#else
    a->memoryType = dev ? hipMemoryTypeDevice : hipMemoryTypeHost;
#endif
    a->devicePointer = (h || mg || dev) ? (void *)p : NULL;
    a->hostPointer = (h || mg) ? (void *)p : NULL;
    a->isManaged = mg != NULL;
    return hipSuccess;
}

/* The start and size of the allocation unit holding p: the chunk for VMM,
 * the whole allocation otherwise. */
static obj *unit(const void *p)
{
    obj *o = find(OBJ_MAP, p);
    if (!o)
        o = find(OBJ_MALLOC, p);
    if (!o)
        o = find(OBJ_HOST, p);
    if (!o)
        o = find(OBJ_MANAGED, p);
    return o;
}

hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attr, hipDeviceptr_t ptr)
{
    obj *o = unit(ptr);
    if (!o || !data)
        return hipErrorInvalidValue;
    bool dev = o->kind == OBJ_MALLOC || o->kind == OBJ_MAP;
    static int context_token;
    switch (attr) {
    case HIP_POINTER_ATTRIBUTE_CONTEXT:
        if (o->kind == OBJ_MAP)
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
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED: *(unsigned char *)data = o->kind == OBJ_MANAGED; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS: *(unsigned char *)data = 0; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_BUFFER_ID: *(unsigned long long *)data = (unsigned long long)(o - objs) + 1; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *(int *)data = 0; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR: *(void **)data = o->va; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: *(unsigned *)data = (unsigned)o->size; return hipSuccess; /* four bytes */
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
    obj *o = unit(p);
    if (!o || (o->kind != OBJ_MALLOC && o->kind != OBJ_MAP))
        return hipErrorInvalidValue;
    *base = o->va;
    *size = o->size;
    return hipSuccess;
}
