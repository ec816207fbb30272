/* The pool's paths that pool_check does not take by default, on the sim
 * backend: vLLM's ROCm re-reserve on sleep (and its retries), the
 * alignment fallback, chunking of an odd size, waking one tag at a time,
 * the drain before sleep, discard, the tag queries, and no limit on the
 * number of allocations. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "hostread.h"
#include "refpool.h"

static ha_backend be;

static int setup(void **s)
{
    (void)s;
    char msg[256];
    return ha_backend_open("sim", 0, &be, msg, sizeof msg);
}

static int teardown(void **s)
{
    (void)s;
    ha_backend_close(&be);
    return 0;
}

static refpool *pool(bool re_reserve)
{
    refpool_config cfg = refpool_default_config(&be);
    cfg.chunk_size = 128 * 1024; /* two sim granules */
    cfg.re_reserve = re_reserve;
    refpool *p = NULL;
    char why[300];
    assert_int_equal(refpool_create(&be, &cfg, &p, why, sizeof why), REFPOOL_OK);
    return p;
}

static void re_reserve_keeps_the_address_and_frees_the_memory(void **s)
{
    (void)s;
    refpool *p = pool(true);
    void *w;
    size_t size = 300 * 1024 + 7; /* 5 granules: 3 chunks, the last short */
    assert_int_equal(refpool_alloc(p, size, "weights", &w), REFPOOL_OK);
    unsigned char *pat = malloc(size), *got = malloc(size);
    for (size_t i = 0; i < size; i++)
        pat[i] = (unsigned char)(i * 7);
    assert_int_equal(be.ops->copy_h2d(&be, w, pat, size), 0);
    size_t f0, f1, t;
    be.ops->mem_info(&be, &f0, &t);
    const char *tags[] = {"weights"};
    assert_int_equal(refpool_sleep(p, tags, 1), REFPOOL_OK);
    be.ops->mem_info(&be, &f1, &t);
    assert_int_equal(f1 - f0, 320 * 1024);
    uint32_t v;
    assert_int_equal(ha_guarded_load32(w, &v, NULL), HA_HR_SIGSEGV); /* released, still reserved */
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK);
    assert_int_equal(be.ops->copy_d2h(&be, got, w, size), 0);
    assert_memory_equal(got, pat, size);
    assert_int_equal(ha_guarded_load32((char *)w + 256 * 1024, &v, NULL), HA_HR_OK); /* third chunk */
    free(pat);
    free(got);
    refpool_destroy(p);
}

static void tags_wake_one_at_a_time(void **s)
{
    (void)s;
    refpool *p = pool(false);
    void *a, *b;
    assert_int_equal(refpool_alloc(p, 4096, "a", &a), REFPOOL_OK);
    assert_int_equal(refpool_alloc(p, 4096, "b", &b), REFPOOL_OK);
    assert_int_equal(refpool_sleep(p, NULL, 0), REFPOOL_OK);
    const char *ta[] = {"a"};
    assert_int_equal(refpool_wake(p, ta, 1), REFPOOL_OK);
    assert_int_equal(refpool_mapped_bytes(p), 64 * 1024);
    assert_int_equal(refpool_wake(p, ta, 1), REFPOOL_E_STATE); /* a is awake */
    assert_int_equal(refpool_sleep(p, NULL, 0), REFPOOL_E_STATE); /* b still asleep */
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK);      /* the rest */
    assert_int_equal(refpool_mapped_bytes(p), 128 * 1024);
    assert_int_equal(refpool_free(p, a), REFPOOL_OK);
    assert_int_equal(refpool_free(p, a), REFPOOL_E_NOT_FOUND);
    assert_string_equal(refpool_strerror(REFPOOL_E_NOT_FOUND), "not an allocation of this pool");
    refpool_destroy(p);
}

/* A runtime as the tests need it, around the model: reserves at a given
 * address that get another range (the address held while they ask), and
 * aligned reserves refused. */
