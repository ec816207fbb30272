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
 * lives there; what each ROCm release *answers* about it lives here, in
 * three parts: this file (devices, plain allocations, copies),
 * standin_vmm.c (virtual memory management) and standin_attrs.c (the
 * pointer queries). What differs by release is in common/rocm_profiles.h
 * and behind V() comparisons, each checked by a test in
 * tests/integration/test_standin.c. The profile comes from
 * $HOSTACCESS_STANDIN_PROFILE (--sim-profile sets it). */
#include "standin.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

const ha_rocm_profile *sd_profile(void)
{
    static const ha_rocm_profile *p;
    if (!p) {
        p = ha_rocm_profile_find(getenv(HA_STANDIN_PROFILE_ENV));
        if (!p)
            p = ha_rocm_profile_find(HA_STANDIN_DEFAULT_PROFILE);
    }
    return p;
}

/* The version it reports can be set apart from the behaviour, so a test
 * can show a runtime newer than every profile ($HA_STANDIN_REPORT_VERSION_ENV). */
static int reported_version(void)
{
    const char *s = getenv(HA_STANDIN_REPORT_VERSION_ENV);
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;
    return s && *s && !*end && v > 0 && v < 1000000000 ? (int)v : sd_profile()->version;
}

int V(void) { return sd_profile()->version; }

/* The tools look for this to label everything the runtime answered as
 * simulated, naming the profile. */
const char *hostaccess_standin_profile(void) { return sd_profile()->name; }

/* ---- what the runtime handed out besides VMM ---- */

typedef struct known {
    unit_kind k; /* U_NONE: a free slot */
    char *va;
    size_t size;
    unsigned flags;
} known;

#define MAX_KNOWN 1024
static known table[MAX_KNOWN];

static known *known_find(const void *p)
{
    const char *c = p;
    for (int i = 0; i < MAX_KNOWN; i++)
        if (table[i].k != U_NONE && c >= table[i].va && c < table[i].va + table[i].size)
            return &table[i];
    return NULL;
}

static hipError_t known_add(unit_kind k, void *va, size_t size, unsigned flags)
{
    for (int i = 0; i < MAX_KNOWN; i++)
        if (table[i].k == U_NONE) {
            table[i] = (known){k, va, size, flags};
            return hipSuccess;
        }
    return hipErrorOutOfMemory;
}

bool sd_chunk_of(const void *p, sd_chunk *c)
{
    return lb_chunk_find(p, &c->start, &c->size, &c->h, &c->device, &c->host);
}

unit_kind sd_unit(const void *p, void **start, size_t *size, unsigned *flags)
{
    *flags = 0;
    sd_chunk c;
    if (sd_chunk_of(p, &c)) {
        *start = c.start;
        *size = c.size;
        return U_CHUNK;
    }
    known *o = known_find(p);
    if (o) {
        *start = o->va;
        *size = o->size;
        *flags = o->flags;
        return o->k;
    }
    return lb_bar_find(p, start, size) ? U_BAR : U_NONE;
}

/* An MI300X: 192 GiB, 2 MiB granules. */
__attribute__((constructor)) static void configure(void) { lb_configure(VRAM_BYTES, GRANULE); }

