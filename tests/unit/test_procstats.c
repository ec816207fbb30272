/* The process-level statistics and the gate's rule, on synthetic runs with
 * known answers: two-level samples (a process offset, then blocks around
 * it) from a seeded generator, so every test repeats exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdbool.h>

#include "procstats.h"
#include "stats.h"

#define ROWS 85 /* rows a pair judges on the H200 */
#define K 8
#define BLOCKS 4

static double uniform(unsigned long long *s) { return ((double)(ha_xorshift64(s) >> 11) + 0.5) / 9007199254740992.0; }

static double normal(unsigned long long *s)
{
    return sqrt(-2 * log(uniform(s))) * cos(6.283185307179586 * uniform(s));
}

/* One run of one row: k processes, each the median of its blocks; the
 * process offset has spread sp, the blocks sb (both as log sd). */
static ha_proc_est run(unsigned long long *s, double truth, double sp, double sb, size_t k)
{
    double v[64];
    for (size_t p = 0; p < k; p++) {
        double off = sp * normal(s), b[BLOCKS];
        for (int j = 0; j < BLOCKS; j++)
            b[j] = truth * exp(off + sb * normal(s));
        v[p] = ha_proc_value(b, BLOCKS);
    }
    ha_proc_est e;
    assert_int_equal(ha_proc_summary(v, k, &e), 0);
    return e;
}

static const ha_gate_rule rule = {0.01, ROWS, 0.05, 0.15, 0.95, 0};

static void t_quantiles_match_the_tables(void **st)
{
    (void)st;
    assert_float_equal(ha_t_quantile(0.975, 10), 2.228139, 1e-5);
    assert_float_equal(ha_t_quantile(0.995, 4), 4.604095, 1e-5);
    assert_float_equal(ha_t_quantile(0.975, 1), 12.706205, 1e-4);
    assert_float_equal(ha_t_quantile(0.95, 7), 1.894579, 1e-5);
    assert_float_equal(ha_t_quantile(0.95, 30), 1.697261, 1e-5);
    double mid = ha_t_quantile(0.95, 7.5); /* Welch's df is not whole */
    assert_true(mid < 1.894579 && mid > 1.859548);
    assert_float_equal(ha_t_quantile(0.975, 1e7), 1.959964, 1e-5);
    assert_float_equal(ha_t_quantile(0.025, 10), -2.228139, 1e-5);
    assert_float_equal(ha_t_cdf(0, 3), 0.5, 1e-12);
    assert_float_equal(ha_t_cdf(2.228139, 10), 0.975, 1e-6);
    assert_true(isnan(ha_t_quantile(1, 5)));
    assert_float_equal(ha_f_sf(3.3258345, 5, 10), 0.05, 1e-6); /* F(5, 10) at its 95 % point */
    assert_float_equal(ha_f_sf(2.228139 * 2.228139, 1, 10), 0.05, 1e-6); /* F(1, d) is t(d) squared */
    assert_float_equal(ha_f_sf(0, 3, 4), 1, 0);
    assert_true(isnan(ha_f_sf(1, 0, 4)));
    assert_true(isnan(ha_t_quantile(0.5, 0)));
}

static void the_estimate_is_the_geometric_mean_of_process_medians(void **st)
{
    (void)st;
    const double blocks[] = {5, 1, 3, 100}; /* median 4 */
    assert_float_equal(ha_proc_value(blocks, 4), 4, 1e-12);
    const double v[] = {2, 8, -1, NAN}; /* the bad values are left out */
    ha_proc_est e;
    assert_int_equal(ha_proc_summary(v, 4, &e), 0);
    assert_int_equal(e.k, 2);
    assert_float_equal(e.gmean, 4, 1e-12);
    assert_float_equal(e.sd_log, sqrt(2) * log(2), 1e-12);
    const double none[] = {0, -3};
    assert_int_equal(ha_proc_summary(none, 2, &e), -1);
}

/* The fast state's value is the least block, NaN blocks passed over, and
 * NaN only when there is no block. */
static void the_fast_value_is_the_least_block(void **st)
{
    (void)st;
    const double mixed[] = {95.0, 55.0, NAN, 97.0};
    assert_true(ha_proc_fast_value(mixed, 4) == 55.0);
    const double first_nan[] = {NAN, 60.0};
    assert_true(ha_proc_fast_value(first_nan, 2) == 60.0);
    assert_true(isnan(ha_proc_fast_value(mixed, 0)));
    const double none[] = {NAN};
    assert_true(isnan(ha_proc_fast_value(none, 1)));
}

