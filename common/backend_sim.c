/* sim: the large-BAR platform model (common/largebar.c) behind this
 * tool's own backend interface, so the harness, the verdicts, the records
 * and the reports run for real where there is no GPU and no HIP headers.
 * Everything it produces is marked simulated; none of it is evidence. The
 * memory behaves as common/largebar.h says; the few queries it offers are
 * the model's own view (sim_*), not any runtime's answers — for those, the
 * hip backend over the stand-in ROCm runtime (--sim-profile) asks the same
 * model through HIP's entry points. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend.h"
#include "classify.h"
#include "envinfo.h"
#include "gpuhelpers.h"
#include "largebar.h"
#include "tool.h"
#include "vmmkinds.h"

enum {
    SIM_SUCCESS = LB_OK,
    SIM_ERR_INVALID_VALUE = LB_E_INVALID,
    SIM_ERR_OUT_OF_MEMORY = LB_E_NOMEM,
    SIM_ERR_NOT_MAPPED = LB_E_NOT_MAPPED,
    SIM_ERR_NO_ACCESS = LB_E_NO_ACCESS,
};

#define SIM_VRAM (16ull << 30)

static const char *sim_status_name(const ha_backend *be, int st)
{
    if (st < 0)
        return ha_status_name(NULL, st);
    (void)be;
    switch (st) {
    case SIM_SUCCESS: return "SIM_SUCCESS";
    case SIM_ERR_INVALID_VALUE: return "SIM_ERR_INVALID_VALUE";
    case SIM_ERR_OUT_OF_MEMORY: return "SIM_ERR_OUT_OF_MEMORY";
    case SIM_ERR_NOT_MAPPED: return "SIM_ERR_NOT_MAPPED";
    case SIM_ERR_NO_ACCESS: return "SIM_ERR_NO_ACCESS";
    default: return "SIM_ERR_UNKNOWN";
    }
}

/* ---- VMM primitives: the model's ---- */

static int sim_granularity(const ha_backend *be, ha_loc backing, bool posix_fd, size_t *g)
{
    (void)be;
    (void)backing;
    (void)posix_fd;
    *g = lb_granule();
    return SIM_SUCCESS;
}

static int sim_reserve(const ha_backend *be, void **va, size_t size, size_t align, void *hint)
{
    (void)be;
    return lb_reserve(va, size, align, hint);
}

static int sim_free_va(const ha_backend *be, void *va, size_t size)
{
    (void)be;
    return lb_free_va(va, size);
}

static int sim_create(const ha_backend *be, ha_vmm_handle *h, size_t size, ha_loc backing,
                      bool posix_fd)
{
    (void)be;
    (void)posix_fd;
    lb_handle lh = 0;
    int st = lb_create(&lh, size, backing.type != HA_LOC_DEVICE);
    *h = (ha_vmm_handle)lh;
    return st;
}

static int sim_release(const ha_backend *be, ha_vmm_handle h)
{
    (void)be;
    return lb_release((lb_handle)h);
}

static int sim_map(const ha_backend *be, void *va, size_t size, ha_vmm_handle h)
{
    (void)be;
    return lb_map(va, size, (lb_handle)h);
}

static int sim_unmap(const ha_backend *be, void *va, size_t size)
{
    (void)be;
    return lb_unmap(va, size);
}

/* Every location named is granted read-write; one not named is left as it
 * was (as ROCr does). */
static int sim_set_access(const ha_backend *be, void *va, size_t size, const ha_loc *locs,
                          size_t nlocs)
{
    int dev = -1, host = -1;
    for (size_t i = 0; i < nlocs; i++) {
        if (locs[i].type == HA_LOC_DEVICE) {
            if (locs[i].id != be->device)
                return SIM_ERR_INVALID_VALUE;
            dev = 1;
        } else {
            host = 1;
        }
    }
    return lb_grant(va, size, dev, host);
}

/* Device locations only, as ROCm's MemGetAccess. */
static int sim_get_access(const ha_backend *be, void *va, ha_loc loc, unsigned long long *flags)
{
    if (loc.type != HA_LOC_DEVICE || loc.id != be->device)
        return SIM_ERR_INVALID_VALUE;
    void *start;
    size_t size;
    lb_handle h;
    bool dev, host;
    if (!lb_chunk_find(va, &start, &size, &h, &dev, &host))
        return SIM_ERR_INVALID_VALUE;
    *flags = dev ? 3 : 0;
    return SIM_SUCCESS;
}

static int sim_export_fd(const ha_backend *be, ha_vmm_handle h, int *fd)
{
    (void)be;
    return lb_export_fd((lb_handle)h, fd);
}

static int sim_import_fd(const ha_backend *be, int fd, ha_vmm_handle *h)
{
    (void)be;
    lb_handle lh = 0;
    int st = lb_import_fd(fd, &lh);
    if (st == LB_OK)
        *h = (ha_vmm_handle)lh;
    return st;
}

