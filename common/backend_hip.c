/* hip: the HIP runtime of ROCm, libamdhip64.so loaded with dlopen.
 *
 * Compiled against the machine's own HIP headers, from ROCm 5.2 (Debian 12)
 * to 7.x. What differs between releases stays in this file, behind
 * HIP_VERSION guards (FACTS.md lists each):
 *   - hipPointerAttribute_t: field memoryType (<= 5.4), type (>= 5.5);
 *   - hipMemoryType values renumbered in 6.0 (named from the header's enum);
 *   - hipMemAllocationProp reordered in 5.3 and 7.0: fields set by name only;
 *   - Host location types from 7.1 headers (HA_HIP_HAS_HOST_LOCATION);
 *   - hipDeviceAttributeVirtualMemoryManagementSupported from 5.3;
 *   - hipGetDeviceProperties is a macro for ...R0600 in 6.x: symbols are
 *     looked up under the name the header maps them to;
 *   - header/runtime skew: a struct or enum exchanged with the runtime that
 *     changed between the header's release and the runtime's gives wrong
 *     answers, not errors, so what depends on it is refused (HA_ST_SKEW);
 *   - hipMemRetainAllocationHandle: no reference taken before 7.12 (so no
 *     release), may crash on non-VMM pointers before 7.14 (so skipped
 *     there): decided by the runtime version, not the header's.
 * Structure kept parallel to backend_cuda.c. */
#include "backend.h"
#include "backendkit.h"
#include "gpuhelpers.h"
#include "log.h"
#include "dynload.h"
#include "rtwatch.h"
#include "rocm_profiles.h"

#ifdef HA_HAVE_HIP

#include <dlfcn.h>
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>
#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "envinfo.h"
#include "vmmkinds.h"

#define STR_(x) #x
#define XSTR(x) STR_(x)

#ifndef HA_HIP_HAS_HOST_LOCATION
#define HA_HIP_HAS_HOST_LOCATION (HIP_VERSION >= HA_HIP_HOST_LOCATION)
#endif

#if HIP_VERSION >= 50500000
#define PTR_ATTR_TYPE(a) ((a).type)
#else
#define PTR_ATTR_TYPE(a) ((a).memoryType)
#endif

/* Where something this backend exchanges with the runtime changed, read
 * from the headers of 5.2, 5.7, 6.4 and 7.2 (make hip-matrix fetches them):
 * hipMemAllocationProp was reordered in 5.3 and is the same from 5.3 to 7.2
 * (the 7.0 union is one field wide); hipMemoryType was renumbered in 6.0;
 * hipPointerAttribute_t's layout is the same from 5.2 to 7.2. */
#define HIP_ALLOC_PROP_REORDERED HA_HIP_ALLOC_PROP_REORDERED
#define HIP_MEMORY_TYPE_RENUMBERED HA_HIP_MEMORY_TYPE_RENUMBERED

/* PyTorch reads .item() with a host load when built against this release or newer. */
#define HIP_TORCH_HOST_ITEM 70200000

/* Runtime versions (HIP_VERSION numbering) where retain changed. */
#define HIP_RETAIN_TAKES_REF 71200000
#define HIP_RETAIN_CRASHES_FROM 60200000 /* f5ca620b */
#define HIP_RETAIN_SAFE_ON_NON_VMM 71400000

#include "hip_syms.h"

/* Some of these are marked deprecated in newer headers; this tool calls
 * them on purpose, as the software it studies does. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#define DECL(n) static __typeof__(n) *p_##n;
HIP_SYMS(DECL, DECL)
#pragma GCC diagnostic pop

#define CALL(n, ...) (p_##n ? (int)p_##n(__VA_ARGS__) : HA_ST_SYMBOL_MISSING)

#define ENTRY_REQ(n) {XSTR(n), &p_##n, true},
#define ENTRY_OPT(n) {XSTR(n), &p_##n, false},
static const ha_entry hip_entries[] = {HIP_SYMS(ENTRY_REQ, ENTRY_OPT)};

static const ha_runtime_words hip_words = {"hip", "libamdhip64", "ROCm's HIP runtime; reinstall it", "the runtime",
                                           "no AMD GPU"};

typedef struct hip_state {
    void *lib;
    hipStream_t stream;
    hipEvent_t marks[HA_STREAM_MARKS]; /* NULL where hipEventCreateWithFlags failed */
    int runtime_version;
    bool prop_skew;    /* hipMemAllocationProp: header and runtime on two sides of 5.3 */
    bool memtype_skew; /* hipMemoryType: header and runtime on two sides of 6.0 */
    int large_bar;     /* hipDeviceAttributeIsLargeBar of the open device; -1 unknown */
} hip_state;

/* Whether versions a and b lie on two sides of the release that changed. */
static bool across(int changed_in, int a, int b) { return (a >= changed_in) != (b >= changed_in); }

/* The runtime's entry points above are the process's (the library is loaded
 * once); what one open of a device holds is here, behind be->priv. */
static hip_state *state(const ha_backend *be) { return be->priv; }

static const char *hip_status_name(const ha_backend *be, int st)
{
    if (st < 0)
        return ha_status_name(NULL, st); /* the tool's own: symbol missing, ... */
    (void)be;
    const char *n = p_hipGetErrorName ? p_hipGetErrorName((hipError_t)st) : NULL;
    if (n && *n)
        return n;
    static _Thread_local char buf[32];
    snprintf(buf, sizeof buf, "hipError_%d", st);
    return buf;
}

