/* sim: a host-only model of a large-BAR platform, so the harness, the
 * verdicts, the records and the reports run for real where there is no GPU.
 * Everything it produces is marked simulated; none of it is evidence.
 *
 * The model: physical "device" memory is a memfd with a private read-write
 * view that plays the device's side (copies go through it). The address a
 * host would dereference is a separate mapping of the same memfd whose
 * protection says whether the host may read it: PROT_NONE for device-only
 * access, read-write once a host descriptor is granted, whatever the handle
 * type (PyTorch's expandable segments are host-readable on ROCm >= 7.2
 * because PyTorch grants {Device, Host}, not because of their POSIX-fd
 * handles: FACTS.md). MemGetAccess accepts only device locations. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend.h"
#include "classify.h"
#include "envinfo.h"
#include "tool.h"
#include "vmmkinds.h"

enum {
    SIM_SUCCESS = 0,
    SIM_ERR_INVALID_VALUE = 1,
    SIM_ERR_OUT_OF_MEMORY = 2,
    SIM_ERR_NOT_MAPPED = 3,
    SIM_ERR_INJECTED = 4,
};

#define SIM_GRANULE (64u * 1024u)
#define SIM_VRAM (16ull << 30)
#define SIM_MAX_OBJ 4096

/* A physical allocation: one memfd with the device's view of it. */
typedef struct sim_phys {
    int fd;
    void *dev_view;
    size_t size;
    int mappings;
    bool released;
    bool posix_fd;
} sim_phys;

/* Where a physical allocation is mapped in the host address space. */
typedef struct sim_map {
    char *va;
    size_t size;
    int phys; /* index into phys[] */
    bool device_access;
    bool host_access;
} sim_mapping;

static sim_phys phys[SIM_MAX_OBJ];
static sim_mapping maps[SIM_MAX_OBJ];
static size_t used_bytes;
static int fail_countdown = -1; /* ha_sim_fail_after: fail the Nth create/map */

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
    case SIM_ERR_INJECTED: return "SIM_ERR_INJECTED";
    default: return "SIM_ERR_UNKNOWN";
    }
}

/* Failure injection, for the pool's rollback checks. */
static bool injected_failure(void)
{
    if (fail_countdown < 0)
        return false;
    if (fail_countdown == 0) {
        fail_countdown = -1;
        return true;
    }
    fail_countdown--;
    return false;
}

void ha_sim_fail_after(int n) { fail_countdown = n; }

static int phys_new(size_t size, bool posix_fd)
{
    for (int i = 0; i < SIM_MAX_OBJ; i++) {
        if (phys[i].dev_view)
            continue;
        int fd = memfd_create("ha-sim-vram", MFD_CLOEXEC);
        if (fd < 0)
            return -1;
        if (ftruncate(fd, (off_t)size) != 0) {
            close(fd);
            return -1;
        }
        void *v = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (v == MAP_FAILED) {
            close(fd);
            return -1;
        }
        phys[i] = (sim_phys){fd, v, size, 0, false, posix_fd};
        used_bytes += size;
        return i;
    }
    return -1;
}

static void phys_maybe_free(int i)
{
    sim_phys *p = &phys[i];
    if (!p->dev_view || !p->released || p->mappings > 0)
        return;
    munmap(p->dev_view, p->size);
    close(p->fd);
    used_bytes -= p->size;
    memset(p, 0, sizeof *p);
}

static sim_mapping *map_at(const void *addr)
{
    const char *a = addr;
    for (int i = 0; i < SIM_MAX_OBJ; i++)
        if (maps[i].va && a >= maps[i].va && a < maps[i].va + maps[i].size)
            return &maps[i];
    return NULL;
}

static int apply_prot(sim_mapping *m)
{
    bool host = m->host_access;
    return mprotect(m->va, m->size, host ? PROT_READ | PROT_WRITE : PROT_NONE) == 0
               ? SIM_SUCCESS
               : SIM_ERR_INVALID_VALUE;
}

