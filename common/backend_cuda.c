/* cuda: the CUDA driver API, libcuda.so.1 loaded with dlopen.
 *
 * Every entry point is declared with the header's own prototype (typeof)
 * and looked up under the name the header maps it to (cuMemAlloc is
 * cuMemAlloc_v2 in cuda.h), so a versioned symbol is never called through
 * the wrong ABI. A missing symbol makes that row say so; it never stops the
 * run. Structure kept parallel to backend_hip.c. */
#include "backend.h"
#include "backendkit.h"
#include "ccclrule.h"
#include "gpuhelpers.h"
#include "log.h"
#include "dynload.h"
#include "rtwatch.h"

#ifdef HA_HAVE_CUDA

#include <cuda.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "classify.h"
#include "envinfo.h"
#include "vmmkinds.h"

#define STR_(x) #x
#define XSTR(x) STR_(x)

/* Entry points; REQ ones must load for the backend to open. */
#define CU_SYMS(REQ, OPT)                                                                 \
    REQ(cuInit) REQ(cuDriverGetVersion) REQ(cuDeviceGetCount) REQ(cuDeviceGet)             \
    REQ(cuDevicePrimaryCtxRetain) REQ(cuDevicePrimaryCtxRelease) REQ(cuCtxSetCurrent)      \
    REQ(cuMemcpyHtoD) REQ(cuMemcpyDtoH) REQ(cuMemGetInfo)                                  \
    OPT(cuGetErrorName) OPT(cuDeviceGetName) OPT(cuDeviceTotalMem) OPT(cuDeviceGetAttribute) \
    OPT(cuDeviceGetPCIBusId) OPT(cuStreamCreate) OPT(cuStreamDestroy) OPT(cuStreamSynchronize) \
    OPT(cuMemcpyDtoHAsync) OPT(cuMemcpyHtoDAsync) OPT(cuCtxSynchronize) OPT(cuMemAlloc) OPT(cuMemFree) OPT(cuMemHostAlloc) OPT(cuMemFreeHost) \
    OPT(cuMemAllocManaged) OPT(cuPointerGetAttribute) OPT(cuPointerGetAttributes)           \
    OPT(cuMemGetAccess) OPT(cuMemRetainAllocationHandle) OPT(cuMemGetAddressRange)          \
    OPT(cuMemGetAllocationGranularity) OPT(cuMemAddressReserve) OPT(cuMemAddressFree)       \
    OPT(cuMemCreate) OPT(cuMemRelease) OPT(cuMemMap) OPT(cuMemUnmap) OPT(cuMemSetAccess)       \
    OPT(cuMemExportToShareableHandle) OPT(cuMemImportFromShareableHandle) OPT(cuMemHostRegister) \
    OPT(cuMemHostUnregister) OPT(cuMemAllocAsync) OPT(cuMemFreeAsync) OPT(cuEventCreate)        \
    OPT(cuEventRecord) OPT(cuEventSynchronize) OPT(cuEventDestroy) OPT(cuMemPoolGetAccess)

#define DECL(n) static __typeof__(n) *p_##n;
CU_SYMS(DECL, DECL)

#define ENTRY_REQ(n) {XSTR(n), &p_##n, true},
#define ENTRY_OPT(n) {XSTR(n), &p_##n, false},
static const ha_entry cu_entries[] = {CU_SYMS(ENTRY_REQ, ENTRY_OPT)};

static const ha_runtime_words cu_words = {"cuda", "libcuda.so.1", "the NVIDIA driver's library; reinstall the driver",
                                          "the driver", "no device"};

/* Calls an entry point, or reports it missing. */
#define CALL(n, ...) (p_##n ? (int)p_##n(__VA_ARGS__) : HA_ST_SYMBOL_MISSING)

typedef struct cu_state {
    void *lib;
    CUdevice dev;
    CUcontext ctx;
    CUstream stream;
    CUevent marks[HA_STREAM_MARKS]; /* NULL where cuEventCreate failed */
} cu_state;

/* The runtime's entry points above are the process's (the library is loaded
 * once); what one open of a device holds is here, behind be->priv. */
static cu_state *state(const ha_backend *be) { return be->priv; }

