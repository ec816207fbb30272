/* The pool's paths that pool_check does not take by default, on the sim
 * backend: vLLM's ROCm re-reserve on sleep, chunking of an odd size, and
 * waking one tag at a time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(re_reserve_keeps_the_address_and_frees_the_memory),
        cmocka_unit_test(tags_wake_one_at_a_time),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