static const ha_vmm_ops *real_vmm;
static ha_vmm_ops wrapped_vmm;
static ha_backend_ops wrapped_ops;
static const ha_backend_ops *real_ops;
static int elsewhere_left, aligned_refusals_left;
/* The ranges the wrapped reserve handed out somewhere other than asked. */
static void *given_elsewhere[8];
static int ngiven_elsewhere;

static int wrapped_reserve(const ha_backend *b, void **va, size_t size, size_t align, void *hint)
{
    if (align && aligned_refusals_left > 0) {
        aligned_refusals_left--;
        return HA_ST_UNAVAILABLE;
    }
    void *blocker = NULL;
    if (hint && elsewhere_left > 0) {
        elsewhere_left--;
        real_vmm->reserve(b, &blocker, size, 64 * 1024, hint);
    }
    int st = real_vmm->reserve(b, va, size, align, hint);
    if (st == HA_ST_OK && hint && *va != hint && ngiven_elsewhere < 8)
        given_elsewhere[ngiven_elsewhere++] = *va;
    if (blocker)
        real_vmm->free_va(b, blocker, size);
    return st;
}

static void wrap_runtime(int elsewhere, int aligned_refusals)
{
    real_ops = be.ops;
    real_vmm = be.ops->vmm;
    wrapped_vmm = *real_vmm;
    wrapped_vmm.reserve = wrapped_reserve;
    wrapped_ops = *be.ops;
    wrapped_ops.vmm = &wrapped_vmm;
    be.ops = &wrapped_ops;
    elsewhere_left = elsewhere;
    aligned_refusals_left = aligned_refusals;
    ngiven_elsewhere = 0;
}

static void unwrap_runtime(void) { be.ops = real_ops; }

/* Whether [at, at + size) is free: a reserve there gets exactly it. */
static bool range_free(void *at, size_t size)
{
    void *got = NULL;
    if (be.ops->vmm->reserve(&be, &got, size, 64 * 1024, at) != HA_ST_OK)
        return false;
    be.ops->vmm->free_va(&be, got, size);
    return got == at;
}

/* Address ranges the wrapped runtime holds reserved, and a create that
 * fails: an allocation that cannot get its memory gives its range back. */
static long ranges_held;
static int wrapped_reserve_counted(const ha_backend *b, void **va, size_t size, size_t align, void *hint)
{
    int st = real_vmm->reserve(b, va, size, align, hint);
    ranges_held += st == HA_ST_OK;
    return st;
}
static int wrapped_free_counted(const ha_backend *b, void *va, size_t size)
{
    int st = real_vmm->free_va(b, va, size);
    ranges_held -= st == HA_ST_OK;
    return st;
}
static int wrapped_create_fails(const ha_backend *b, ha_vmm_handle *h, size_t size, ha_loc backing, bool posix_fd)
{
    (void)b, (void)h, (void)size, (void)backing, (void)posix_fd;
    return 2; /* the runtime is out of memory */
}

static void a_failed_allocation_gives_its_address_range_back(void **s)
{
    (void)s;
    refpool *p = pool(false);
    wrap_runtime(0, 0);
    wrapped_vmm.reserve = wrapped_reserve_counted;
    wrapped_vmm.free_va = wrapped_free_counted;
    wrapped_vmm.create = wrapped_create_fails;
    ranges_held = 0;
    void *w = (void *)1;
    assert_int_equal(refpool_alloc(p, 4096, "weights", &w), REFPOOL_E_RUNTIME);
    assert_null(w);
    assert_int_equal(ranges_held, 0);
    unwrap_runtime();
    refpool_destroy(p);
}

static void re_reserve_takes_the_same_range_back_when_first_given_another(void **s)
{
    (void)s;
    refpool *p = pool(true);
    void *w;
    assert_int_equal(refpool_alloc(p, 4096, "weights", &w), REFPOOL_OK);
    assert_int_equal(be.ops->copy_h2d(&be, w, "abcd", 4), 0);
    wrap_runtime(1, 0);
    const char *tags[] = {"weights"};
    assert_int_equal(refpool_sleep(p, tags, 1), REFPOOL_OK);
    assert_int_equal(elsewhere_left, 0); /* the first try was given another range */
    assert_false(range_free(w, refpool_granularity(p))); /* its own range is held again */
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK);
    char got[4];
    assert_int_equal(be.ops->copy_d2h(&be, got, w, 4), 0);
    assert_memory_equal(got, "abcd", 4);
    refpool_destroy(p);
    unwrap_runtime();
}

