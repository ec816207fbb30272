/* compare's judgement on synthetic runs: every regression class both ways,
 * a change within noise or within the threshold left alone, the canary,
 * hosts, older records and missing rows. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "goals.h"
#include "regress.h"
#include "records.h"
#include "timing.h"

#define ROUNDS 12
#define PER 10

static uint64_t rng = 88172645463325252ull;
static double noise(void) /* uniform in [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / (double)(1ull << 52) - 1;
}

/* A timed row of two repeats whose blocks center on base(block) with +-2 % noise. */
typedef double (*level_fn)(int block, double base);
static double flat(int block, double base)
{
    (void)block;
    return base;
}
/* Half the blocks in one state, half in another, as the H200's driver lookups. */
static double bimodal(int block, double base)
{
    return block % 2 ? base : base * 1.7;
}

static json_t *row(const char *path, const char *family, const char *kind, int repeat, double base, level_fn lv,
                   bool blocks)
{
    json_t *s = json_array();
    for (int b = 0; b < ROUNDS; b++)
        for (int i = 0; i < PER; i++)
            json_array_append_new(s, json_real(lv(b, base) * (1 + 0.02 * noise())));
    json_t *r = json_pack("{s:s, s:s, s:s?, s:n, s:i, s:b, s:f, s:f, s:f, s:o}", "path", path, "family", family,
                          "kind", kind, "candidate", "repeat", repeat, "skipped", 0, "median_ns", lv(0, base),
                          "spread_ns", 0.02 * base, "overhead_pct", 0.1, "samples_ns", s);
    if (blocks)
        json_object_set_new(r, "block_samples", json_integer(PER));
    else
        json_object_del(r, "family"); /* an older record: no family, no blocks */
    return r;
}

typedef struct spec {
    double canary, fast, copy, query;
    level_fn query_level;
    bool blocks;
} spec;

static json_t *bench(const spec *s)
{
    json_t *rows = json_array();
    for (int rep = 1; rep <= 2; rep++) {
        json_array_append_new(rows, row("canary", "canary", NULL, rep, s->canary, flat, s->blocks));
        json_array_append_new(rows, row("fast", "read", "pinned", rep, s->fast, flat, s->blocks));
        json_array_append_new(rows, row("copy_pinned", "copy", "device", rep, s->copy, flat, s->blocks));
        json_array_append_new(rows, row("disc", "query", "vmm", rep, s->query, s->query_level ? s->query_level : flat,
                                        s->blocks));
    }
    return json_pack("{s:o}", "rows", rows);
}

static json_t *env(const char *host)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:s}", "host", host, "device_name", "GPU", "pci_bus_id", "0000:01:00.0",
                     "backend", "cuda", "runtime_version", "13.0");
}

static json_t *probe(bool readable, bool created, bool distinguishes, bool with_kind, bool with_cand)
{
    json_t *kinds = json_array(), *cands = json_array();
    if (with_kind)
        json_array_append_new(kinds, json_pack("{s:s, s:b, s:b, s:s}", "name", "vmm-device+host", "created", created,
                                               "readable", readable, "detail", ""));
    if (with_cand)
        json_array_append_new(cands, json_pack("{s:s, s:s, s:[]}", "name", "os_guarded_read", "verdict",
                                               distinguishes ? "distinguishes" : "fails", "results"));
    return json_pack("{s:o, s:o}", "kinds", kinds, "candidates", cands);
}

static json_t *pool(const char *status, bool with_check, double sleep_fraction)
{
    json_t *checks = json_array();
    if (with_check)
        json_array_append_new(checks, json_pack("{s:s, s:s, s:s, s:s}", "name", "vram_freed_on_sleep", "mode",
                                                "device+fix", "status", status, "detail", "d"));
    json_t *tp = json_pack("[{s:f, s:s, s:b, s:f, s:f}]", "pool_bytes", 1073741824.0, "mode", "device+fix",
                           "measured", 1, "sleep_fraction_of_ceiling", sleep_fraction, "wake_fraction_of_ceiling", 0.97);
    return json_pack("{s:o, s:o}", "checks", checks, "throughput", tp);
}

