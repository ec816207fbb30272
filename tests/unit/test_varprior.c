/* The spread prior (common/varprior.c): its special functions against
 * their tables, and the fit on synthetic variances with a known prior,
 * from a seeded generator so every test repeats exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "stats.h"
#include "varprior.h"

static double uniform(unsigned long long *s) { return ((double)(ha_xorshift64(s) >> 11) + 0.5) / 9007199254740992.0; }

static double normal(unsigned long long *s)
{
    return sqrt(-2 * log(uniform(s))) * cos(6.283185307179586 * uniform(s));
}

static double chi2(unsigned long long *s, int df)
{
    double x = 0;
    for (int i = 0; i < df; i++) {
        double z = normal(s);
        x += z * z;
    }
    return x;
}

static void special_functions_match_the_tables(void **st)
{
    (void)st;
    assert_float_equal(ha_digamma(1), -0.5772156649015329, 1e-10);
    assert_float_equal(ha_digamma(0.5), -1.9635100260214235, 1e-10);
    assert_float_equal(ha_digamma(10), 2.251752589066721, 1e-10);
    assert_float_equal(ha_trigamma(1), 1.6449340668482264, 1e-10); /* pi^2 / 6 */
    assert_float_equal(ha_trigamma(0.5), 4.934802200544679, 1e-10); /* pi^2 / 2 */
    assert_float_equal(ha_trigamma(7), 0.15354517795933753, 1e-10); /* pi^2 / 6 - (1 + 1/4 + ... + 1/36) */
    for (double x = 0.2; x < 500; x *= 1.7)
        assert_float_equal(ha_trigamma_inverse(ha_trigamma(x)), x, 1e-6 * x);
    assert_true(isnan(ha_digamma(0)) && isnan(ha_trigamma(-1)) && isnan(ha_trigamma_inverse(0)));
}

/* 400 rows whose variances come from a prior with d0 = 10 and s0 = 5 %,
 * each seen through 14 df (8 + 8 processes): the fit finds the prior. */
static void the_fit_finds_a_known_prior(void **st)
{
    (void)st;
    unsigned long long s = 3;
    enum { N = 400 };
    double s2[N], df[N];
    for (int i = 0; i < N; i++) {
        double sigma2 = 10 * 0.0025 / chi2(&s, 10);
        df[i] = 14;
        s2[i] = sigma2 * chi2(&s, 14) / 14;
    }
    ha_var_prior p;
    assert_int_equal(ha_var_prior_fit(s2, df, N, &p), 0);
    print_message("prior d0 10, s0^2 0.0025: fitted %.2f, %.5f\n", p.df, p.s2);
    assert_true(p.df > 6 && p.df < 16);
    assert_float_equal(p.s2, 0.0025, 0.0004);
}

/* Rows that share one variance: no more spread than chance, so the prior
 * takes all the rows' df (and no more), at their shared variance. */
static void rows_alike_share_their_variance_up_to_their_df(void **st)
{
    (void)st;
    unsigned long long s = 5;
    enum { N = 30 };
    double s2[N], df[N];
    int over = 0;
    for (int trial = 0; trial < 50; trial++) {
        double sum = 0;
        for (int i = 0; i < N; i++) {
            df[i] = 14;
            s2[i] = 0.0009 * chi2(&s, 14) / 14;
            sum += df[i];
        }
        ha_var_prior p;
        assert_int_equal(ha_var_prior_fit(s2, df, N, &p), 0);
        assert_true(p.df <= sum);
        assert_float_equal(p.s2, 0.0009, 0.0003);
        over += p.df > 100;
    }
    assert_true(over >= 25); /* most draws show them alike */
}

/* Rows that differ far more than chance (1 % and 10 % spreads): d0 comes
 * out small, so each row keeps mostly its own variance. */
static void rows_unlike_keep_their_own(void **st)
{
    (void)st;
    unsigned long long s = 7;
    enum { N = 40 };
    double s2[N], df[N];
    for (int i = 0; i < N; i++) {
        double sd = i % 2 ? 0.01 : 0.10;
        df[i] = 14;
        s2[i] = sd * sd * chi2(&s, 14) / 14;
    }
    ha_var_prior p;
    assert_int_equal(ha_var_prior_fit(s2, df, N, &p), 0);
    print_message("spreads 1 %% and 10 %%: d0 %.2f\n", p.df);
    assert_true(p.df < 3);
}

static void fewer_than_three_rows_give_no_prior(void **st)
{
    (void)st;
    const double s2[] = {0.001, NAN, 0.002, 0, -1, INFINITY}, df[] = {14, 14, 14, 14, 14, 14};
    ha_var_prior p = {99, 99};
    assert_int_equal(ha_var_prior_fit(s2, df, 6, &p), -1); /* two usable */
    assert_true(p.df == 0);
    const double ok[] = {0.001, 0.002, 0.0015}, bad_df[] = {14, 0, 14};
    assert_int_equal(ha_var_prior_fit(ok, bad_df, 3, &p), -1);
    assert_int_equal(ha_var_prior_fit(ok, df, 3, &p), 0);
    assert_true(p.df > 0 && p.df <= 42);
}

static void the_moderated_variance_weighs_prior_and_row_by_their_df(void **st)
{
    (void)st;
    const ha_var_prior p = {6, 0.004}, none = {0, NAN};
    assert_float_equal(ha_var_moderated(&p, 0.001, 14), (6 * 0.004 + 14 * 0.001) / 20, 1e-15);
    assert_float_equal(ha_var_moderated(&none, 0.001, 14), 0.001, 1e-15);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(special_functions_match_the_tables),
        cmocka_unit_test(the_fit_finds_a_known_prior),
        cmocka_unit_test(rows_alike_share_their_variance_up_to_their_df),
        cmocka_unit_test(rows_unlike_keep_their_own),
        cmocka_unit_test(fewer_than_three_rows_give_no_prior),
        cmocka_unit_test(the_moderated_variance_weighs_prior_and_row_by_their_df),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
