/* The A/B session's judgement and its sequential looks (common/abgate.h),
 * on synthetic sessions with known answers: a seeded generator, so every
 * test repeats exactly. A process's value of a row is
 *   session level (the machine start: the same for both sides)
 *   x a state shared by the round's two processes (it comes and goes)
 *   x its own offset (layout, CPU)
 *   x a slow state of its host core, in some processes: its syscall loop
 *     x1.3, and each row as far as the row follows the state (row r % 3:
 *     wholly, half, not at all, as queries, copies and reads do)
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

#define PROCS (2 * HA_AB_MAX_ROUNDS)
/* Every row's processes, A at 2k and B at 2k + 1 for round k. */
static ha_ab_obs obs[ROWS][PROCS];

/* How far row r follows the host core's state. */
static double follows(size_t r) { return r % 3 == 0 ? 1 : r % 3 == 1 ? 0.5 : 0; }

static void one_process(unsigned long long *s, const model *m, double level, double shared, size_t at, int is_b)
{
    bool slow = uniform(s) < m->slow_share;
    double off = exp(m->proc_sd * normal(s)), sys = 90 * level * (slow ? 1.3 : 1) * exp(0.01 * normal(s));
    double can = 2 * level * exp(0.005 * normal(s));
    for (size_t r = 0; r < ROWS; r++) {
        double base = level * (1 + (double)r), state = slow ? pow(m->slow_factor, follows(r)) : 1;
        obs[r][at] = (ha_ab_obs){base * shared * state * off * exp(0.005 * normal(s)) *
                                     (is_b && r < m->changed ? m->change : 1),
                                 sys, can, is_b};
    }
}

/* Round k of both sides. */
static void one_round(unsigned long long *s, const model *m, double level, int k)
{
    double shared = exp(m->round_sd * normal(s));
    one_process(s, m, level, shared, 2 * (size_t)k, 0);
    one_process(s, m, level, shared, 2 * (size_t)k + 1, 1);
}

/* The first `rounds` rounds of every row, then the family at look. */
static long judge(size_t rows, size_t rounds, int look, ha_ab_row *out)
{
    ha_ab_est est[ROWS];
    int ok[ROWS];
    assert_true(rows <= ROWS);
    for (size_t r = 0; r < rows; r++)
        ok[r] = ha_ab_adjusted(obs[r], 2 * rounds, HA_AB_USE_BOTH, &est[r]) == 0;
    return ha_ab_family(est, ok, rows, look, out);
}

/* A whole session, as bench/ab.c runs it: rounds, a look at each of
 * ha_ab_look_rounds, a stop at the first look that settles every row.
 * The rows' outcomes at that look into out; the look's index. */
static int session(unsigned long long *s, const model *m, ha_ab_row *out)
{
    double level = exp(0.3 * normal(s));
    int k = 0;
    for (int look = 0; look < HA_AB_MAX_LOOKS; look++) {
        for (; k < ha_ab_look_rounds[look]; k++)
            one_round(s, m, level, k);
        assert_true(judge(ROWS, (size_t)k, look, out) >= 0);
        bool all = true;
        for (size_t r = 0; r < ROWS; r++)
            all &= ha_ab_settled(&out[r]) != 0;
        if (all)
            return look;
    }
    return HA_AB_MAX_LOOKS - 1;
}

/* Slow states that come and go (a third of the processes, x1.6 on the
 * rows that follow them), as on a busy cloud host; and a steady machine
 * without them. A round's two processes share little (1 %): on the H200
 * neighbours share a state no more than any two processes of the session
 * (results/ab-h200, tools/diag/ab_spread.py: pairs' standard errors no
 * smaller than the sides' own). */