/* ---- locations ---- */

static int hip_loc(const ha_backend *be, ha_loc l, hipMemLocation *out)
{
    memset(out, 0, sizeof *out);
    out->id = l.id;
    switch (l.type) {
    case HA_LOC_DEVICE: out->type = hipMemLocationTypeDevice; out->id = be->device; return 0;
#if HA_HIP_HAS_HOST_LOCATION
    case HA_LOC_HOST: out->type = hipMemLocationTypeHost; return 0;
    case HA_LOC_HOST_NUMA: out->type = hipMemLocationTypeHostNuma; return 0;
    case HA_LOC_HOST_NUMA_CURRENT: out->type = hipMemLocationTypeHostNumaCurrent; return 0;
#endif
    default: return HA_ST_UNAVAILABLE;
    }
}

static void hip_prop(hipMemAllocationProp *prop, const hipMemLocation *loc, bool posix_fd)
{
    memset(prop, 0, sizeof *prop); /* the layout differs by release: names only */
    prop->type = hipMemAllocationTypePinned;
    prop->location = *loc;
    prop->requestedHandleType = posix_fd ? hipMemHandleTypePosixFileDescriptor : hipMemHandleTypeNone;
}

static hipMemGenericAllocationHandle_t native(ha_vmm_handle h)
{
    return (hipMemGenericAllocationHandle_t)(uintptr_t)h;
}

/* ---- VMM primitives ---- */

static int hip_granularity(const ha_backend *be, ha_loc backing, bool posix_fd, size_t *g)
{
    hipMemLocation loc;
    if (hip_loc(be, backing, &loc))
        return HA_ST_UNAVAILABLE;
    if (p_hipMemGetAllocationGranularity && state(be)->prop_skew)
        return HA_ST_SKEW; /* the runtime would read our struct with another layout */
    hipMemAllocationProp prop;
    hip_prop(&prop, &loc, posix_fd);
    *g = 0;
    return CALL(hipMemGetAllocationGranularity, g, &prop, hipMemAllocationGranularityMinimum);
}

static int hip_reserve(const ha_backend *be, void **va, size_t size, size_t align, void *hint)
{
    (void)be;
    /* vLLM passes the granularity as the alignment on ROCm */
    return CALL(hipMemAddressReserve, va, size, align, hint, 0);
}

static int hip_free_va(const ha_backend *be, void *va, size_t size)
{
    (void)be;
    return CALL(hipMemAddressFree, va, size);
}

static int hip_create(const ha_backend *be, ha_vmm_handle *h, size_t size, ha_loc backing,
                      bool posix_fd)
{
    hipMemLocation loc;
    if (hip_loc(be, backing, &loc))
        return HA_ST_UNAVAILABLE;
    if (p_hipMemCreate && state(be)->prop_skew)
        return HA_ST_SKEW;
    hipMemAllocationProp prop;
    hip_prop(&prop, &loc, posix_fd);
    hipMemGenericAllocationHandle_t nh = native(*h);
    int st = CALL(hipMemCreate, &nh, size, &prop, 0);
    *h = (ha_vmm_handle)(uintptr_t)nh;
    return st;
}

static int hip_release(const ha_backend *be, ha_vmm_handle h)
{
    (void)be;
    return CALL(hipMemRelease, native(h));
}

static int hip_map(const ha_backend *be, void *va, size_t size, ha_vmm_handle h)
{
    (void)be;
    return CALL(hipMemMap, va, size, 0, native(h), 0);
}

static int hip_unmap(const ha_backend *be, void *va, size_t size)
{
    (void)be;
    return CALL(hipMemUnmap, va, size);
}

static int hip_set_access(const ha_backend *be, void *va, size_t size, const ha_loc *locs,
                          size_t nlocs)
{
    hipMemAccessDesc d[HA_LOC_COUNT];
    if (nlocs > HA_LOC_COUNT)
        return HA_ST_UNAVAILABLE;
    for (size_t i = 0; i < nlocs; i++) {
        memset(&d[i], 0, sizeof d[i]);
        if (hip_loc(be, locs[i], &d[i].location))
            return HA_ST_UNAVAILABLE;
        d[i].flags = hipMemAccessFlagsProtReadWrite;
    }
    return CALL(hipMemSetAccess, va, size, d, nlocs);
}

static int hip_get_access(const ha_backend *be, void *va, ha_loc l, unsigned long long *flags)
{
    hipMemLocation loc;
    if (hip_loc(be, l, &loc))
        return HA_ST_UNAVAILABLE;
    return CALL(hipMemGetAccess, flags, &loc, va);
}

static int hip_export_fd(const ha_backend *be, ha_vmm_handle h, int *fd)
{
    (void)be;
    int got = -1;
    int st = CALL(hipMemExportToShareableHandle, &got, native(h), hipMemHandleTypePosixFileDescriptor, 0);
    *fd = got;
    return st;
}

static int hip_import_fd(const ha_backend *be, int fd, ha_vmm_handle *h)
{
    (void)be;
    hipMemGenericAllocationHandle_t nh = native(HA_VMM_NO_HANDLE);
    int st = CALL(hipMemImportFromShareableHandle, &nh, (void *)(intptr_t)fd, hipMemHandleTypePosixFileDescriptor);
    *h = (ha_vmm_handle)(uintptr_t)nh;
    return st;
}