static void re_reserve_gives_up_and_the_wake_says_so(void **s)
{
    (void)s;
    refpool *p = pool(true);
    void *w;
    assert_int_equal(refpool_alloc(p, 4096, "weights", &w), REFPOOL_OK);
    wrap_runtime(1000, 0);
    assert_int_equal(refpool_sleep(p, NULL, 0), REFPOOL_E_RUNTIME);
    unwrap_runtime();
    assert_true(range_free(w, refpool_granularity(p))); /* its range is lost, not held */
    /* every range it was given elsewhere went back: none leaked */
    assert_true(ngiven_elsewhere > 0);
    for (int i = 0; i < ngiven_elsewhere; i++)
        assert_true(range_free(given_elsewhere[i], refpool_granularity(p)));
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_E_RUNTIME);
    assert_non_null(strstr(refpool_last_error(p), "could not be taken back"));
    assert_int_equal(refpool_free(p, w), REFPOOL_OK); /* no second free of the lost range */
    refpool_destroy(p);
}

/* The order of the calls that matter to a failed restore. */
static char order[256];
static int (*real_enqueue)(const ha_backend *, void *, const void *, size_t);
static int (*real_sync)(const ha_backend *);
static int (*real_unmap)(const ha_backend *, void *, size_t);
static void said(char c)
{
    size_t l = strlen(order);
    if (l < sizeof order - 1) {
        order[l] = c;
        order[l + 1] = 0;
    }
}
static int logged_enqueue(const ha_backend *b, void *d, const void *src, size_t n)
{
    said('e');
    return real_enqueue(b, d, src, n);
}
static int logged_sync(const ha_backend *b)
{
    said('s');
    return real_sync(b);
}
static int logged_unmap(const ha_backend *b, void *va, size_t n)
{
    said('u');
    return real_unmap(b, va, n);
}

/* A wake that fails after it enqueued restores waits for them before it
 * unmaps: no copy may land in memory that is gone. */
static void a_failed_restore_waits_for_its_copies_before_it_unmaps(void **s)
{
    (void)s;
    refpool *p = pool(false);
    void *w;
    assert_int_equal(refpool_alloc(p, 300 * 1024, "weights", &w), REFPOOL_OK); /* 3 chunks */
    const char *tags[] = {"weights"};
    assert_int_equal(refpool_sleep(p, tags, 1), REFPOOL_OK);
    wrap_runtime(0, 0);
    real_enqueue = wrapped_ops.copy_h2d_enqueue;
    real_sync = wrapped_ops.stream_sync;
    real_unmap = wrapped_vmm.unmap;
    wrapped_ops.copy_h2d_enqueue = logged_enqueue;
    wrapped_ops.stream_sync = logged_sync;
    wrapped_vmm.unmap = logged_unmap;
    order[0] = 0;
    refpool_inject_failure(p, REFPOOL_INJECT_CREATE, 1); /* the second chunk's create */
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_E_RUNTIME);
    unwrap_runtime();
    const char *last_e = strrchr(order, 'e'), *first_u = strchr(order, 'u');
    assert_non_null(last_e);
    assert_non_null(first_u);
    const char *sync = strchr(last_e, 's');
    if (!sync || sync > first_u)
        fail_msg("calls in order (e enqueue, s sync, u unmap): %s", order);
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK);
    refpool_destroy(p);
}

static void an_aligned_reserve_refused_falls_back_to_no_alignment(void **s)
{
    (void)s;
    refpool *p = pool(false);
    wrap_runtime(0, 1);
    void *w;
    assert_int_equal(refpool_alloc(p, 4096, "weights", &w), REFPOOL_OK);
    assert_non_null(w);
    assert_int_equal(aligned_refusals_left, 0); /* refused once, then reserved without alignment */
    refpool_destroy(p);
    unwrap_runtime();
}

