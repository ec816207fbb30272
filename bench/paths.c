#include "paths.h"

#include <string.h>

#include "hostread.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86 1
#else
#define HAVE_X86 0
#endif

/* Keeps the compiler from merging or dropping loop iterations. */
#define BARRIER() __asm__ __volatile__("" ::: "memory")

static void note_status(bench_ctx *c, int st)
{
    if (st && !c->status)
        c->status = st;
}

void path_empty(bench_ctx *c, size_t n)
{
    (void)c;
    for (size_t i = 0; i < n; i++)
        BARRIER();
}

/* Each load's address depends on the value the previous one returned (an
 * AND with a zero the compiler cannot see), so loads cannot overlap: the
 * figure is the latency of one isolated read, as a lone .item() sees it,
 * not the throughput of many. Unrolled so the loop costs 1/UNROLL per read. */
#define UNROLL 64
#define CHAIN(p, v, zero) (v = *(const volatile uint32_t *)((const char *)(p) + ((v) & (zero))))

void path_deref(bench_ctx *c, size_t n)
{
    const void *p = c->a->ptr;
    uint32_t v = 0, zero = 0;
    __asm__("" : "+r"(zero));
    uint64_t s = 0;
    for (size_t i = 0; i < n; i += UNROLL) {
        for (int k = 0; k < UNROLL; k++)
            CHAIN(p, v, zero);
        s += v;
    }
    c->sink = s;
}

size_t bench_unroll(bench_fn f)
{
    return f == path_deref || f == path_deref_nt ? UNROLL : 1;
}

bool bench_have_flush(void) { return HAVE_X86; }

bool bench_have_nt(void)
{
#if HAVE_X86
    return __builtin_cpu_supports("sse4.1");
#else
    return false;
#endif
}

/* The line is flushed before each load, so the load goes to memory: the
 * figure for host memory that is comparable to an uncached read. */
void path_deref_cold(bench_ctx *c, size_t n)
{
#if HAVE_X86
    const volatile uint32_t *p = c->a->ptr;
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        _mm_clflush((const void *)p);
        _mm_mfence();
        s += *p;
    }
    c->sink = s;
#else
    (void)c;
    (void)n;
#endif
}

#if HAVE_X86
__attribute__((target("sse4.1"))) static uint64_t nt_load16(const void *p)
{
    __m128i v = _mm_stream_load_si128((__m128i *)(uintptr_t)p);
    return (uint64_t)_mm_cvtsi128_si64(v);
}
#endif

/* MOVNTDQA: a streaming load, the way to read write-combining memory such
 * as a BAR fast; on ordinary write-back memory it behaves as a plain load.
 * Chained and unrolled like path_deref. */
void path_deref_nt(bench_ctx *c, size_t n)
{
#if HAVE_X86
    const char *p = c->a->ptr;
    uint64_t v = 0, zero = 0, s = 0;
    __asm__("" : "+r"(zero));
    for (size_t i = 0; i < n; i += UNROLL) {
        for (int k = 0; k < UNROLL; k++)
            v = nt_load16(p + (v & zero));
        s += v;
    }
    c->sink = s;
#else
    (void)c;
    (void)n;
#endif
}

/* The read under the fault guard, handlers installed per access unless a
 * guard session is open around the loop. */
void path_guarded(bench_ctx *c, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        if (ha_guarded_load32(c->a->ptr, &v, NULL) != HA_HR_OK)
            note_status(c, -1);
        s += v;
    }
    c->sink = s;
}

void path_disc(bench_ctx *c, size_t n)
{
    uint64_t s = 0;
    unsigned char out[HA_RAW_MAX];
    for (size_t i = 0; i < n; i++) {
        int st = c->q->raw(c->be, c->q, c->a, out);
        s += ha_raw_same_class(c->q, c->a, st, out, &c->ref);
    }
    c->sink = s;
}

/* Ask, then read (or, for a safe read, take the value it returned); fall
 * back to the runtime copy when the answer says unreadable. */
void path_hardened(bench_ctx *c, size_t n)
{
    const volatile uint32_t *p = c->a->ptr;
    const bool reads_value = c->q->flags & HA_QF_READS_VALUE;
    uint64_t s = 0;
    unsigned char out[HA_RAW_MAX];
    for (size_t i = 0; i < n; i++) {
        int st = c->q->raw(c->be, c->q, c->a, out);
        if (ha_raw_same_class(c->q, c->a, st, out, &c->ref)) {
            uint32_t v;
            if (reads_value)
                memcpy(&v, out, sizeof v);
            else
                v = *p;
            s += v;
        } else {
            c->fallbacks++;
            note_status(c, c->be->ops->copy_d2h(c->be, c->pageable, c->a->ptr, 4));
        }
    }
    c->sink = s;
}

void path_copy_pageable(bench_ctx *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        note_status(c, c->be->ops->copy_d2h(c->be, c->pageable, c->a->ptr, 4));
}

void path_copy_pinned(bench_ctx *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        note_status(c, c->be->ops->copy_d2h(c->be, c->pinned, c->a->ptr, 4));
}

void path_copy_async(bench_ctx *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        note_status(c, c->be->ops->copy_d2h_async(c->be, c->pinned, c->a->ptr, 4));
}

/* A contained fault: what "try the read, fall back" pays when it must. */
void path_fault(bench_ctx *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        if (ha_guarded_load32(c->bad->ptr, &v, NULL) == HA_HR_OK)
            note_status(c, -1); /* it should have faulted */
    }
}

void path_fault_fallback(bench_ctx *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t v;
        if (ha_guarded_load32(c->bad->ptr, &v, NULL) != HA_HR_OK)
            note_status(c, c->be->ops->copy_d2h(c->be, c->pageable, c->bad->ptr, 4));
    }
}

void path_sweep_copy(bench_ctx *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        note_status(c, c->be->ops->copy_d2h(c->be, c->pageable, c->a->ptr, c->n));
}

/* Host read of c->n bytes: 8-byte loads (4-byte for the 4-byte size). */
void path_sweep_read(bench_ctx *c, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        if (c->n < 8) {
            s += *(const volatile uint32_t *)c->a->ptr;
            continue;
        }
        const volatile uint64_t *p = c->a->ptr;
        for (size_t k = 0; k < c->n / 8; k++)
            s += p[k];
    }
    c->sink = s;
}

void path_sweep_read_nt(bench_ctx *c, size_t n)
{
#if HAVE_X86
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        const char *p = c->a->ptr;
        size_t words = c->n < 16 ? 1 : c->n / 16;
        for (size_t k = 0; k < words; k++)
            s += nt_load16(p + 16 * k);
        BARRIER();
    }
    c->sink = s;
#else
    (void)c;
    (void)n;
#endif
}