static const ha_vmm_ops hip_vmm = {
    hip_granularity, hip_reserve, hip_free_va, hip_create, hip_release,
    hip_map,         hip_unmap,   hip_set_access, hip_get_access,
    hip_export_fd,   hip_import_fd,
};

/* ---- the runtime's own allocation kinds ---- */

#define PLAIN_SIZE (2u << 20)

static int k_malloc(const ha_backend *be, ha_alloc *a)
{
    void *p = NULL;
    int st = CALL(hipMalloc, &p, PLAIN_SIZE);
    return ha_kind_result(a, p, PLAIN_SIZE, st, hip_status_name(be, st), "hipMalloc(%u)", PLAIN_SIZE);
}

static void k_free(const ha_backend *be, ha_alloc *a)
{
    int st = CALL(hipFree, a->ptr);
    ha_warn_failed("hipFree", st, hip_status_name(be, st));
}

static int k_host_malloc(const ha_backend *be, ha_alloc *a)
{
    void *p = NULL;
    int st = CALL(hipHostMalloc, &p, PLAIN_SIZE, hipHostMallocMapped);
    return ha_kind_result(a, p, PLAIN_SIZE, st, hip_status_name(be, st), "hipHostMalloc(Mapped)");
}

static void k_host_free(const ha_backend *be, ha_alloc *a)
{
    int st = CALL(hipHostFree, a->ptr);
    ha_warn_failed("hipHostFree", st, hip_status_name(be, st));
}

static int k_managed(const ha_backend *be, ha_alloc *a)
{
    void *p = NULL;
    int st = CALL(hipMallocManaged, &p, PLAIN_SIZE, hipMemAttachGlobal);
    return ha_kind_result(a, p, PLAIN_SIZE, st, hip_status_name(be, st), "hipMallocManaged(Global)");
}

/* Host memory the caller owns, registered with the runtime. */
static int k_registered(const ha_backend *be, ha_alloc *a)
{
    void *p = ha_host_pages(PLAIN_SIZE);
    if (!p) {
        snprintf(a->detail, sizeof a->detail, "mmap(%u) for hipHostRegister: out of memory", PLAIN_SIZE);
        return HA_ST_UNAVAILABLE;
    }
    int st = CALL(hipHostRegister, p, PLAIN_SIZE, hipHostRegisterMapped);
    snprintf(a->detail, sizeof a->detail, "mmap + hipHostRegister(Mapped): %s", hip_status_name(be, st));
    if (st)
        ha_host_pages_free(p, PLAIN_SIZE);
    a->ptr = st ? NULL : p;
    a->size = PLAIN_SIZE;
    return st;
}

static void k_unregister(const ha_backend *be, ha_alloc *a)
{
    int st = CALL(hipHostUnregister, a->ptr);
    ha_warn_failed("hipHostUnregister", st, hip_status_name(be, st));
    ha_host_pages_free(a->ptr, a->size);
}

/* Stream-ordered pool memory, as PyTorch's cudaMallocAsync backend gets it:
 * allocated on the stream and waited for before anyone reads it. */
static int k_malloc_async(const ha_backend *be, ha_alloc *a)
{
    void *p = NULL;
    int st = CALL(hipMallocAsync, &p, PLAIN_SIZE, state(be)->stream);
    int ss = st ? st : CALL(hipStreamSynchronize, state(be)->stream);
    snprintf(a->detail, sizeof a->detail, "hipMallocAsync(%u, stream): %s; hipStreamSynchronize: %s", PLAIN_SIZE,
             hip_status_name(be, st), st ? "not called" : hip_status_name(be, ss));
    a->ptr = p;
    a->size = PLAIN_SIZE;
    if (!st && ss)
        CALL(hipFreeAsync, p, state(be)->stream);
    return st ? st : ss;
}

static void k_free_async(const ha_backend *be, ha_alloc *a)
{
    int st = CALL(hipFreeAsync, a->ptr, state(be)->stream);
    int ss = st ? st : CALL(hipStreamSynchronize, state(be)->stream);
    if (st || ss)
        ha_log(HA_LOG_WARN, "hipFreeAsync: %s, then hipStreamSynchronize: %s", hip_status_name(be, st),
               st ? "not called" : hip_status_name(be, ss));
}

/* Fine-grained device memory: the pointer queries read it as Host. */
static int k_finegrained(const ha_backend *be, ha_alloc *a)
{
    void *p = NULL;
    int st = CALL(hipExtMallocWithFlags, &p, PLAIN_SIZE, hipDeviceMallocFinegrained);
    return ha_kind_result(a, p, PLAIN_SIZE, st, hip_status_name(be, st), "hipExtMallocWithFlags(%u, Finegrained)",
                          PLAIN_SIZE);
}

/* torch_allocator: hipMalloc is what the caching allocator carves, and
 * hipMallocAsync what its cudaMallocAsync backend hands out; PyTorch never
 * gives a tensor host, managed, registered or fine-grained memory through
 * its allocator. */
