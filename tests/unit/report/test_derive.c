/* The facts every renderer shares (derive.c) and the JUnit written from
 * them, on the committed H200 run's records edited in one place: what is
 * unknown is never counted as known, controls are not GPU kinds, the
 * headline reads the fast kind, the pool goal is the worst of sleep and
 * wake, and JUnit fails what is broken and skips what could not run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "exports.h"
#include "fleetmodel.h"
#include "goals.h"
#include "markdown.h"
#include "plots.h"
#include "readfile.h"
#include "text.h"
#include "trendpage.h"
#include "recfix.h"

static m_run run;

static void derive_from(json_t *rec)
{
    char *err = NULL;
    if (recfix_read(&run, rec, &err) != 0)
        fail_msg("the edited record does not load: %s", err);
    json_decref(rec);
}

static bool listed(const m_kind **kinds, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(kinds[i]->name, name))
            return true;
    return false;
}

static const m_expect *expectation(const char *prefix)
{
    for (size_t i = 0; i < run.d.nexpects; i++)
        if (!strncmp(run.d.expects[i].name, prefix, strlen(prefix)))
            return &run.d.expects[i];
    fail_msg("no expectation named %s...", prefix);
    return NULL;
}

static int teardown(void **s)
{
    (void)s;
    m_free_run(&run);
    return 0;
}

static void a_kind_of_unknown_readability_is_neither_readable_nor_not(void **s)
{
    (void)s;
    json_t *probe = recfix_load("probe_discriminator.json");
    json_object_set_new(recfix_find(json_object_get(probe, "kinds"), "name", "cuMemHostAlloc"), "readable",
                        json_null());
    derive_from(probe);
    assert_false(listed(run.d.readable, run.d.nreadable, "cuMemHostAlloc"));
    assert_false(listed(run.d.unreadable, run.d.nunreadable, "cuMemHostAlloc"));
    assert_true(listed(run.d.readable, run.d.nreadable, "cuMemAllocManaged"));
    assert_true(listed(run.d.unreadable, run.d.nunreadable, "cuMemAlloc"));
}

static void a_control_is_not_a_gpu_kind(void **s)
{
    (void)s;
    derive_from(recfix_load("probe_discriminator.json"));
    const m_kind *c = m_probe_kind(&run.probe, "pfnmap-control");
    assert_non_null(c);
    assert_true(c->control && c->readable == 1);
    assert_false(listed(run.d.readable, run.d.nreadable, "pfnmap-control"));
}

static void an_undetermined_candidate_does_not_distinguish(void **s)
{
    (void)s;
    json_t *probe = recfix_load("probe_discriminator.json");
    json_t *c = recfix_find(json_object_get(probe, "candidates"), "name", "cuPointerGetAttribute(HOST_POINTER)");
    json_object_set_new(c, "verdict", json_string("undetermined"));
    json_object_set_new(c, "distinguishes", json_false());
    derive_from(probe);
    for (size_t i = 0; i < run.d.ndistinguishing; i++)
        assert_string_not_equal(run.d.distinguishing[i]->name, "cuPointerGetAttribute(HOST_POINTER)");
    assert_true(run.d.ndistinguishing > 0); /* the others still do */
}

/* The headline's fast read is of the fast kind, whatever the slow one is. */
static void the_headline_reads_the_fast_kind(void **s)
{
    (void)s;
    json_t *bench = recfix_load("bench_discriminator.json");
    json_object_set_new(json_object_get(bench, "headline"), "slow_kind", json_string("cuMemAlloc"));
    derive_from(bench);
    assert_non_null(run.d.fast);
    assert_string_equal(run.d.fast->kind, run.bench.fast_kind);
    assert_string_equal(run.d.copies[1]->kind, "cuMemAlloc");
}

/* The fast row of the run's fast kind, repeat 1, in an edited record. */
static json_t *fast_row(json_t *bench)
{
    const char *kind = json_string_value(json_object_get(json_object_get(bench, "headline"), "fast_kind"));
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(bench, "rows"), i, r) {
        if (!strcmp(json_string_value(json_object_get(r, "path")), "fast") &&
            !strcmp(json_string_value(json_object_get(r, "kind")), kind) &&
            json_integer_value(json_object_get(r, "repeat")) == 1)
            return r;
    }
    fail_msg("the record has no fast row of its fast kind");
    return NULL;
}

/* Three processes whose blocks' medians are 2, 4 and 8 ns; the pooled
 * median (and the headline the bench wrote from it) says 100 ns. */