static const model busy = {0.03, 0.01, 1.0 / 3, 1.6, 1, 0};
static const model quiet = {0.03, 0.01, 0, 1, 1, 0};

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
    /* O'Brien-Fleming-like: an early look spends less than a later one */
    for (int i = 1; i < HA_AB_MAX_LOOKS; i++)
        assert_true(ha_ab_look_alpha(1, i) > ha_ab_look_alpha(1, i - 1));
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
    model m = {0.15, 0.01, 1.0 / 3, 1.6, 1.08, ROWS};
    unsigned long long s1 = 99, s2 = 99;
    ha_ab_row out[ROWS];
    size_t spent = 0, naive = 0;
    for (int i = 0; i < 200; i++) {
        spent += session(&s1, &m, out) >= 0 && out[0].outcome == HA_AB_REGRESSION;
        /* the same draws, judged at every look with the last look's alpha
         * over and over (the last look's share each time, up to 4 times) */
        double level = exp(0.3 * normal(&s2));
        bool any = false;
        int k = 0;
        for (int look = 0; look < HA_AB_MAX_LOOKS; look++) {
            for (; k < ha_ab_look_rounds[look]; k++)
                one_round(&s2, &m, level, k);
            assert_true(judge(ROWS, (size_t)k, HA_AB_MAX_LOOKS - 1, out) >= 0);
            any |= out[0].outcome == HA_AB_REGRESSION;
        }
        naive += any;
    }
    print_message("+8 %%: spent %zu, every look at the last look's alpha %zu of 200\n", spent, naive);
    assert_true(naive > spent);
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

/* One A process x3 on every row (its instruments not), B +30 % on every
 * row: that process is left out as an outlier and the change is flagged
 * on every row, not hidden. */
static void a_process_three_times_slower_does_not_hide_a_change(void **state)
{
    (void)state;
    unsigned long long s = 5;
    model m = quiet;
    m.change = 1.3;
    m.changed = ROWS;
    for (int k = 0; k < 8; k++)
        one_round(&s, &m, 1, k);
    for (size_t r = 0; r < ROWS; r++)
        obs[r][6].v *= 3;
    ha_ab_row out[ROWS];
    assert_true(judge(ROWS, 8, 1, out) == ROWS);
    for (size_t r = 0; r < ROWS; r++) {
        assert_int_equal(out[r].outcome, HA_AB_REGRESSION);
        assert_int_equal(out[r].e.outliers, 1);
        assert_int_equal(out[r].e.n, 7);
        assert_int_equal(out[r].e.n_b, 8);
    }
}

/* A process that gave no value (NaN, not positive, an instrument missing)
 * is left out; fewer than four a side are too few, never a verdict. */
static void missing_processes_are_left_out_and_too_few_is_said(void **state)
{
    (void)state;
    ha_ab_obs o[10] = {{100, 90, 2, 0}, {110, 90, 2, 1}, {NAN, 90, 2, 0}, {111, 90, 2, 1}, {101, 90, NAN, 0},
                       {109, 90, 2, 1}, {99, 90, 2, 0},  {110, 90, 2, 1}, {-1, 90, 2, 0},  {110, 90, 2, 1}};
    ha_ab_est e;
    assert_int_equal(ha_ab_adjusted(o, 10, HA_AB_USE_BOTH, &e), -1);
    int zero = 0;
    ha_ab_row out[1];
    assert_int_equal(ha_ab_family(&e, &zero, 1, 0, out), 0);
    assert_int_equal(out[0].outcome, HA_AB_TOO_FEW);
    assert_false(ha_ab_decided(out[0].outcome));
    o[2].v = 100.5;
    o[4].can = 2;
    assert_int_equal(ha_ab_adjusted(o, 10, HA_AB_USE_BOTH, &e), 0);
    assert_int_equal(e.n, 4);
    assert_int_equal(e.n_b, 5);
    /* instruments that never moved add no column: intercept and side, 7 degrees of freedom */
    assert_true(fabs(e.r.df - 7) < 1e-12);
    assert_true(fabs(e.r.ratio - 1.10) < 0.01);
    assert_true(fabs(e.mean_a - pow(100 * 100.5 * 101 * 99, 0.25)) < 1e-9);
}

/* A row that follows the host core's state (x1.6 when the syscall loop is
 * x1.3), half of each side slow, B +10 %: the fit learns the slope and
 * flags the change; the same values judged without the instruments (both
 * held still) are too wide to. */
static void a_row_that_follows_the_state_is_adjusted(void **state)
{
    (void)state;
    unsigned long long s = 8;
    ha_ab_obs o[48];
    for (int i = 0; i < 48; i++) {
        int b = i % 2;
        bool slow = (i / 2) % 2; /* half of each side */
        double sys = 90 * (slow ? 1.3 : 1) * exp(0.01 * normal(&s));
        o[i] = (ha_ab_obs){500 * pow(sys / 90, log(1.6) / log(1.3)) * (b ? 1.10 : 1) * exp(0.01 * normal(&s)), sys,
                           2 * exp(0.003 * normal(&s)), b};
    }
    ha_ab_est e;
    assert_int_equal(ha_ab_adjusted(o, 48, HA_AB_USE_BOTH, &e), 0);
    assert_true(fabs(e.r.ratio - 1.10) < 0.02);
    int one = 1;
    ha_ab_row out[1];
    assert_int_equal(ha_ab_family(&e, &one, 1, HA_AB_MAX_LOOKS - 1, out), 1);
    assert_int_equal(out[0].outcome, HA_AB_REGRESSION);
    for (int i = 0; i < 48; i++)
        o[i].sys = o[i].can = 1;
    assert_int_equal(ha_ab_adjusted(o, 48, HA_AB_USE_BOTH, &e), 0);
    assert_int_equal(ha_ab_family(&e, &one, 1, HA_AB_MAX_LOOKS - 1, out), 0);
    assert_true(out[0].outcome != HA_AB_REGRESSION);
}

