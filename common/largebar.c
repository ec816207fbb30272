#include "largebar.h"

#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_OBJ 4096

/* FREEVA: address space a freed reservation gave back to the model's own
 * pool (PROT_NONE, still mapped), as a runtime keeps its VA space: another
 * mapping in the process cannot take it before the runtime reserves it again. */
typedef enum { FREE, PHYS, MAP, RESERVE, BAR, FREEVA } kind;

typedef struct obj {
    kind k;
    char *va;          /* MAP, RESERVE, BAR: the host's address */
    size_t size;
    int fd;            /* PHYS */
    char *dev;         /* PHYS: the device's private view */
    int refs;          /* PHYS */
    bool host_backed;  /* PHYS: memory of the host, not VRAM */
    bool imported;     /* PHYS: came from lb_import_fd */
    struct obj *range; /* PHYS: the reservation it was last mapped into */
    struct obj *phys;  /* MAP, BAR */
    bool dev_access;   /* MAP */
    int host;          /* MAP: 0 none, 1 read-write, 2 read-only */
    size_t held;       /* RESERVE: released VRAM kept while the range is reserved */
} obj;

static obj objs[MAX_OBJ];
static unsigned long long vram = 16ull << 30;
static size_t granule = LB_GRANULE_DEFAULT;
static unsigned long long used;

void lb_configure(unsigned long long vram_bytes, size_t g)
{
    vram = vram_bytes;
    granule = g;
}

size_t lb_granule(void) { return granule; }

void lb_mem_info(size_t *free_bytes, size_t *total_bytes)
{
    *total_bytes = (size_t)vram;
    *free_bytes = (size_t)(vram - used);
}

/* Gives a free VA range back to the process. */
static void drop_free_range(obj *o)
{
    munmap(o->va, o->size);
    o->k = FREE;
}

static obj *new_obj(kind k)
{
    obj *slot = NULL;
    for (int i = 0; i < MAX_OBJ && !slot; i++)
        if (objs[i].k == FREE)
            slot = &objs[i];
    /* A full table gives up a range of the free VA pool. */
    for (int i = 0; i < MAX_OBJ && !slot; i++)
        if (objs[i].k == FREEVA) {
            drop_free_range(&objs[i]);
            slot = &objs[i];
        }
    if (!slot)
        return NULL;
    memset(slot, 0, sizeof *slot);
    slot->k = k;
    slot->fd = -1;
    return slot;
}

static obj *find(kind k, const void *p)
{
    const char *c = p;
    for (int i = 0; i < MAX_OBJ; i++)
        if (objs[i].k == k && c >= objs[i].va && c < objs[i].va + objs[i].size)
            return &objs[i];
    return NULL;
}

static obj *phys_of(lb_handle h)
{
    obj *o = (obj *)h;
    return o >= objs && o < objs + MAX_OBJ && o->k == PHYS ? o : NULL;
}

/* ---- physical memory ---- */

static obj *phys_new(size_t size, bool host_backed)
{
    if (!host_backed && used + size > vram)
        return NULL;
    obj *ph = new_obj(PHYS);
    if (!ph)
        return NULL;
    ph->fd = memfd_create("largebar-vram", MFD_CLOEXEC);
    if (ph->fd < 0 || ftruncate(ph->fd, (off_t)size) != 0)
        goto fail;
    ph->dev = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, ph->fd, 0);
    if (ph->dev == MAP_FAILED)
        goto fail;
    ph->size = size;
    ph->refs = 1;
    ph->host_backed = host_backed;
    if (!host_backed)
        used += size;
    return ph;
fail:
    if (ph->fd >= 0)
        close(ph->fd);
    ph->k = FREE;
    return NULL;
}

static bool phys_in_use(const obj *ph)
{
    for (int i = 0; i < MAX_OBJ; i++)
        if ((objs[i].k == MAP || objs[i].k == BAR) && objs[i].phys == ph)
            return true;
    return false;
}