static const char *cu_status_name(const ha_backend *be, int st)
{
    if (st < 0)
        return ha_status_name(NULL, st); /* the tool's own: symbol missing, ... */
    (void)be;
    const char *n = NULL;
    if (p_cuGetErrorName && p_cuGetErrorName((CUresult)st, &n) == CUDA_SUCCESS && n)
        return n;
    static _Thread_local char buf[32];
    snprintf(buf, sizeof buf, "CUresult_%d", st);
    return buf;
}

static CUdeviceptr dptr(const void *p) { return (CUdeviceptr)(uintptr_t)p; }

/* ---- locations ---- */

static int cu_loc(const ha_backend *be, ha_loc l, CUmemLocation *out)
{
    memset(out, 0, sizeof *out);
    out->id = l.id;
    switch (l.type) {
    case HA_LOC_DEVICE: out->type = CU_MEM_LOCATION_TYPE_DEVICE; out->id = be->device; return 0;
#if CUDA_VERSION >= 12020
    case HA_LOC_HOST: out->type = CU_MEM_LOCATION_TYPE_HOST; return 0;
    case HA_LOC_HOST_NUMA: out->type = CU_MEM_LOCATION_TYPE_HOST_NUMA; return 0;
    case HA_LOC_HOST_NUMA_CURRENT: out->type = CU_MEM_LOCATION_TYPE_HOST_NUMA_CURRENT; return 0;
#endif
    default: return HA_ST_UNAVAILABLE;
    }
}

static void cu_prop(CUmemAllocationProp *prop, const CUmemLocation *loc, bool posix_fd)
{
    memset(prop, 0, sizeof *prop);
    prop->type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop->location = *loc;
    prop->requestedHandleTypes =
        posix_fd ? CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR : CU_MEM_HANDLE_TYPE_NONE;
}

/* ---- VMM primitives ---- */