static int syncs, sync_status;
static int counting_sync(const ha_backend *b)
{
    (void)b;
    syncs++;
    return sync_status;
}

static void sleep_waits_for_the_device_first(void **s)
{
    (void)s;
    ha_backend_ops ops = *be.ops;
    const ha_backend_ops *real = be.ops;
    ops.synchronize = counting_sync;
    be.ops = &ops;
    refpool *p = pool(false);
    void *w;
    assert_int_equal(refpool_alloc(p, 4096, "weights", &w), REFPOOL_OK);
    syncs = 0;
    sync_status = HA_ST_UNAVAILABLE; /* the device cannot be waited for: nothing is released */
    assert_int_equal(refpool_sleep(p, NULL, 0), REFPOOL_E_RUNTIME);
    assert_int_equal(syncs, 1);
    assert_int_equal(refpool_mapped_bytes(p), 64 * 1024);
    sync_status = HA_ST_OK;
    assert_int_equal(refpool_sleep(p, NULL, 0), REFPOOL_OK);
    assert_int_equal(syncs, 2);
    refpool_destroy(p);
    be.ops = real;
}

static void discard_drops_the_backup_and_tags_can_be_asked_about(void **s)
{
    (void)s;
    refpool *p = pool(false);
    void *w, *k;
    assert_int_equal(refpool_alloc(p, 100000, "weights", &w), REFPOOL_OK);
    assert_int_equal(refpool_alloc(p, 4096, "kv", &k), REFPOOL_OK);
    assert_int_equal(be.ops->copy_h2d(&be, w, "abcd", 4), 0);
    const char *names[4];
    assert_int_equal(refpool_tags(p, names, 4), 2);
    refpool_tag_info ti;
    assert_int_equal(refpool_tag(p, "weights", &ti), REFPOOL_OK);
    assert_int_equal(ti.allocations, 1);
    assert_int_equal(ti.asleep, 0);
    assert_int_equal(ti.bytes, 128 * 1024);
    assert_int_equal(refpool_tag(p, "nope", &ti), REFPOOL_E_UNKNOWN_TAG);
    const char *tw[] = {"weights"}, *tn[] = {"nope"};
    assert_int_equal(refpool_discard(p, tw, 1), REFPOOL_E_STATE); /* awake */
    assert_int_equal(refpool_sleep(p, tw, 1), REFPOOL_OK);
    assert_int_equal(refpool_tag(p, "weights", &ti), REFPOOL_OK);
    assert_int_equal(ti.asleep, 1);
    assert_int_equal(ti.offloaded_bytes, 100000);
    assert_int_equal(refpool_discard(p, tn, 1), REFPOOL_E_UNKNOWN_TAG);
    assert_int_equal(refpool_discard(p, tw, 0), REFPOOL_E_INVALID);
    assert_int_equal(refpool_discard(p, tw, 1), REFPOOL_OK);
    assert_int_equal(refpool_tag(p, "weights", &ti), REFPOOL_OK);
    assert_int_equal(ti.offloaded_bytes, 0);
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK);
    char got[4];
    assert_int_equal(be.ops->copy_d2h(&be, got, w, 4), 0);
    assert_memory_not_equal(got, "abcd", 4); /* fresh memory, not the old contents */
    refpool_destroy(p);
}

static void more_allocations_than_any_fixed_table_sleep_and_wake(void **s)
{
    (void)s;
    refpool *p = pool(false);
    enum { N = 1100 };
    static void *ptrs[N];
    for (int i = 0; i < N; i++)
        assert_int_equal(refpool_alloc(p, 4096, "many", &ptrs[i]), REFPOOL_OK);
    assert_int_equal(be.ops->copy_h2d(&be, ptrs[N - 1], "last", 4), 0);
    const char *t[] = {"many"};
    assert_int_equal(refpool_sleep(p, t, 1), REFPOOL_OK);
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK);
    char got[4];
    assert_int_equal(be.ops->copy_d2h(&be, got, ptrs[N - 1], 4), 0);
    assert_memory_equal(got, "last", 4);
    assert_int_equal(refpool_mapped_bytes(p), (size_t)N * 64 * 1024);
    refpool_destroy(p);
}