/* A row shown the same has its interval at the equivalence level, and a
 * row the session cannot tell from +-10 % is never the same. */
static void the_same_is_two_one_sided_tests(void **state)
{
    (void)state;
    ha_ab_est e = {.n = 20, .n_b = 20, .r = {.d = 0, .ratio = 1, .se = 0.03, .df = 36}};
    int one = 1;
    ha_ab_row out[1];
    int look = HA_AB_MAX_LOOKS - 1;
    double level = 1 - 2 * ha_ab_look_alpha(HA_AB_SAME_ALPHA, look);
    assert_int_equal(ha_ab_family(&e, &one, 1, look, out), 0);
    assert_int_equal(out[0].outcome, HA_AB_SAME_ROW);
    assert_true(fabs(out[0].level - level) < 1e-12);
    assert_true(out[0].e.r.hi < 1.10 && out[0].e.r.lo > 1 / 1.10);
    e.r.se = 0.06; /* t(0.965, 36) x 0.06 > log 1.1: cannot be shown */
    assert_int_equal(ha_ab_family(&e, &one, 1, look, out), 0);
    assert_true(out[0].outcome != HA_AB_SAME_ROW);
    e.r.se = 0.03; /* the first look spends less: the same interval is wider */
    assert_int_equal(ha_ab_family(&e, &one, 1, 0, out), 0);
    assert_true(out[0].level > level);
    /* the band is +-10 % as a ratio: its lower edge 1/1.1, not 0.9 */
    double t = ha_t_quantile(1 - (1 - level) / 2, 36);
    e.r.se = 0.03; /* too wide to flag beyond -4 % */
    e.r.d = log(0.905) + t * e.r.se; /* lo = 0.905: above 0.9, below 1/1.1 */
    e.r.ratio = exp(e.r.d);
    assert_int_equal(ha_ab_family(&e, &one, 1, look, out), 0);
    assert_true(out[0].outcome != HA_AB_SAME_ROW);
}

/* The outlier cut is HA_AB_OUTLIER_MADS robust sds (1.4826 MAD), not as
 * many MADs: a process 5 MADs out is kept, one 7 MADs out is left out. */
static void the_outlier_cut_is_in_robust_sds(void **state)
{
    (void)state;
    static const double spread[4] = {-1.5, -0.5, 0.5, 1.5}; /* x 0.05: the MAD 0.05 */
    ha_ab_obs o[49];
    for (int i = 0; i < 48; i++)
        o[i] = (ha_ab_obs){100 * exp(0.05 * spread[(i / 2) % 4]), 90, 2, i % 2};
    ha_ab_est e;
    o[48] = (ha_ab_obs){100 * exp(0.25), 90, 2, 0}; /* 5 MADs: 3.4 robust sds */
    assert_int_equal(ha_ab_adjusted(o, 49, HA_AB_USE_BOTH, &e), 0);
    assert_int_equal(e.outliers, 0);
    o[48].v = 100 * exp(0.35); /* 7 MADs: 4.7 robust sds */
    assert_int_equal(ha_ab_adjusted(o, 49, HA_AB_USE_BOTH, &e), 0);
    assert_int_equal(e.outliers, 1);
}

