/* Linked into every test binary: HA_TEST_FILTER=PATTERN runs only the tests
 * whose names match it (cmocka's * and ? wildcards), so the mutation
 * catalogue (tests/mutants.md) runs the one test that must catch a
 * mutation instead of its whole binary. Unset, every test runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

__attribute__((constructor)) static void ha_test_filter_from_env(void)
{
    const char *pattern = getenv("HA_TEST_FILTER");
    if (pattern && *pattern)
        cmocka_set_test_filter(pattern);
}
