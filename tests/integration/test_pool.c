/* pool_check end to end on sim: every check of every mode, the record the
 * report reads, and bad input. Under ASan in CI this is also the leak check
 * for the pool's error paths. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *build;
static char tmp[64];

static int setup(void **s)
{
    (void)s;
    build = it_build();
    return it_tmpdir(tmp, sizeof tmp, "pool");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static const json_t *check(const json_t *checks, const char *name, const char *mode)
{
    size_t i;
    json_t *c;
    json_array_foreach(checks, i, c) {
        if (!strcmp(json_string_value(json_object_get(c, "name")), name) &&
            !strcmp(json_string_value(json_object_get(c, "mode")), mode))
            return c;
    }
    fail_msg("no check %s/%s", name, mode);
    return NULL;
}

static void every_check_passes_on_the_model(void **s)
{
    (void)s;
    assert_int_equal(it_sh("%s/pool_check --backend sim --throughput-sizes 2MiB --cycles 100 --json %s/p.json",
                        build, tmp), 0);
    assert_non_null(strstr(it_out, "SIMULATED"));
    char p[128];
    snprintf(p, sizeof p, "%s/p.json", tmp);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    assert_non_null(j);
    json_t *checks = json_object_get(j, "checks");
    const char *modes[] = {"device+fix", "device-nofix", "hostbacked+fix", "hostbacked-nofix"};
    const char *names[] = {"create_pool", "fast_path_read_before_sleep", "offloaded_tag_kept",
                           "fast_path_read_after_wake", "cycles_no_drift", "wake_rollback_create",
                           "wake_rollback_map"};
    for (int m = 0; m < 4; m++)
        for (int n = 0; n < 7; n++)
            assert_true(json_is_true(json_object_get(check(checks, names[n], modes[m]), "passed")));
    /* the fix makes the read work; without it the read is a contained fault */
    assert_non_null(strstr(json_string_value(json_object_get(
                               check(checks, "fast_path_read_after_wake", "device-nofix"), "detail")),
                           "SIGSEGV"));
    assert_true(json_is_true(json_object_get(check(checks, "vram_freed_on_sleep", "device+fix"), "passed")));
    assert_true(json_is_null(json_object_get(check(checks, "vram_freed_on_sleep", "hostbacked+fix"), "passed")));
    const char *api[] = {"zero_size", "impossible_size", "empty_tag", "wake_without_sleep",
                         "sleep_unknown_tag", "sleep_twice", "alloc_while_asleep",
                         "wake_unknown_tag", "double_free"};
    for (size_t i = 0; i < sizeof api / sizeof api[0]; i++)
        assert_true(json_is_true(json_object_get(check(checks, api[i], "api"), "passed")));
    json_t *sum = json_object_get(j, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "failed")), 0);
    json_t *tp = json_array_get(json_object_get(j, "throughput"), 0);
    assert_true(json_is_true(json_object_get(tp, "measured")));
    assert_true(json_number_value(json_object_get(tp, "ceiling_d2h_gbs")) > 0);
    /* wake is judged after a pause, and the back-to-back wake is kept beside it */
    assert_int_equal(json_integer_value(json_object_get(tp, "wake_pause_ms")), 50);
    assert_true(json_number_value(json_object_get(tp, "wake_right_after_sleep_gbs")) > 0);
    assert_true(json_number_value(json_object_get(tp, "wake_right_after_sleep_fraction_of_ceiling")) > 0);
    json_decref(j);
}

static void bad_input_is_refused(void **s)
{
    (void)s;
    const char *bad[] = {"--cycles 0", "--cycles x", "--throughput-sizes 12",
                         "--throughput-sizes 1GiB,,", "--mode bogus"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = it_sh("%s/pool_check --backend sim %s", build, bad[i]);
        if (rc != 2)
            fail_msg("'%s' gave %d: %s", bad[i], rc, it_out);
    }
}

/* The library's C API as a vLLM-style caller uses it, through ctypes. */
static void the_pool_api_answers_as_documented(void **s)
{
    (void)s;
    it_need_ctypes(build);
    int rc = it_sh("HOSTACCESS_BACKEND=sim python3 tests/sim/pool_api.py %s/libhostaccess_pool.so", build);
    if (rc != 0)
        fail_msg("%s", it_out);
    assert_non_null(strstr(it_out, "every check passed"));
}

/* The VRAM check fails a pool that does not give VRAM back on sleep. */
static void a_pool_that_keeps_its_vram_asleep_fails_the_check(void **s)
{
    (void)s;
    int rc = it_sh("HOSTACCESS_TEST_POOL_KEEPS_RANGES=1 %s/pool_check --backend sim --mode device-nofix "
                   "--throughput-sizes none --cycles 2", it_build());
    assert_int_equal(rc, 1);
    assert_non_null(strstr(it_out, "| vram_freed_on_sleep | device-nofix | FAIL |"));
}

/* The PyTorch step (run_all.sh's, make check-torch's) leaves the checkout
 * as it was: Python's bytecode and pytest's cache would be untracked files
 * in a user's tree (and make a clean checkout look changed). */
static void the_torch_step_leaves_the_checkout_as_it_was(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("no python3");
    /* No GPU visible: PyTorch's tests skip, and no pool of theirs moves the
     * free memory another suite's pool_check is reading. Bytecode goes to
     * a folder of this test's (PYTHONPYCACHEPREFIX), where any is seen
     * whatever an earlier run left beside the sources. */
    assert_int_equal(it_sh("touch %s/before && export CUDA_VISIBLE_DEVICES= HIP_VISIBLE_DEVICES= "
                           "PYTHONPYCACHEPREFIX=%s/pyc && unset PYTHONDONTWRITEBYTECODE && mkdir -p %s/torch && "
                           "BUILD=%s fix/torch_check.sh %s/torch && make -s --no-print-directory BUILD=%s check-torch",
                           tmp, tmp, tmp, it_build(), tmp, it_build()), 0);
    assert_int_equal(it_sh("find %s/pyc tests/torch fix .pytest_cache -newer %s/before 2>/dev/null; true", tmp, tmp), 0);
    if (it_out[0])
        fail_msg("the PyTorch step wrote bytecode or a cache:\n%s", it_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_check_passes_on_the_model),
        cmocka_unit_test(bad_input_is_refused),
        cmocka_unit_test(the_pool_api_answers_as_documented),
        cmocka_unit_test(a_pool_that_keeps_its_vram_asleep_fails_the_check),
        cmocka_unit_test(the_torch_step_leaves_the_checkout_as_it_was),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
