/* What the GPU backends share: binding a runtime's entry
 * points from its table, the device checks every open makes, and an
 * allocation kind's account of itself. Each runtime's calls, flags and
 * quirks stay in its own file (backend_cuda.c, backend_hip.c); only the
 * steps that read alike line for line live here, worded once. The data
 * movement, stream and event wrappers mirror each other in shape but stay
 * apart on purpose: each is one typed runtime call (cuMemcpyDtoH on a
 * CUdeviceptr, hipMemcpy with its direction), and a shared table would
 * carry them through untyped pointers and casts, hiding the differences
 * those files exist to show. */
#ifndef HA_BACKENDKIT_H
#define HA_BACKENDKIT_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu.h"

/* One entry point of a runtime: its symbol, the variable that holds it
 * (a function pointer, written whole with memcpy), and whether the backend
 * cannot open without it. */
typedef struct ha_entry {
    const char *name;
    void *slot;
    bool required;
} ha_entry;

/* How a runtime is named in the lines open writes. */
typedef struct ha_runtime_words {
    const char *backend;   /* "cuda" */
    const char *lib;       /* "libcuda.so.1" */
    const char *not_it;    /* after "this is not ": "the NVIDIA driver's library; reinstall the driver" */
    const char *component; /* "the driver", "the runtime": what is older, or broken */
    const char *no_gpu;    /* "no device", "no AMD GPU": said when none is visible */
} ha_runtime_words;

/* Every entry of e[0..n) looked up in lib. HA_EXIT_OK; or
 * HA_EXIT_NO_RUNTIME with why ("cuda: libcuda.so.1 lacks cuInit: the
 * driver is older than this tool needs") when a required one is missing or
 * any found is not code (data under a function's name). The caller closes
 * lib on failure. */
int ha_bind_entries(void *lib, const ha_entry *e, size_t n, const ha_runtime_words *w, char *why, size_t wn);

/* The device count call's answer (st, its status name, count) against the
 * device asked for: HA_EXIT_OK, or the exit status with why: a count no
 * machine holds (the runtime is broken), none visible, or no such device. */
int ha_check_devices(const ha_runtime_words *w, const char *call, int st, const char *st_name, int count, int device,
                     char *why, size_t wn);

/* An allocation kind's result: a->detail is "CALL: STATUS" (the call as fmt
 * writes it), a->ptr p, a->size size. Returns st. */
int ha_kind_result(ha_alloc *a, void *p, size_t size, int st, const char *st_name, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* A release that failed is logged, never fatal: "call: status". */
void ha_warn_failed(const char *call, int st, const char *st_name);

#endif