/* Frees a physical allocation nobody holds or maps. VRAM last mapped into a
 * range that is still reserved stays counted until that range is freed. */
static void phys_maybe_free(obj *ph)
{
    if (ph->refs > 0 || phys_in_use(ph))
        return;
    munmap(ph->dev, ph->size);
    close(ph->fd);
    if (!ph->host_backed) {
        if (ph->range && ph->range->k == RESERVE)
            ph->range->held += ph->size;
        else
            used -= ph->size;
    }
    ph->k = FREE;
}

/* ---- BAR allocations ---- */

int lb_bar_alloc(void **p, size_t size, bool host_visible)
{
    if (!size)
        return LB_E_INVALID;
    obj *ph = phys_new(size, false);
    if (!ph)
        return LB_E_NOMEM;
    obj *b = new_obj(BAR);
    char *va = b ? mmap(NULL, size, host_visible ? PROT_READ | PROT_WRITE : PROT_NONE, MAP_SHARED, ph->fd, 0)
                 : MAP_FAILED;
    if (va == MAP_FAILED) {
        if (b)
            b->k = FREE;
        ph->refs = 0;
        phys_maybe_free(ph);
        return LB_E_NOMEM;
    }
    b->va = va;
    b->size = size;
    b->phys = ph;
    ph->refs = 0; /* held by the BAR mapping alone */
    *p = va;
    return LB_OK;
}

int lb_bar_free(void *p)
{
    obj *b = find(BAR, p);
    if (!b || b->va != p)
        return LB_E_INVALID;
    munmap(b->va, b->size);
    obj *ph = b->phys;
    b->k = FREE;
    phys_maybe_free(ph);
    return LB_OK;
}

bool lb_bar_find(const void *p, void **start, size_t *size)
{
    obj *b = find(BAR, p);
    if (b) {
        *start = b->va;
        *size = b->size;
    }
    return b != NULL;
}

/* ---- virtual memory management ---- */

/* A range of the model's free VA pool: exactly [at, at + size) when at is
 * given, else any of that size whose start is aligned to a. */
static obj *free_range(char *at, size_t size, size_t a)
{
    for (int i = 0; i < MAX_OBJ; i++) {
        obj *o = &objs[i];
        if (o->k == FREEVA && o->size == size && (at ? o->va == at : (uintptr_t)o->va % a == 0))
            return o;
    }
    return NULL;
}