static void welch_interval_by_hand(void **st)
{
    (void)st;
    /* logs: a = {0, 0.1, 0.2} (mean 0.1, sd 0.1); b = {0.2, 0.3, 0.4} (mean 0.3, sd 0.1):
     * d = 0.2, se = sqrt(0.01/3 * 2), df = 4, t(0.975, 4) = 2.776445 */
    const double a[] = {1, exp(0.1), exp(0.2)}, b[] = {exp(0.2), exp(0.3), exp(0.4)};
    ha_proc_est ea, eb;
    ha_proc_summary(a, 3, &ea);
    ha_proc_summary(b, 3, &eb);
    ha_proc_ratio r;
    assert_int_equal(ha_proc_compare(&ea, &eb, 0.95, &r), 0);
    double se = sqrt(0.02 / 3);
    assert_float_equal(r.df, 4, 1e-9);
    assert_float_equal(r.ratio, exp(0.2), 1e-12);
    assert_float_equal(r.lo, exp(0.2 - 2.776445 * se), 1e-5);
    assert_float_equal(r.hi, exp(0.2 + 2.776445 * se), 1e-5);
}

static void one_process_is_too_few(void **st)
{
    (void)st;
    unsigned long long s = 7;
    ha_proc_est a = run(&s, 100, 0.02, 0.01, 1), b = run(&s, 100, 0.02, 0.01, K);
    ha_gate_row g;
    ha_gate_judge(&rule, &a, &b, &g);
    assert_int_equal(g.outcome, HA_GATE_TOO_FEW);
}

/* A +15 % change on one row whose process spread (1.5 %) eight
 * processes resolve. */
static void a_planted_fifteen_percent_is_found(void **st)
{
    (void)st;
    unsigned long long s = 11;
    int found = 0, tries = 200;
    for (int i = 0; i < tries; i++) {
        ha_proc_est a = run(&s, 100, 0.015, 0.01, K), b = run(&s, 115, 0.015, 0.01, K);
        ha_gate_row g;
        ha_gate_judge(&rule, &a, &b, &g);
        assert_int_not_equal(g.outcome, HA_GATE_MONITOR);
        found += g.outcome == HA_GATE_REGRESSION;
    }
    print_message("+15 %% at process spread 1.5 %%: %d of %d flagged\n", found, tries);
    assert_true(found >= tries * 95 / 100);
}

/* 200 A/A pairs of 85 rows, each row with its own process spread (1 to
 * 8 %): the family-wise rate says at most 1 % of pairs flag anything. */
static void two_hundred_aa_pairs_stay_within_the_family_rate(void **st)
{
    (void)st;
    unsigned long long s = 13;
    int flagged_pairs = 0, inconclusive_pairs = 0, monitor = 0, gated = 0;
    for (int pair = 0; pair < 200; pair++) {
        bool flagged = false, inconclusive = false;
        for (int row = 0; row < ROWS; row++) {
            double sp = 0.01 + 0.07 * (row % 8) / 7.0;
            ha_proc_est a = run(&s, 50 + row, sp, 0.01, K), b = run(&s, 50 + row, sp, 0.01, K);
            ha_gate_row g;
            ha_gate_judge(&rule, &a, &b, &g);
            flagged |= g.outcome == HA_GATE_REGRESSION || g.outcome == HA_GATE_IMPROVEMENT;
            inconclusive |= g.outcome == HA_GATE_INCONCLUSIVE;
            monitor += g.outcome == HA_GATE_MONITOR;
            gated += g.outcome != HA_GATE_MONITOR;
        }
        flagged_pairs += flagged;
        inconclusive_pairs += inconclusive;
    }
    print_message("200 A/A pairs: %d flagged, %d inconclusive; %d rows gated, %d monitor-only\n", flagged_pairs,
                  inconclusive_pairs, gated, monitor);
    assert_true(flagged_pairs <= 2);
    assert_true(inconclusive_pairs <= 20);
    assert_true(gated > 0 && monitor > 0); /* both kinds of row occur at these spreads */
}

/* The family bound alone, with no threshold to hide behind: a row is
 * flagged as soon as its interval leaves 1. Bonferroni keeps an A/A pair
 * of 85 rows clean 99 % of the time; one interval per row at 99 % would
 * flag about 57 % of pairs. */