/* ---- sleep: each chunk released once its copy is done, while the next runs ---- */

static int (*real_d2h_enqueue)(const ha_backend *, void *, const void *, size_t);
static int (*real_mark_wait)(const ha_backend *, int);
static int (*real_create)(const ha_backend *, ha_vmm_handle *, size_t, ha_loc, bool);
static int copies_left; /* a copy after this many fails; -1: none does */
static int logged_d2h_enqueue(const ha_backend *b, void *d, const void *src, size_t n)
{
    said('c');
    if (copies_left >= 0 && copies_left-- == 0)
        return 700; /* the runtime lost the device */
    return real_d2h_enqueue(b, d, src, n);
}
static int logged_mark_wait(const ha_backend *b, int slot)
{
    said('w');
    return real_mark_wait(b, slot);
}
static bool creates_fail;
static int create_maybe(const ha_backend *b, ha_vmm_handle *h, size_t size, ha_loc backing, bool posix_fd)
{
    return creates_fail ? 2 : real_create(b, h, size, backing, posix_fd);
}

static void log_sleep_calls(int fail_after_copies)
{
    wrap_runtime(0, 0);
    real_d2h_enqueue = wrapped_ops.copy_d2h_enqueue;
    real_mark_wait = wrapped_ops.mark_wait;
    real_unmap = wrapped_vmm.unmap;
    real_create = wrapped_vmm.create;
    wrapped_ops.copy_d2h_enqueue = logged_d2h_enqueue;
    wrapped_ops.mark_wait = logged_mark_wait;
    wrapped_vmm.unmap = logged_unmap;
    wrapped_vmm.create = create_maybe;
    copies_left = fail_after_copies;
    creates_fail = false;
    order[0] = 0;
}

static unsigned char *filled(size_t n)
{
    unsigned char *b = malloc(n);
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(i * 13 + 5);
    return b;
}

static void holds(void *w, const unsigned char *want, size_t n)
{
    unsigned char *got = malloc(n);
    assert_int_equal(be.ops->copy_d2h(&be, got, w, n), 0);
    assert_memory_equal(got, want, n);
    free(got);
}

static void sleep_releases_each_chunk_while_the_next_copy_runs(void **s)
{
    (void)s;
    refpool *p = pool(false);
    void *w;
    size_t size = 300 * 1024; /* 3 chunks */
    unsigned char *pat = filled(size);
    assert_int_equal(refpool_alloc(p, size, "weights", &w), REFPOOL_OK);
    assert_int_equal(be.ops->copy_h2d(&be, w, pat, size), 0);
    log_sleep_calls(-1);
    const char *tags[] = {"weights"};
    assert_int_equal(refpool_sleep(p, tags, 1), REFPOOL_OK);
    unwrap_runtime();
    /* c copy enqueued, w wait for a copy's mark, u unmap: chunk 0 is
     * unmapped after its copy is waited for and after chunk 1's copy is
     * queued behind it; chunk 2 after its own wait. */
    assert_string_equal(order, "ccwucwuwu");
    assert_int_equal(refpool_live_handles(p), 0);
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK);
    holds(w, pat, size);
    free(pat);
    refpool_destroy(p);
}

static void a_copy_failing_midway_remakes_what_was_released(void **s)
{
    (void)s;
    refpool *p = pool(false);
    void *w;
    size_t size = 300 * 1024;
    unsigned char *pat = filled(size);
    assert_int_equal(refpool_alloc(p, size, "weights", &w), REFPOOL_OK);
    assert_int_equal(be.ops->copy_h2d(&be, w, pat, size), 0);
    log_sleep_calls(2); /* the third chunk's copy fails, after chunk 0 was released */
    const char *tags[] = {"weights"};
    assert_int_equal(refpool_sleep(p, tags, 1), REFPOOL_E_RUNTIME);
    unwrap_runtime();
    assert_non_null(strchr(order, 'u')); /* something had been released */
    assert_non_null(strstr(refpool_last_error(p), "nothing was lost, the pool stays awake"));
    assert_int_equal(refpool_live_handles(p), 3);
    assert_int_equal(refpool_mapped_bytes(p), 320 * 1024);
    holds(w, pat, size);
    assert_int_equal(refpool_sleep(p, tags, 1), REFPOOL_OK); /* and it still sleeps and wakes */
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK);
    holds(w, pat, size);
    free(pat);
    refpool_destroy(p);
}