static int cu_granularity(const ha_backend *be, ha_loc backing, bool posix_fd, size_t *g)
{
    CUmemLocation loc;
    if (cu_loc(be, backing, &loc))
        return HA_ST_UNAVAILABLE;
    CUmemAllocationProp prop;
    cu_prop(&prop, &loc, posix_fd);
    *g = 0;
    return CALL(cuMemGetAllocationGranularity, g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
}

static int cu_reserve(const ha_backend *be, void **va, size_t size, size_t align, void *hint)
{
    (void)be;
    CUdeviceptr p = (CUdeviceptr)(uintptr_t)*va;
    int st = CALL(cuMemAddressReserve, &p, size, align, dptr(hint), 0);
    *va = (void *)(uintptr_t)p;
    return st;
}

static int cu_free_va(const ha_backend *be, void *va, size_t size)
{
    (void)be;
    return CALL(cuMemAddressFree, dptr(va), size);
}

static int cu_create(const ha_backend *be, ha_vmm_handle *h, size_t size, ha_loc backing,
                     bool posix_fd)
{
    CUmemLocation loc;
    if (cu_loc(be, backing, &loc))
        return HA_ST_UNAVAILABLE;
    CUmemAllocationProp prop;
    cu_prop(&prop, &loc, posix_fd);
    CUmemGenericAllocationHandle ch = (CUmemGenericAllocationHandle)*h;
    int st = CALL(cuMemCreate, &ch, size, &prop, 0);
    *h = (ha_vmm_handle)ch;
    return st;
}

static int cu_release(const ha_backend *be, ha_vmm_handle h)
{
    (void)be;
    return CALL(cuMemRelease, (CUmemGenericAllocationHandle)h);
}

static int cu_map(const ha_backend *be, void *va, size_t size, ha_vmm_handle h)
{
    (void)be;
    return CALL(cuMemMap, dptr(va), size, 0, (CUmemGenericAllocationHandle)h, 0);
}

static int cu_unmap(const ha_backend *be, void *va, size_t size)
{
    (void)be;
    return CALL(cuMemUnmap, dptr(va), size);
}

static int cu_set_access(const ha_backend *be, void *va, size_t size, const ha_loc *locs,
                         size_t nlocs)
{
    CUmemAccessDesc d[HA_LOC_COUNT];
    if (nlocs > HA_LOC_COUNT)
        return HA_ST_UNAVAILABLE;
    for (size_t i = 0; i < nlocs; i++) {
        memset(&d[i], 0, sizeof d[i]);
        if (cu_loc(be, locs[i], &d[i].location))
            return HA_ST_UNAVAILABLE;
        d[i].flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    }
    return CALL(cuMemSetAccess, dptr(va), size, d, nlocs);
}

static int cu_get_access(const ha_backend *be, void *va, ha_loc l, unsigned long long *flags)
{
    CUmemLocation loc;
    if (cu_loc(be, l, &loc))
        return HA_ST_UNAVAILABLE;
    return CALL(cuMemGetAccess, flags, &loc, dptr(va));
}

static int cu_export_fd(const ha_backend *be, ha_vmm_handle h, int *fd)
{
    (void)be;
    int got = -1;
    int st = CALL(cuMemExportToShareableHandle, &got, (CUmemGenericAllocationHandle)h,
                  CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    *fd = got;
    return st;
}

static int cu_import_fd(const ha_backend *be, int fd, ha_vmm_handle *h)
{
    (void)be;
    CUmemGenericAllocationHandle ch = (CUmemGenericAllocationHandle)HA_VMM_NO_HANDLE;
    int st = CALL(cuMemImportFromShareableHandle, &ch, (void *)(intptr_t)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    *h = (ha_vmm_handle)ch;
    return st;
}

static const ha_vmm_ops cu_vmm = {
    cu_granularity, cu_reserve, cu_free_va, cu_create, cu_release,
    cu_map,         cu_unmap,   cu_set_access, cu_get_access,
    cu_export_fd,   cu_import_fd,
};

/* ---- the runtime's own allocation kinds ---- */

#define PLAIN_SIZE (2u << 20)

static int k_mem_alloc(const ha_backend *be, ha_alloc *a)
{
    (void)be;
    CUdeviceptr p = 0;
    int st = CALL(cuMemAlloc, &p, PLAIN_SIZE);
    return ha_kind_result(a, (void *)(uintptr_t)p, PLAIN_SIZE, st, cu_status_name(be, st), "cuMemAlloc(%u)",
                          PLAIN_SIZE);
}

static void k_mem_free(const ha_backend *be, ha_alloc *a)
{
    int st = CALL(cuMemFree, dptr(a->ptr));
    ha_warn_failed("cuMemFree", st, cu_status_name(be, st));
}

static int k_host_alloc(const ha_backend *be, ha_alloc *a)
{
    void *p = NULL;
    int st = CALL(cuMemHostAlloc, &p, PLAIN_SIZE, CU_MEMHOSTALLOC_DEVICEMAP);
    return ha_kind_result(a, p, PLAIN_SIZE, st, cu_status_name(be, st), "cuMemHostAlloc(DEVICEMAP)");
}

static void k_host_free(const ha_backend *be, ha_alloc *a)
{
    int st = CALL(cuMemFreeHost, a->ptr);
    ha_warn_failed("cuMemFreeHost", st, cu_status_name(be, st));
}

static int k_managed(const ha_backend *be, ha_alloc *a)
{
    CUdeviceptr p = 0;
    int st = CALL(cuMemAllocManaged, &p, PLAIN_SIZE, CU_MEM_ATTACH_GLOBAL);
    return ha_kind_result(a, (void *)(uintptr_t)p, PLAIN_SIZE, st, cu_status_name(be, st),
                          "cuMemAllocManaged(GLOBAL)");
}

/* Host memory the caller owns, registered with the driver. */
static int k_registered(const ha_backend *be, ha_alloc *a)
{
    void *p = ha_host_pages(PLAIN_SIZE);
    if (!p) {
        snprintf(a->detail, sizeof a->detail, "mmap(%u) for cuMemHostRegister: out of memory", PLAIN_SIZE);
        return HA_ST_UNAVAILABLE;
    }
    int st = CALL(cuMemHostRegister, p, PLAIN_SIZE, CU_MEMHOSTREGISTER_DEVICEMAP);
    snprintf(a->detail, sizeof a->detail, "mmap + cuMemHostRegister(DEVICEMAP): %s", cu_status_name(be, st));
    if (st)
        ha_host_pages_free(p, PLAIN_SIZE);
    a->ptr = st ? NULL : p;
    a->size = PLAIN_SIZE;
    return st;
}

static void k_unregister(const ha_backend *be, ha_alloc *a)
{
    int st = CALL(cuMemHostUnregister, a->ptr);
    ha_warn_failed("cuMemHostUnregister", st, cu_status_name(be, st));
    ha_host_pages_free(a->ptr, a->size);
}

/* Stream-ordered pool memory, what PYTORCH_CUDA_ALLOC_CONF=backend:cudaMallocAsync
 * hands out: allocated on the stream and waited for before anyone reads it. */
static int k_malloc_async(const ha_backend *be, ha_alloc *a)
{
    CUdeviceptr p = 0;
    int st = CALL(cuMemAllocAsync, &p, PLAIN_SIZE, state(be)->stream);
    int ss = st ? st : CALL(cuStreamSynchronize, state(be)->stream);
    snprintf(a->detail, sizeof a->detail, "cuMemAllocAsync(%u, stream): %s; cuStreamSynchronize: %s", PLAIN_SIZE,
             cu_status_name(be, st), st ? "not called" : cu_status_name(be, ss));
    a->ptr = (void *)(uintptr_t)p;
    a->size = PLAIN_SIZE;
    if (!st && ss)
        CALL(cuMemFreeAsync, p, state(be)->stream);
    return st ? st : ss;
}

static void k_free_async(const ha_backend *be, ha_alloc *a)
{
    int st = CALL(cuMemFreeAsync, dptr(a->ptr), state(be)->stream);
    int ss = st ? st : CALL(cuStreamSynchronize, state(be)->stream);
    if (st || ss)
        ha_log(HA_LOG_WARN, "cuMemFreeAsync: %s, then cuStreamSynchronize: %s", cu_status_name(be, st),
               st ? "not called" : cu_status_name(be, ss));
}

/* torch_allocator: as in backend_hip.c, whose rows these parallel. */
static const ha_kind cu_kinds[] = {
    {"cuMemAlloc", "device memory from cuMemAlloc", k_mem_alloc, k_mem_free, {0}, false, false, true},
    {"cuMemHostAlloc", "pinned host memory, cuMemHostAlloc(DEVICEMAP)", k_host_alloc, k_host_free, {0}, false, false, false},
    {"cuMemAllocManaged", "managed memory, cuMemAllocManaged(GLOBAL)", k_managed, k_mem_free, {0}, false, false, false},
    {"cuMemHostRegister", "host pages registered with cuMemHostRegister(DEVICEMAP)", k_registered, k_unregister, {0},
     false, false, false},
    {"cuMemAllocAsync", "stream-ordered pool memory, cuMemAllocAsync (PyTorch's cudaMallocAsync backend)",
     k_malloc_async, k_free_async, {0}, false, false, true},
    {0},
};

/* ---- candidates: each the bare call a user would make ---- */

static int r_attr(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    return CALL(cuPointerGetAttribute, out, (CUpointer_attribute)q->arg, dptr(a->ptr));
}

/* The plural call with one attribute, so each row stands alone. */
static int r_attrs(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    CUpointer_attribute at = (CUpointer_attribute)q->arg;
    void *data[1] = {out};
    return CALL(cuPointerGetAttributes, 1, &at, data, dptr(a->ptr));
}

/* cuMemRetainAllocationHandle takes a reference: a caller releases it. */
static int r_retain(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)q;
    CUmemGenericAllocationHandle h;
    ha_sentinel_fill(&h, sizeof h);
    int st = CALL(cuMemRetainAllocationHandle, &h, a->ptr);
    memcpy(out, &h, sizeof h);
    if (st == HA_ST_OK && ha_sentinel_written(&h, sizeof h)) {
        int rs = CALL(cuMemRelease, h);
        if (rs)
            ha_log(HA_LOG_WARN, "cuMemRelease after retain: %s", cu_status_name(be, rs));
    }
    return st;
}

static int r_range(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    CUdeviceptr base;
    size_t size;
    ha_sentinel_fill(&base, sizeof base);
    ha_sentinel_fill(&size, sizeof size);
    int st = CALL(cuMemGetAddressRange, &base, &size, dptr(a->ptr));
    if (q->arg == 0)
        memcpy(out, &base, sizeof base);
    else
        memcpy(out, &size, sizeof size);
    return st;
}

/* CCCL's cuda::is_host_accessible, made of the calls it makes (ccclrule.h):
 * its throwing form, so a failed call is the row's status, not a false. */
static int r_cccl_host(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    int yes = 0;
    if (a->ptr) {
        CUpointer_attribute at[3] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                     CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE};
        unsigned type = 0;
        int managed = 0;
        CUmemoryPool pool = NULL;
        void *res[3] = {&type, &managed, &pool};
        int st = CALL(cuPointerGetAttributes, 3, at, res, dptr(a->ptr));
        if (st)
            return st;
        ha_cccl_attrs c = {type, managed != 0, pool != NULL, false};
        if (pool) {
            CUmemLocation host = {.type = CU_MEM_LOCATION_TYPE_HOST, .id = 0};
            CUmemAccess_flags fl = CU_MEM_ACCESS_FLAGS_PROT_NONE;
            if ((st = CALL(cuMemPoolGetAccess, &fl, pool, &host)))
                return st;
            c.pool_host_read = (fl & CU_MEM_ACCESS_FLAGS_PROT_READ) != 0;
        }
        yes = ha_cccl_host_accessible(&c);
    }
    memcpy(out, &yes, sizeof yes);
    return HA_ST_OK;
}

#define ATTR(A, VT, W)                                                                     \
    {"cuPointerGetAttribute(" #A ")", "cuPointerGetAttribute(CU_POINTER_ATTRIBUTE_" #A ")", \
     r_attr, CU_POINTER_ATTRIBUTE_##A, VT, W, NULL, 0}
#define ATTRS(A, VT, W)                                                                      \
    {"cuPointerGetAttributes(" #A ")", "cuPointerGetAttributes(1, {CU_POINTER_ATTRIBUTE_" #A \
     "})", r_attrs, CU_POINTER_ATTRIBUTE_##A, VT, W, NULL, 0}
#define ACCESS(L, LOC, DESC)                                                             \
    {"cuMemGetAccess(" L ")", "cuMemGetAccess(&flags, " DESC ", ptr)", ha_raw_get_access, \
     LOC, HA_VT_INT, 8, NULL, 0}

static const ha_query cu_queries[] = {
    ATTR(CONTEXT, HA_VT_HANDLE, 8),
    ATTR(MEMORY_TYPE, HA_VT_INT, 4),
    ATTR(DEVICE_POINTER, HA_VT_PTR, 8),
    ATTR(HOST_POINTER, HA_VT_PTR, 8),
#if CUDA_VERSION < 13000
    ATTR(P2P_TOKENS, HA_VT_BYTES, 16),
#endif
    ATTR(SYNC_MEMOPS, HA_VT_BOOL, 4),
    ATTR(BUFFER_ID, HA_VT_ID, 8),
    ATTR(IS_MANAGED, HA_VT_BOOL, 4),
    ATTR(DEVICE_ORDINAL, HA_VT_INT, 4),
    ATTR(IS_LEGACY_CUDA_IPC_CAPABLE, HA_VT_BOOL, 4),
    ATTR(RANGE_START_ADDR, HA_VT_PTR, 8),
    ATTR(RANGE_SIZE, HA_VT_SIZE, 8),
    ATTR(MAPPED, HA_VT_BOOL, 4),
    ATTR(ALLOWED_HANDLE_TYPES, HA_VT_INT, 8),
    ATTR(IS_GPU_DIRECT_RDMA_CAPABLE, HA_VT_BOOL, 4),
    ATTR(ACCESS_FLAGS, HA_VT_INT, 4),
    ATTR(MEMPOOL_HANDLE, HA_VT_HANDLE, 8),
    ATTR(MAPPING_SIZE, HA_VT_SIZE, 8),
    ATTR(MAPPING_BASE_ADDR, HA_VT_PTR, 8),
    ATTR(MEMORY_BLOCK_ID, HA_VT_ID, 8),
#if CUDA_VERSION >= 12080
    ATTR(IS_HW_DECOMPRESS_CAPABLE, HA_VT_BOOL, 4),
#endif
    ATTRS(MEMORY_TYPE, HA_VT_INT, 4),
    ATTRS(HOST_POINTER, HA_VT_PTR, 8),
    ATTRS(DEVICE_POINTER, HA_VT_PTR, 8),
    ATTRS(IS_MANAGED, HA_VT_BOOL, 4),
    ATTRS(MAPPED, HA_VT_BOOL, 4),
    ATTRS(RANGE_SIZE, HA_VT_SIZE, 8),
    ACCESS("device", HA_LOC_DEVICE, "{DEVICE, dev}"),
    ACCESS("host", HA_LOC_HOST, "{HOST, 0}"),
    ACCESS("host_numa", HA_LOC_HOST_NUMA, "{HOST_NUMA, 0}"),
    ACCESS("host_numa_current", HA_LOC_HOST_NUMA_CURRENT, "{HOST_NUMA_CURRENT, 0}"),
    {"cuMemRetainAllocationHandle", "cuMemRetainAllocationHandle(&h, ptr) + cuMemRelease",
     r_retain, 0, HA_VT_HANDLE, 8, NULL, 0},
    {"cuMemGetAddressRange(base)", "cuMemGetAddressRange(&base, &size, ptr): base", r_range, 0,
     HA_VT_PTR, 8, NULL, 0},
    {"cuMemGetAddressRange(size)", "cuMemGetAddressRange(&base, &size, ptr): size", r_range, 1,
     HA_VT_SIZE, 8, NULL, 0},
    {"cccl_is_host_accessible", "NVIDIA CCCL cuda::is_host_accessible(ptr): cuPointerGetAttributes(MEMORY_TYPE, "
     "IS_MANAGED, MEMPOOL_HANDLE), then cuMemPoolGetAccess(pool, HOST) for pool memory", r_cccl_host, 0, HA_VT_BOOL, 4,
     NULL, 0},
    {0},
};

/* ---- data movement ---- */

static int cu_h2d(const ha_backend *be, void *dst, const void *src, size_t n)
{
    (void)be;
    return CALL(cuMemcpyHtoD, dptr(dst), src, n);
}

static int cu_d2h(const ha_backend *be, void *dst, const void *src, size_t n)
{
    (void)be;
    return CALL(cuMemcpyDtoH, dst, dptr(src), n);
}

static int cu_d2h_async(const ha_backend *be, void *dst, const void *src, size_t n)
{
    int st = CALL(cuMemcpyDtoHAsync, dst, dptr(src), n, state(be)->stream);
    return st ? st : CALL(cuStreamSynchronize, state(be)->stream);
}

static int cu_h2d_enqueue(const ha_backend *be, void *dst, const void *src, size_t n)
{
    return CALL(cuMemcpyHtoDAsync, dptr(dst), src, n, state(be)->stream);
}

static int cu_d2h_enqueue(const ha_backend *be, void *dst, const void *src, size_t n)
{
    return CALL(cuMemcpyDtoHAsync, dst, dptr(src), n, state(be)->stream);
}

static int cu_stream_sync(const ha_backend *be)
{
    return CALL(cuStreamSynchronize, state(be)->stream);
}

static int cu_stream_mark(const ha_backend *be, int slot)
{
    CUevent e = state(be)->marks[slot];
    return e ? CALL(cuEventRecord, e, state(be)->stream) : HA_ST_OK;
}

static int cu_mark_wait(const ha_backend *be, int slot)
{
    CUevent e = state(be)->marks[slot];
    return e ? CALL(cuEventSynchronize, e) : cu_stream_sync(be);
}

static int cu_synchronize(const ha_backend *be)
{
    (void)be;
    return CALL(cuCtxSynchronize);
}

static int cu_pinned(const ha_backend *be, void **p, size_t n)
{
    (void)be;
    return CALL(cuMemHostAlloc, p, n, 0);
}

static void cu_pinned_free(const ha_backend *be, void *p)
{
    int st = CALL(cuMemFreeHost, p);
    ha_warn_failed("cuMemFreeHost", st, cu_status_name(be, st));
}

static int cu_mem_info(const ha_backend *be, size_t *free_b, size_t *total)
{
    (void)be;
    return CALL(cuMemGetInfo, free_b, total);
}

/* ---- open, close, environment ---- */

static int cu_device_count(const ha_backend *be, int *n)
{
    (void)be;
    *n = 0;
    ha_rtwatch_begin("libcuda.so.1", "cuDeviceGetCount");
    int st = CALL(cuDeviceGetCount, n);
    ha_rtwatch_end();
    return st;
}

/* libcuda stays loaded: unloading a GPU runtime mid-process is not supported */
static void release_device(cu_state *s)
{
    for (int i = 0; i < HA_STREAM_MARKS; i++)
        if (s->marks[i])
            CALL(cuEventDestroy, s->marks[i]);
    if (s->stream)
        CALL(cuStreamDestroy, s->stream);
    if (s->ctx)
        CALL(cuDevicePrimaryCtxRelease, s->dev);
}

static int cu_open(ha_backend *be, int device, char *why, size_t n)
{
    cu_state s = {0};
    static const char *const names[] = {"libcuda.so.1", NULL};
    bool broken;
    char lwhy[700];
    s.lib = ha_dlopen_checked(names, &broken, lwhy, sizeof lwhy);
    if (!s.lib) {
        snprintf(why, n, "cuda: %s%s", lwhy, broken ? "" : ": install the NVIDIA driver");
        return HA_EXIT_NO_RUNTIME;
    }
    int rc = ha_bind_entries(s.lib, cu_entries, sizeof cu_entries / sizeof *cu_entries, &cu_words, why, n);
    if (rc != HA_EXIT_OK) {
        dlclose(s.lib);
        return rc;
    }
    ha_rtwatch_begin("libcuda.so.1", "cuInit");
    int st = CALL(cuInit, 0);
    ha_rtwatch_end();
    if (st == CUDA_ERROR_NO_DEVICE) {
        snprintf(why, n, "cuda: cuInit: CUDA_ERROR_NO_DEVICE: no NVIDIA GPU is visible");
        return HA_EXIT_NO_DEVICE;
    }
    if (st) {
        snprintf(why, n, "cuda: cuInit failed: %s", cu_status_name(be, st));
        return st == CUDA_ERROR_STUB_LIBRARY ? HA_EXIT_NO_RUNTIME : HA_EXIT_NO_DEVICE;
    }
    int count = 0;
    st = cu_device_count(be, &count);
    if ((rc = ha_check_devices(&cu_words, "cuDeviceGetCount", st, cu_status_name(be, st), count, device, why, n)))
        return rc;
    ha_rtwatch_begin("libcuda.so.1", "cuDevicePrimaryCtxRetain");
    if (!(st = CALL(cuDeviceGet, &s.dev, device)) && !(st = CALL(cuDevicePrimaryCtxRetain, &s.ctx, s.dev)))
        st = CALL(cuCtxSetCurrent, s.ctx);
    ha_rtwatch_end();
    if (st) {
        snprintf(why, n, "cuda: cannot open device %d: %s", device, cu_status_name(be, st));
        return HA_EXIT_NO_DEVICE;
    }
    st = CALL(cuStreamCreate, &s.stream, CU_STREAM_NON_BLOCKING);
    if (st)
        ha_log(HA_LOG_WARN, "cuStreamCreate: %s; async copies use the null stream",
                cu_status_name(be, st));
    for (int i = 0, est = HA_ST_OK; i < HA_STREAM_MARKS && !est; i++)
        if ((est = CALL(cuEventCreate, &s.marks[i], CU_EVENT_DISABLE_TIMING))) {
            s.marks[i] = NULL;
            ha_log(HA_LOG_WARN, "cuEventCreate: %s; a pool's sleep waits for each copy whole",
                   cu_status_name(be, est));
        }
    be->device = device;
    cu_state *mine = malloc(sizeof *mine);
    if (!mine) {
        release_device(&s);
        snprintf(why, n, "cuda: out of memory opening device %d", device);
        return HA_EXIT_NO_RUNTIME;
    }
    *mine = s;
    be->priv = mine;
    return HA_EXIT_OK;
}

static void cu_close(ha_backend *be)
{
    cu_state *s = state(be);
    if (!s)
        return;
    release_device(s);
    free(s);
    be->priv = NULL;
}

static void version_string(int v, char *out, size_t n) { snprintf(out, n, "%d.%d", v / 1000, (v % 1000) / 10); }

/* The kernel module's version (580.159.04), which is not the CUDA API
 * version: the first dotted number on the NVRM line. */
static void nvrm_version(ha_env *e)
{
    FILE *f = fopen("/proc/driver/nvidia/version", "r");
    snprintf(e->driver_version, sizeof e->driver_version, "unknown");
    if (!f)
        return;
    char line[256];
    if (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = 0;
        snprintf(e->kernel_driver, sizeof e->kernel_driver, "%.127s", line);
        for (char *tok = strtok(line, " \t"); tok; tok = strtok(NULL, " \t")) {
            if (tok[0] >= '0' && tok[0] <= '9' && strchr(tok, '.') &&
                strspn(tok, "0123456789.") == strlen(tok)) {
                snprintf(e->driver_version, sizeof e->driver_version, "%.63s", tok);
                break;
            }
        }
    }
    fclose(f);
}

static void cu_env(const ha_backend *be, ha_env *e)
{
    version_string(CUDA_VERSION, e->header_version, sizeof e->header_version);
    int v = 0;
    int st = CALL(cuDriverGetVersion, &v);
    if (st == HA_ST_OK)
        version_string(v, e->runtime_version, sizeof e->runtime_version);
    else
        snprintf(e->runtime_version, sizeof e->runtime_version, "unknown (%s)", cu_status_name(be, st));
    nvrm_version(e);
    ha_env_check_versions(e, "cuda.h", e->header_version, "libcuda", e->runtime_version);
    cu_device_count(be, &e->device_count);
    e->device = be->device;
    if (CALL(cuDeviceGetName, e->device_name, (int)sizeof e->device_name - 1, state(be)->dev))
        snprintf(e->device_name, sizeof e->device_name, "unknown");
    int maj = -1, min = -1;
    CALL(cuDeviceGetAttribute, &maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, state(be)->dev);
    CALL(cuDeviceGetAttribute, &min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, state(be)->dev);
    if (maj >= 0 && min >= 0)
        snprintf(e->arch, sizeof e->arch, "sm_%d%d", maj, min);
    else
        snprintf(e->arch, sizeof e->arch, "unknown");
    size_t total = 0;
    if (CALL(cuDeviceTotalMem, &total, state(be)->dev) == HA_ST_OK)
        e->vram_bytes = total;
    if (CALL(cuDeviceGetPCIBusId, e->pci_bus_id, (int)sizeof e->pci_bus_id - 1, state(be)->dev))
        e->pci_bus_id[0] = 0;
    static const struct { const char *name; CUdevice_attribute a; } attrs[] = {
        {"VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED", CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED},
        {"PAGEABLE_MEMORY_ACCESS", CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS},
        {"DIRECT_MANAGED_MEM_ACCESS_FROM_HOST", CU_DEVICE_ATTRIBUTE_DIRECT_MANAGED_MEM_ACCESS_FROM_HOST},
        {"HOST_NATIVE_ATOMIC_SUPPORTED", CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED},
#if CUDA_VERSION >= 12020
        {"HOST_NUMA_ID", CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID},
#endif
#if CUDA_VERSION >= 12040
        {"HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED",
         CU_DEVICE_ATTRIBUTE_HOST_NUMA_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED},
#endif
    };
    for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
        int val = -1;
        int ast = CALL(cuDeviceGetAttribute, &val, attrs[i].a, state(be)->dev);
        ha_env_attr(e, attrs[i].name, val, ast);
        if (i == 0 && ast == HA_ST_OK)
            e->vmm_supported = val != 0;
    }
    snprintf(e->large_bar_runtime_note, sizeof e->large_bar_runtime_note,
             "CUDA has no large-BAR attribute: see the sysfs BAR sizes");
    ha_env_sysfs(e, "");
}

const ha_backend_ops ha_backend_cuda = {
    .name = "cuda",
    .desc = "CUDA driver API (libcuda.so.1)",
    .build_note = "compiled against cuda.h (CUDA_VERSION " XSTR(CUDA_VERSION) ")",
    .header_label = "cuda.h (CUDA_VERSION " XSTR(CUDA_VERSION) ")",
    .compiled = true,
    .simulated = false,
    .open = cu_open,
    .close = cu_close,
    .device_count = cu_device_count,
    .env = cu_env,
    .status_name = cu_status_name,
    .kinds = cu_kinds,
    .queries = cu_queries,
    .copy_h2d = cu_h2d,
    .copy_d2h = cu_d2h,
    .copy_d2h_async = cu_d2h_async,
    .copy_h2d_enqueue = cu_h2d_enqueue,
    .copy_d2h_enqueue = cu_d2h_enqueue,
    .stream_sync = cu_stream_sync,
    .stream_mark = cu_stream_mark,
    .mark_wait = cu_mark_wait,
    .synchronize = cu_synchronize,
    .host_alloc_pinned = cu_pinned,
    .host_free_pinned = cu_pinned_free,
    .mem_info = cu_mem_info,
    .vmm = &cu_vmm,
};

#else /* no cuda.h at build time */

const ha_backend_ops ha_backend_cuda = {
    .name = "cuda",
    .desc = "CUDA driver API (libcuda.so.1)",
    .build_note = "compiled out: no cuda.h under CUDA_PATH at build time: install the CUDA toolkit's headers, or set "
                  "CUDA_PATH to them, then run 'make probes' again",
    .header_label = "no cuda.h",
    .compiled = false,
};

#endif