static void the_family_bound_holds_with_no_threshold(void **st)
{
    (void)st;
    const ha_gate_rule bare = {0.01, ROWS, 0, 0.15, 0.95, 0};
    unsigned long long s = 29;
    int flagged_pairs = 0;
    for (int pair = 0; pair < 200; pair++) {
        bool flagged = false;
        for (int row = 0; row < ROWS; row++) {
            ha_proc_est a = run(&s, 80, 0.01, 0.005, K), b = run(&s, 80, 0.01, 0.005, K);
            ha_gate_row g;
            ha_gate_judge(&bare, &a, &b, &g);
            flagged |= g.outcome == HA_GATE_REGRESSION || g.outcome == HA_GATE_IMPROVEMENT;
        }
        flagged_pairs += flagged;
    }
    print_message("no threshold: %d of 200 A/A pairs flagged\n", flagged_pairs);
    assert_true(flagged_pairs <= 6); /* 1 % of 200, with room for the draw */
}

/* Big process noise, tiny block noise: a block-level interval takes the
 * blocks for independent evidence and finds changes that are not there;
 * the process-level rule does not. */
static void process_noise_is_not_mistaken_for_a_change(void **st)
{
    (void)st;
    unsigned long long s = 17;
    int process_flags = 0, block_flags = 0;
    for (int i = 0; i < 200; i++) {
        double va[K * BLOCKS], vb[K * BLOCKS], pa[K], pb[K];
        double *v[2] = {va, vb}, *p[2] = {pa, pb};
        for (int side = 0; side < 2; side++)
            for (int k = 0; k < K; k++) {
                double off = 0.10 * normal(&s);
                for (int j = 0; j < BLOCKS; j++)
                    v[side][k * BLOCKS + j] = 100 * exp(off + 0.005 * normal(&s));
                p[side][k] = ha_proc_value(&v[side][k * BLOCKS], BLOCKS);
            }
        ha_proc_est a, b, ba, bb;
        ha_proc_summary(pa, K, &a);
        ha_proc_summary(pb, K, &b);
        ha_proc_summary(va, K * BLOCKS, &ba); /* every block taken as one unit */
        ha_proc_summary(vb, K * BLOCKS, &bb);
        ha_gate_row g;
        ha_gate_judge(&rule, &a, &b, &g);
        process_flags += g.outcome == HA_GATE_REGRESSION || g.outcome == HA_GATE_IMPROVEMENT;
        ha_proc_ratio r;
        ha_proc_compare(&ba, &bb, 0.95, &r);
        block_flags += r.lo > 1 || r.hi < 1;
    }
    print_message("process spread 10 %%: process-level %d, block-level %d of 200 flagged\n", process_flags,
                  block_flags);
    assert_int_equal(process_flags, 0);
    assert_true(block_flags > 40); /* the mistake the rule avoids is real in this data */
}

/* A +3 % change on every row is inside the 5 % threshold: flagged nowhere. */
static void plus_three_percent_is_flagged_nowhere(void **st)
{
    (void)st;
    unsigned long long s = 19;
    int flags = 0;
    for (int pair = 0; pair < 50; pair++)
        for (int row = 0; row < ROWS; row++) {
            ha_proc_est a = run(&s, 100, 0.015, 0.01, K), b = run(&s, 103, 0.015, 0.01, K);
            ha_gate_row g;
            ha_gate_judge(&rule, &a, &b, &g);
            flags += g.outcome == HA_GATE_REGRESSION;
        }
    assert_int_equal(flags, 0);
}

static void a_row_that_cannot_resolve_the_goal_is_monitor_only(void **st)
{
    (void)st;
    unsigned long long s = 23;
    ha_proc_est a = run(&s, 100, 0.12, 0.01, K), b = run(&s, 100, 0.12, 0.01, K);
    ha_gate_row g;
    ha_gate_judge(&rule, &a, &b, &g);
    assert_int_equal(g.outcome, HA_GATE_MONITOR);
    assert_true(g.detectable > 0.15);
}

/* One pair of ROWS rows through ha_gate_family: row r has process spread
 * sp(r) and changes by shift[r]. Returns how many rows were flagged as
 * regressions among the shifted ones (*hits) and elsewhere (the return). */
static ha_gate_rule family_rule = {0.01, ROWS, 0.05, 0.15, 0.95, 0};