static const ha_kind hip_kinds[] = {
    {"hipMalloc", "device memory from hipMalloc (host-readable on large BAR)", k_malloc, k_free, {0}, false, false, true},
    {"hipHostMalloc", "pinned host memory, hipHostMalloc(Mapped)", k_host_malloc, k_host_free, {0}, false, false, false},
    {"hipMallocManaged", "managed memory, hipMallocManaged(Global)", k_managed, k_free, {0}, false, false, false},
    {"hipHostRegister", "host pages registered with hipHostRegister(Mapped)", k_registered, k_unregister, {0}, false,
     false, false},
    {"hipMallocAsync", "stream-ordered pool memory, hipMallocAsync (PyTorch's cudaMallocAsync backend)",
     k_malloc_async, k_free_async, {0}, false, false, true},
    {"hipExtMallocWithFlags(fine)", "fine-grained device memory, hipExtMallocWithFlags(Finegrained)", k_finegrained,
     k_free, {0}, false, false, false},
    {0},
};

/* ---- candidates ---- */

static const char *memory_type_name(int t)
{
    switch (t) {
#if HIP_VERSION >= 60000000
    case hipMemoryTypeUnregistered: return "Unregistered";
    case hipMemoryTypeManaged: return "Managed";
#endif
    case hipMemoryTypeHost: return "Host";
    case hipMemoryTypeDevice: return "Device";
    case hipMemoryTypeArray: return "Array";
    case hipMemoryTypeUnified: return "Unified";
    default: return NULL;
    }
}

enum { F_TYPE, F_DEVICE, F_DEVICE_POINTER, F_HOST_POINTER, F_IS_MANAGED, F_ALLOCATION_FLAGS };

/* hipPointerGetAttributes, one row per field of the struct. The whole
 * struct is sentinel-filled, so a field the runtime leaves alone reads as
 * not written. */
static int r_attributes(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    hipPointerAttribute_t at;
    ha_sentinel_fill(&at, sizeof at);
    int st = CALL(hipPointerGetAttributes, &at, a->ptr);
    switch (q->arg) {
    case F_TYPE: memcpy(out, &PTR_ATTR_TYPE(at), sizeof PTR_ATTR_TYPE(at)); break;
    case F_DEVICE: memcpy(out, &at.device, sizeof at.device); break;
    case F_DEVICE_POINTER: memcpy(out, &at.devicePointer, sizeof at.devicePointer); break;
    case F_HOST_POINTER: memcpy(out, &at.hostPointer, sizeof at.hostPointer); break;
    case F_IS_MANAGED: memcpy(out, &at.isManaged, sizeof at.isManaged); break;
    case F_ALLOCATION_FLAGS: memcpy(out, &at.allocationFlags, sizeof at.allocationFlags); break;
    }
    return st;
}

static int r_attr(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    return CALL(hipPointerGetAttribute, out, (hipPointer_attribute)q->arg, (hipDeviceptr_t)a->ptr);
}

/* The plural call with one attribute, so each row stands alone. */
static int r_drv_attrs(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    hipPointer_attribute at = (hipPointer_attribute)q->arg;
    void *data[1] = {out};
    return CALL(hipDrvPointerGetAttributes, 1, &at, data, (hipDeviceptr_t)a->ptr);
}

/* Memory-type rows: the default classification plus the header's name. */
static void run_memory_type(const ha_backend *be, const ha_query *q, const ha_alloc *a,
                            ha_result *r)
{
    ha_query plain = *q;
    plain.run = NULL;
    ha_query_run(be, &plain, a, r);
    /* A number from a runtime that numbers memory types another way than
     * this header would be named wrong: refused, with the reason. */
    if (state(be)->memtype_skew && r->outcome == HA_OUT_OK) {
        ha_result_status(be, r, HA_ST_SKEW);
        snprintf(r->value, sizeof r->value, "hipMemoryType is numbered differently by the %s header and the "
                 "runtime (renumbered in 6.0)", HIP_VERSION >= HIP_MEMORY_TYPE_RENUMBERED ? ">= 6.0" : "< 6.0");
        snprintf(r->cls, sizeof r->cls, "skew");
        return;
    }
    const char *n = memory_type_name(atoi(r->cls));
    size_t l = strlen(r->value);
    if (n && r->outcome == HA_OUT_OK && l < sizeof r->value - 2)
        snprintf(r->value + l, sizeof r->value - l, " (%s)", n);
}

/* --unsafe-queries: retain where it can crash, in a child, so a crash
 * costs the child and becomes the answer. (The stand-in survives fork; a
 * real ROCm runtime need not work in a child at all.) */
static int retain_in_child(const ha_alloc *a, void *out)
{
    int fd[2];
    if (pipe(fd) != 0)
        return HA_ST_SKIPPED;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return HA_ST_SKIPPED;
    }
    if (pid == 0) {
        close(fd[0]);
        struct { int st; hipMemGenericAllocationHandle_t h; } r;
        ha_sentinel_fill(&r.h, sizeof r.h);
        r.st = CALL(hipMemRetainAllocationHandle, &r.h, a->ptr);
        _exit(write(fd[1], &r, sizeof r) == (ssize_t)sizeof r ? 0 : 1);
    }
    close(fd[1]);
    struct { int st; hipMemGenericAllocationHandle_t h; } r;
    ssize_t got = read(fd[0], &r, sizeof r);
    close(fd[0]);
    int ws;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    if (WIFSIGNALED(ws) || got != (ssize_t)sizeof r)
        return HA_ST_CRASHED;
    memcpy(out, &r.h, sizeof r.h);
    return r.st;
}