/* A row that follows the canary's state: the fit takes the canary too. */
static void a_row_that_follows_the_canary_is_adjusted(void **state)
{
    (void)state;
    unsigned long long s = 9;
    ha_ab_obs o[48];
    for (int i = 0; i < 48; i++) {
        int b = i % 2;
        bool slow = (i / 2) % 2;
        double can = 2 * (slow ? 1.3 : 1) * exp(0.01 * normal(&s));
        o[i] = (ha_ab_obs){500 * pow(can / 2, log(1.6) / log(1.3)) * (b ? 1.10 : 1) * exp(0.01 * normal(&s)),
                           90 * exp(0.003 * normal(&s)), can, b};
    }
    ha_ab_est e;
    int one = 1;
    ha_ab_row out[1];
    assert_int_equal(ha_ab_adjusted(o, 48, HA_AB_USE_BOTH, &e), 0);
    assert_true(fabs(e.r.ratio - 1.10) < 0.02);
    assert_int_equal(ha_ab_family(&e, &one, 1, HA_AB_MAX_LOOKS - 1, out), 1);
    assert_int_equal(ha_ab_adjusted(o, 48, HA_AB_USE_SYSCALL, &e), 0); /* without it: too wide to flag */
    assert_int_equal(ha_ab_family(&e, &one, 1, HA_AB_MAX_LOOKS - 1, out), 0);
}

/* B moves the syscall loop (x0.9) and no row: a fit that trusts the
 * instrument lends B's move to every row that follows it (a false
 * regression); the move is found, and the fit without that instrument
 * flags nothing. The rows follow the state as in the test above. */
static void an_instrument_side_b_moved_is_found_and_left_out(void **state)
{
    (void)state;
    unsigned long long s = 21;
    ha_ab_obs o[48];
    double sa[24], sb[24];
    for (int i = 0; i < 48; i++) {
        int b = i % 2;
        bool slow = (i / 2) % 2;
        double sys = 90 * (slow ? 1.3 : 1) * exp(0.01 * normal(&s));
        o[i] = (ha_ab_obs){500 * pow(sys / 90, log(1.6) / log(1.3)) * exp(0.01 * normal(&s)), sys * (b ? 0.9 : 1),
                           2 * exp(0.003 * normal(&s)), b};
        (b ? sb : sa)[i / 2] = o[i].sys;
    }
    ha_ab_est e;
    int one = 1;
    ha_ab_row out[1];
    assert_int_equal(ha_ab_adjusted(o, 48, HA_AB_USE_BOTH, &e), 0);
    assert_true(e.r.ratio > 1.15); /* slope 1.8 x the move: what the check is there to stop */
    ha_proc_ratio r;
    int moved = 0;
    assert_int_equal(ha_ab_instrument_shift(sa, 24, sb, 24, &r, &moved), 0);
    assert_true(moved);
    assert_true(fabs(r.ratio - 0.9) < 0.05);
    assert_int_equal(ha_ab_adjusted(o, 48, HA_AB_USE_CANARY, &e), 0);
    assert_true(fabs(e.r.ratio - 1) < 0.1);
    assert_int_equal(ha_ab_family(&e, &one, 1, HA_AB_MAX_LOOKS - 1, out), 0);
    assert_true(out[0].outcome != HA_AB_REGRESSION && out[0].outcome != HA_AB_IMPROVEMENT);
    /* an A/A session's instruments: not moved in (about) 99 of 100 sessions */
    int found = 0;
    for (int k = 0; k < 200; k++) {
        for (int i = 0; i < 24; i++) {
            sa[i] = 90 * exp(0.03 * normal(&s));
            sb[i] = 90 * exp(0.03 * normal(&s));
        }
        assert_int_equal(ha_ab_instrument_shift(sa, 24, sb, 24, &r, &moved), 0);
        found += moved;
    }
    assert_true(found <= 8);
    assert_int_equal(ha_ab_instrument_shift(sa, HA_GATE_MIN_PROCS - 1, sb, 24, &r, &moved), -1);
}

/* The session as a table (ha_ab_judge): side B moved the syscall loop
 * (x0.9) and no row; the judgement finds it, fits without it, and flags
 * nothing; the same table with B +10 % on the row flags it. */
