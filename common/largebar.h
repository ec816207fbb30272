/* The one model of a large-BAR platform in this project: how device memory
 * looks to a host process when the CPU can see all of VRAM. The sim backend
 * and the stand-in ROCm runtime (standin/) both run on it; what a runtime
 * release *answers* about this memory lives in those two, what the memory
 * *is* lives here.
 *
 *   - VRAM is memfd memory. The device's side of it (copies) goes through a
 *     private read-write view, never through the host's address.
 *   - A BAR allocation (hipMalloc on a large-BAR GPU) is mapped for the CPU
 *     at its address: loads and stores work. A hidden one (no large BAR) is
 *     mapped PROT_NONE: a load faults.
 *   - A VMM range is reserved PROT_NONE. A mapped chunk stays PROT_NONE for
 *     the CPU until it is granted to the host (ROCr maps the buffer for the
 *     CPU agent only then); device access is granted separately. An unmap
 *     takes the host mapping with it. Ranges follow ROCm 7.x: a grant or an
 *     unmap covers whole chunks from a chunk's first byte; a partial or
 *     mid-chunk range is refused. A grant changes only the agents it
 *     names: a later device-only grant does not revoke host access.
 *   - VRAM released while its range stays reserved is not given back until
 *     the range is freed (ROCm's behaviour, and why vLLM frees and
 *     re-reserves on sleep): lb_mem_info counts it as used until then.
 *
 * Errors are LB_E_*; every call is checked by its caller. */
#ifndef HA_LARGEBAR_H
#define HA_LARGEBAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum {
    LB_OK = 0,
    LB_E_INVALID = 1,   /* a bad argument, or an address the model does not hold */
    LB_E_NOMEM = 2,     /* VRAM or the model's tables are full */
    LB_E_NOT_MAPPED = 3,
    LB_E_NO_ACCESS = 4, /* a copy touched a chunk the device has no access to */
};

#define LB_GRANULE_DEFAULT (64u * 1024u)

typedef uintptr_t lb_handle; /* a physical allocation; 0 is none */

/* Total VRAM and allocation granularity of the model (default 16 GiB and
 * 64 KiB); set before the first allocation. */
void lb_configure(unsigned long long vram_bytes, size_t granule);
size_t lb_granule(void);
void lb_mem_info(size_t *free_bytes, size_t *total_bytes);

/* A BAR allocation: visible (host-mapped, large BAR) or hidden. */
int lb_bar_alloc(void **p, size_t size, bool host_visible);
int lb_bar_free(void *p);
/* The BAR allocation holding p: its start and size; false if none. */
bool lb_bar_find(const void *p, void **start, size_t *size);

/* Virtual memory management. */
int lb_reserve(void **va, size_t size, size_t align, void *hint);
int lb_free_va(void *va, size_t size);
/* The reservation holding p: its start and size; false if none. */
bool lb_reserve_find(const void *p, void **start, size_t *size);
int lb_create(lb_handle *h, size_t size, bool host_backed);
int lb_release(lb_handle h);
int lb_retain(lb_handle h); /* one more reference on a live handle */
bool lb_is_host_backed(lb_handle h);
/* A shareable handle as a POSIX file descriptor (the caller closes it),
 * and the handle it names, imported: the same physical memory under one
 * more reference, marked imported (some releases treat such a handle
 * differently). The fd names the handle for as long as the handle lives. */
int lb_export_fd(lb_handle h, int *fd);
int lb_import_fd(int fd, lb_handle *h);
bool lb_is_imported(lb_handle h);
int lb_map(void *va, size_t size, lb_handle h);
int lb_unmap(void *va, size_t size);
/* Every chunk in [va, va + size): device access on or off, host mapping
 * read-write (1), read-only (2) or none (0); -1 leaves that agent alone. */
int lb_grant(void *va, size_t size, int device, int host);
/* The mapped chunk holding p: start, size, handle and its access. */
bool lb_chunk_find(const void *p, void **start, size_t *size, lb_handle *h, bool *device, bool *host);

/* A copy as the device does it: through the private view of VRAM, chunk by
 * chunk; host memory is copied as it is. */
int lb_copy(void *dst, const void *src, size_t n);

#endif