static const ha_vmm_ops sim_vmm = {
    sim_granularity, sim_reserve, sim_free_va, sim_create, sim_release,
    sim_map,         sim_unmap,   sim_set_access, sim_get_access,
    sim_export_fd,   sim_import_fd,
};

/* ---- plain kinds: BAR allocations, visible (large BAR) or not ---- */

#define PLAIN_SIZE (64u * 1024u)

static int plain_create(const ha_backend *be, ha_alloc *a, bool visible)
{
    (void)be;
    int st = lb_bar_alloc(&a->ptr, PLAIN_SIZE, visible);
    if (st)
        return st;
    a->size = PLAIN_SIZE;
    snprintf(a->detail, sizeof a->detail, "modelled %s BAR mapping", visible ? "host-visible" : "hidden");
    return SIM_SUCCESS;
}

/* HA_SIM_LARGE_BAR: 1 (default) models a large BAR, 0 a small one, where
 * even "readable" device memory is out of the host's reach — the BIOS
 * setting a fleet survey is there to catch; -1 for anything else. */
static int sim_large_bar(void)
{
    const char *s = getenv("HA_SIM_LARGE_BAR");
    return !s ? 1 : !strcmp(s, "1") ? 1 : !strcmp(s, "0") ? 0 : -1;
}

/* The model stands for ROCm >= 7.2 on a GPU whose BAR is large or not. */
static bool sim_torch_reads_host(const ha_backend *be, char *why, size_t n)
{
    (void)be;
    bool lb = sim_large_bar() == 1;
    snprintf(why, n, "modelled ROCm >= 7.2 on a %s-BAR device", lb ? "large" : "small");
    return lb;
}

static int plain_readable(const ha_backend *be, ha_alloc *a) { return plain_create(be, a, sim_large_bar() == 1); }
static int plain_hidden(const ha_backend *be, ha_alloc *a) { return plain_create(be, a, false); }

static void plain_destroy(const ha_backend *be, ha_alloc *a)
{
    (void)be;
    lb_bar_free(a->ptr);
}

static const ha_kind sim_kinds[] = {
    {"plain-readable", "device memory behind a large BAR, host-mapped (models hipMalloc on large BAR)",
     plain_readable, plain_destroy, {0}, false, false, true},
    {"plain-unreadable", "device memory the host cannot reach (models no large BAR)", plain_hidden,
     plain_destroy, {0}, false, false, true},
    {0},
};

/* ---- candidates: the model's own view ---- */

static bool device_memory(const void *p)
{
    void *start;
    size_t size;
    lb_handle h;
    bool dev, host;
    return lb_bar_find(p, &start, &size) || lb_chunk_find(p, &start, &size, &h, &dev, &host);
}

static int r_pointer_type(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    if (!device_memory(a->ptr))
        return SIM_ERR_INVALID_VALUE;
    uint32_t type = 2; /* device, for every kind: the runtime's view of where memory lives */
    memcpy(out, &type, sizeof type);
    return SIM_SUCCESS;
}

/* Succeeds on VMM mappings only, like MemRetainAllocationHandle. */
static int r_retain(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    void *start;
    size_t size;
    lb_handle h;
    bool dev, host;
    if (!lb_chunk_find(a->ptr, &start, &size, &h, &dev, &host))
        return SIM_ERR_INVALID_VALUE;
    uint64_t v = (uint64_t)h;
    memcpy(out, &v, sizeof v);
    return SIM_SUCCESS;
}

static int r_range(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    void *start;
    size_t size;
    lb_handle h;
    bool dev, host;
    if (!lb_chunk_find(a->ptr, &start, &size, &h, &dev, &host) && !lb_bar_find(a->ptr, &start, &size))
        return SIM_ERR_NOT_MAPPED;
    uint64_t base = (uintptr_t)start;
    memcpy(out, &base, sizeof base);
    return SIM_SUCCESS;
}

static const ha_query sim_queries[] = {
    {"sim_pointer_type", "the model: where the memory lives (2, device, for every device allocation)", r_pointer_type, 0, HA_VT_INT, 4,
     NULL, 0},
    {"sim_retain_handle", "the model: the VMM chunk's handle (fails off VMM, as a retain does)", r_retain, 0, HA_VT_HANDLE, 8, NULL, 0},
    {"sim_address_range_base", "the model: the start of the allocation unit holding the pointer", r_range, 0, HA_VT_PTR, 8, NULL, 0},
    {"sim_get_access_device", "the model: device access of the VMM chunk", ha_raw_get_access, HA_LOC_DEVICE,
     HA_VT_INT, 8, NULL, 0},
    {"sim_get_access_host", "the model: access asked for the host (refused, as ROCm refuses it)", ha_raw_get_access, HA_LOC_HOST, HA_VT_INT, 8,
     NULL, 0},
    {0},
};

/* ---- data movement: the device's copies ---- */

static int sim_h2d(const ha_backend *be, void *dst, const void *src, size_t n)
{
    (void)be;
    return lb_copy(dst, src, n);
}

