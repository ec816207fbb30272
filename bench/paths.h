/* The operations the bench times. Each runs n times in a tight loop, so
 * the clock is read once per batch, not per operation. */
#ifndef HA_BENCH_PATHS_H
#define HA_BENCH_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classify.h"
#include "gpu.h"

typedef struct bench_ctx {
    const ha_backend *be;
    const ha_alloc *a;       /* the memory read or copied */
    const ha_alloc *bad;     /* an unreadable allocation, for the fault path */
    const ha_query *q;       /* the discriminator, for disc and hardened */
    ha_raw_ref ref;          /* what q answers on readable memory */
    void *pageable, *pinned; /* copy destinations (1 MiB each: the largest sweep size) */
    size_t n;                /* bytes, for the size sweep */
    size_t cursor;           /* the next line path_deref_cold reads */
    int status;              /* first failing status seen in a loop, 0 if none */
    unsigned fallbacks;      /* hardened path: reads that fell back to a copy */
    volatile uint64_t sink;
} bench_ctx;

typedef void (*bench_fn)(bench_ctx *c, size_t n);

void path_empty(bench_ctx *c, size_t n);
void path_canary(bench_ctx *c, size_t n);
void path_syscall(bench_ctx *c, size_t n);
void path_deref(bench_ctx *c, size_t n);
void path_deref_cold(bench_ctx *c, size_t n);
void path_deref_nt(bench_ctx *c, size_t n);
void path_guarded(bench_ctx *c, size_t n);
void path_disc(bench_ctx *c, size_t n);
void path_hardened(bench_ctx *c, size_t n);
void path_copy_pageable(bench_ctx *c, size_t n);
void path_copy_pinned(bench_ctx *c, size_t n);
void path_copy_async(bench_ctx *c, size_t n);
void path_fault(bench_ctx *c, size_t n);
void path_fault_fallback(bench_ctx *c, size_t n);
void path_sweep_copy(bench_ctx *c, size_t n);
void path_sweep_read(bench_ctx *c, size_t n);
void path_sweep_read_nt(bench_ctx *c, size_t n);

/* Operations per loop iteration of a path (the harness's share divides by it). */
size_t bench_unroll(bench_fn f);

/* Whether this CPU can flush a line and issue non-temporal loads. */
bool bench_have_flush(void);
bool bench_have_nt(void);

#endif