static json_t *three_processes(void)
{
    json_t *bench = recfix_load("bench_discriminator.json");
    json_t *r = fast_row(bench);
    json_object_set_new(r, "by_process",
                        json_pack("[{s:i, s:[f,f,f]}, {s:i, s:[f,f,f,f]}, {s:i, s:[f]}]", "process", 1,
                                  "block_medians_ns", 1.0, 2.0, 30.0, "process", 2, "block_medians_ns", 4.0, 3.0,
                                  5.0, 4.0, "process", 3, "block_medians_ns", 8.0));
    json_object_set_new(r, "median_ns", json_real(100));
    json_object_set_new(json_object_get(bench, "headline"), "fast_median_ns", json_real(100));
    return bench;
}

/* What report, trend and the exports show of a row is compare's unit:
 * the geometric mean of the processes' medians, with its interval over
 * the processes, never the median of the samples pooled. */
static void a_rows_figure_comes_from_its_processes(void **s)
{
    (void)s;
    derive_from(three_processes());
    const m_figure *g = m_row_figure(&run, run.d.fast);
    assert_int_equal(g->k, 3);
    assert_float_equal(g->ns, 4, 1e-9);
    assert_float_equal(m_fast_ns(&run), 4, 1e-9);
    assert_float_equal(g->sd_log, log(2), 1e-9);
    /* exp(log 4 -+ t(0.975, 2) sd / sqrt 3), t = 4.302653 */
    assert_float_equal(g->lo, 4 * exp(-4.302653 * log(2) / sqrt(3)), 1e-4);
    assert_float_equal(g->hi, 4 * exp(4.302653 * log(2) / sqrt(3)), 1e-4);
    assert_true(run.d.by_process);
}

/* As in a record from before the processes (schema 1 and 2). */
static void a_row_without_process_values_keeps_its_pooled_median(void **s)
{
    (void)s;
    json_t *bench = three_processes();
    json_object_set_new(fast_row(bench), "by_process", json_array());
    derive_from(bench);
    const m_figure *g = m_row_figure(&run, run.d.fast);
    assert_int_equal(g->k, 0);
    assert_float_equal(g->ns, 100, 1e-9);
    assert_true(isnan(g->lo) && isnan(g->hi));
}

/* The fast row's line of the paths plot's data (label, ns, lo, hi,
 * family), as plots_prepare writes it for gnuplot: 0, or -1 without one. */
static int plotted(double *ns, double *lo, double *hi)
{
    char dir[] = "/tmp/ha-plotdata-XXXXXX", path[64], line[512];
    if (!mkdtemp(dir))
        return -1;
    int rc = -1;
    if (plots_prepare(&run, dir) >= 0) {
        snprintf(path, sizeof path, "%s/paths.dat", dir);
        FILE *f = fopen(path, "r");
        while (f && rc && fgets(line, sizeof line, f))
            if (!strncmp(line, "\"fast\"\t", 7) && sscanf(line + 7, "%lf\t%lf\t%lf", ns, lo, hi) == 3)
                rc = 0;
        if (f)
            fclose(f);
    }
    char *rm = rf_printf("rm -rf '%s'", dir);
    if (rm && system(rm) != 0)
        rc = -1;
    free(rm);
    return rc;
}

/* The fast row's figure in the CSV export (section bench, name fast#1,
 * the fast kind, metric figure): NaN without one. */
static double csv_figure(const char *csv)
{
    char *key = rf_printf(",bench,fast#1,%s,figure,", run.bench.fast_kind);
    const char *at = key ? strstr(csv, key) : NULL;
    double v = at ? strtod(at + strlen(key), NULL) : NAN;
    free(key);
    return v;
}

/* The headline REPORT.md leads with, the table, the paths plot, the
 * dashboards' values (benchmark JSON and CSV) and the trend page's point
 * are one figure: the row's raw estimate over its processes (rowest.h),
 * never the pooled median (100 ns here). */