static int family_pair(unsigned long long *s, const double *shift, double (*sp)(int), int *hits, int *bonferroni)
{
    ha_gate_rule rules[ROWS];
    ha_proc_est a[ROWS], b[ROWS];
    ha_gate_row g[ROWS];
    for (int r = 0; r < ROWS; r++) {
        rules[r] = family_rule;
        a[r] = run(s, 50 + r, sp(r), 0.01, K);
        b[r] = run(s, (50 + r) * (1 + shift[r]), sp(r), 0.01, K);
    }
    long found = ha_gate_family(rules, ROWS, a, b, g);
    assert_true(found >= 0);
    int other = 0;
    for (int r = 0; r < ROWS; r++) {
        bool flag = g[r].outcome == HA_GATE_REGRESSION || g[r].outcome == HA_GATE_IMPROVEMENT;
        if (shift[r] > 0)
            *hits += g[r].outcome == HA_GATE_REGRESSION;
        else
            other += flag;
        ha_gate_row one;
        ha_gate_judge(&rule, &a[r], &b[r], &one);
        *bonferroni += shift[r] > 0 && one.outcome == HA_GATE_REGRESSION;
        if (!flag)
            continue;
        /* a flagged row's interval is at 1 - alpha R / m, R flagged (the
         * false-coverage level docs/gate.md gives), not Bonferroni's
         * 1 - alpha / m: narrower than the row judged alone once R > 1
         * (alone: Welch, as the family judges a row of no group) */
        assert_float_equal(g[r].level, 1 - family_rule.alpha * (double)found / ROWS, 1e-12);
        if (family_rule.group)
            continue;
        double w = log(g[r].r.hi / g[r].r.lo), w1 = log(one.r.hi / one.r.lo);
        if (found > 1)
            assert_true(w < w1 * (1 - 1e-9));
        else
            assert_float_equal(w, w1, 1e-9 * w1);
    }
    return other;
}

static double spread_1_to_8(int r) { return 0.01 + 0.07 * (r % 8) / 7.0; }
static double spread_5(int r) { (void)r; return 0.05; }
static double spread_1_5(int r) { (void)r; return 0.015; }

/* The family rule keeps A/A pairs clean as Bonferroni does. */
static void two_hundred_aa_pairs_stay_clean_under_the_family_rule(void **st)
{
    (void)st;
    unsigned long long s = 31;
    double none[ROWS] = {0};
    int flagged_pairs = 0, hits = 0, bonf = 0;
    for (int pair = 0; pair < 200; pair++)
        flagged_pairs += family_pair(&s, none, spread_1_to_8, &hits, &bonf) > 0;
    print_message("family rule: %d of 200 A/A pairs flagged\n", flagged_pairs);
    assert_true(flagged_pairs <= 2);
    /* and with no threshold to hide behind: the bound is the rule's own */
    family_rule.threshold = 0;
    flagged_pairs = 0;
    for (int pair = 0; pair < 200; pair++)
        flagged_pairs += family_pair(&s, none, spread_1_to_8, &hits, &bonf) > 0;
    family_rule.threshold = 0.05;
    print_message("family rule, no threshold: %d of 200 A/A pairs flagged\n", flagged_pairs);
    assert_true(flagged_pairs <= 6); /* 1 % of 200, with room for the draw */
}

/* A family of 20 rows slowed by 15 % at a process spread of 5 % (the
 * queries' on the H200 after normalisation), where Bonferroni (alpha / m
 * for every row) finds none: the step-up rule finds about a third of them,
 * and nothing else. */
static void a_slowed_family_is_found_where_bonferroni_misses_it(void **st)
{
    (void)st;
    unsigned long long s = 37;
    double shift[ROWS] = {0};
    for (int r = 0; r < 20; r++)
        shift[r] = 0.15;
    int hits = 0, bonf = 0, other = 0;
    for (int pair = 0; pair < 50; pair++)
        other += family_pair(&s, shift, spread_5, &hits, &bonf);
    print_message("20 of %d rows +15 %% at 5 %% spread, 50 pairs: family rule %d, Bonferroni %d of 1000; %d others\n",
                  ROWS, hits, bonf, other);
    assert_true(hits >= bonf + 250);
    assert_true(other <= 5);
}