static void a_copy_failing_where_the_remake_fails_too_says_the_contents_are_lost(void **s)
{
    (void)s;
    refpool *p = pool(false);
    void *w;
    assert_int_equal(refpool_alloc(p, 300 * 1024, "weights", &w), REFPOOL_OK);
    log_sleep_calls(2);
    creates_fail = true;
    const char *tags[] = {"weights"};
    assert_int_equal(refpool_sleep(p, tags, 1), REFPOOL_E_RUNTIME);
    unwrap_runtime();
    assert_non_null(strstr(refpool_last_error(p), "contents are lost"));
    assert_int_equal(refpool_live_handles(p), 0); /* nothing leaked */
    refpool_tag_info ti;
    assert_int_equal(refpool_tag(p, "weights", &ti), REFPOOL_OK);
    assert_int_equal(ti.asleep, 1);
    assert_int_equal(ti.offloaded_bytes, 0);
    assert_int_equal(refpool_wake(p, NULL, 0), REFPOOL_OK); /* fresh memory where it was */
    assert_int_equal(refpool_live_handles(p), 3);
    refpool_destroy(p);
}

/* A copy failing in the second allocation, after the first was copied out
 * whole: the pool stays awake and says nothing is held for a wake. */
static void a_failed_sleep_leaves_no_allocation_offloaded(void **s)
{
    (void)s;
    refpool *p = pool(false);
    void *k, *w;
    assert_int_equal(refpool_alloc(p, 64 * 1024, "kv_cache", &k), REFPOOL_OK);
    assert_int_equal(refpool_alloc(p, 300 * 1024, "weights", &w), REFPOOL_OK); /* copied first */
    refpool_inject_failure(p, REFPOOL_INJECT_OFFLOAD, 3); /* kv_cache's copy, the fourth */
    const char *both[] = {"weights", "kv_cache"};
    assert_int_equal(refpool_sleep(p, both, 2), REFPOOL_E_RUNTIME);
    refpool_tag_info ti;
    assert_int_equal(refpool_tag(p, "weights", &ti), REFPOOL_OK);
    assert_int_equal(ti.asleep, 0);
    assert_int_equal(ti.offloaded_bytes, 0);
    assert_int_equal(refpool_live_handles(p), 4);
    refpool_destroy(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(re_reserve_keeps_the_address_and_frees_the_memory),
        cmocka_unit_test(tags_wake_one_at_a_time),
        cmocka_unit_test(a_failed_allocation_gives_its_address_range_back),
        cmocka_unit_test(re_reserve_takes_the_same_range_back_when_first_given_another),
        cmocka_unit_test(re_reserve_gives_up_and_the_wake_says_so),
        cmocka_unit_test(an_aligned_reserve_refused_falls_back_to_no_alignment),
        cmocka_unit_test(a_failed_restore_waits_for_its_copies_before_it_unmaps),
        cmocka_unit_test(sleep_waits_for_the_device_first),
        cmocka_unit_test(discard_drops_the_backup_and_tags_can_be_asked_about),
        cmocka_unit_test(more_allocations_than_any_fixed_table_sleep_and_wake),
        cmocka_unit_test(sleep_releases_each_chunk_while_the_next_copy_runs),
        cmocka_unit_test(a_copy_failing_midway_remakes_what_was_released),
        cmocka_unit_test(a_copy_failing_where_the_remake_fails_too_says_the_contents_are_lost),
        cmocka_unit_test(a_failed_sleep_leaves_no_allocation_offloaded),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