static void report_trend_and_the_exports_show_the_figure(void **s)
{
    (void)s;
    derive_from(three_processes());
    double plot_ns = NAN, plot_lo = NAN, plot_hi = NAN;
    assert_int_equal(plotted(&plot_ns, &plot_lo, &plot_hi), 0);
    assert_float_equal(plot_ns, 4, 1e-5);
    assert_float_equal(plot_lo, m_row_figure(&run, run.d.fast)->lo, 1e-5 * plot_lo);
    assert_float_equal(plot_hi, m_row_figure(&run, run.d.fast)->hi, 1e-5 * plot_hi);
    trend_run u;
    trend_summarise(&u, &run, "run", "run/REPORT.md");
    double trend_fast = u.fast, trend_lo = u.fast_lo;
    trend_run_free(&u);
    assert_float_equal(trend_fast, 4, 1e-9);
    assert_float_equal(trend_lo, m_row_figure(&run, run.d.fast)->lo, 1e-12);
    char *md = NULL, *js = NULL;
    size_t nmd = 0, njs = 0;
    FILE *f = open_memstream(&md, &nmd);
    md_opts o = {0};
    md_write(f, &run, &o);
    fclose(f);
    f = open_memstream(&js, &njs);
    export_benchmark(f, &run, 0);
    fclose(f);
    char *csv = NULL;
    size_t ncsv = 0;
    f = open_memstream(&csv, &ncsv);
    export_csv(f, &run);
    fclose(f);
    double csv_value = csv_figure(csv);
    free(csv);
    char *bmf = NULL;
    size_t nbmf = 0;
    f = open_memstream(&bmf, &nbmf);
    assert_int_equal(export_bmf(f, &run), 0);
    fclose(f);
    json_t *bdoc = json_loads(bmf, 0, NULL);
    free(bmf);
    double bmf_value = NAN, bmf_lo = NAN;
    const char *bkey;
    json_t *bv;
    json_object_foreach(bdoc, bkey, bv) {
        if (strstr(bkey, ": fast / ") && strstr(bkey, run.bench.fast_kind)) {
            bmf_value = json_number_value(json_object_get(json_object_get(bv, "latency"), "value"));
            bmf_lo = json_number_value(json_object_get(json_object_get(bv, "latency"), "lower_value"));
        }
    }
    json_decref(bdoc);
    text_pool_free();
    assert_float_equal(csv_value, 4, 1e-9);
    assert_float_equal(bmf_value, 4, 1e-9);
    assert_float_equal(bmf_lo, m_row_figure(&run, run.d.fast)->lo, 1e-9);
    char cell[96];
    assert_true(fleet_timings(&run, cell, sizeof cell));
    assert_memory_equal(cell, "4.0 / ", 6); /* the fleet table's figure too */
    bool headline = strstr(md, "(host DRAM): **4.00 ns**") != NULL;
    bool table = strstr(md, "| host read, 4 B (fast path) | 4.00 ns | 0.") != NULL;
    json_t *doc = json_loads(js, 0, NULL);
    double value = NAN;
    size_t i;
    json_t *e;
    json_array_foreach(doc, i, e) {
        const char *name = json_string_value(json_object_get(e, "name"));
        if (name && strstr(name, ": fast / ") && strstr(name, run.bench.fast_kind))
            value = json_number_value(json_object_get(e, "value"));
    }
    json_decref(doc);
    free(md);
    free(js);
    assert_true(headline);
    assert_true(table);
    assert_float_equal(value, 4, 1e-9);
}

static void set_cycles(json_t *t, const char *key, double v)
{
    json_t *a = json_object_get(t, key);
    for (size_t i = 0; i < json_array_size(a); i++)
        json_array_set_new(a, i, json_real(v));
}

/* Sleep misses in every cycle while wake meets it: the goal is missed. */
static void the_pool_goal_is_the_worst_of_sleep_and_wake(void **s)
{
    (void)s;
    json_t *pool = recfix_load("pool_check.json");
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(pool, "throughput"), i, t) {
        set_cycles(t, "sleep_fraction_by_cycle", 0.8);
        json_object_set_new(t, "sleep_fraction_of_ceiling", json_real(0.8));
        set_cycles(t, "wake_fraction_by_cycle", 0.99);
        json_object_set_new(t, "wake_fraction_of_ceiling", json_real(0.99));
    }
    derive_from(pool);
    assert_true(run.d.pool_goal_known);
    assert_int_equal(run.d.pool_goal, HA_GOAL_MISSED);
}

/* Cycles on both sides of the goal: within noise, neither met nor missed,
 * in the report and on the trend page alike. */
static void cycles_that_straddle_the_goal_are_within_noise(void **s)
{
    (void)s;
    json_t *pool = recfix_load("pool_check.json");
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(pool, "throughput"), i, t) {
        json_t *c = json_object_get(t, "sleep_fraction_by_cycle");
        for (size_t k = 0; k < json_array_size(c); k++)
            json_array_set_new(c, k, json_real(k % 2 ? 0.96 : 0.94));
        json_object_set_new(t, "sleep_fraction_of_ceiling", json_real(0.947));
        set_cycles(t, "wake_fraction_by_cycle", 0.99);
    }
    derive_from(pool);
    assert_int_equal(run.d.pool_goal, HA_GOAL_WITHIN_NOISE);
    /* the trend page takes the report's outcome, not a line of its own on
     * the median (94.7 % would read "missed" there) */
    trend_run u;
    trend_summarise(&u, &run, "x", "x");
    assert_int_equal(u.sleep_goal, HA_GOAL_WITHIN_NOISE);
    trend_run_free(&u);
}