static void run_of(rundir *r, const char *host, json_t *bn, json_t *pr, json_t *pl)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "run-%s", host);
    r->complete = true;
    r->rec[RUN_ENV] = json_pack("{s:o}", "env", env(host));
    r->env = json_object_get(r->rec[RUN_ENV], "env");
    r->rec[RUN_BENCH] = bn;
    r->rec[RUN_PROBE] = pr;
    r->rec[RUN_POOL] = pl;
}

static void free_run(rundir *r)
{
    for (int i = 0; i < RUN_NREC; i++)
        json_decref(r->rec[i]);
}

static findings f;
static regress_cfg cfg;

static const spec base = {1.0, 2.4, 6000, 90, NULL, true};

/* Compares two bench specs on one host; returns the findings. */
static void judge(const spec *a, const spec *b)
{
    rundir ra, rb;
    run_of(&ra, "h", bench(a), NULL, NULL);
    run_of(&rb, "h", bench(b), NULL, NULL);
    regress_analyse(&cfg, &ra, &rb, &f);
    free_run(&ra);
    free_run(&rb);
}

static int count(int cls, const char *name_prefix)
{
    int n = 0;
    for (size_t i = 0; i < f.n; i++)
        n += f.v[i].cls == cls && !strncmp(f.v[i].name, name_prefix, strlen(name_prefix));
    return n;
}

static bool noted(const char *text)
{
    for (int i = 0; i < f.nnotes; i++)
        if (strstr(f.notes[i], text))
            return true;
    return false;
}

static int setup(void **s)
{
    (void)s;
    regress_defaults(&cfg);
    return 0;
}

static void a_slower_copy_is_a_regression_and_a_faster_one_an_improvement(void **s)
{
    (void)s;
    spec slow = base;
    slow.copy = base.copy * 1.2;
    judge(&base, &slow);
    assert_int_equal(count(REGRESSION, "copy_pinned"), 1);
    assert_int_equal(findings_count(&f, REGRESSION), 1);
    assert_non_null(strstr(f.v[0].detail, "95% interval"));
    judge(&slow, &base);
    assert_int_equal(count(IMPROVEMENT, "copy_pinned"), 1);
    assert_int_equal(findings_count(&f, REGRESSION), 0);
}

static void a_slower_fast_path_is_a_regression_and_a_faster_one_an_improvement(void **s)
{
    (void)s;
    spec slow = base;
    slow.fast = base.fast * 1.2;
    judge(&base, &slow);
    assert_int_equal(count(REGRESSION, "fast"), 1);
    judge(&slow, &base);
    assert_int_equal(count(IMPROVEMENT, "fast"), 1);
}

static void identical_runs_and_changes_within_the_threshold_are_not_flagged(void **s)
{
    (void)s;
    judge(&base, &base);
    assert_int_equal(f.n, 0);
    /* significant (the noise is 2 %) but below the thresholds: 4 % on a copy, 8 % on a read */
    spec near = base;
    near.copy = base.copy * 1.04;
    near.fast = base.fast * 1.08;
    judge(&base, &near);
    assert_int_equal(f.n, 0);
    judge(&near, &base);
    assert_int_equal(f.n, 0);
}

static void a_large_change_that_is_not_significant_is_not_flagged(void **s)
{
    (void)s;
    /* Bimodal blocks: the median's interval spans both states. */
    spec a = base, b = base;
    a.query_level = b.query_level = bimodal;
    b.query = base.query * 1.15;
    judge(&a, &b);
    assert_int_equal(count(REGRESSION, "disc"), 0);
}

