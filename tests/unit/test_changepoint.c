/* Change points on synthetic series with known answers (issue 30): each
 * run is K processes of process-level noise (5.1 % sd of log between
 * processes, the median measured on a fresh H200), summarised as the mean
 * of their logs; steps are planted at known runs. A seeded generator makes
 * every series, so each figure below repeats exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "changepoint.h"
#include "stats.h"

#define K 8
#define SIGMA 0.051
#define RUNS 40
#define AT 20

static double uniform(unsigned long long *s) { return ((double)(ha_xorshift64(s) >> 11) + 0.5) / 9007199254740992.0; }

static double normal(unsigned long long *s)
{
    return sqrt(-2 * log(uniform(s))) * cos(6.283185307179586 * uniform(s));
}

/* One run's value: the mean log of K processes around truth. */
static double run_value(unsigned long long *s, double truth)
{
    double sum = 0;
    for (int p = 0; p < K; p++)
        sum += log(truth) + SIGMA * normal(s);
    return sum / K;
}

static void series(unsigned long long *s, double *y, size_t n, size_t at, double step)
{
    for (size_t i = 0; i < n; i++)
        y[i] = run_value(s, 3000 * (i >= at ? 1 + step : 1));
}

static long find(const double *y, size_t n, ha_cp *cps, size_t max)
{
    ha_cp_cfg c;
    ha_cp_defaults(&c);
    long got = ha_changepoints(y, n, &c, 42, cps, max);
    assert_true(got >= 0);
    return got;
}

/* Planted steps are found at their run (within one) often enough, and
 * the power per step is printed for the table. */
static void planted_steps_are_found_at_their_run(void **st)
{
    (void)st;
    const double steps[] = {0.03, 0.05, 0.10};
    const double need[] = {0.5, 0.9, 0.99};
    unsigned long long s = 7;
    for (int k = 0; k < 3; k++) {
        int hit = 0, tries = 100;
        for (int t = 0; t < tries; t++) {
            double y[RUNS];
            series(&s, y, RUNS, AT, steps[k]);
            ha_cp cps[8];
            long n = find(y, RUNS, cps, 8);
            for (long i = 0; i < n; i++)
                if (cps[i].at + 1 >= AT && cps[i].at <= AT + 1 && cps[i].step > 1) {
                    hit++;
                    break;
                }
        }
        print_message("step +%.0f %% at run %d of %d (K = %d, %.1f %% between processes): found within one run in "
                      "%d of %d series (power %.2f)\n",
                      100 * steps[k], AT, RUNS, K, 100 * SIGMA, hit, tries, (double)hit / tries);
        assert_true((double)hit / tries >= need[k]);
    }
}

/* The step's size and interval: a +10 % step reads as about 1.10, its
 * interval holds the truth, and its p is below alpha. */
static void a_step_is_sized_with_its_interval(void **st)
{
    (void)st;
    unsigned long long s = 11;
    int covered = 0, tries = 100, found = 0;
    for (int t = 0; t < tries; t++) {
        double y[RUNS];
        series(&s, y, RUNS, AT, 0.10);
        ha_cp cps[8];
        long n = find(y, RUNS, cps, 8);
        for (long i = 0; i < n; i++)
            if (cps[i].at == AT) {
                found++;
                covered += cps[i].lo <= 1.10 && 1.10 <= cps[i].hi;
                assert_true(cps[i].p <= 0.01);
                assert_true(cps[i].lo <= cps[i].step && cps[i].step <= cps[i].hi);
                assert_true(cps[i].from < cps[i].at && cps[i].at < cps[i].to && cps[i].to <= RUNS);
            }
    }
    print_message("+10 %%: at its run in %d of %d series; the 95 %% interval held 1.10 in %d of them\n", found, tries,
                  covered);
    assert_true(found >= 90);
    assert_true(covered >= 0.88 * found);
}

/* 200 flat series: at most 5 % with any change point. */
static void flat_series_rarely_have_a_change_point(void **st)
{
    (void)st;
    unsigned long long s = 3;
    int any = 0;
    for (int t = 0; t < 200; t++) {
        double y[RUNS];
        series(&s, y, RUNS, RUNS, 0);
        ha_cp cps[8];
        any += find(y, RUNS, cps, 8) > 0;
    }
    print_message("200 flat series of %d runs: %d with a change point\n", RUNS, any);
    assert_true(any <= 10);
}

/* Two steps, up then back down, are both found; a step under min_step
 * is never reported however sure. */
static void two_steps_and_a_floor(void **st)
{
    (void)st;
    double y[60];
    unsigned long long s = 5;
    for (size_t i = 0; i < 60; i++)
        y[i] = run_value(&s, 3000 * (i >= 20 && i < 40 ? 1.15 : 1));
    ha_cp cps[8];
    long n = find(y, 60, cps, 8);
    assert_int_equal(n, 2);
    assert_true(cps[0].at >= 19 && cps[0].at <= 21 && cps[0].step > 1.1);
    assert_true(cps[1].at >= 39 && cps[1].at <= 41 && cps[1].step < 0.92);
    /* each step is measured between its neighbours, not against the whole series */
    assert_int_equal(cps[0].from, 0);
    assert_int_equal(cps[0].to, cps[1].at);
    assert_int_equal(cps[1].from, cps[0].at);
    assert_int_equal(cps[1].to, 60);
    /* no noise, a 0.5 % step: certain, and below the floor */
    for (size_t i = 0; i < 60; i++)
        y[i] = log(3000 * (i >= 30 ? 1.005 : 1));
    assert_int_equal(find(y, 60, cps, 8), 0);
    /* too short for two segments of min_seg runs: none, and no crash */
    assert_int_equal(find(y, 7, cps, 8), 0);
    assert_int_equal(find(y, 0, cps, 8), 0);
}

/* The same series gives the same answer: the permutations are seeded. */
static void the_answer_repeats(void **st)
{
    (void)st;
    double y[RUNS];
    unsigned long long s = 9;
    series(&s, y, RUNS, AT, 0.04);
    ha_cp a[8], b[8];
    long na = find(y, RUNS, a, 8), nb = find(y, RUNS, b, 8);
    assert_int_equal(na, nb);
    for (long i = 0; i < na; i++) {
        assert_int_equal(a[i].at, b[i].at);
        assert_true(a[i].p == b[i].p && a[i].step == b[i].step);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(planted_steps_are_found_at_their_run),
        cmocka_unit_test(a_step_is_sized_with_its_interval),
        cmocka_unit_test(flat_series_rarely_have_a_change_point),
        cmocka_unit_test(two_steps_and_a_floor),
        cmocka_unit_test(the_answer_repeats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