/* A SIMULATED run's throughput is the CI machine's memcpy: never judged,
 * and said so in the one word every view takes (goals.h), however far
 * under the goal it lies; the trend page takes the run's own outcome. */
static void a_simulated_throughput_is_never_judged(void **s)
{
    (void)s;
    json_t *pool = recfix_load("pool_check.json");
    json_object_set_new(pool, "simulated", json_true());
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(pool, "throughput"), i, t) {
        set_cycles(t, "sleep_fraction_by_cycle", 0.52);
        json_object_set_new(t, "sleep_fraction_of_ceiling", json_real(0.52));
    }
    derive_from(pool);
    assert_int_equal(run.d.pool_goal, HA_GOAL_NOT_JUDGED);
    assert_string_equal(ha_goal_name(run.d.pool_goal), "not judged (simulated)");
    for (size_t k = 0; k < run.pool.ntputs; k++)
        if (run.pool.tputs[k].measured)
            assert_int_equal(run.pool.tputs[k].sleep_goal, HA_GOAL_NOT_JUDGED);
    trend_run u;
    trend_summarise(&u, &run, "x", "x");
    assert_int_equal(u.sleep_goal, HA_GOAL_NOT_JUDGED);
    trend_run_free(&u);
}

/* The fix created but its read never told: its expectation fails. */
static void the_fix_of_unknown_readability_fails_its_expectation(void **s)
{
    (void)s;
    json_t *probe = recfix_load("probe_discriminator.json");
    json_t *k = recfix_find(json_object_get(probe, "kinds"), "name", "vmm-device+host");
    json_object_set_new(k, "created", json_true());
    json_object_set_new(k, "readable", json_null());
    derive_from(probe);
    assert_int_equal(expectation("the fixed kind vmm-device+host")->status, EXP_FAIL);
}

/* "Some kind could be created" asks whether the probe made a GPU kind,
 * not whether one reads: with every kind made and none host-readable it
 * passes (that is a finding, shown elsewhere, not a broken run); with
 * none made it fails. */
static void some_kind_created_counts_unreadable_kinds(void **s)
{
    (void)s;
    json_t *probe = recfix_load("probe_discriminator.json"), *k;
    size_t i;
    json_array_foreach(json_object_get(probe, "kinds"), i, k) {
        if (json_is_true(json_object_get(k, "created")) && !json_is_true(json_object_get(k, "control")))
            json_object_set_new(k, "readable", json_false());
    }
    derive_from(probe);
    assert_int_equal(run.d.nreadable, 0);
    assert_true(run.d.nunreadable > 0);
    assert_int_equal(expectation("some kind could be created")->status, EXP_PASS);
    m_free_run(&run);
    probe = recfix_load("probe_discriminator.json");
    json_array_foreach(json_object_get(probe, "kinds"), i, k) {
        if (!json_is_true(json_object_get(k, "control"))) {
            json_object_set_new(k, "created", json_false());
            json_object_set_new(k, "readable", json_null());
        }
    }
    derive_from(probe);
    assert_int_equal(expectation("some kind could be created")->status, EXP_FAIL);
}

/* The run of a pool record whose create_pool check failed. */
static void derive_a_failed_pool_check(void)
{
    json_t *pool = recfix_load("pool_check.json");
    json_t *c = recfix_find(json_object_get(pool, "checks"), "name", "create_pool");
    json_object_set_new(c, "status", json_string("FAIL"));
    json_object_set_new(c, "passed", json_false());
    derive_from(pool);
}

/* The run's junit.xml, whole (the caller frees it). */
static char *junit_of_run(void)
{
    char *xml = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&xml, &len);
    assert_non_null(f);
    assert_int_equal(export_junit(f, &run), 0);
    fclose(f);
    return xml;
}

static void a_failed_pool_check_fails_its_expectation(void **s)
{
    (void)s;
    derive_a_failed_pool_check();
    assert_int_equal(expectation("create_pool")->status, EXP_FAIL);
}

/* JUnit: a check that could not run is skipped, never a pass. */
static void junit_skips_what_could_not_run(void **s)
{
    (void)s;
    derive_from(recfix_load("pool_check.json"));
    const m_expect *e = expectation("create_pool");
    assert_int_equal(e->status, EXP_SKIP);
    char *xml = junit_of_run();
    char *at = strstr(xml, "name=\"create_pool");
    assert_non_null(at);
    char *end = strstr(at, "</testcase>");
    assert_non_null(end);
    *end = 0;
    if (!strstr(at, "<skipped"))
        fail_msg("create_pool [device+fix] (UNSUPPORTED) is not skipped in junit.xml: %s", at);
    free(xml);
}