static void the_threshold_is_per_family_and_configurable(void **s)
{
    (void)s;
    spec b = base;
    b.copy = base.copy * 1.09;  /* beyond copy's 8 % */
    b.query = base.query * 1.07; /* within query's 10 % */
    judge(&base, &b);
    assert_int_equal(count(REGRESSION, "copy_pinned"), 1);
    assert_int_equal(count(REGRESSION, "disc"), 0);
    char err[200];
    assert_int_equal(regress_set_threshold(&cfg, "copy=10", err, sizeof err), 0);
    judge(&base, &b);
    assert_int_equal(findings_count(&f, REGRESSION), 0);
    assert_int_equal(regress_set_threshold(&cfg, "all=3", err, sizeof err), 0);
    judge(&base, &b);
    assert_int_equal(count(REGRESSION, "disc"), 1);
    const char *bad[] = {"copy", "copy=", "copy=0", "copy=x", "nosuch=5", "=5", "copy=5%", "copy=2000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_equal(regress_set_threshold(&cfg, bad[i], err, sizeof err), -1);
    regress_defaults(&cfg);
}

static void a_machine_that_changed_speed_is_normalised_by_the_canary(void **s)
{
    (void)s;
    spec b = base;
    b.canary *= 1.3;
    b.fast *= 1.3;
    b.copy *= sqrt(1.3); /* a copy follows the core clock halfway */
    b.query *= 1.3;
    judge(&base, &b);
    assert_int_equal(findings_count(&f, REGRESSION), 0);
    assert_true(noted("each timing ratio is divided by it"));
    /* had the copy followed the clock fully, it would be a regression */
    b.copy = base.copy * 1.3;
    judge(&base, &b);
    assert_int_equal(count(REGRESSION, "copy_pinned"), 1);
    /* the canary alone moved: the paths are now relatively faster */
    spec c = base;
    c.canary *= 1.3;
    judge(&base, &c);
    assert_int_equal(count(IMPROVEMENT, "fast"), 1);
}

static void runs_from_other_hosts_are_not_judged_on_timings_unless_asked(void **s)
{
    (void)s;
    spec b = base;
    b.copy *= 2;
    rundir ra, rb;
    run_of(&ra, "h1", bench(&base), NULL, NULL);
    run_of(&rb, "h2", bench(&b), NULL, NULL);
    regress_analyse(&cfg, &ra, &rb, &f);
    assert_int_equal(findings_count(&f, REGRESSION), 0);
    assert_true(noted("different hosts"));
    cfg.timings_across_hosts = true;
    regress_analyse(&cfg, &ra, &rb, &f);
    assert_int_equal(count(REGRESSION, "copy_pinned"), 1);
    cfg.timings_across_hosts = false;
    free_run(&ra);
    free_run(&rb);
}

static void older_records_fall_back_to_spreads_and_odd_rows_are_changes(void **s)
{
    (void)s;
    spec old = base, slow = base;
    old.blocks = slow.blocks = false;
    slow.copy *= 2;
    judge(&old, &slow);
    assert_int_equal(count(REGRESSION, "copy_pinned"), 1);
    assert_true(noted("recorded spreads"));
    /* a row in one run only: a change, not a crash */
    rundir ra, rb;
    run_of(&ra, "h", bench(&base), NULL, NULL);
    run_of(&rb, "h", bench(&base), NULL, NULL);
    json_array_remove(json_object_get(rb.rec[RUN_BENCH], "rows"), 2);
    regress_analyse(&cfg, &ra, &rb, &f);
    assert_int_equal(count(CHANGE, "copy_pinned"), 1);
    assert_int_equal(findings_count(&f, REGRESSION), 0);
    free_run(&ra);
    free_run(&rb);
}

/* Probe classes: each both ways, and what disappears. */
static void probe_pair(json_t *a, json_t *b)
{
    rundir ra, rb;
    run_of(&ra, "h", NULL, a, NULL);
    run_of(&rb, "h", NULL, b, NULL);
    regress_analyse(&cfg, &ra, &rb, &f);
    free_run(&ra);
    free_run(&rb);
}

static void kinds_and_candidates_regress_and_improve(void **s)
{
    (void)s;
    probe_pair(probe(true, true, true, true, true), probe(false, true, true, true, true));
    assert_int_equal(count(REGRESSION, "vmm-device+host"), 1); /* lost host readability */
    probe_pair(probe(false, true, true, true, true), probe(true, true, true, true, true));
    assert_int_equal(count(IMPROVEMENT, "vmm-device+host"), 1);
    probe_pair(probe(true, true, true, true, true), probe(true, false, true, true, true));
    assert_int_equal(count(REGRESSION, "vmm-device+host"), 1); /* the fixed kind can no longer be made */
    probe_pair(probe(true, false, true, true, true), probe(true, true, true, true, true));
    assert_int_equal(count(IMPROVEMENT, "vmm-device+host"), 1);
    probe_pair(probe(true, true, true, true, true), probe(true, true, true, false, true));
    assert_int_equal(count(REGRESSION, "vmm-device+host"), 1); /* disappeared */
    probe_pair(probe(true, true, true, false, true), probe(true, true, true, true, true));
    assert_int_equal(count(CHANGE, "vmm-device+host"), 1);
    probe_pair(probe(true, true, true, true, true), probe(true, true, false, true, true));
    assert_int_equal(count(REGRESSION, "os_guarded_read"), 1);
    probe_pair(probe(true, true, false, true, true), probe(true, true, true, true, true));
    assert_int_equal(count(IMPROVEMENT, "os_guarded_read"), 1);
    probe_pair(probe(true, true, true, true, true), probe(true, true, true, true, false));
    assert_int_equal(count(REGRESSION, "os_guarded_read"), 1);
}

static void pool_pair(json_t *a, json_t *b)
{
    rundir ra, rb;
    run_of(&ra, "h", NULL, NULL, a);
    run_of(&rb, "h", NULL, NULL, b);
    regress_analyse(&cfg, &ra, &rb, &f);
    free_run(&ra);
    free_run(&rb);
}

static void pool_checks_and_throughput_regress_and_improve(void **s)
{
    (void)s;
    pool_pair(pool("PASS", true, 0.95), pool("FAIL", true, 0.95));
    assert_int_equal(count(REGRESSION, "vram_freed_on_sleep"), 1);
    pool_pair(pool("FAIL", true, 0.95), pool("PASS", true, 0.95));
    assert_int_equal(count(IMPROVEMENT, "vram_freed_on_sleep"), 1);
    pool_pair(pool("PASS", true, 0.95), pool("UNSUPPORTED", true, 0.95));
    assert_int_equal(count(REGRESSION, "vram_freed_on_sleep"), 1); /* no longer passes */
    pool_pair(pool("PASS", true, 0.95), pool("PASS", false, 0.95));
    assert_int_equal(count(REGRESSION, "vram_freed_on_sleep"), 1); /* disappeared */
    pool_pair(pool("PASS", true, 0.95), pool("PASS", true, 0.85));
    assert_int_equal(count(REGRESSION, "pool"), 1);
    pool_pair(pool("PASS", true, 0.85), pool("PASS", true, 0.95));
    assert_int_equal(count(IMPROVEMENT, "pool"), 1);
    pool_pair(pool("PASS", true, 0.96), pool("PASS", true, 0.99)); /* both past the goal */
    assert_int_equal(f.n, 0);
    pool_pair(pool("PASS", true, 0.955), pool("PASS", true, 0.945)); /* across the goal, within the margin */
    assert_int_equal(f.n, 0);
    /* the new run has no pool record at all */
    rundir ra, rb;
    run_of(&ra, "h", NULL, NULL, pool("PASS", true, 0.95));
    run_of(&rb, "h", NULL, NULL, NULL);
    regress_analyse(&cfg, &ra, &rb, &f);
    assert_int_equal(count(REGRESSION, "pool_check.json"), 1);
    free_run(&ra);
    free_run(&rb);
}

static void the_pool_goals_sit_where_they_say(void **s)
{
    (void)s;
    assert_false(ha_pool_freed_enough(0.9499 * 1000, 1000));
    assert_true(ha_pool_freed_enough(0.9501 * 1000, 1000));
    assert_false(ha_pool_freed_enough(1, 0));
    assert_false(ha_pool_throughput_met(0.9499));
    assert_true(ha_pool_throughput_met(0.9501));
}

static void a_deliberate_slowdown_is_counted(void **s)
{
    (void)s;
    spec slow = base;
    slow.copy *= 1.2;
    rundir ra, rb;
    run_of(&ra, "h", bench(&base), NULL, NULL);
    run_of(&rb, "h", bench(&slow), NULL, NULL);
    json_object_set_new(rb.rec[RUN_BENCH], "test_slowdown", json_pack("[{s:s, s:i}]", "path", "copy_pinned", "percent", 20));
    regress_analyse(&cfg, &ra, &rb, &f);
    assert_true(noted("copy_pinned +20%): 1 of 1 rows flagged"));
    free_run(&ra);
    free_run(&rb);
}

static void the_run_to_run_figures_are_measured(void **s)
{
    (void)s;
    spec b = base;
    b.copy *= 1.04;
    judge(&base, &b);
    assert_true(f.st.have);
    assert_int_equal(f.st.rows, 3); /* fast, copy, disc; the canary is an instrument */
    assert_int_equal(f.st.copies, 1);
    assert_true(fabs(f.st.copy_max - 4.0) < 0.5); /* the 2 % noise of the synthetic samples */
    assert_true(f.st.p90 < 5);
}

static void the_bootstrap_interval_covers_the_ratio(void **s)
{
    (void)s;
    row_blocks a = {.n = 20}, b = {.n = 20};
    for (int i = 0; i < 20; i++) {
        a.med[i] = 100 + i % 5;
        b.med[i] = 120 + i % 5;
    }
    timing_change t;
    assert_int_equal(timing_compare(&a, &b, 7, &t), 0);
    assert_true(t.lo <= t.ratio && t.ratio <= t.hi);
    assert_true(t.lo > 1.15 && t.hi < 1.25);
    timing_change again;
    timing_compare(&a, &b, 7, &again);
    assert_true(again.lo == t.lo && again.hi == t.hi); /* seeded: repeats exactly */
    row_blocks none = {.n = 0};
    assert_int_equal(timing_compare(&none, &b, 7, &t), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(a_slower_copy_is_a_regression_and_a_faster_one_an_improvement, setup),
        cmocka_unit_test_setup(a_slower_fast_path_is_a_regression_and_a_faster_one_an_improvement, setup),
        cmocka_unit_test_setup(identical_runs_and_changes_within_the_threshold_are_not_flagged, setup),
        cmocka_unit_test_setup(a_large_change_that_is_not_significant_is_not_flagged, setup),
        cmocka_unit_test_setup(the_threshold_is_per_family_and_configurable, setup),
        cmocka_unit_test_setup(a_machine_that_changed_speed_is_normalised_by_the_canary, setup),
        cmocka_unit_test_setup(runs_from_other_hosts_are_not_judged_on_timings_unless_asked, setup),
        cmocka_unit_test_setup(older_records_fall_back_to_spreads_and_odd_rows_are_changes, setup),
        cmocka_unit_test_setup(kinds_and_candidates_regress_and_improve, setup),
        cmocka_unit_test_setup(pool_checks_and_throughput_regress_and_improve, setup),
        cmocka_unit_test(the_pool_goals_sit_where_they_say),
        cmocka_unit_test_setup(a_deliberate_slowdown_is_counted, setup),
        cmocka_unit_test_setup(the_run_to_run_figures_are_measured, setup),
        cmocka_unit_test(the_bootstrap_interval_covers_the_ratio),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    findings_free(&f);
    return rc;
}