hipError_t sd_lb_error(int st)
{
    switch (st) {
    case LB_OK: return hipSuccess;
    case LB_E_NOMEM: return hipErrorOutOfMemory;
    default: return hipErrorInvalidValue;
    }
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
hipError_t hipRuntimeGetVersion(int *v) { *v = reported_version(); return hipSuccess; }
hipError_t hipDriverGetVersion(int *v) { *v = reported_version(); return hipSuccess; }
hipError_t hipGetDeviceCount(int *n) { *n = 1; return hipSuccess; }
hipError_t hipSetDevice(int d) { return d == 0 ? hipSuccess : hipErrorInvalidDevice; }

hipError_t hipDeviceGetName(char *name, int len, hipDevice_t d)
{
    if (d != 0 || len <= 0)
        return hipErrorInvalidValue;
    snprintf(name, (size_t)len, "AMD Instinct MI300X (stand-in, ROCm %s profile)", sd_profile()->name);
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
    /* <= 6.0: roc::Device's VMM support is not there (rocdevice.cpp:1723) */
    case hipDeviceAttributeVirtualMemoryManagementSupported: *v = V() >= 60100000; return hipSuccess;
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

/* Events, with the handle checks of clr's hip_event.cpp: a null event is
 * hipErrorInvalidHandle, a null out-pointer hipErrorInvalidValue, and a
 * flag outside the supported set is refused. Every copy has finished when
 * it returns, so a recorded event is already reached. */
struct ihipEvent_t {
    unsigned flags;
};

hipError_t hipEventCreateWithFlags(hipEvent_t *e, unsigned flags)
{
    const unsigned supported = hipEventDefault | hipEventBlockingSync | hipEventDisableTiming |
                               hipEventReleaseToDevice | hipEventReleaseToSystem | hipEventInterprocess;
    if (!e)
        return hipErrorInvalidValue;
    if (flags & ~supported)
        return hipErrorInvalidValue;
    struct ihipEvent_t *made = malloc(sizeof *made);
    if (!made)
        return hipErrorOutOfMemory;
    made->flags = flags;
    *e = made;
    return hipSuccess;
}

hipError_t hipEventRecord(hipEvent_t e, hipStream_t s)
{
    (void)s;
    return e ? hipSuccess : hipErrorInvalidHandle;
}

hipError_t hipEventSynchronize(hipEvent_t e) { return e ? hipSuccess : hipErrorInvalidHandle; }

hipError_t hipEventDestroy(hipEvent_t e)
{
    if (!e)
        return hipErrorInvalidHandle;
    free(e);
    return hipSuccess;
}

/* ---- plain allocations ---- */

/* Large BAR: all of VRAM is visible, so device memory is mapped for the
 * CPU at its device address. A flavour other than hipMalloc's is noted. */
static hipError_t bar_alloc(void **p, size_t size, unit_kind flavour, unsigned flags)
{
    void *got = NULL;
    hipError_t e = sd_lb_error(lb_bar_alloc(&got, size, true));
    if (e == hipSuccess && flavour != U_BAR && (e = known_add(flavour, got, size, flags)) != hipSuccess)
        lb_bar_free(got);
    if (e == hipSuccess)
        *p = got;
    return e;
}

hipError_t hipMalloc(void **p, size_t size) { return bar_alloc(p, size, U_BAR, 0); }

/* Stream-ordered: the model has no queue, so it is there at once. */
hipError_t hipMallocAsync(void **p, size_t size, hipStream_t s)
{
    (void)s;
    return bar_alloc(p, size, U_POOL, 0);
}

hipError_t hipExtMallocWithFlags(void **p, size_t size, unsigned int flags)
{
    return bar_alloc(p, size, flags & hipDeviceMallocFinegrained ? U_FINE : U_BAR, flags);
}

static hipError_t host_alloc(void **p, size_t size, unit_kind k, unsigned flags)
{
    if (!size)
        return hipErrorInvalidValue;
    char *va = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (va == MAP_FAILED)
        return hipErrorOutOfMemory;
    hipError_t e = known_add(k, va, size, flags);
    if (e != hipSuccess)
        munmap(va, size);
    else
        *p = va;
    return e;
}

/* allocationFlags reports the hip flags it was made with (FACTS.md). */
hipError_t hipHostMalloc(void **p, size_t size, unsigned int flags) { return host_alloc(p, size, U_PINNED, flags); }

hipError_t hipMallocManaged(void **p, size_t size, unsigned int flags) { return host_alloc(p, size, U_MANAGED, flags); }

hipError_t hipHostRegister(void *p, size_t size, unsigned int flags)
{
    if (!p || !size)
        return hipErrorInvalidValue;
    if (known_find(p))
        return hipErrorHostMemoryAlreadyRegistered;
    return known_add(U_REGISTERED, p, size, flags);
}

/* Forgets what the runtime handed out at p (exactly there) of kind k. */
static hipError_t known_drop(void *p, unit_kind k, bool unmap)
{
    known *o = known_find(p);
    if (!o || o->va != p || o->k != k)
        return hipErrorInvalidValue;
    if (unmap)
        munmap(o->va, o->size);
    o->k = U_NONE;
    return hipSuccess;
}

hipError_t hipHostUnregister(void *p)
{
    return known_drop(p, U_REGISTERED, false) == hipSuccess ? hipSuccess : hipErrorHostMemoryNotRegistered;
}

hipError_t hipFree(void *p)
{
    if (!p)
        return hipSuccess;
    known *o = known_find(p);
    if (o && (o->k == U_POOL || o->k == U_FINE)) {
        if (o->va != p)
            return hipErrorInvalidValue;
        o->k = U_NONE;
        return sd_lb_error(lb_bar_free(p));
    }
    if (lb_bar_free(p) == LB_OK)
        return hipSuccess;
    return known_drop(p, U_MANAGED, true);
}

hipError_t hipFreeAsync(void *p, hipStream_t s)
{
    (void)s;
    return hipFree(p);
}

hipError_t hipHostFree(void *p) { return known_drop(p, U_PINNED, true); }

/* ---- copies: the device's side of its memory ---- */

/* A chunk without device access makes the copy engine fault. */
hipError_t hipMemcpy(void *dst, const void *src, size_t n, hipMemcpyKind kind)
{
    (void)kind;
    return sd_lb_error(lb_copy(dst, src, n));
}

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t n, hipMemcpyKind kind, hipStream_t s)
{
    (void)kind;
    (void)s;
    return sd_lb_error(lb_copy(dst, src, n));
}