int lb_reserve(void **va, size_t size, size_t align, void *hint)
{
    if (!size || size % granule || (align && align % granule))
        return LB_E_INVALID;
    size_t a = align > granule ? align : granule;
    obj *r = free_range(hint && (uintptr_t)hint % a == 0 ? hint : NULL, size, a);
    if (r && (!hint || r->va == hint)) {
        r->k = RESERVE; /* the model's own space back: no mmap, no race */
        r->held = 0;
        *va = r->va;
        return LB_OK;
    }
    r = new_obj(RESERVE);
    if (!r)
        return LB_E_NOMEM;
    /* An aligned hint is taken exactly when it is free, as a runtime gives
     * back the address it is asked for (vLLM's re-reserve relies on it). */
    if (hint && (uintptr_t)hint % a == 0) {
        /* The model's own free space in the way goes back to the process. */
        for (int i = 0; i < MAX_OBJ; i++)
            if (objs[i].k == FREEVA && objs[i].va < (char *)hint + size && (char *)hint < objs[i].va + objs[i].size)
                drop_free_range(&objs[i]);
        char *at = mmap(hint, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (at == hint) {
            r->va = at;
            r->size = size;
            *va = at;
            return LB_OK;
        }
        if (at != MAP_FAILED)
            munmap(at, size); /* an old kernel took it as a plain hint */
    }
    /* Over-reserve and trim, so the range is aligned as a runtime aligns it. */
    char *raw = mmap(hint, size + a, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (raw == MAP_FAILED) {
        r->k = FREE;
        return LB_E_NOMEM;
    }
    char *al = (char *)(((uintptr_t)raw + a - 1) / a * a);
    if (al > raw)
        munmap(raw, (size_t)(al - raw));
    size_t tail = (size_t)(raw + size + a - (al + size));
    if (tail)
        munmap(al + size, tail);
    r->va = al;
    r->size = size;
    *va = al;
    return LB_OK;
}

int lb_free_va(void *va, size_t size)
{
    obj *r = find(RESERVE, va);
    if (!r || r->va != va || r->size != size)
        return LB_E_INVALID;
    for (int i = 0; i < MAX_OBJ; i++)
        if (objs[i].k == MAP && objs[i].va >= r->va && objs[i].va < r->va + r->size)
            return LB_E_INVALID; /* still mapped */
    used -= r->held;
    for (int i = 0; i < MAX_OBJ; i++)
        if (objs[i].k == PHYS && objs[i].range == r)
            objs[i].range = NULL; /* the slot may hold another range later */
    /* Kept PROT_NONE in the model's VA pool (see FREEVA). */
    if (mmap(r->va, r->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) == MAP_FAILED) {
        munmap(r->va, r->size);
        r->k = FREE;
        return LB_OK;
    }
    r->k = FREEVA;
    return LB_OK;
}

bool lb_reserve_find(const void *p, void **start, size_t *size)
{
    obj *r = find(RESERVE, p);
    if (r) {
        *start = r->va;
        *size = r->size;
    }
    return r != NULL;
}

int lb_create(lb_handle *h, size_t size, bool host_backed)
{
    if (!size || size % granule)
        return LB_E_INVALID;
    obj *ph = phys_new(size, host_backed);
    if (!ph)
        return LB_E_NOMEM;
    *h = (lb_handle)ph;
    return LB_OK;
}

int lb_release(lb_handle h)
{
    obj *ph = phys_of(h);
    if (!ph || ph->refs <= 0)
        return LB_E_INVALID;
    ph->refs--;
    phys_maybe_free(ph);
    return LB_OK;
}

int lb_retain(lb_handle h)
{
    obj *ph = phys_of(h);
    if (!ph)
        return LB_E_INVALID;
    ph->refs++;
    return LB_OK;
}

bool lb_is_host_backed(lb_handle h)
{
    obj *ph = phys_of(h);
    return ph && ph->host_backed;
}

int lb_export_fd(lb_handle h, int *fd)
{
    obj *ph = phys_of(h);
    if (!ph || ph->refs <= 0)
        return LB_E_INVALID;
    /* A dup of the memory's own fd: what a runtime's dma-buf export is. */
    int d = fcntl(ph->fd, F_DUPFD_CLOEXEC, 0);
    if (d < 0)
        return LB_E_NOMEM;
    *fd = d;
    return LB_OK;
}

int lb_import_fd(int fd, lb_handle *h)
{
    struct stat want;
    if (fd < 0 || fstat(fd, &want) != 0)
        return LB_E_INVALID;
    for (int i = 0; i < MAX_OBJ; i++) {
        struct stat have;
        obj *ph = &objs[i];
        if (ph->k == PHYS && ph->refs > 0 && fstat(ph->fd, &have) == 0 && have.st_ino == want.st_ino &&
            have.st_dev == want.st_dev) {
            ph->refs++;
            ph->imported = true;
            *h = (lb_handle)ph;
            return LB_OK;
        }
    }
    return LB_E_INVALID;
}

bool lb_is_imported(lb_handle h)
{
    obj *ph = phys_of(h);
    return ph && ph->imported;
}

int lb_map(void *va, size_t size, lb_handle h)
{
    obj *ph = phys_of(h), *r = find(RESERVE, va);
    if (!ph || ph->refs <= 0 || !r || size != ph->size || (char *)va + size > r->va + r->size ||
        find(MAP, va) || find(MAP, (char *)va + size - 1))
        return LB_E_INVALID;
    obj *m = new_obj(MAP);
    if (!m)
        return LB_E_NOMEM;
    /* Accessible to nobody yet: the CPU's view stays PROT_NONE. */
    if (mmap(va, size, PROT_NONE, MAP_SHARED | MAP_FIXED, ph->fd, 0) == MAP_FAILED) {
        m->k = FREE;
        return LB_E_NOMEM;
    }
    m->va = va;
    m->size = size;
    m->phys = ph;
    ph->range = r;
    return LB_OK;
}

/* Whether [va, va + size) is whole mapped chunks from a chunk start:
 * ROCm 7.x refuses anything else in SetAccess and Unmap. */
static int whole_chunks(void *va, size_t size)
{
    obj *m = find(MAP, va);
    if (!m)
        return LB_E_NOT_MAPPED;
    if (m->va != va || !size)
        return LB_E_INVALID;
    char *end = (char *)va + size;
    for (char *p = va; p < end; p = m->va + m->size)
        if (!(m = find(MAP, p)) || m->va + m->size > end)
            return m ? LB_E_INVALID : LB_E_NOT_MAPPED;
    return LB_OK;
}

int lb_unmap(void *va, size_t size)
{
    int st = whole_chunks(va, size);
    if (st)
        return st;
    char *end = (char *)va + size;
    for (char *p = va; p < end;) {
        obj *m = find(MAP, p);
        p = m->va + m->size;
        /* Back to a bare reservation; host access goes with the mapping. */
        if (mmap(m->va, m->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0) ==
            MAP_FAILED)
            return LB_E_INVALID;
        obj *ph = m->phys;
        m->k = FREE;
        phys_maybe_free(ph);
    }
    return LB_OK;
}

int lb_grant(void *va, size_t size, int device, int host)
{
    int st = whole_chunks(va, size);
    if (st)
        return st;
    char *end = (char *)va + size;
    for (char *p = va; p < end;) {
        obj *m = find(MAP, p);
        if (device >= 0)
            m->dev_access = device;
        if (host >= 0) {
            int prot = host == 1 ? PROT_READ | PROT_WRITE : host == 2 ? PROT_READ : PROT_NONE;
            if (mprotect(m->va, m->size, prot) != 0)
                return LB_E_INVALID;
            m->host = host;
        }
        p = m->va + m->size;
    }
    return LB_OK;
}

bool lb_chunk_find(const void *p, void **start, size_t *size, lb_handle *h, bool *device, bool *host)
{
    obj *m = find(MAP, p);
    if (!m)
        return false;
    *start = m->va;
    *size = m->size;
    *h = (lb_handle)m->phys;
    *device = m->dev_access;
    *host = m->host != 0;
    return true;
}

/* ---- the device's copies ---- */

/* The device's address for p, and how many bytes from p lie in the same
 * object (n when p is host memory). */
static char *device_view(const char *p, size_t n, size_t *len, int *err)
{
    obj *o = find(MAP, p);
    if (!o)
        o = find(BAR, p);
    if (!o) {
        /* reserved but not mapped: nothing is there for the device either */
        if (find(RESERVE, p))
            *err = LB_E_NOT_MAPPED;
        *len = n;
        return (char *)p;
    }
    if (o->k == MAP && !o->dev_access)
        *err = LB_E_NO_ACCESS; /* the copy engine faults on it */
    size_t left = (size_t)(o->va + o->size - p);
    *len = left < n ? left : n;
    return o->phys->dev + (p - o->va);
}

int lb_copy(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    while (n) {
        size_t kd, ks;
        int err = LB_OK;
        char *vd = device_view(d, n, &kd, &err);
        const char *vs = device_view(s, n, &ks, &err);
        if (err)
            return err;
        size_t k = kd < ks ? kd : ks;
        memcpy(vd, vs, k);
        d += k;
        s += k;
        n -= k;
    }
    return LB_OK;
}
