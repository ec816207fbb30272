/* The verdict on hand-made matrices. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "verdict.h"

#define Y HA_TRUTH_YES
#define N HA_TRUTH_NO
#define U HA_TRUTH_UNKNOWN

static ha_verdict run(const ha_vcell *c, size_t n)
{
    ha_verdict v;
    ha_verdict_compute(c, n, &v);
    return v;
}

static void separating_outcomes_distinguish(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"a", Y, true, "ok|=ptr"},
        {"b", Y, true, "ok|=ptr"},
        {"c", N, true, "INVALID_VALUE|"},
        {"d", N, true, "ok|null"},
    };
    ha_verdict v = run(c, 4);
    assert_int_equal(v.v, HA_V_DISTINGUISHES);
    assert_int_equal(v.nwrong, 0);
}

static void same_answer_everywhere_fails_with_false_positives(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"hipMalloc", Y, true, "ok|2"},
        {"expandable", Y, true, "ok|2"},
        {"vmm-device", N, true, "ok|2"},
    };
    ha_verdict v = run(c, 3);
    assert_int_equal(v.v, HA_V_FAILS);
    assert_int_equal(v.nwrong, 1);
    assert_string_equal(v.wrong[0].kind, "vmm-device");
    assert_true(v.wrong[0].false_positive);
    assert_string_equal(v.wrong[0].outcome, "ok|2");
}

/* The upstream case: retain succeeds on all VMM memory, readable or not. */
static void majority_unreadable_names_false_negatives(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"hipMalloc", Y, true, "hipErrorInvalidValue|"},
        {"vmm-device", N, true, "hipSuccess|non-null"},
        {"vmm-chunked", N, true, "hipSuccess|non-null"},
        {"expandable", Y, true, "hipSuccess|non-null"},
    };
    ha_verdict v = run(c, 4);
    assert_int_equal(v.v, HA_V_FAILS);
    assert_int_equal(v.nwrong, 1);
    assert_string_equal(v.wrong[0].kind, "expandable");
    assert_false(v.wrong[0].false_positive);
}

/* A tie is read as unreadable: the safe guess, so the readable kinds are the
 * ones named. */
static void tie_counts_as_unreadable(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"a", Y, true, "x|"},
        {"b", N, true, "x|"},
    };
    ha_verdict v = run(c, 2);
    assert_int_equal(v.v, HA_V_FAILS);
    assert_int_equal(v.nwrong, 1);
    assert_string_equal(v.wrong[0].kind, "a");
    assert_false(v.wrong[0].false_positive);
}

static void one_sided_truth_is_undetermined(void **s)
{
    (void)s;
    ha_vcell c[] = {{"a", Y, true, "x|"}, {"b", Y, true, "y|"}};
    ha_verdict v = run(c, 2);
    assert_int_equal(v.v, HA_V_UNDETERMINED);
    assert_non_null(strstr(v.why, "both"));
}

static void unanswered_kind_makes_it_undetermined(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"a", Y, true, "ok|1"},
        {"b", N, false, "skipped|"},
        {"c", N, true, "ok|0"},
    };
    ha_verdict v = run(c, 3);
    assert_int_equal(v.v, HA_V_UNDETERMINED);
    assert_non_null(strstr(v.why, "b"));
}

static void unknown_truth_is_left_out(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"a", Y, true, "ok|1"},
        {"b", U, false, "ok|1"}, /* would collide with a if it counted */
        {"c", N, true, "ok|0"},
    };
    ha_verdict v = run(c, 3);
    assert_int_equal(v.v, HA_V_DISTINGUISHES);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(separating_outcomes_distinguish),
        cmocka_unit_test(same_answer_everywhere_fails_with_false_positives),
        cmocka_unit_test(majority_unreadable_names_false_negatives),
        cmocka_unit_test(tie_counts_as_unreadable),
        cmocka_unit_test(one_sided_truth_is_undetermined),
        cmocka_unit_test(unanswered_kind_makes_it_undetermined),
        cmocka_unit_test(unknown_truth_is_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
