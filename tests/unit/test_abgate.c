/* The A/B session's paired judgement and its sequential looks
 * (common/abgate.h), on synthetic sessions with known answers: a seeded
 * generator, so every test repeats exactly. A process's value of a row is
 *   session level (the machine start: the same for both sides)
 *   x a state shared by the round's two processes (it comes and goes)
 *   x its own offset (layout, CPU)
 *   x a slow state of its host core, in some processes, on every row
 *   x B's change, on the rows B changes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "abgate.h"
#include "stats.h"

#define ROWS 40
#define SESSIONS 400

static double uniform(unsigned long long *s) { return ((double)(ha_xorshift64(s) >> 11) + 0.5) / 9007199254740992.0; }

static double normal(unsigned long long *s)
{
    return sqrt(-2 * log(uniform(s))) * cos(6.283185307179586 * uniform(s));
}

typedef struct model {
    double proc_sd;     /* a process's own offset, sd of log */
    double round_sd;    /* the state a round's two processes share */
    double slow_share;  /* processes in a slow state */
    double slow_factor; /* and how much slower, on every row */
    double change;      /* B's change on the rows it changes (1: none) */
    size_t changed;     /* rows 0 .. changed-1 */
} model;

/* One round of both sides into a[row * HA_AB_MAX_ROUNDS + k], b[...]. */
static void one_round(unsigned long long *s, const model *m, double level, int k, double *a, double *b)
{
    double shared = exp(m->round_sd * normal(s));
    double slow_a = uniform(s) < m->slow_share ? m->slow_factor : 1;
    double slow_b = uniform(s) < m->slow_share ? m->slow_factor : 1;
    double off_a = exp(m->proc_sd * normal(s)), off_b = exp(m->proc_sd * normal(s));
    for (size_t r = 0; r < ROWS; r++) {
        double base = level * (1 + (double)r);
        a[r * HA_AB_MAX_ROUNDS + k] = base * shared * slow_a * off_a * exp(0.005 * normal(s));
        b[r * HA_AB_MAX_ROUNDS + k] = base * shared * slow_b * off_b * exp(0.005 * normal(s)) *
                                     (r < m->changed ? m->change : 1);
    }
}

/* Every row paired (rounds values a side), then the family at look. */
static long judge(const double *a, const double *b, size_t rows, size_t rounds, int look, ha_ab_row *out)
{
    ha_ab_est est[ROWS];
    int ok[ROWS];
    assert_true(rows <= ROWS);
    for (size_t r = 0; r < rows; r++)
        ok[r] = ha_ab_paired(a + r * rounds, b + r * rounds, rounds, &est[r]) == 0;
    return ha_ab_family(est, ok, rows, look, out);
}

/* A whole session, as bench/ab.c runs it: rounds, a look at each of
 * ha_ab_look_rounds, a stop at the first look that decides every row.
 * The rows' outcomes at that look into out; the look's index. */
static int session(unsigned long long *s, const model *m, ha_ab_row *out)
{
    static double a[ROWS * HA_AB_MAX_ROUNDS], b[ROWS * HA_AB_MAX_ROUNDS];
    for (size_t i = 0; i < ROWS * HA_AB_MAX_ROUNDS; i++)
        a[i] = b[i] = NAN;
    double level = exp(0.3 * normal(s));
    int k = 0;
    for (int look = 0; look < HA_AB_MAX_LOOKS; look++) {
        for (; k < ha_ab_look_rounds[look]; k++)
            one_round(s, m, level, k, a, b);
        assert_true(judge(a, b, ROWS, HA_AB_MAX_ROUNDS, look, out) >= 0);
        bool all = true;
        for (size_t r = 0; r < ROWS; r++)
            all &= ha_ab_decided(out[r].outcome) != 0;
        if (all)
            return look;
    }
    return HA_AB_MAX_LOOKS - 1;
}

/* Slow states that come and go (a tenth of the processes x1.3), as on a
 * busy cloud host; and a steady machine without them. */
static const model busy = {0.03, 0.05, 0.10, 1.3, 1, 0};
static const model quiet = {0.03, 0.05, 0, 1, 1, 0};

static void the_looks_spend_alpha_once(void **state)
{
    (void)state;
    double sum = 0;
    for (int i = 0; i < HA_AB_MAX_LOOKS; i++) {
        sum += ha_ab_look_alpha(1, i);
        assert_true(ha_ab_look_alpha(1, i) > 0);
        assert_true(i == 0 || ha_ab_look_rounds[i] > ha_ab_look_rounds[i - 1]);
    }
    assert_true(fabs(sum - 1) < 1e-12);
    assert_true(ha_ab_look_alpha(1, HA_AB_MAX_LOOKS) == 0);
    assert_int_equal(ha_ab_look_rounds[HA_AB_MAX_LOOKS - 1], HA_AB_MAX_ROUNDS);
}