/* One row whose p-value of "beyond the threshold" is set by hand: flagged
 * at p = 0.005 and not at p = 0.015, with alpha 0.01 and m = 1 (the rule's
 * level exactly, whatever the draw). */
static double p_at(double d, ha_gate_row *row)
{
    const ha_gate_rule rule = {0.01, 1, 0.05, 0.15, 0.95, 0};
    ha_proc_est a = {8, 0, 0.05, 1}, b = {8, d, 0.05, exp(d)};
    ha_gate_judge(&rule, &a, &b, row);
    return ha_proc_p_beyond(&row->r, rule.threshold);
}

static ha_gate_outcome family_of_one_at(double p)
{
    double lo = 0, hi = 1; /* p falls as the shift grows */
    ha_gate_row row;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2;
        if (p_at(mid, &row) > p)
            lo = mid;
        else
            hi = mid;
    }
    assert_true(fabs(p_at(hi, &row) - p) < 1e-6);
    const ha_gate_rule rule = {0.01, 1, 0.05, 0.15, 0.95, 0};
    ha_proc_est a = {8, 0, 0.05, 1}, b = {8, hi, 0.05, exp(hi)};
    ha_gate_family(&rule, 1, &a, &b, &row);
    return row.outcome;
}

static void the_family_rule_flags_at_its_level_and_not_beyond(void **st)
{
    (void)st;
    assert_int_equal(family_of_one_at(0.005), HA_GATE_REGRESSION);
    assert_int_not_equal(family_of_one_at(0.015), HA_GATE_REGRESSION);
}

/* One row alone slowed, at a spread the pair resolves: found as by
 * Bonferroni (the first rank is held to alpha / m). */
static void one_slowed_row_alone_is_found(void **st)
{
    (void)st;
    unsigned long long s = 41;
    double shift[ROWS] = {0};
    shift[7] = 0.15;
    int hits = 0, bonf = 0, other = 0;
    for (int pair = 0; pair < 100; pair++)
        other += family_pair(&s, shift, spread_1_5, &hits, &bonf);
    print_message("one row +15 %% at 1.5 %% spread: %d of 100 found (Bonferroni %d); %d others\n", hits, bonf, other);
    assert_true(hits >= 95);
    assert_true(other <= 2);
}

/* +3 % on every row, inside the 5 % threshold: the family rule flags none. */
static void plus_three_percent_everywhere_is_flagged_nowhere_by_the_family(void **st)
{
    (void)st;
    unsigned long long s = 43;
    double shift[ROWS];
    for (int r = 0; r < ROWS; r++)
        shift[r] = 0.03;
    int hits = 0, bonf = 0;
    for (int pair = 0; pair < 50; pair++)
        family_pair(&s, shift, spread_1_5, &hits, &bonf);
    assert_int_equal(hits, 0);
}

static double spread_3(int r) { (void)r; return 0.03; }
static double spread_2_one_10(int r) { return r == 3 ? 0.10 : 0.02; }

/* One row +15 % at a 3 % process spread: on its own spread (14 df, t at
 * the family level 5.3) the pair resolves it about a third of the time;
 * with its path's rows as a prior for that spread, nearly always. */
static void a_row_is_resolved_with_its_paths_spread(void **st)
{
    (void)st;
    double shift[ROWS] = {0};
    shift[5] = 0.15;
    int own = 0, with_path = 0, other = 0, bonf = 0;
    unsigned long long s = 47;
    for (int pair = 0; pair < 100; pair++)
        other += family_pair(&s, shift, spread_3, &own, &bonf);
    family_rule.group = 1;
    s = 47;
    for (int pair = 0; pair < 100; pair++)
        other += family_pair(&s, shift, spread_3, &with_path, &bonf);
    family_rule.group = 0;
    print_message("one row +15 %% at 3 %% spread, 100 pairs: %d found on its own spread, %d with its path's; %d "
                  "others\n", own, with_path, other);
    assert_true(with_path >= 95);
    assert_true(with_path >= own + 10);
    assert_int_equal(other, 0);
}

/* A/A pairs of one path whose rows spread 1 to 8 %: the prior is wrong
 * for most rows, and the fit says so (a small d0), so the family rate
 * still holds, with and without a threshold to hide behind. */