static int r_retain(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)q;
    /* can crash on non-VMM memory from runtime 6.2 until 7.14 */
    bool may_crash = state(be)->runtime_version < HIP_RETAIN_SAFE_ON_NON_VMM &&
                     (state(be)->runtime_version >= HIP_RETAIN_CRASHES_FROM || state(be)->runtime_version <= 0);
    if (may_crash && !a->kind->is_vmm)
        return be->unsafe_queries ? retain_in_child(a, out) : HA_ST_UNSAFE;
    hipMemGenericAllocationHandle_t h;
    ha_sentinel_fill(&h, sizeof h);
    int st = CALL(hipMemRetainAllocationHandle, &h, a->ptr);
    memcpy(out, &h, sizeof h);
    /* Before 7.12 retain takes no reference: releasing would over-release. */
    if (st == HA_ST_OK && ha_sentinel_written(&h, sizeof h) &&
        state(be)->runtime_version >= HIP_RETAIN_TAKES_REF) {
        int rs = CALL(hipMemRelease, h);
        if (rs)
            ha_log(HA_LOG_WARN, "hipMemRelease after retain: %s", hip_status_name(be, rs));
    }
    return st;
}

static int r_range(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    hipDeviceptr_t base;
    size_t size;
    ha_sentinel_fill(&base, sizeof base);
    ha_sentinel_fill(&size, sizeof size);
    int st = CALL(hipMemGetAddressRange, &base, &size, (hipDeviceptr_t)a->ptr);
    if (q->arg == 0)
        memcpy(out, &base, sizeof base);
    else
        memcpy(out, &size, sizeof size);
    return st;
}

#define FIELD(F, f, VT, W, RUN)                                                               \
    {"hipPointerGetAttributes(." #f ")", "hipPointerGetAttributes(&attr, ptr): attr." #f,     \
     r_attributes, F, VT, W, RUN, 0}