/* An A/A session stopped at whatever look decides it flags any row in at
 * most alpha of sessions (1 %; 2 % allows for 400 draws), with a session
 * level, round states and slow processes in the model. */
static void an_aa_session_flags_at_most_alpha_whatever_look_it_stops_at(void **state)
{
    (void)state;
    unsigned long long s = 0x1234567ull;
    ha_ab_row out[ROWS];
    size_t flagged = 0, same = 0, early = 0;
    for (int i = 0; i < SESSIONS; i++) {
        int look = session(&s, &busy, out);
        early += look < HA_AB_MAX_LOOKS - 1;
        bool any = false;
        for (size_t r = 0; r < ROWS; r++) {
            any |= out[r].outcome == HA_AB_REGRESSION || out[r].outcome == HA_AB_IMPROVEMENT;
            same += out[r].outcome == HA_AB_SAME_ROW;
        }
        flagged += any;
    }
    print_message("A/A: %zu of %d sessions flagged a row; %zu stopped before the last look; %.1f %% rows same\n",
                  flagged, SESSIONS, early, 100.0 * (double)same / (SESSIONS * ROWS));
    assert_true(flagged <= SESSIONS / 50);
    assert_true(early > 0); /* the sequential stop is exercised, not only the last look */
}

/* On a steady machine an A/A session shows at least 90 % of its rows the
 * same within +-10 % (the goal; on the busy model it does not yet:
 * docs/gate.md). */
static void a_steady_aa_session_shows_its_rows_the_same(void **state)
{
    (void)state;
    unsigned long long s = 4242;
    ha_ab_row out[ROWS];
    size_t same = 0;
    for (int i = 0; i < SESSIONS / 4; i++) {
        session(&s, &quiet, out);
        for (size_t r = 0; r < ROWS; r++)
            same += out[r].outcome == HA_AB_SAME_ROW;
    }
    print_message("steady A/A: %.1f %% rows same\n", 100.0 * (double)same / (SESSIONS / 4 * ROWS));
    assert_true(same >= (size_t)(0.9 * SESSIONS / 4 * ROWS));
}

/* Looking at every look with the whole alpha (no spending) would flag
 * more: the spending is what holds the rate, and this shows the test can
 * tell. */
static void peeking_without_spending_flags_more_than_spending(void **state)
{
    (void)state;
    /* A noisier model, so both rates are large enough to compare. */
    model m = {0.06, 0.05, 0.10, 1.3, 1.045, ROWS};
    unsigned long long s1 = 99, s2 = 99;
    ha_ab_row out[ROWS];
    size_t spent = 0, naive = 0;
    static double a[ROWS * HA_AB_MAX_ROUNDS], b[ROWS * HA_AB_MAX_ROUNDS];
    for (int i = 0; i < 200; i++) {
        spent += session(&s1, &m, out) >= 0 && out[0].outcome == HA_AB_REGRESSION;
        /* the same draws, judged at every look with the first look's rule
         * over and over (alpha share 0.1 each time, up to 4 times) */
        double level = exp(0.3 * normal(&s2));
        bool any = false;
        int k = 0;
        for (int look = 0; look < HA_AB_MAX_LOOKS; look++) {
            for (; k < ha_ab_look_rounds[look]; k++)
                one_round(&s2, &m, level, k, a, b);
            for (size_t j = (size_t)k; j < HA_AB_MAX_ROUNDS; j++)
                for (size_t r = 0; r < ROWS; r++)
                    a[r * HA_AB_MAX_ROUNDS + j] = b[r * HA_AB_MAX_ROUNDS + j] = NAN;
            assert_true(judge(a, b, ROWS, HA_AB_MAX_ROUNDS, HA_AB_MAX_LOOKS - 1, out) >= 0);
            any |= out[0].outcome == HA_AB_REGRESSION;
        }
        naive += any;
    }
    print_message("+4.5 %% at the threshold: spent %zu, every look at the last look's alpha %zu of 200\n", spent, naive);
    assert_true(naive >= spent);
}

/* B slowed +10 % on 8 rows (one path) of a steady machine: every one of
 * them flagged in at least 95 % of sessions; no other row flagged beyond
 * alpha. */