static void a_table_is_judged_without_the_instrument_b_moved(void **state)
{
    (void)state;
    unsigned long long s = 33;
    enum { P = 48 };
    double v[2 * P], sys[P], can[P];
    unsigned char is_b[P];
    for (int i = 0; i < P; i++) {
        is_b[i] = (unsigned char)(i % 2);
        bool slow = (i / 2) % 2;
        double x = 90 * (slow ? 1.3 : 1) * exp(0.01 * normal(&s));
        v[i] = 500 * pow(x / 90, log(1.6) / log(1.3)) * exp(0.01 * normal(&s)); /* row 0: B unchanged */
        v[P + i] = v[i] * (is_b[i] ? 1.10 : 1);                                  /* row 1: B +10 % */
        sys[i] = x * (is_b[i] ? 0.9 : 1);
        can[i] = 2 * exp(0.003 * normal(&s));
    }
    ha_ab_table t = {2, P, v, sys, can, is_b};
    ha_ab_row out[2];
    unsigned use = 99;
    ha_ab_instrument inst[2];
    assert_true(ha_ab_judge(&t, HA_AB_MAX_LOOKS - 1, out, &use, inst) >= 0);
    assert_true(inst[0].judged && inst[0].moved);
    assert_false(inst[1].moved);
    assert_int_equal(use, HA_AB_USE_CANARY);
    assert_true(out[0].outcome != HA_AB_REGRESSION && out[0].outcome != HA_AB_IMPROVEMENT);
    assert_true(fabs(out[1].e.r.ratio - 1.10) < 0.1);
}

/* Shown the same, its interval still reaching past the flag threshold: in
 * the zone, not settled (the session goes on); within the threshold it
 * is; a flagged row is settled too. */
static void a_row_reaching_past_the_threshold_is_not_settled(void **state)
{
    (void)state;
    ha_ab_est e[3] = {
        {.n = 20, .n_b = 20, .r = {.d = log(1.03), .ratio = 1.03, .se = 0.01, .df = 36}},
        {.n = 20, .n_b = 20, .r = {.d = 0, .ratio = 1, .se = 0.005, .df = 36}},
        {.n = 20, .n_b = 20, .r = {.d = log(1.2), .ratio = 1.2, .se = 0.01, .df = 36}},
    };
    int ok[3] = {1, 1, 1};
    ha_ab_row out[3];
    assert_int_equal(ha_ab_family(e, ok, 3, HA_AB_MAX_LOOKS - 1, out), 1);
    assert_int_equal(out[0].outcome, HA_AB_SAME_ROW);
    assert_true(out[0].in_zone && out[0].e.r.hi > 1 + HA_AB_THRESHOLD);
    assert_false(ha_ab_settled(&out[0]));
    assert_int_equal(out[1].outcome, HA_AB_SAME_ROW);
    assert_false(out[1].in_zone);
    assert_true(ha_ab_settled(&out[1]));
    assert_int_equal(out[2].outcome, HA_AB_REGRESSION);
    assert_true(ha_ab_settled(&out[2]));
    e[0].r.d = -log(1.03); /* and the mirror */
    assert_int_equal(ha_ab_family(e, ok, 1, HA_AB_MAX_LOOKS - 1, out), 0);
    assert_true(out[0].in_zone && out[0].e.r.lo < 1 / (1 + HA_AB_THRESHOLD));
}

/* The budget: no stop before the fewest rounds; a stop when the next
 * round, as long as the longest so far and a tenth, would end past it,
 * not only once the budget is spent; and what the first look needs. */
static void the_budget_counts_the_next_round(void **state)
{
    (void)state;
    assert_false(ha_ab_budget_ends(HA_AB_MIN_ROUNDS - 1, 500, 10, 140)); /* the fewest rounds first */
    assert_false(ha_ab_budget_ends(HA_AB_MIN_ROUNDS, 120, 10, 140));      /* 120 + 11 fits */
    assert_true(ha_ab_budget_ends(HA_AB_MIN_ROUNDS, 130, 10, 140));       /* 130 + 11 does not */
    assert_false(ha_ab_budget_ends(HA_AB_MIN_ROUNDS, 128, 10, 140));      /* 139 fits */
    assert_true(ha_ab_budget_for_first_look(4) >= 4.0 * ha_ab_look_rounds[0]);
    assert_true(ha_ab_budget_for_first_look(4) <= 1.1 * 4 * ha_ab_look_rounds[0] + 1);
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
        cmocka_unit_test(missing_processes_are_left_out_and_too_few_is_said),
        cmocka_unit_test(a_row_that_follows_the_state_is_adjusted),
        cmocka_unit_test(the_same_is_two_one_sided_tests),
        cmocka_unit_test(an_instrument_side_b_moved_is_found_and_left_out),
        cmocka_unit_test(the_outlier_cut_is_in_robust_sds),
        cmocka_unit_test(a_row_that_follows_the_canary_is_adjusted),
        cmocka_unit_test(a_row_reaching_past_the_threshold_is_not_settled),
        cmocka_unit_test(a_table_is_judged_without_the_instrument_b_moved),
        cmocka_unit_test(the_budget_counts_the_next_round),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
