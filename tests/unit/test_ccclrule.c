/* CCCL's cuda::is_host_accessible rule (common/ccclrule.h), branch by
 * branch as libcudacxx's is_pointer_accessible.h writes it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "ccclrule.h"

static bool rule(unsigned type, bool managed, bool pool, bool pool_read)
{
    ha_cccl_attrs a = {type, managed, pool, pool_read};
    return ha_cccl_host_accessible(&a);
}

/* Memory the driver does not know (pageable malloc), host and managed
 * memory outside a pool: accessible. */
static void unknown_host_and_managed_memory_is_accessible(void **s)
{
    (void)s;
    assert_true(rule(0, false, false, false));
    assert_true(rule(1, false, false, false));
    assert_true(rule(2, true, false, false));
}

/* Device memory outside a pool is not, whatever a VMM grant said: CCCL
 * never asks the mapping's access. */
static void device_memory_outside_a_pool_is_not(void **s)
{
    (void)s;
    assert_false(rule(2, false, false, false));
    assert_false(rule(2, false, false, true)); /* a pool answer without a pool is not read */
}

/* Pool memory is accessible exactly when its pool grants the host a read,
 * host and managed pool memory too. */
static void pool_memory_follows_the_pools_host_access(void **s)
{
    (void)s;
    assert_true(rule(2, false, true, true));
    assert_false(rule(2, false, true, false));
    assert_false(rule(1, false, true, false));
    assert_false(rule(2, true, true, false));
    assert_true(rule(0, false, true, false)); /* unknown memory first, as CCCL asks it */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(unknown_host_and_managed_memory_is_accessible),
        cmocka_unit_test(device_memory_outside_a_pool_is_not),
        cmocka_unit_test(pool_memory_follows_the_pools_host_access),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