static void a_ten_percent_path_is_flagged(void **state)
{
    (void)state;
    model m = quiet;
    m.change = 1.10;
    m.changed = 8;
    unsigned long long s = 77;
    ha_ab_row out[ROWS];
    size_t caught = 0, wrong = 0;
    for (int i = 0; i < SESSIONS; i++) {
        session(&s, &m, out);
        for (size_t r = 0; r < ROWS; r++) {
            bool flag = out[r].outcome == HA_AB_REGRESSION;
            caught += r < m.changed && flag;
            wrong += r >= m.changed && (flag || out[r].outcome == HA_AB_IMPROVEMENT);
        }
    }
    print_message("+10 %%: %zu of %d slowed rows flagged, %zu other rows flagged\n", caught, SESSIONS * 8, wrong);
    assert_true(caught >= (size_t)(0.95 * SESSIONS * 8));
    assert_true(wrong <= SESSIONS / 50);
}

/* +3 %: below the threshold (+4 %), flagged in at most alpha of sessions. */
static void three_percent_is_flagged_on_none(void **state)
{
    (void)state;
    model m = busy;
    m.change = 1.03;
    m.changed = 8;
    unsigned long long s = 31337;
    ha_ab_row out[ROWS];
    size_t flagged = 0;
    for (int i = 0; i < SESSIONS; i++) {
        session(&s, &m, out);
        bool any = false;
        for (size_t r = 0; r < ROWS; r++)
            any |= out[r].outcome == HA_AB_REGRESSION;
        flagged += any;
    }
    print_message("+3 %%: %zu of %d sessions flagged a row\n", flagged, SESSIONS);
    assert_true(flagged <= SESSIONS / 50);
}

/* One A process x3 on every row, B +30 % on every row: the pair is left
 * out as an outlier and the change is flagged on every row, not hidden. */
static void a_process_three_times_slower_does_not_hide_a_change(void **state)
{
    (void)state;
    double a[ROWS * 8], b[ROWS * 8];
    unsigned long long s = 5;
    for (size_t r = 0; r < ROWS; r++)
        for (int k = 0; k < 8; k++) {
            a[r * 8 + k] = 100 * exp(0.02 * normal(&s)) * (k == 3 ? 3 : 1);
            b[r * 8 + k] = 130 * exp(0.02 * normal(&s));
        }
    ha_ab_row out[ROWS];
    assert_true(judge(a, b, ROWS, 8, 1, out) == ROWS);
    for (size_t r = 0; r < ROWS; r++) {
        assert_int_equal(out[r].outcome, HA_AB_REGRESSION);
        assert_int_equal(out[r].e.outliers, 1);
        assert_int_equal(out[r].e.n, 7);
    }
}

/* A round whose process died (NaN) is no pair; fewer than four pairs are
 * too few, never a verdict. */
static void missing_pairs_are_left_out_and_too_few_is_said(void **state)
{
    (void)state;
    double a[6] = {100, NAN, 101, 99, 100, -1}, b[6] = {110, 111, NAN, 109, 110, 110};
    ha_ab_est p;
    assert_int_equal(ha_ab_paired(a, b, 6, &p), -1);
    assert_int_equal(p.n, 3);
    ha_ab_row out[1];
    assert_int_equal(judge(a, b, 1, 6, 0, out), 0);
    assert_int_equal(out[0].outcome, HA_AB_TOO_FEW);
    assert_false(ha_ab_decided(out[0].outcome));
    double c[5] = {100, 100.5, 99.5, 100.2, 99.8}, d[5] = {100.1, 100.4, 99.6, 100.3, 99.7};
    assert_int_equal(ha_ab_paired(c, d, 5, &p), 0);
    assert_int_equal(p.n, 5);
    assert_true(fabs(p.r.df - 4) < 1e-12 && fabs(p.r.d) < 0.01);
    int one = 1;
    assert_int_equal(ha_ab_family(&p, &one, 1, 0, out), 0);
    assert_true(out[0].e.r.lo < 1 && out[0].e.r.hi > 1);
}

/* Steady processes: a side's processes whose syscall loop lies more than
 * 10 % above the steadiest of both sides are left out, whatever their row
 * says; the rest, divided by their loop, are compared by Welch. Half of
 * each side in a slow state (x1.6 on the row and x1.3 on the loop) with B
 * +10 %: flagged on the steady ones; the slow ones, kept, would hide it. */
