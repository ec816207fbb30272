#include "paths.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

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

/* A system call that does no work: the syscall path's cost, which the
 * query, guarded and fault families share. On a VM it moves with the host
 * core's state as they do (H200: 93 against 116 ns), where the canary
 * does not. */
void path_syscall(bench_ctx *c, size_t n)
{
    long s = 0;
    for (size_t i = 0; i < n; i++)
        s += syscall(SYS_getppid);
    c->sink = (uint64_t)s;
}

/* A chain of dependent multiply-adds: each waits for the one before, so
 * its time is a fixed number of core cycles whatever the front end, code
 * alignment or memory do; its figure moves only when the core's clock
 * does. The empty loop is no canary: its one-cycle body runs at the mercy
 * of loop alignment, which moves between builds. */
void path_canary(bench_ctx *c, size_t n)
{
    uint64_t x = c->sink | 1;
    for (size_t i = 0; i < n; i++)
        x = x * 0x9e3779b97f4a7c15ull + 1;
    c->sink = x;
}

/* Each load's address depends on the value the previous one returned (an
 * AND with a zero the compiler cannot see), so loads cannot overlap: the
 * figure is the latency of one isolated read, as a lone .item() sees it,
 * not the throughput of many. Unrolled so the loop costs 1/UNROLL per read. */
#define UNROLL 64
#define GUARD_UNROLL 8 /* path_guarded's */
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
    return f == path_deref || f == path_deref_nt ? UNROLL : f == path_guarded ? GUARD_UNROLL : 1;
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
 * figure for host memory that is comparable to an uncached read. Each load
 * takes the next of up to 512 lines, each on its own page, so the figure
 * is that of the allocation's pages together, not of wherever one page
 * happened to land (which moves it by tens of % from run to run). */
#define COLD_STRIDE (4096 + 64)
#define COLD_LINES 512

void path_deref_cold(bench_ctx *c, size_t n)
{
#if HAVE_X86
    const char *base = c->a->ptr;
    size_t lines = c->a->size / COLD_STRIDE;
    lines = lines < 1 ? 1 : lines > COLD_LINES ? COLD_LINES : lines;
    size_t k = c->cursor;
    uint64_t s = 0;
    for (size_t i = 0; i < n; i++) {
        const volatile uint32_t *p = (const volatile uint32_t *)(base + (k % lines) * COLD_STRIDE % c->a->size);
        k++;
        _mm_clflush((const void *)p);
        _mm_mfence();
        s += *p;
    }
    c->cursor = k;
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
 * guard session is open around the loop. Unrolled: with a session a read
 * costs a few ns, and one loop test per read would be a visible share. */
void path_guarded(bench_ctx *c, size_t n)
{
    uint64_t s = 0;
    for (size_t i = 0; i < n; i += GUARD_UNROLL)
        for (int k = 0; k < GUARD_UNROLL; k++) {
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

/* Host read of c->n bytes, timed as the headline's fast path is: each
 * read's address depends on the words the previous read returned, so
 * reads do not overlap and the 4-byte point is the same figure as the
 * "fast" row. Within one read the 8-byte loads are independent. */
void path_sweep_read(bench_ctx *c, size_t n)
{
    uint64_t v = 0, zero = 0;
    __asm__("" : "+r"(zero));
    for (size_t i = 0; i < n; i++) {
        const char *p = (const char *)c->a->ptr + (v & zero);
        if (c->n < 8) {
            v = *(const volatile uint32_t *)p;
            continue;
        }
        uint64_t s = 0;
        for (size_t k = 0; k < c->n / 8; k++)
            s += ((const volatile uint64_t *)p)[k];
        v = s;
    }
    c->sink = v;
}

/* The same with streaming loads, chained across reads like path_sweep_read. */
void path_sweep_read_nt(bench_ctx *c, size_t n)
{
#if HAVE_X86
    uint64_t v = 0, zero = 0;
    __asm__("" : "+r"(zero));
    for (size_t i = 0; i < n; i++) {
        const char *p = (const char *)c->a->ptr + (v & zero);
        size_t words = c->n < 16 ? 1 : c->n / 16;
        uint64_t s = 0;
        for (size_t k = 0; k < words; k++)
            s += nt_load16(p + 16 * k);
        v = s;
    }
    c->sink = v;
#else
    (void)c;
    (void)n;
#endif
}