/* ---- VMM primitives ---- */

static int sim_granularity(const ha_backend *be, ha_loc backing, bool posix_fd, size_t *g)
{
    (void)be;
    (void)backing;
    (void)posix_fd;
    *g = SIM_GRANULE;
    return SIM_SUCCESS;
}

static int sim_reserve(const ha_backend *be, void **va, size_t size, size_t align, void *hint)
{
    (void)be;
    (void)hint;
    if (size == 0 || size % SIM_GRANULE)
        return SIM_ERR_INVALID_VALUE;
    size_t a = align > SIM_GRANULE ? align : SIM_GRANULE;
    /* Over-reserve and trim, so the range is aligned as a runtime would. */
    char *p = mmap(hint, size + a, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return SIM_ERR_OUT_OF_MEMORY;
    char *al = (char *)(((uintptr_t)p + a - 1) / a * a);
    if (al > p)
        munmap(p, (size_t)(al - p));
    size_t tail = (size_t)(p + size + a - (al + size));
    if (tail)
        munmap(al + size, tail);
    *va = al;
    return SIM_SUCCESS;
}

static int sim_free_va(const ha_backend *be, void *va, size_t size)
{
    (void)be;
    for (int i = 0; i < SIM_MAX_OBJ; i++)
        if (maps[i].va && maps[i].va >= (char *)va && maps[i].va < (char *)va + size)
            return SIM_ERR_INVALID_VALUE; /* still mapped */
    return munmap(va, size) == 0 ? SIM_SUCCESS : SIM_ERR_INVALID_VALUE;
}

static int sim_create(const ha_backend *be, ha_vmm_handle *h, size_t size, ha_loc backing,
                      bool posix_fd)
{
    (void)be;
    (void)backing;
    if (size == 0 || size % SIM_GRANULE)
        return SIM_ERR_INVALID_VALUE;
    if (injected_failure())
        return SIM_ERR_INJECTED;
    if (used_bytes + size > SIM_VRAM)
        return SIM_ERR_OUT_OF_MEMORY;
    int i = phys_new(size, posix_fd);
    if (i < 0)
        return SIM_ERR_OUT_OF_MEMORY;
    *h = (ha_vmm_handle)i;
    return SIM_SUCCESS;
}

static int sim_release(const ha_backend *be, ha_vmm_handle h)
{
    (void)be;
    if (h >= SIM_MAX_OBJ || !phys[h].dev_view || phys[h].released)
        return SIM_ERR_INVALID_VALUE;
    phys[h].released = true;
    phys_maybe_free((int)h);
    return SIM_SUCCESS;
}

static int sim_map(const ha_backend *be, void *va, size_t size, ha_vmm_handle h)
{
    (void)be;
    if (h >= SIM_MAX_OBJ || !phys[h].dev_view || phys[h].released || size > phys[h].size)
        return SIM_ERR_INVALID_VALUE;
    if (map_at(va))
        return SIM_ERR_INVALID_VALUE;
    if (injected_failure())
        return SIM_ERR_INJECTED;
    for (int i = 0; i < SIM_MAX_OBJ; i++) {
        if (maps[i].va)
            continue;
        if (mmap(va, size, PROT_NONE, MAP_SHARED | MAP_FIXED, phys[h].fd, 0) == MAP_FAILED)
            return SIM_ERR_INVALID_VALUE;
        maps[i] = (sim_mapping){va, size, (int)h, false, false};
        phys[h].mappings++;
        return SIM_SUCCESS;
    }
    return SIM_ERR_OUT_OF_MEMORY;
}

static int sim_unmap(const ha_backend *be, void *va, size_t size)
{
    (void)be;
    sim_mapping *m = map_at(va);
    if (!m || m->va != va || m->size != size)
        return SIM_ERR_NOT_MAPPED;
    /* Back to a bare reservation, as a runtime leaves it. */
    if (mmap(va, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1,
             0) == MAP_FAILED)
        return SIM_ERR_INVALID_VALUE;
    int p = m->phys;
    memset(m, 0, sizeof *m);
    phys[p].mappings--;
    phys_maybe_free(p);
    return SIM_SUCCESS;
}

static int sim_set_access(const ha_backend *be, void *va, size_t size, const ha_loc *locs,
                          size_t nlocs)
{
    bool dev = false, host = false;
    for (size_t i = 0; i < nlocs; i++) {
        if (locs[i].type == HA_LOC_DEVICE) {
            if (locs[i].id != be->device)
                return SIM_ERR_INVALID_VALUE;
            dev = true;
        } else {
            host = true;
        }
    }
    char *end = (char *)va + size;
    for (char *p = va; p < end;) {
        sim_mapping *m = map_at(p);
        if (!m)
            return SIM_ERR_NOT_MAPPED;
        m->device_access = dev;
        m->host_access = host;
        int st = apply_prot(m);
        if (st)
            return st;
        p = m->va + m->size;
    }
    return SIM_SUCCESS;
}

static int sim_get_access(const ha_backend *be, void *va, ha_loc loc, unsigned long long *flags)
{
    if (loc.type != HA_LOC_DEVICE || loc.id != be->device)
        return SIM_ERR_INVALID_VALUE;
    sim_mapping *m = map_at(va);
    if (!m)
        return SIM_ERR_INVALID_VALUE;
    *flags = m->device_access ? 3 : 0;
    return SIM_SUCCESS;
}

static const ha_vmm_ops sim_vmm = {
    sim_granularity, sim_reserve, sim_free_va, sim_create, sim_release,
    sim_map,         sim_unmap,   sim_set_access, sim_get_access,
};

/* ---- plain kinds: one physical allocation mapped with or without host access ---- */

#define PLAIN_SIZE (SIM_GRANULE)

static int plain_create(const ha_backend *be, ha_alloc *a, bool host)
{
    void *va = NULL;
    int st = sim_reserve(be, &va, PLAIN_SIZE, SIM_GRANULE, NULL);
    if (st)
        return st;
    ha_vmm_handle h;
    if ((st = sim_create(be, &h, PLAIN_SIZE, (ha_loc){HA_LOC_DEVICE, be->device}, false)) ||
        (st = sim_map(be, va, PLAIN_SIZE, h))) {
        sim_free_va(be, va, PLAIN_SIZE);
        return st;
    }
    map_at(va)->device_access = true;
    map_at(va)->host_access = host;
    apply_prot(map_at(va));
    sim_release(be, h);
    a->ptr = va;
    a->size = PLAIN_SIZE;
    snprintf(a->detail, sizeof a->detail, "modelled %s BAR mapping", host ? "host-visible" : "hidden");
    return SIM_SUCCESS;
}

static int plain_readable(const ha_backend *be, ha_alloc *a) { return plain_create(be, a, true); }
static int plain_hidden(const ha_backend *be, ha_alloc *a) { return plain_create(be, a, false); }

static void plain_destroy(const ha_backend *be, ha_alloc *a)
{
    if (sim_unmap(be, a->ptr, a->size) == SIM_SUCCESS)
        sim_free_va(be, a->ptr, a->size);
}

static bool plain_kind(const ha_kind *k) { return k->create == plain_readable || k->create == plain_hidden; }

static const ha_kind sim_kinds[] = {
    {"plain-readable", "device memory behind a large BAR, host-mapped (models hipMalloc on large BAR)",
     plain_readable, plain_destroy, {0}, false},
    {"plain-unreadable", "device memory the host cannot reach (models no large BAR)", plain_hidden,
     plain_destroy, {0}, false},
    {0},
};

/* ---- candidates the modelled runtime offers ---- */

static int r_pointer_type(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    if (!map_at(a->ptr))
        return SIM_ERR_INVALID_VALUE;
    uint32_t type = 2; /* device, for every kind: the runtime's view of where memory lives */
    memcpy(out, &type, sizeof type);
    return SIM_SUCCESS;
}

static bool plain_kind(const ha_kind *k);

/* Succeeds on VMM mappings only, like MemRetainAllocationHandle. */
static int r_retain(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    sim_mapping *m = map_at(a->ptr);
    if (!m || plain_kind(a->kind))
        return SIM_ERR_INVALID_VALUE;
    uint64_t h = (uint64_t)m->phys + 1;
    memcpy(out, &h, sizeof h);
    return SIM_SUCCESS;
}

static int r_range(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    sim_mapping *m = map_at(a->ptr);
    if (!m)
        return SIM_ERR_NOT_MAPPED;
    uint64_t base = (uintptr_t)m->va;
    memcpy(out, &base, sizeof base);
    return SIM_SUCCESS;
}

static const ha_query sim_queries[] = {
    {"sim_pointer_type", "simPointerGetAttribute(MEMORY_TYPE)", r_pointer_type, 0, HA_VT_INT, 4,
     NULL, 0},
    {"sim_retain_handle", "simMemRetainAllocationHandle", r_retain, 0, HA_VT_HANDLE, 8, NULL, 0},
    {"sim_address_range_base", "simMemGetAddressRange (base)", r_range, 0, HA_VT_PTR, 8, NULL, 0},
    {"sim_get_access_device", "simMemGetAccess(device)", ha_raw_get_access, HA_LOC_DEVICE,
     HA_VT_INT, 8, NULL, 0},
    {"sim_get_access_host", "simMemGetAccess(host)", ha_raw_get_access, HA_LOC_HOST, HA_VT_INT, 8,
     NULL, 0},
    {0},
};

/* ---- data movement through the device's view ---- */

/* Where addr lives on the device's side, and how many bytes of that
 * mapping follow it; NULL for ordinary host memory. */
static void *device_side(const void *addr, size_t *room)
{
    sim_mapping *m = map_at(addr);
    if (!m)
        return NULL;
    size_t off = (size_t)((const char *)addr - m->va);
    *room = m->size - off;
    return (char *)phys[m->phys].dev_view + off;
}

/* A copy may span several mappings (chunks mapped back to back), as a
 * runtime's copy of one range does: copy mapping by mapping. A pointer the
 * sim does not know is ordinary host memory. */
static int sim_copy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    while (n > 0) {
        size_t droom = n, sroom = n;
        void *dd = device_side(d, &droom);
        const void *ss = device_side(s, &sroom);
        size_t piece = n;
        piece = droom < piece ? droom : piece;
        piece = sroom < piece ? sroom : piece;
        memcpy(dd ? dd : d, ss ? ss : s, piece);
        d += piece;
        s += piece;
        n -= piece;
    }
    return SIM_SUCCESS;
}

static int sim_h2d(const ha_backend *be, void *dst, const void *src, size_t n)
{
    (void)be;
    return sim_copy(dst, src, n);
}

static int sim_d2h(const ha_backend *be, void *dst, const void *src, size_t n)
{
    (void)be;
    return sim_copy(dst, src, n);
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
    *total = SIM_VRAM;
    *free_b = SIM_VRAM - used_bytes;
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
    snprintf(e->device_name, sizeof e->device_name, "simulated large-BAR GPU (not a device)");
    snprintf(e->arch, sizeof e->arch, "sim");
    e->device = be->device;
    e->device_count = sim_devices();
    e->vram_bytes = SIM_VRAM;
    e->large_bar_runtime = 1;
    snprintf(e->large_bar_runtime_note, sizeof e->large_bar_runtime_note, "modelled");
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
    .host_alloc_pinned = sim_pinned,
    .host_free_pinned = sim_pinned_free,
    .mem_info = sim_mem_info,
    .vmm = &sim_vmm,
};
