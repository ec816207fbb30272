/* The large-BAR platform model's own promises that the backends above it
 * rely on: a freed reservation stays the model's until it is reserved
 * again (no other mapping can take it in between), and the 7.x range rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <sys/mman.h>

#include "largebar.h"

#define G LB_GRANULE_DEFAULT

/* vLLM's ROCm sleep: free the range, reserve it again at the same address.
 * Another thread's mmap in between must not be able to take it. */
static void a_freed_range_cannot_be_taken_before_it_is_reserved_again(void **s)
{
    (void)s;
    void *va = NULL;
    assert_int_equal(lb_reserve(&va, 4 * G, G, NULL), LB_OK);
    assert_int_equal(lb_free_va(va, 4 * G), LB_OK);
    void *other = mmap(va, 4 * G, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    int e = errno;
    if (other != MAP_FAILED && other != va)
        munmap(other, 4 * G); /* a kernel without NOREPLACE took it as a hint: nothing shown */
    assert_true(other == MAP_FAILED && e == EEXIST);
    void *again = NULL;
    assert_int_equal(lb_reserve(&again, 4 * G, G, va), LB_OK);
    assert_ptr_equal(again, va);
    assert_int_equal(lb_free_va(again, 4 * G), LB_OK);
}

/* A grant or unmap covers whole chunks from a chunk start. */
static void partial_and_mid_chunk_ranges_are_refused(void **s)
{
    (void)s;
    void *va = NULL;
    lb_handle h[2];
    assert_int_equal(lb_reserve(&va, 2 * G, G, NULL), LB_OK);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(lb_create(&h[i], G, false), LB_OK);
        assert_int_equal(lb_map((char *)va + i * G, G, h[i]), LB_OK);
    }
    assert_int_equal(lb_grant((char *)va + G / 2, G, 1, 1), LB_E_INVALID);
    assert_int_equal(lb_grant((char *)va + G / 2, G / 2, 1, 1), LB_E_INVALID); /* mid-chunk to its end */
    assert_int_equal(lb_grant(va, G + G / 2, 1, 1), LB_E_INVALID);
    assert_int_equal(lb_grant(va, 2 * G, 1, 1), LB_OK);
    assert_int_equal(lb_unmap((char *)va + G / 2, G), LB_E_INVALID);
    assert_int_equal(lb_unmap((char *)va + G / 2, G / 2), LB_E_INVALID);
    assert_int_equal(lb_unmap(va, G + 1), LB_E_INVALID);
    assert_int_equal(lb_unmap(va, 2 * G), LB_OK);
    for (int i = 0; i < 2; i++)
        assert_int_equal(lb_release(h[i]), LB_OK);
    assert_int_equal(lb_free_va(va, 2 * G), LB_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_freed_range_cannot_be_taken_before_it_is_reserved_again),
        cmocka_unit_test(partial_and_mid_chunk_ranges_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