#define ATTR_RUN(A, VT, W, RUN)                                                               \
    {"hipPointerGetAttribute(" #A ")", "hipPointerGetAttribute(&v, HIP_POINTER_ATTRIBUTE_" #A \
     ", ptr)", r_attr, HIP_POINTER_ATTRIBUTE_##A, VT, W, RUN, 0}
#define ATTR(A, VT, W) ATTR_RUN(A, VT, W, NULL)
#define DRV_RUN(A, VT, W, RUN)                                                               \
    {"hipDrvPointerGetAttributes(" #A ")",                                                   \
     "hipDrvPointerGetAttributes(1, {HIP_POINTER_ATTRIBUTE_" #A "}, ...)", r_drv_attrs,     \
     HIP_POINTER_ATTRIBUTE_##A, VT, W, RUN, 0}
#define DRV(A, VT, W) DRV_RUN(A, VT, W, NULL)
#define ACCESS(L, LOC, DESC)                                                               \
    {"hipMemGetAccess(" L ")", "hipMemGetAccess(&flags, " DESC ", ptr)", ha_raw_get_access, \
     LOC, HA_VT_INT, 8, NULL, 0}

static const ha_query hip_queries[] = {
    FIELD(F_TYPE, type, HA_VT_INT, 4, run_memory_type),
    FIELD(F_DEVICE, device, HA_VT_INT, 4, NULL),
    FIELD(F_DEVICE_POINTER, devicePointer, HA_VT_PTR, 8, NULL),
    FIELD(F_HOST_POINTER, hostPointer, HA_VT_PTR, 8, NULL),
    FIELD(F_IS_MANAGED, isManaged, HA_VT_BOOL, 4, NULL),
    FIELD(F_ALLOCATION_FLAGS, allocationFlags, HA_VT_INT, 4, NULL),
    ATTR(CONTEXT, HA_VT_HANDLE, 8),
    ATTR_RUN(MEMORY_TYPE, HA_VT_INT, 4, run_memory_type),
    ATTR(DEVICE_POINTER, HA_VT_PTR, 8),
    ATTR(HOST_POINTER, HA_VT_PTR, 8),
    ATTR(P2P_TOKENS, HA_VT_BYTES, 16),
    ATTR(SYNC_MEMOPS, HA_VT_BOOL, 4),
    ATTR(BUFFER_ID, HA_VT_ID, 8),
    ATTR(IS_MANAGED, HA_VT_BOOL, 4),
    ATTR(DEVICE_ORDINAL, HA_VT_INT, 4),
    ATTR(IS_LEGACY_HIP_IPC_CAPABLE, HA_VT_BOOL, 4),
    ATTR(RANGE_START_ADDR, HA_VT_PTR, 8),
    ATTR(RANGE_SIZE, HA_VT_SIZE, 8),
    ATTR(MAPPED, HA_VT_BOOL, 4),
    ATTR(ALLOWED_HANDLE_TYPES, HA_VT_INT, 8),
    ATTR(IS_GPU_DIRECT_RDMA_CAPABLE, HA_VT_BOOL, 4),
    ATTR(ACCESS_FLAGS, HA_VT_INT, 4),
    ATTR(MEMPOOL_HANDLE, HA_VT_HANDLE, 8),
    DRV_RUN(MEMORY_TYPE, HA_VT_INT, 4, run_memory_type),
    DRV(HOST_POINTER, HA_VT_PTR, 8),
    DRV(DEVICE_POINTER, HA_VT_PTR, 8),
    DRV(IS_MANAGED, HA_VT_BOOL, 4),
    DRV(MAPPED, HA_VT_BOOL, 4),
    DRV(RANGE_SIZE, HA_VT_SIZE, 8),
    ACCESS("device", HA_LOC_DEVICE, "{Device, dev}"),
    ACCESS("host", HA_LOC_HOST, "{Host, 0}"),
    ACCESS("host_numa", HA_LOC_HOST_NUMA, "{HostNuma, 0}"),
    ACCESS("host_numa_current", HA_LOC_HOST_NUMA_CURRENT, "{HostNumaCurrent, 0}"),
    {"hipMemRetainAllocationHandle", "hipMemRetainAllocationHandle(&h, ptr) (+ release from 7.12)",
     r_retain, 0, HA_VT_HANDLE, 8, NULL, 0},
    {"hipMemGetAddressRange(base)", "hipMemGetAddressRange(&base, &size, ptr): base", r_range, 0,
     HA_VT_PTR, 8, NULL, 0},
    {"hipMemGetAddressRange(size)", "hipMemGetAddressRange(&base, &size, ptr): size", r_range, 1,
     HA_VT_SIZE, 8, NULL, 0},
    {0},
};

/* ---- data movement ---- */

static int hip_h2d(const ha_backend *be, void *dst, const void *src, size_t n)
{
    (void)be;
    return CALL(hipMemcpy, dst, src, n, hipMemcpyHostToDevice);
}

static int hip_d2h(const ha_backend *be, void *dst, const void *src, size_t n)
{
    (void)be;
    return CALL(hipMemcpy, dst, src, n, hipMemcpyDeviceToHost);
}

static int hip_d2h_async(const ha_backend *be, void *dst, const void *src, size_t n)
{
    int st = CALL(hipMemcpyAsync, dst, src, n, hipMemcpyDeviceToHost, state(be)->stream);
    return st ? st : CALL(hipStreamSynchronize, state(be)->stream);
}

static int hip_h2d_enqueue(const ha_backend *be, void *dst, const void *src, size_t n)
{
    return CALL(hipMemcpyAsync, dst, src, n, hipMemcpyHostToDevice, state(be)->stream);
}

static int hip_d2h_enqueue(const ha_backend *be, void *dst, const void *src, size_t n)
{
    return CALL(hipMemcpyAsync, dst, src, n, hipMemcpyDeviceToHost, state(be)->stream);
}

static int hip_stream_sync(const ha_backend *be)
{
    return CALL(hipStreamSynchronize, state(be)->stream);
}

static int hip_stream_mark(const ha_backend *be, int slot)
{
    hipEvent_t e = state(be)->marks[slot];
    return e ? CALL(hipEventRecord, e, state(be)->stream) : HA_ST_OK;
}

static int hip_mark_wait(const ha_backend *be, int slot)
{
    hipEvent_t e = state(be)->marks[slot];
    return e ? CALL(hipEventSynchronize, e) : hip_stream_sync(be);
}

static int hip_synchronize(const ha_backend *be)
{
    (void)be;
    return CALL(hipDeviceSynchronize);
}

static int hip_pinned(const ha_backend *be, void **p, size_t n)
{
    (void)be;
    return CALL(hipHostMalloc, p, n, hipHostMallocDefault);
}

static void hip_pinned_free(const ha_backend *be, void *p)
{
    int st = CALL(hipHostFree, p);
    ha_warn_failed("hipHostFree", st, hip_status_name(be, st));
}

static int hip_mem_info(const ha_backend *be, size_t *free_b, size_t *total)
{
    (void)be;
    return CALL(hipMemGetInfo, free_b, total);
}

/* ---- open, close, environment ---- */

static int hip_device_count(const ha_backend *be, int *n)
{
    (void)be;
    *n = 0;
    ha_rtwatch_begin("libamdhip64", "hipGetDeviceCount");
    int st = CALL(hipGetDeviceCount, n);
    ha_rtwatch_end();
    return st;
}

/* libamdhip64 stays loaded: unloading a GPU runtime mid-process is not supported */
static void release_device(hip_state *s)
{
    for (int i = 0; i < HA_STREAM_MARKS; i++)
        if (s->marks[i])
            CALL(hipEventDestroy, s->marks[i]);
    if (s->stream)
        CALL(hipStreamDestroy, s->stream);
}

static int hip_open(ha_backend *be, int device, char *why, size_t n)
{
    hip_state s = {0};
    static const char *const names[] = {"libamdhip64.so", "libamdhip64.so.7", "libamdhip64.so.6",
                                        "libamdhip64.so.5", NULL};
    const char *chosen[] = {getenv(HA_HIP_LIBRARY_ENV), NULL};
    bool broken;
    char lwhy[700];
    s.lib = ha_dlopen_checked(chosen[0] ? chosen : names, &broken, lwhy, sizeof lwhy);
    if (!s.lib) {
        snprintf(why, n, "hip: %s%s", lwhy, broken ? "" : ": install ROCm or libamdhip64");
        return HA_EXIT_NO_RUNTIME;
    }
    int rc = ha_bind_entries(s.lib, hip_entries, sizeof hip_entries / sizeof *hip_entries, &hip_words, why, n);
    if (rc != HA_EXIT_OK) {
        dlclose(s.lib);
        return rc;
    }
    ha_rtwatch_begin("libamdhip64", "hipInit");
    int st = CALL(hipInit, 0);
    ha_rtwatch_end();
    if (st && st != HA_ST_SYMBOL_MISSING && st != hipErrorNoDevice) {
        snprintf(why, n, "hip: no usable AMD GPU: hipInit returned %s", hip_status_name(be, st));
        return HA_EXIT_NO_DEVICE;
    }
    int count = 0;
    st = hip_device_count(be, &count);
    if ((rc = ha_check_devices(&hip_words, "hipGetDeviceCount", st, hip_status_name(be, st), count, device, why, n)))
        return rc;
    ha_rtwatch_begin("libamdhip64", "hipSetDevice");
    st = CALL(hipSetDevice, device);
    ha_rtwatch_end();
    if (st) {
        snprintf(why, n, "hip: cannot open device %d: %s", device, hip_status_name(be, st));
        return HA_EXIT_NO_DEVICE;
    }
    /* The stand-in runtime says so: everything it answers is simulated. */
    const char *(*standin)(void) = (const char *(*)(void))dlsym(s.lib, "hostaccess_standin_profile");
    be->sim_profile = standin ? standin() : NULL;
    s.runtime_version = 0;
    CALL(hipRuntimeGetVersion, &s.runtime_version);
    /* Unknown runtime version: nothing to compare, the header's guards apply (env warns). */
    if (s.runtime_version > 0) {
        s.prop_skew = across(HIP_ALLOC_PROP_REORDERED, HIP_VERSION, s.runtime_version);
        s.memtype_skew = across(HIP_MEMORY_TYPE_RENUMBERED, HIP_VERSION, s.runtime_version);
    }
    s.large_bar = -1;
    if (CALL(hipDeviceGetAttribute, &s.large_bar, hipDeviceAttributeIsLargeBar, device) != HA_ST_OK)
        s.large_bar = -1;
    st = CALL(hipStreamCreateWithFlags, &s.stream, hipStreamNonBlocking);
    if (st)
        ha_log(HA_LOG_WARN, "hipStreamCreateWithFlags: %s; async copies use the null stream",
                hip_status_name(be, st));
    for (int i = 0, est = HA_ST_OK; i < HA_STREAM_MARKS && !est; i++)
        if ((est = CALL(hipEventCreateWithFlags, &s.marks[i], hipEventDisableTiming))) {
            s.marks[i] = NULL;
            ha_log(HA_LOG_WARN, "hipEventCreateWithFlags: %s; a pool's sleep waits for each copy whole",
                   hip_status_name(be, est));
        }
    be->device = device;
    hip_state *mine = malloc(sizeof *mine);
    if (!mine) {
        release_device(&s);
        snprintf(why, n, "hip: out of memory opening device %d", device);
        return HA_EXIT_NO_RUNTIME;
    }
    *mine = s;
    be->priv = mine;
    return HA_EXIT_OK;
}

static void hip_close(ha_backend *be)
{
    hip_state *s = state(be);
    if (!s)
        return;
    release_device(s);
    free(s);
    be->priv = NULL;
}

/* PyTorch's condition 1: built against >= 7.2 (taken as built against
 * this runtime) and the current device (the one open) is large-BAR, as
 * hipDeviceProp_t.isLargeBar reports it. */
static bool hip_torch_reads_host(const ha_backend *be, char *why, size_t n)
{
    const hip_state *s = state(be);
    if (s->runtime_version < HIP_TORCH_HOST_ITEM) {
        snprintf(why, n, "PyTorch built against HIP %d copies (the host read is from 7.2)", s->runtime_version);
        return false;
    }
    snprintf(why, n, "HIP %d, current device %s", s->runtime_version,
             s->large_bar > 0 ? "large-BAR" : s->large_bar == 0 ? "not large-BAR" : "of unknown BAR size");
    return s->large_bar > 0;
}

static void hip_version_string(int v, char *out, size_t n)
{
    snprintf(out, n, "%d.%d.%d", v / 10000000, (v / 100000) % 100, v % 100000);
}

static void hip_env(const ha_backend *be, ha_env *e)
{
    hip_version_string(HIP_VERSION, e->header_version, sizeof e->header_version);
    int v = 0, st = CALL(hipRuntimeGetVersion, &v);
    if (st == HA_ST_OK)
        hip_version_string(v, e->runtime_version, sizeof e->runtime_version);
    else
        snprintf(e->runtime_version, sizeof e->runtime_version, "unknown (%s)", hip_status_name(be, st));
    v = 0;
    st = CALL(hipDriverGetVersion, &v);
    if (st == HA_ST_OK)
        snprintf(e->driver_version, sizeof e->driver_version, "%d", v);
    else
        snprintf(e->driver_version, sizeof e->driver_version, "unknown (%s)", hip_status_name(be, st));
    FILE *f = fopen("/sys/module/amdgpu/version", "r");
    if (f) {
        char line[96];
        if (fgets(line, sizeof line, f)) {
            line[strcspn(line, "\n")] = 0;
            snprintf(e->kernel_driver, sizeof e->kernel_driver, "amdgpu %s", line);
        }
        fclose(f);
    }
    ha_env_check_versions(e, "HIP header", e->header_version, "HIP runtime", e->runtime_version);
    /* The version guards know the releases of the stand-in's profiles. */
    int newest = 0;
    for (const ha_rocm_profile *p = ha_rocm_profiles; p->name; p++)
        newest = p->version > newest ? p->version : newest;
    if (state(be)->runtime_version <= 0)
        snprintf(e->version_warning, sizeof e->version_warning,
                 "the runtime did not give its version: the newest guards apply, and retain is not asked of "
                 "non-VMM memory");
    else if (state(be)->runtime_version / 100000 > newest / 100000) /* by major.minor: 7.14.2 is known */
        snprintf(e->version_warning, sizeof e->version_warning,
                 "HIP runtime %d is newer than any release this tool knows (%d): the newest guards apply",
                 state(be)->runtime_version, newest);
    if (state(be)->prop_skew || state(be)->memtype_skew)
        snprintf(e->layout_skew, sizeof e->layout_skew,
                 "HIP header %.20s and runtime %.20s disagree on %s%s%s: what depends on it is refused, not reported",
                 e->header_version, e->runtime_version, state(be)->prop_skew ? "hipMemAllocationProp's layout (changed in 5.3)" : "",
                 state(be)->prop_skew && state(be)->memtype_skew ? " and " : "",
                 state(be)->memtype_skew ? "hipMemoryType's numbering (changed in 6.0)" : "");
    hip_device_count(be, &e->device_count);
    e->device = be->device;
    if (CALL(hipDeviceGetName, e->device_name, (int)sizeof e->device_name - 1, be->device))
        snprintf(e->device_name, sizeof e->device_name, "unknown");
    hipDeviceProp_t *prop = calloc(1, sizeof *prop);
    if (prop && CALL(hipGetDeviceProperties, prop, be->device) == HA_ST_OK)
        snprintf(e->arch, sizeof e->arch, "%.63s", prop->gcnArchName);
    else
        snprintf(e->arch, sizeof e->arch, "unknown");
    free(prop);
    size_t total = 0;
    if (CALL(hipDeviceTotalMem, &total, be->device) == HA_ST_OK)
        e->vram_bytes = total;
    if (CALL(hipDeviceGetPCIBusId, e->pci_bus_id, (int)sizeof e->pci_bus_id - 1, be->device))
        e->pci_bus_id[0] = 0;
    int lb = -1;
    st = CALL(hipDeviceGetAttribute, &lb, hipDeviceAttributeIsLargeBar, be->device);
    ha_env_attr(e, "hipDeviceAttributeIsLargeBar", lb, st);
    if (st == HA_ST_OK)
        e->large_bar_runtime = lb != 0;
    snprintf(e->large_bar_runtime_note, sizeof e->large_bar_runtime_note,
             "hipDeviceAttributeIsLargeBar: %s%s", hip_status_name(be, st),
             getenv("ROC_ENABLE_LARGE_BAR") ? " (ROC_ENABLE_LARGE_BAR is set)" : "");
#if HIP_VERSION >= 50300000
    int vmm = -1;
    st = CALL(hipDeviceGetAttribute, &vmm, hipDeviceAttributeVirtualMemoryManagementSupported,
              be->device);
    ha_env_attr(e, "hipDeviceAttributeVirtualMemoryManagementSupported", vmm, st);
    if (st == HA_ST_OK)
        e->vmm_supported = vmm != 0;
#endif
    ha_env_sysfs(e, "");
}

const ha_backend_ops ha_backend_hip = {
    .name = "hip",
    .desc = "HIP runtime (libamdhip64.so)",
    .build_note = "compiled against HIP " XSTR(HIP_VERSION_MAJOR) "." XSTR(HIP_VERSION_MINOR) "." XSTR(HIP_VERSION_PATCH),
    .header_label = "HIP " XSTR(HIP_VERSION_MAJOR) "." XSTR(HIP_VERSION_MINOR) "." XSTR(HIP_VERSION_PATCH),
    .header_version = HIP_VERSION,
    .compiled = true,
    .simulated = false,
    .open = hip_open,
    .close = hip_close,
    .device_count = hip_device_count,
    .env = hip_env,
    .status_name = hip_status_name,
    .kinds = hip_kinds,
    .queries = hip_queries,
    .copy_h2d = hip_h2d,
    .copy_d2h = hip_d2h,
    .copy_d2h_async = hip_d2h_async,
    .copy_h2d_enqueue = hip_h2d_enqueue,
    .copy_d2h_enqueue = hip_d2h_enqueue,
    .stream_sync = hip_stream_sync,
    .stream_mark = hip_stream_mark,
    .mark_wait = hip_mark_wait,
    .synchronize = hip_synchronize,
    .host_alloc_pinned = hip_pinned,
    .host_free_pinned = hip_pinned_free,
    .mem_info = hip_mem_info,
    .vmm = &hip_vmm,
    .vram_held_while_reserved = true,
    .device_reads_cross_bar = true,
    .torch_reads_host = hip_torch_reads_host,
};

#else /* no HIP headers at build time */

const ha_backend_ops ha_backend_hip = {
    .name = "hip",
    .desc = "HIP runtime (libamdhip64.so)",
    .build_note = "compiled out: no hip/hip_runtime_api.h under ROCM_PATH at build time: install the HIP headers (ROCm, "
                  "or Debian's libamdhip64-dev), or set ROCM_PATH to them, then run 'make probes' again",
    .header_label = "no HIP headers",
    .compiled = false,
};

#endif