static void a_steady_row_leaves_out_its_slow_processes(void **state)
{
    (void)state;
    unsigned long long s = 8;
    double a[24], ia[24], b[24], ib[24];
    for (int i = 0; i < 24; i++) {
        bool slow_a = i % 2, slow_b = i % 3 == 0;
        ia[i] = 90 * (slow_a ? 1.3 : 1) * exp(0.01 * normal(&s));
        ib[i] = 90 * (slow_b ? 1.3 : 1) * exp(0.01 * normal(&s));
        a[i] = 500 * (slow_a ? 1.6 : 1) * ia[i] / 90 * exp(0.02 * normal(&s));
        b[i] = 550 * (slow_b ? 1.6 : 1) * ib[i] / 90 * exp(0.02 * normal(&s));
    }
    ha_ab_est e;
    assert_int_equal(ha_ab_steady(a, ia, 24, b, ib, 24, &e), 0);
    assert_int_equal(e.n, 12);
    assert_int_equal(e.n_b, 16);
    assert_int_equal(e.outliers, 20);
    assert_true(fabs(e.r.ratio - 1.10) < 0.03);
    int one = 1;
    ha_ab_row out[1];
    assert_int_equal(ha_ab_family(&e, &one, 1, 3, out), 1);
    assert_int_equal(out[0].outcome, HA_AB_REGRESSION);
    /* Too few steady processes on a side: too few, never a verdict. */
    for (int i = 0; i < 24; i++)
        ib[i] = 200;
    assert_int_equal(ha_ab_steady(a, ia, 24, b, ib, 24, &e), -1);
}

/* The steady route in whole A/A sessions: processes in slow states that
 * come and go (a third, x1.3 on the loop and x1.6 on the rows), a session
 * level, stops at the first look that decides every row: any row flagged
 * in at most alpha of sessions. */
static void steady_aa_sessions_flag_at_most_alpha(void **state)
{
    (void)state;
    unsigned long long s = 2026;
    enum { N = HA_AB_MAX_ROUNDS };
    size_t flagged = 0, same = 0;
    for (int it = 0; it < SESSIONS; it++) {
        double ia[N], ib[N], a[ROWS][N], b[ROWS][N], level = exp(0.3 * normal(&s));
        for (int k = 0; k < N; k++) {
            bool sa = uniform(&s) < 1.0 / 3, sb = uniform(&s) < 1.0 / 3;
            double oa = exp(0.03 * normal(&s)), ob = exp(0.03 * normal(&s));
            ia[k] = 90 * level * (sa ? 1.3 : 1) * exp(0.01 * normal(&s));
            ib[k] = 90 * level * (sb ? 1.3 : 1) * exp(0.01 * normal(&s));
            for (int r = 0; r < ROWS; r++) {
                a[r][k] = (100 + r) * ia[k] * (sa ? 1.25 : 1) * oa * exp(0.01 * normal(&s));
                b[r][k] = (100 + r) * ib[k] * (sb ? 1.25 : 1) * ob * exp(0.01 * normal(&s));
            }
        }
        ha_ab_row out[ROWS];
        for (int look = 0; look < HA_AB_MAX_LOOKS; look++) {
            size_t k = (size_t)ha_ab_look_rounds[look];
            ha_ab_est est[ROWS];
            int ok[ROWS];
            for (int r = 0; r < ROWS; r++)
                ok[r] = ha_ab_steady(a[r], ia, k, b[r], ib, k, &est[r]) == 0;
            assert_true(ha_ab_family(est, ok, ROWS, look, out) >= 0);
            bool all = true;
            for (int r = 0; r < ROWS; r++)
                all &= ha_ab_decided(out[r].outcome) != 0;
            if (all)
                break;
        }
        bool any = false;
        for (int r = 0; r < ROWS; r++) {
            any |= out[r].outcome == HA_AB_REGRESSION || out[r].outcome == HA_AB_IMPROVEMENT;
            same += out[r].outcome == HA_AB_SAME_ROW;
        }
        flagged += any;
    }
    print_message("steady A/A: %zu of %d sessions flagged a row; %.1f %% rows same\n", flagged, SESSIONS,
                  100.0 * (double)same / (SESSIONS * ROWS));
    assert_true(flagged <= SESSIONS / 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_looks_spend_alpha_once),
        cmocka_unit_test(an_aa_session_flags_at_most_alpha_whatever_look_it_stops_at),
        cmocka_unit_test(a_steady_aa_session_shows_its_rows_the_same),
        cmocka_unit_test(peeking_without_spending_flags_more_than_spending),
        cmocka_unit_test(a_ten_percent_path_is_flagged),
        cmocka_unit_test(three_percent_is_flagged_on_none),
        cmocka_unit_test(a_process_three_times_slower_does_not_hide_a_change),
        cmocka_unit_test(missing_pairs_are_left_out_and_too_few_is_said),
        cmocka_unit_test(a_steady_row_leaves_out_its_slow_processes),
        cmocka_unit_test(steady_aa_sessions_flag_at_most_alpha),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