static void aa_pairs_with_a_path_prior_stay_within_the_family_rate(void **st)
{
    (void)st;
    unsigned long long s = 53;
    double none[ROWS] = {0};
    int hits = 0, bonf = 0, flagged = 0, bare = 0;
    family_rule.group = 1;
    for (int pair = 0; pair < 200; pair++)
        flagged += family_pair(&s, none, spread_1_to_8, &hits, &bonf) > 0;
    family_rule.threshold = 0;
    for (int pair = 0; pair < 200; pair++)
        bare += family_pair(&s, none, spread_1_to_8, &hits, &bonf) > 0;
    family_rule.threshold = 0.05;
    family_rule.group = 0;
    print_message("path prior, spreads 1-8 %%: %d of 200 A/A pairs flagged, %d with no threshold\n", flagged, bare);
    assert_true(flagged <= 2);
    assert_true(bare <= 6); /* 1 % of 200, with room for the draw */
}

/* One row of a path spreads five times as much as the rest, the case the
 * prior's model does not cover: it keeps its own spread
 * (HA_PRIOR_UNLIKE_P), so the family rate holds even with no threshold
 * (shrunk with the rest, it was flagged in 11 of these 400). */
static void a_row_unlike_its_path_is_not_flagged_more_than_the_rate(void **st)
{
    (void)st;
    unsigned long long s = 59;
    double none[ROWS] = {0};
    int hits = 0, bonf = 0, flagged = 0;
    int bare = 0;
    family_rule.group = 1;
    for (int pair = 0; pair < 400; pair++)
        flagged += family_pair(&s, none, spread_2_one_10, &hits, &bonf) > 0;
    family_rule.threshold = 0;
    for (int pair = 0; pair < 400; pair++)
        bare += family_pair(&s, none, spread_2_one_10, &hits, &bonf) > 0;
    family_rule.threshold = 0.05;
    family_rule.group = 0;
    print_message("one row at 10 %% among 2 %%: %d of 400 A/A pairs flagged, %d with no threshold\n", flagged, bare);
    assert_true(flagged <= 4);
    assert_true(bare <= 8); /* 1 % of 400, with room for the draw */
}

/* Three processes a side are too few (HA_GATE_MIN_PROCS): the few a row
 * keeps may share a state the others did not. */
static void three_processes_are_too_few(void **st)
{
    (void)st;
    unsigned long long s = 61;
    ha_proc_est a = run(&s, 100, 0.01, 0.01, 3), b = run(&s, 200, 0.01, 0.01, K);
    ha_gate_row g;
    ha_gate_judge(&rule, &a, &b, &g);
    assert_int_equal(g.outcome, HA_GATE_TOO_FEW);
    a = run(&s, 100, 0.01, 0.01, 4);
    ha_gate_judge(&rule, &a, &b, &g);
    assert_int_not_equal(g.outcome, HA_GATE_TOO_FEW);
    assert_true(g.r.lo > 1.5); /* judged: a doubling, plainly */
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(t_quantiles_match_the_tables),
        cmocka_unit_test(the_estimate_is_the_geometric_mean_of_process_medians),
        cmocka_unit_test(the_fast_value_is_the_least_block),
        cmocka_unit_test(welch_interval_by_hand),
        cmocka_unit_test(one_process_is_too_few),
        cmocka_unit_test(a_planted_fifteen_percent_is_found),
        cmocka_unit_test(two_hundred_aa_pairs_stay_within_the_family_rate),
        cmocka_unit_test(the_family_bound_holds_with_no_threshold),
        cmocka_unit_test(process_noise_is_not_mistaken_for_a_change),
        cmocka_unit_test(plus_three_percent_is_flagged_nowhere),
        cmocka_unit_test(a_row_that_cannot_resolve_the_goal_is_monitor_only),
        cmocka_unit_test(two_hundred_aa_pairs_stay_clean_under_the_family_rule),
        cmocka_unit_test(a_slowed_family_is_found_where_bonferroni_misses_it),
        cmocka_unit_test(one_slowed_row_alone_is_found),
        cmocka_unit_test(the_family_rule_flags_at_its_level_and_not_beyond),
        cmocka_unit_test(plus_three_percent_everywhere_is_flagged_nowhere_by_the_family),
        cmocka_unit_test(a_row_is_resolved_with_its_paths_spread),
        cmocka_unit_test(aa_pairs_with_a_path_prior_stay_within_the_family_rate),
        cmocka_unit_test(a_row_unlike_its_path_is_not_flagged_more_than_the_rate),
        cmocka_unit_test(three_processes_are_too_few),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