/* How often needle occurs in [from, to). */
static size_t occurs(const char *from, const char *to, const char *needle)
{
    size_t n = 0;
    for (const char *p = from; (p = strstr(p, needle)) && p < to; p++)
        n++;
    return n;
}

/* JUnit's counts are what its cases hold: every testsuite's tests,
 * failures and skipped are its testcases, failures and skips (a dashboard
 * reads the counts, not the cases); a failed pool check makes one. */
static void junit_counts_what_its_cases_hold(void **s)
{
    (void)s;
    derive_a_failed_pool_check();
    char *xml = junit_of_run();
    size_t suites = 0, failures = 0;
    for (const char *at = xml; (at = strstr(at, "<testsuite ")); suites++) {
        const char *end = strstr(at, "</testsuite>");
        assert_non_null(end);
        size_t tests, fails, skips;
        const char *attrs = strstr(at, "tests=");
        assert_non_null(attrs);
        assert_int_equal(sscanf(attrs, "tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\"", &tests, &fails, &skips), 3);
        assert_int_equal(tests, occurs(at, end, "<testcase "));
        assert_int_equal(fails, occurs(at, end, "<failure"));
        assert_int_equal(skips, occurs(at, end, "<skipped"));
        failures += fails;
        at = end;
    }
    assert_true(suites >= 1);
    assert_true(failures >= 1);
    free(xml);
}

/* A suite's time attribute, seconds; NaN without one. */
static double suite_time(const char *xml, const char *suite)
{
    char key[64];
    snprintf(key, sizeof key, "<testsuite name=\"%s\"", suite);
    const char *at = strstr(xml, key), *end = at ? strchr(at, '>') : NULL, *t = at ? strstr(at, " time=\"") : NULL;
    return t && t < end ? strtod(t + 7, NULL) : NAN;
}

/* Every suite carries the time of the tool whose record it reads, and the
 * run the sum of its tools' (issue 44, item 9: dashboards plot them). */
static void junit_carries_the_tools_times(void **s)
{
    (void)s;
    derive_from(recfix_load("pool_check.json"));
    char *xml = junit_of_run();
    assert_true(run.has[RUN_POOL] && run.pool.wall > 0);
    assert_float_equal(suite_time(xml, "pool_check"), run.pool.wall, 0.0005);
    const char *root = strstr(xml, "<testsuites name=\"hostaccess\" time=\"");
    assert_non_null(root);
    assert_float_equal(strtod(strstr(root, "time=\"") + 6, NULL), run.pool.wall, 0.0005);
    free(xml);
    m_free_run(&run);
    derive_from(recfix_load("probe_discriminator.json"));
    xml = junit_of_run();
    assert_true(run.probe.wall > 0);
    assert_float_equal(suite_time(xml, "verdicts"), run.probe.wall, 0.0005);
    free(xml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_teardown(a_kind_of_unknown_readability_is_neither_readable_nor_not, teardown),
        cmocka_unit_test_teardown(a_control_is_not_a_gpu_kind, teardown),
        cmocka_unit_test_teardown(an_undetermined_candidate_does_not_distinguish, teardown),
        cmocka_unit_test_teardown(the_headline_reads_the_fast_kind, teardown),
        cmocka_unit_test_teardown(a_rows_figure_comes_from_its_processes, teardown),
        cmocka_unit_test_teardown(a_row_without_process_values_keeps_its_pooled_median, teardown),
        cmocka_unit_test_teardown(report_trend_and_the_exports_show_the_figure, teardown),
        cmocka_unit_test_teardown(the_pool_goal_is_the_worst_of_sleep_and_wake, teardown),
        cmocka_unit_test_teardown(cycles_that_straddle_the_goal_are_within_noise, teardown),
        cmocka_unit_test_teardown(a_simulated_throughput_is_never_judged, teardown),
        cmocka_unit_test_teardown(the_fix_of_unknown_readability_fails_its_expectation, teardown),
        cmocka_unit_test_teardown(some_kind_created_counts_unreadable_kinds, teardown),
        cmocka_unit_test_teardown(a_failed_pool_check_fails_its_expectation, teardown),
        cmocka_unit_test_teardown(junit_skips_what_could_not_run, teardown),
        cmocka_unit_test_teardown(junit_counts_what_its_cases_hold, teardown),
        cmocka_unit_test_teardown(junit_carries_the_tools_times, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
