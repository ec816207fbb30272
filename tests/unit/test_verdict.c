/* The verdict on hand-made matrices. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "verdict.h"

#define Y HA_TRUTH_YES
#define I HA_SAYS_INFER
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
        {"a", Y, true, "ok|=ptr", I},
        {"b", Y, true, "ok|=ptr", I},
        {"c", N, true, "INVALID_VALUE|", I},
        {"d", N, true, "ok|null", I},
    };
    ha_verdict v = run(c, 4);
    assert_int_equal(v.v, HA_V_DISTINGUISHES);
    assert_int_equal(v.nwrong, 0);
}

static void same_answer_everywhere_fails_with_false_positives(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"hipMalloc", Y, true, "ok|2", I},
        {"expandable", Y, true, "ok|2", I},
        {"vmm-device", N, true, "ok|2", I},
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
        {"hipMalloc", Y, true, "hipErrorInvalidValue|", I},
        {"vmm-device", N, true, "hipSuccess|non-null", I},
        {"vmm-chunked", N, true, "hipSuccess|non-null", I},
        {"expandable", Y, true, "hipSuccess|non-null", I},
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
        {"a", Y, true, "x|", I},
        {"b", N, true, "x|", I},
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
    ha_vcell c[] = {{"a", Y, true, "x|", I}, {"b", Y, true, "y|", I}};
    ha_verdict v = run(c, 2);
    assert_int_equal(v.v, HA_V_UNDETERMINED);
    assert_non_null(strstr(v.why, "both"));
}

static void unanswered_kind_makes_it_undetermined(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"a", Y, true, "ok|1", I},
        {"b", N, false, "skipped|", I},
        {"c", N, true, "ok|0", I},
    };
    ha_verdict v = run(c, 3);
    assert_int_equal(v.v, HA_V_UNDETERMINED);
    assert_non_null(strstr(v.why, "b"));
}

static void unknown_truth_is_left_out(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"a", Y, true, "ok|1", I},
        {"b", U, false, "ok|1", I}, /* would collide with a if it counted */
        {"c", N, true, "ok|0", I},
    };
    ha_verdict v = run(c, 3);
    assert_int_equal(v.v, HA_V_DISTINGUISHES);
}

/* A model's answer means what it says: "host read" on memory that faults
 * is the crash even where the majority of that answer is readable, and a
 * partition that is inverted is wrong, not "distinguishes". */
static void a_model_is_judged_by_what_it_says(void **s)
{
    (void)s;
    ha_vcell c[] = {
        {"a", Y, true, "ok|1", HA_SAYS_READABLE},
        {"b", Y, true, "ok|1", HA_SAYS_READABLE},
        {"c", N, true, "ok|1", HA_SAYS_READABLE},
        {"d", Y, true, "ok|0", HA_SAYS_UNREADABLE},
    };
    ha_verdict v = run(c, 4);
    assert_int_equal(v.v, HA_V_FAILS);
    assert_int_equal(v.nwrong, 2);
    assert_string_equal(v.wrong[0].kind, "c");
    assert_true(v.wrong[0].false_positive);
    assert_string_equal(v.wrong[1].kind, "d");
    assert_false(v.wrong[1].false_positive);
    ha_vcell inv[] = {
        {"a", Y, true, "ok|0", HA_SAYS_UNREADABLE},
        {"b", N, true, "ok|1", HA_SAYS_READABLE},
    };
    v = run(inv, 2);
    assert_int_equal(v.v, HA_V_FAILS);
    assert_int_equal(v.nwrong, 2);
    ha_vcell right[] = {
        {"a", Y, true, "ok|1", HA_SAYS_READABLE},
        {"b", N, true, "ok|0", HA_SAYS_UNREADABLE},
    };
    assert_int_equal(run(right, 2).v, HA_V_DISTINGUISHES);
}

/* One spelling per verdict, the record's words (results/SCHEMA.md): what
 * the probe writes the report tools read back, and nothing else parses as
 * a verdict that would make a candidate look decided. */
static void verdict_names_round_trip(void **s)
{
    (void)s;
    assert_string_equal(ha_verdict_name(HA_V_DISTINGUISHES), "distinguishes");
    assert_string_equal(ha_verdict_name(HA_V_FAILS), "fails");
    assert_string_equal(ha_verdict_name(HA_V_UNDETERMINED), "undetermined");
    for (int v = HA_V_DISTINGUISHES; v <= HA_V_UNDETERMINED; v++)
        assert_int_equal(ha_verdict_parse(ha_verdict_name((ha_verdict_kind)v)), v);
    assert_int_equal(ha_verdict_parse("Distinguishes"), HA_V_UNDETERMINED);
    assert_int_equal(ha_verdict_parse("distinguishes "), HA_V_UNDETERMINED);
    assert_int_equal(ha_verdict_parse(NULL), HA_V_UNDETERMINED);
    assert_string_equal(ha_verdict_name((ha_verdict_kind)7), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(separating_outcomes_distinguish),
        cmocka_unit_test(verdict_names_round_trip),
        cmocka_unit_test(a_model_is_judged_by_what_it_says),
        cmocka_unit_test(same_answer_everywhere_fails_with_false_positives),
        cmocka_unit_test(majority_unreadable_names_false_negatives),
        cmocka_unit_test(tie_counts_as_unreadable),
        cmocka_unit_test(one_sided_truth_is_undetermined),
        cmocka_unit_test(unanswered_kind_makes_it_undetermined),
        cmocka_unit_test(unknown_truth_is_left_out),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
