/* Percentile, MAD and the size parser on samples worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "stats.h"
#include "tool.h"

static void percentiles_interpolate_between_order_statistics(void **s)
{
    (void)s;
    const double x[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    /* h = (n-1) p/100: p50 -> 4.5 -> 5.5; p90 -> 8.1 -> 9.1; p99 -> 8.91 -> 9.91 */
    assert_float_equal(ha_percentile(x, 10, 50), 5.5, 1e-12);
    assert_float_equal(ha_percentile(x, 10, 90), 9.1, 1e-12);
    assert_float_equal(ha_percentile(x, 10, 99), 9.91, 1e-12);
    assert_float_equal(ha_percentile(x, 10, 0), 1, 1e-12);
    assert_float_equal(ha_percentile(x, 10, 100), 10, 1e-12);
    assert_float_equal(ha_percentile(x, 1, 37), 1, 1e-12);
    assert_true(isnan(ha_percentile(x, 0, 50)));
}

static void mad_ignores_the_outlier_the_mean_does_not(void **s)
{
    (void)s;
    /* unsorted on purpose; median 3, |x-3| = 2 1 0 1 97 -> MAD 1 */
    const double x[] = {1, 100, 3, 2, 4};
    ha_stats st;
    assert_int_equal(ha_stats_compute(x, 5, &st), 0);
    assert_float_equal(st.median, 3, 1e-12);
    assert_float_equal(st.mad, 1, 1e-12);
    assert_float_equal(st.spread, 1.4826, 1e-12);
    assert_float_equal(st.mean, 22, 1e-12);
    assert_float_equal(st.min, 1, 1e-12);
    assert_float_equal(st.max, 100, 1e-12);
    assert_int_equal(st.outliers, 1); /* 100 is beyond 3 +- 5 * 1.4826 */
    assert_false(st.slow_first);
    assert_int_equal(ha_stats_compute(x, 0, &st), -1);
}

static void a_slow_first_sample_is_flagged(void **s)
{
    (void)s;
    const double x[] = {50, 10, 10, 11, 10, 9, 10};
    ha_stats st;
    ha_stats_compute(x, 7, &st);
    assert_true(st.slow_first);
    /* quantised timings: a MAD of 0 does not make every other tick an outlier */
    const double q[] = {10, 10, 10, 10, 10.2, 10, 10};
    ha_stats_compute(q, 7, &st);
    assert_float_equal(st.mad, 0, 0);
    assert_int_equal(st.outliers, 0);
}

static void the_overhead_share_is_a_percent_of_the_median_and_none_without_one(void **s)
{
    (void)s;
    assert_float_equal(ha_overhead_share(5, 200), 2.5, 1e-12);
    assert_true(isnan(ha_overhead_share(5, 0)));
    assert_true(isnan(ha_overhead_share(5, -1)));
}

static void sizes_take_units(void **s)
{
    (void)s;
    unsigned long long v;
    assert_int_equal(ha_parse_size("4", 1, 1ull << 40, &v), 0);
    assert_int_equal(v, 4);
    assert_int_equal(ha_parse_size("64KiB", 1, 1ull << 40, &v), 0);
    assert_int_equal(v, 65536);
    assert_int_equal(ha_parse_size("256M", 1, 1ull << 40, &v), 0);
    assert_int_equal(v, 256ull << 20);
    assert_int_equal(ha_parse_size("1GiB", 1, 1ull << 40, &v), 0);
    assert_int_equal(v, 1ull << 30);
    assert_int_equal(ha_parse_size("2GB", 1, 1ull << 40, &v), 0);
    assert_int_equal(v, 2000000000ull);
    assert_int_equal(ha_parse_size("8B", 1, 100, &v), 0);
    const char *bad[] = {"", "-4", "4x", "K", "1.5M", "64 KiB", "999999999999999999999", "2TiB"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(ha_parse_size(bad[i], 1, 1ull << 40, &v), 0);
    assert_int_not_equal(ha_parse_size("2MiB", 1, 1u << 20, &v), 0); /* above the cap */
    assert_int_not_equal(ha_parse_size("0", 1, 100, &v), 0);         /* below the floor */
    assert_int_not_equal(ha_parse_size("18000000000G", 1, ~0ull, &v), 0); /* overflows */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(percentiles_interpolate_between_order_statistics),
        cmocka_unit_test(mad_ignores_the_outlier_the_mean_does_not),
        cmocka_unit_test(a_slow_first_sample_is_flagged),
        cmocka_unit_test(the_overhead_share_is_a_percent_of_the_median_and_none_without_one),
        cmocka_unit_test(sizes_take_units),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