static int sim_d2h(const ha_backend *be, void *dst, const void *src, size_t n)
{
    (void)be;
    return lb_copy(dst, src, n);
}

/* The model's copies finish before they return: nothing is ever in flight. */
static int sim_no_work(const ha_backend *be)
{
    (void)be;
    return HA_ST_OK;
}

/* A mark outside the slots is the caller's bug: the real backends would
 * index past their events, so the model refuses it (EINVAL) where tests see it. */
static int sim_mark(const ha_backend *be, int slot)
{
    (void)be;
    return slot >= 0 && slot < HA_STREAM_MARKS ? HA_ST_OK : EINVAL;
}

/* "Pinned" memory is an anonymous mapping; its size goes in front of the
 * block, since the free call is not given it. */
static int sim_pinned(const ha_backend *be, void **p, size_t n)
{
    (void)be;
    size_t *m = mmap(NULL, n + 64, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return SIM_ERR_OUT_OF_MEMORY;
    m[0] = n + 64;
    *p = (char *)m + 64;
    return SIM_SUCCESS;
}

static void sim_pinned_free(const ha_backend *be, void *p)
{
    (void)be;
    if (!p)
        return;
    size_t *m = (size_t *)((char *)p - 64);
    munmap(m, m[0]);
}

static int sim_mem_info(const ha_backend *be, size_t *free_b, size_t *total)
{
    (void)be;
    lb_mem_info(free_b, total);
    return SIM_SUCCESS;
}

/* HA_SIM_DEVICES: how many devices the model has, 1 to 8 (default 1); -1
 * when set to anything else, which opening the backend refuses. */
static int sim_devices(void)
{
    const char *s = getenv("HA_SIM_DEVICES");
    long n;
    if (!s)
        return 1;
    return ha_parse_long(s, 1, 8, &n) == 0 ? (int)n : -1;
}

static int sim_device_count(const ha_backend *be, int *n)
{
    (void)be;
    *n = sim_devices();
    return SIM_SUCCESS;
}

static int sim_open(ha_backend *be, int device, char *why, size_t n)
{
    if (sim_devices() < 0) {
        snprintf(why, n, "HA_SIM_DEVICES='%.40s': expected a whole number from 1 to 8", getenv("HA_SIM_DEVICES"));
        return HA_EXIT_USAGE;
    }
    if (sim_large_bar() < 0) {
        snprintf(why, n, "HA_SIM_LARGE_BAR='%.40s': expected 1 (large BAR) or 0 (small BAR)", getenv("HA_SIM_LARGE_BAR"));
        return HA_EXIT_USAGE;
    }
    if (device >= sim_devices()) {
        snprintf(why, n, "device %d does not exist: sim has %d device(s)", device, sim_devices());
        return HA_EXIT_USAGE;
    }
    be->device = device;
    return HA_EXIT_OK;
}

static void sim_close(ha_backend *be) { (void)be; }

static void sim_env(const ha_backend *be, ha_env *e)
{
    snprintf(e->header_version, sizeof e->header_version, "sim 1");
    snprintf(e->runtime_version, sizeof e->runtime_version, "sim 1");
    snprintf(e->driver_version, sizeof e->driver_version, "sim 1");
    bool large = sim_large_bar() == 1;
    snprintf(e->device_name, sizeof e->device_name, "simulated %s GPU (not a device)", large ? "large-BAR" : "small-BAR");
    snprintf(e->arch, sizeof e->arch, "sim");
    e->device = be->device;
    e->device_count = sim_devices();
    e->vram_bytes = SIM_VRAM;
    e->large_bar_runtime = large;
    snprintf(e->large_bar_runtime_note, sizeof e->large_bar_runtime_note, "modelled (HA_SIM_LARGE_BAR=%d)", large);
    e->vmm_supported = 1;
    snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note,
             "simulated device has no PCI function");
}

const ha_backend_ops ha_backend_sim = {
    .name = "sim",
    .desc = "host-only model of a large-BAR GPU (simulated, not evidence)",
    .build_note = "built in",
    .header_label = "sim",
    .compiled = true,
    .simulated = true,
    .open = sim_open,
    .close = sim_close,
    .device_count = sim_device_count,
    .env = sim_env,
    .status_name = sim_status_name,
    .kinds = sim_kinds,
    .queries = sim_queries,
    .copy_h2d = sim_h2d,
    .copy_d2h = sim_d2h,
    .copy_d2h_async = sim_d2h,
    .copy_h2d_enqueue = sim_h2d,
    .copy_d2h_enqueue = sim_d2h,
    .stream_sync = sim_no_work,
    .stream_mark = sim_mark,
    .mark_wait = sim_mark,
    .synchronize = sim_no_work,
    .host_alloc_pinned = sim_pinned,
    .host_free_pinned = sim_pinned_free,
    .mem_info = sim_mem_info,
    .vmm = &sim_vmm,
    .vram_held_while_reserved = true,
    .torch_reads_host = sim_torch_reads_host,
};
