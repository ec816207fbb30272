/* changes over series made from one simulated run (its bench presented as
 * real, its instruments steady): steps planted at known runs, an exact
 * fact flipped, a copy, a run that is not whole, a schema break, and bad
 * input (issue 30). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "itest.h"

static const char *build;
static char tmp[64];
static char run[512];

static int setup(void **s)
{
    (void)s;
    build = it_build();
    if (it_sh("test -x %s/bin/changes", build) != 0)
        return 0;
    if (it_tmpdir(tmp, sizeof tmp, "changes"))
        return -1;
    char results[128];
    snprintf(results, sizeof results, "%s/runs", tmp);
    return it_sim_run(results, run, sizeof run);
}

static int teardown(void **s)
{
    (void)s;
    return tmp[0] && !getenv("KEEP") ? it_sh("rm -rf %s", tmp) : 0;
}

static void need_tool(void)
{
    if (!tmp[0])
        it_skip("report tools are not built (libjansson-dev)");
}

/* Every gated row's per-process values times f (the instruments stay). */
static void scale_rows(json_t *bench, double f)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(bench, "rows"), i, r) {
        const char *path = json_string_value(json_object_get(r, "path"));
        if (!strcmp(path, "canary") || !strcmp(path, "syscall") || !strcmp(path, "harness"))
            continue;
        it_scale_row(r, f);
    }
}

static void edit(const char *dir, const char *name, void (*fn)(json_t *, const void *), const void *arg)
{
    char p[700];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    assert_non_null(j);
    fn(j, arg);
    assert_int_equal(json_dump_file(j, p, JSON_INDENT(1)), 0);
    json_decref(j);
}

static void at_time(json_t *j, const void *t) { it_set_every(j, "time_utc", t); }
static bool series_simulated; /* the runs' bench records stay the simulation's */
static void as_real_scaled(json_t *j, const void *f)
{
    if (!series_simulated)
        it_as_real(j);
    scale_rows(j, *(const double *)f);
}
/* A record of an older schema (2 or 3): a bench record as it was before
 * schema 4 first (its figures in it), then the version. */
static void older_schema(json_t *j, const void *version)
{
    if (!strcmp(json_string_value(json_object_get(j, "tool")), "bench_discriminator"))
        it_as_schema_3(j);
    json_object_set_new(j, "schema_version", json_integer(*(const int *)version));
}
static void fail_first_check(json_t *j, const void *unused)
{
    (void)unused;
    json_t *c = json_array_get(json_object_get(j, "checks"), 0);
    json_object_set_new(c, "status", json_string("FAIL"));
    json_object_set_new(c, "passed", json_false());
}

/* The pool's sleep share of the ceiling in every run made next (the
 * template's, times this, with a little run-to-run noise). */
static double pool_sleep_factor = 1.0;
static void pool_sleep_scaled(json_t *j, const void *f)
{
    size_t i;
    json_t *t;
    json_array_foreach(json_object_get(j, "throughput"), i, t) {
        double v = json_number_value(json_object_get(t, "sleep_fraction_of_ceiling"));
        json_object_set_new(t, "sleep_fraction_of_ceiling", json_real(v * *(const double *)f));
    }
}

/* Run i of a series under dir: the template run at its own time, its rows
 * times factor (with a little run-to-run noise), sealed. */
static const char *const records[5] = {"env.json", "probe_discriminator.json", "probe_memgetaccess.json",
                                       "bench_discriminator.json", "pool_check.json"};

/* Run i's folder under dir: one a day from 2026-01-01, 28 days a month. */
static void run_dir(char *d, size_t n, const char *dir, int i)
{
    snprintf(d, n, "%s/2026-%02d-%02dT000000Z-vm-sim-dev0", dir, 1 + i / 28, 1 + i % 28);
}

/* schema: 0 as this build writes it, or an older version (older_schema) */
static void make_run_of(const char *dir, int i, double factor, bool check_fails, int schema)
{
    char d[600], t[40];
    run_dir(d, sizeof d, dir, i);
    snprintf(t, sizeof t, "2026-%02d-%02dT00:00:00Z", 1 + i / 28, 1 + i % 28);
    assert_int_equal(it_sh("mkdir -p %s && cd %s && cp env.json probe_discriminator.json probe_memgetaccess.json "
                           "bench_discriminator.json pool_check.json %s/", d, run, d), 0);
    double f = factor * (1 + 0.004 * sin(1.7 * i));
    for (int k = 0; k < 5; k++)
        edit(d, records[k], at_time, t);
    edit(d, "bench_discriminator.json", as_real_scaled, &f);
    if (check_fails)
        edit(d, "pool_check.json", fail_first_check, NULL);
    double pf = pool_sleep_factor * (1 + 0.002 * cos(2.3 * i));
    edit(d, "pool_check.json", pool_sleep_scaled, &pf);
    for (int k = 0; schema && k < 5; k++)
        edit(d, records[k], older_schema, &schema);
    assert_int_equal(it_seal(d), 0);
}

static void make_run(const char *dir, int i, double factor, bool check_fails)
{
    make_run_of(dir, i, factor, check_fails, 0);
}

/* A +10 % step at run 8 of 14 is found there, named with the runs around
 * it, and (in the newest ten runs, on one machine) exits 1; the pool
 * check that starts failing at run 5 is placed there. */
static void a_planted_step_is_found_at_its_run(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/step", tmp);
    for (int i = 0; i < 14; i++)
        make_run(dir, i, i >= 7 ? 1.10 : 1.0, i >= 4);
    int rc = it_sh("report/changes %s --json %s/step.json", dir, tmp);
    if (rc != 1 || !strstr(it_out, "### Between 2026-01-07T000000Z-vm-sim-dev0 and 2026-01-08T000000Z-vm-sim-dev0"))
        fail_msg("changes exited %d:\n%s", rc, it_out);
    assert_non_null(strstr(it_out, "a regression in the newest runs"));
    assert_non_null(strstr(it_out, "at 2026-01-05T000000Z-vm-sim-dev0"));
    assert_non_null(strstr(it_out, ": PASS → FAIL"));
    assert_null(strstr(strstr(it_out, "### Between") + 1, "### Between")); /* the one step, once */
    assert_int_equal(it_sh("python3 -c \"import json; d = json.load(open('%s/step.json')); "
                           "c = d['classes'][0]['change_points'][0]; "
                           "print(c['after'], c['regression_in_window'], round(c['rows'][0]['step'], 2))\"", tmp), 0);
    assert_non_null(strstr(it_out, "2026-01-08T000000Z-vm-sim-dev0 True 1.1"));
    /* with a window of 3 the step is older than the newest runs: exit 0;
     * its first run is the 7th newest: a window of exactly 7 holds it, 6
     * does not */
    assert_int_equal(it_sh("report/changes %s --window 3", dir), 0);
    assert_int_equal(it_sh("report/changes %s --window 7", dir), 1);
    assert_int_equal(it_sh("report/changes %s --window 6", dir), 0);
}

/* Every boot_id in a record (the env record's, and each tool's own copy). */
static void another_boot(json_t *j, const void *unused)
{
    (void)unused;
    it_set_every(j, "boot_id", "another-machine-start");
}

/* The same +10 % step, arriving with a new machine start (its boot id)
 * and the same tool: the machine's, not the code's; said so, exit 0. */
static void a_step_with_a_new_machine_start_is_not_the_codes(void **s)
{
    (void)s;
    need_tool();
    char dir[128], d[600];
    snprintf(dir, sizeof dir, "%s/boot", tmp);
    for (int i = 0; i < 14; i++) {
        make_run(dir, i, i >= 7 ? 1.10 : 1.0, false);
        if (i >= 7) {
            run_dir(d, sizeof d, dir, i);
            for (int k = 0; k < 5; k++)
                edit(d, records[k], another_boot, NULL);
            assert_int_equal(it_seal(d), 0);
        }
    }
    int rc = it_sh("report/changes %s", dir);
    if (rc != 0 || !strstr(it_out, "the machine changed, not the code") ||
        strstr(it_out, "a regression in the newest runs"))
        fail_msg("a step with a new machine start exited %d:\n%s", rc, it_out);
}

/* A series is ordered by its records' times, not its folders' names: the
 * folders of the planted step's series named in the reverse order still
 * put the step between the 7th and 8th runs in time, a regression. */
static void a_series_is_in_the_order_of_its_records_times(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/order", tmp);
    for (int i = 0; i < 14; i++) {
        make_run(dir, i, i >= 7 ? 1.10 : 1.0, false);
        char d[600];
        run_dir(d, sizeof d, dir, i);
        assert_int_equal(it_sh("mv %s %s/run-%02d", d, dir, 13 - i), 0);
    }
    int rc = it_sh("report/changes %s", dir);
    if (rc != 1 || !strstr(it_out, "### Between run-07 and run-06"))
        fail_msg("a series named against its times exited %d:\n%s", rc, it_out);
}

static void slowed_on_purpose(json_t *j, const void *unused)
{
    (void)unused;
    json_t *one = json_object();
    json_object_set_new(one, "path", json_string("fast"));
    json_object_set_new(one, "percent", json_integer(10));
    json_t *all = json_array();
    json_array_append_new(all, one);
    json_object_set_new(j, "test_slowdown", all);
}

/* A page of 40 runs reads (issue 44): the plots come before the table, at
 * most 24 runs are labelled on an axis (every step-th counted back from
 * the newest), the change point's line carries the number its line in the
 * list has, and a run slowed on purpose is marked so in the table and on
 * the plot. Then the same in chromium, as a reader sees it: every plot
 * drawn, labels and change-point numbers that do not overlap (40 runs
 * each labelled would), the mark and the slowed run on the plot. */
static void a_long_trend_page_reads(void **s)
{
    (void)s;
    need_tool();
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed (apt-get install gnuplot-nox)");
    char dir[128], d[600];
    snprintf(dir, sizeof dir, "%s/long", tmp);
    for (int i = 0; i < 40; i++)
        make_run(dir, i, i >= 33 ? 1.10 : 1.0, false);
    run_dir(d, sizeof d, dir, 2);
    edit(d, "bench_discriminator.json", slowed_on_purpose, NULL);
    assert_int_equal(it_seal(d), 0);
    assert_int_equal(it_sh("report/changes %s --json %s/long.json >/dev/null", dir, tmp), 1);
    assert_int_equal(it_sh("report/trend %s --changes %s/long.json --out %s/long-trend", dir, tmp, tmp), 0);
    /* labels: the data file's second field, quoted; empty where thinned */
    assert_int_equal(it_sh("grep -vc '^[0-9]* \"\"' %s/long-trend/group0.dat", tmp), 0);
    int labelled = atoi(it_out);
    if (labelled > 24 || labelled < 10)
        fail_msg("%d of 40 runs labelled on the axis", labelled);
    assert_int_equal(it_sh("tail -1 %s/long-trend/group0.dat | grep -c '^39 \"[^\"]'", tmp), 0); /* the newest */
    assert_int_equal(it_sh("grep -c \"set label 2 '1' at 32.5\" %s/long-trend/group0.gp", tmp), 0);
    assert_int_equal(it_sh("grep -c '<li class=\"off\">1: between' %s/long-trend/index.html", tmp), 0);
    assert_int_equal(it_sh("awk '/<img class=\"plot\"/ && !img { img = NR } /<table>/ && !tab { tab = NR } "
                           "END { exit !(img && tab && img < tab) }' %s/long-trend/index.html", tmp), 0);
    assert_int_equal(it_sh("grep -c '2026-01-03T000000Z-vm-sim-dev0</a> <b>(slowed on purpose' "
                           "%s/long-trend/index.html", tmp), 0);
    assert_int_equal(it_sh("grep -c 'slowed on purpose (a test)' %s/long-trend/group0.gp", tmp), 0);
    if (!it_have_browser())
        it_skip("no chromium here: the page was checked as text, not looked at");
    char page[160];
    snprintf(page, sizeof page, "%s/long-trend/index.html", tmp);
    assert_int_equal(it_browser_dom(page, tmp, "data-plots-[a-z]*=\"[0-9]*\""), 0);
    if (!strstr(it_out, "data-plots-total=\"3\"") || !strstr(it_out, "data-plots-rendered=\"3\""))
        fail_msg("the browser did not draw the page's three plots:\n%s", it_out);
    /* the plots themselves, laid out by the browser (xlabels.js) */
    snprintf(page, sizeof page, "%s/long-trend", tmp);
    assert_int_equal(it_plots_in_browser(page, tmp), 0);
    const char *want[] = {"data-svgs=\"3\"", "data-xlabel-overlaps=\"0\"", "data-marks=\"3\"", /* one a plot */
                          "data-mark-overlaps=\"0\"", "data-slowed=\"1\""};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        if (!strstr(it_out, want[i]))
            fail_msg("in chromium the plots are not as a reader needs them (want %s):\n%s", want[i], it_out);
    const char *xl = strstr(it_out, "data-xlabels=\"");
    assert_non_null(xl);
    int labels = atoi(xl + strlen("data-xlabels=\""));
    if (labels < 3 * 10 || labels > 3 * 24)
        fail_msg("in chromium the three plots carry %d labels on their x axes", labels);
}

/* A simulated series with the same +10 % step: shown, never judged (its
 * timings are the machine's that ran the simulation): exit 0. */
static void a_simulated_series_never_exits_1(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/simstep", tmp);
    series_simulated = true;
    for (int i = 0; i < 14; i++)
        make_run(dir, i, i >= 7 ? 1.10 : 1.0, false);
    series_simulated = false;
    int rc = it_sh("report/changes %s", dir);
    if (rc != 0 || !strstr(it_out, "SIMULATED") || strstr(it_out, "a regression in the newest runs"))
        fail_msg("a simulated series exited %d:\n%s", rc, it_out);
}

/* The pool's throughput is one figure a run, judged like a bench row but
 * higher is better: a sleep 4 % faster from run 7 on is found there, and
 * only it, and is no regression; 4 % slower is. */
static void a_pool_throughput_step_is_found(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/pool", tmp);
    for (int i = 0; i < 12; i++) {
        pool_sleep_factor = i >= 6 ? 1.04 : 1.0;
        make_run(dir, i, 1.0, false);
    }
    pool_sleep_factor = 1.0;
    int rc = it_sh("report/changes %s", dir);
    if (rc != 0 || !strstr(it_out, "### Between 2026-01-06T000000Z-vm-sim-dev0 and 2026-01-07T000000Z-vm-sim-dev0"))
        fail_msg("changes exited %d:\n%s", rc, it_out);
    const char *row = strstr(it_out, "| pool sleep / ");
    assert_non_null(row);
    assert_non_null(strstr(row, "| ×1.04"));
    assert_null(strstr(strstr(it_out, "### Between") + 1, "### Between"));
    /* a faster sleep is no regression (exit 0 above); a slower one is */
    snprintf(dir, sizeof dir, "%s/pool-slower", tmp);
    for (int i = 0; i < 12; i++) {
        pool_sleep_factor = i >= 6 ? 0.96 : 1.0;
        make_run(dir, i, 1.0, false);
    }
    pool_sleep_factor = 1.0;
    rc = it_sh("report/changes %s", dir);
    if (rc != 1 || !strstr(it_out, "| ×0.96"))
        fail_msg("a 4 %% slower sleep: changes exited %d:\n%s", rc, it_out);
}

/* The trend page marks each change point on its group's plots (a dotted
 * line before its first run) and lists it with links to both runs; a row
 * name from the marks file is text on the page and never reaches gnuplot.
 * A marks file that is not changes' output is refused before the work. */
static void trend_marks_the_change_points(void **s)
{
    (void)s;
    need_tool();
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed (apt-get install gnuplot-nox)");
    char dir[128];
    snprintf(dir, sizeof dir, "%s/marks", tmp);
    for (int i = 0; i < 12; i++)
        make_run(dir, i, i >= 6 ? 1.10 : 1.0, false);
    assert_int_equal(it_sh("report/changes %s --json %s/marks.json >/dev/null", dir, tmp), 1);
    /* a hostile row name, as an attached file could carry */
    assert_int_equal(it_sh("python3 -c \"import json; p = '%s/marks.json'; d = json.load(open(p)); "
                           "d['classes'][0]['change_points'][0]['rows'][0]['row'] = \\\"x'<script>\\\\nset output\\\"; "
                           "json.dump(d, open(p, 'w'))\"", tmp), 0);
    assert_int_equal(it_sh("report/trend %s --changes %s/marks.json --out %s/marks-trend", dir, tmp, tmp), 0);
    assert_int_equal(it_sh("grep -c \"set arrow 1 from 5.5, graph 0\" %s/marks-trend/group0.gp", tmp), 0);
    assert_int_equal(it_sh("grep -c '<script>\\|x.<script' %s/marks-trend/group0.gp", tmp), 1); /* none there */
    assert_int_equal(it_sh("grep -o 'between <a href=\"[^\"]*2026-01-06T000000Z-vm-sim-dev0/REPORT.md\">"
                           "2026-01-06T000000Z-vm-sim-dev0</a> and <a href=\"[^\"]*2026-01-07T000000Z-vm-sim-dev0/"
                           "REPORT.md\">' %s/marks-trend/index.html", tmp), 0);
    assert_int_equal(it_sh("grep -c 'x&#39;&lt;script&gt;' %s/marks-trend/index.html", tmp), 0);
    assert_int_equal(it_sh("grep -c \"x'<script>\" %s/marks-trend/index.html", tmp), 1); /* never raw */
    /* marks of runs that are not here are named, not drawn */
    assert_int_equal(it_sh("mkdir %s/few && cp -r %s/2026-01-0[1-4]* %s/few/", tmp, dir, tmp), 0);
    assert_int_equal(it_sh("report/trend %s/few --changes %s/marks.json --out %s/few-trend", tmp, tmp, tmp), 0);
    assert_int_equal(it_sh("grep -c 'Change points whose runs are not both here' %s/few-trend/index.html", tmp), 0);
    assert_int_equal(it_sh("grep -c '^set arrow' %s/few-trend/group0.gp", tmp), 1);
    /* only its "after" run here (runs 7 to 12): named, not drawn either */
    assert_int_equal(it_sh("mkdir %s/after && cp -r %s/2026-01-0[7-9]* %s/2026-01-1* %s/after/", tmp, dir, dir, tmp), 0);
    assert_int_equal(it_sh("report/trend %s/after --changes %s/marks.json --out %s/after-trend", tmp, tmp, tmp), 0);
    assert_int_equal(it_sh("grep -c 'Change points whose runs are not both here' %s/after-trend/index.html", tmp), 0);
    assert_int_equal(it_sh("grep -c '^set arrow' %s/after-trend/group0.gp", tmp), 1);
    /* not changes' output: one line, exit 2, nothing written */
    int rc = it_sh("report/trend %s --changes %s/2026-01-01T000000Z-vm-sim-dev0/MANIFEST.json --out %s/bad-trend",
                   dir, dir, tmp);
    if (rc != 2 || !strstr(it_out, "expected the file report/changes --json writes"))
        fail_msg("trend with a marks file that is not changes' exited %d:\n%s", rc, it_out);
    assert_int_not_equal(it_sh("test -e %s/bad-trend", tmp), 0);
    /* JSON of another shape (issue 45): each one line, exit 2, nothing written */
    const char *others[] = {"{\"tool\":\"fleet\",\"classes\":[]}", "{\"tool\":\"changes\",\"classes\":[1,2,3]}",
                            "{\"tool\":\"changes\",\"classes\":[{\"change_points\":\"x\"}]}",
                            "{\"tool\":\"changes\",\"classes\":[{\"change_points\":[{\"before\":\"a\"}]}]}",
                            "{\"tool\":\"compare\",\"regressions\":[]}"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
        assert_int_equal(it_sh("printf '%%s' '%s' > %s/other.json", others[i], tmp), 0);
        rc = it_sh("report/trend %s --changes %s/other.json --out %s/other-trend", dir, tmp, tmp);
        if (rc != 2 || !strstr(it_out, "expected the file report/changes --json writes"))
            fail_msg("trend with %s as marks exited %d:\n%s", others[i], rc, it_out);
        assert_int_not_equal(it_sh("test -e %s/other-trend", tmp), 0);
    }
    /* changes' own record, one field broken against its declaration in
     * common/fields.def: refused, the place named (the loader's check) */
    const struct {
        const char *edit, *said;
    } broken[] = {
        {"d['classes'][0]['change_points'][0]['rows'][0]['p'] = 2", "$.classes[0].change_points[0].rows[0].p"},
        {"del d['classes'][0]['change_points'][0]['tool_before']", "$.classes[0].change_points[0].tool_before"},
        {"del d['schema_version']", "one from an older version: run changes again"},
    };
    for (size_t i = 0; i < sizeof broken / sizeof broken[0]; i++) {
        assert_int_equal(it_sh("python3 -c \"import json; d = json.load(open('%s/marks.json')); %s; "
                               "json.dump(d, open('%s/other.json', 'w'))\"", tmp, broken[i].edit, tmp), 0);
        rc = it_sh("report/trend %s --changes %s/other.json --out %s/other-trend", dir, tmp, tmp);
        if (rc != 2 || !strstr(it_out, broken[i].said))
            fail_msg("trend with marks where %s exited %d, without '%s':\n%s", broken[i].edit, rc, broken[i].said,
                     it_out);
        assert_int_not_equal(it_sh("test -e %s/other-trend", tmp), 0);
    }
}

/* No step, and a copy of one run under another name: nothing found, the
 * copy named and judged once; a run that is not whole is skipped, named. */
static void a_flat_series_with_a_copy_and_a_broken_run(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/flat", tmp);
    for (int i = 0; i < 10; i++)
        make_run(dir, i, 1.0, false);
    assert_int_equal(it_sh("cd %s && cp -r 2026-01-05T000000Z-vm-sim-dev0 2026-01-05T000001Z-vm-sim-dev0 && "
                           "cp -r 2026-01-06T000000Z-vm-sim-dev0 2026-01-06T000001Z-vm-sim-dev0 && "
                           "rm 2026-01-06T000001Z-vm-sim-dev0/MANIFEST.json", dir), 0);
    int rc = it_sh("report/changes %s", dir);
    if (rc != 0 || strstr(it_out, "### Between"))
        fail_msg("changes exited %d:\n%s", rc, it_out);
    assert_non_null(strstr(it_out, "2026-01-05T000001Z-vm-sim-dev0 holds the same records as "
                                   "2026-01-05T000000Z-vm-sim-dev0"));
    assert_non_null(strstr(it_out, "Skipped 2026-01-06T000001Z-vm-sim-dev0: "));
    assert_non_null(strstr(it_out, "10 run(s)"));
}

/* A new record schema is a break, not a change point: a step that comes
 * with it is never reported as one, and each side is judged alone. */
static void a_schema_change_is_a_break(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/brk", tmp);
    for (int i = 0; i < 16; i++)
        make_run_of(dir, i, i >= 8 ? 1.10 : 1.0, false, i < 8 ? 2 : 0);
    int rc = it_sh("report/changes %s", dir);
    if (rc != 0 || strstr(it_out, "### Between") ||
        !strstr(it_out, "A break before 2026-01-09T000000Z-vm-sim-dev0: its records are of schema 4, those before of 2"))
        fail_msg("changes exited %d:\n%s", rc, it_out);
}

/* Schema 4 moved the bench's figures to the reader, which derives them as
 * schema 3 wrote them: a series runs on across 3 -> 4, no break, and a step
 * there is a change point like any other. */
static void a_series_runs_on_from_schema_3_to_4(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/on", tmp);
    for (int i = 0; i < 16; i++)
        make_run_of(dir, i, i >= 8 ? 1.10 : 1.0, false, i < 8 ? 3 : 0);
    int rc = it_sh("report/changes %s", dir);
    if (rc != 1 || strstr(it_out, "A break") ||
        !strstr(it_out, "### Between 2026-01-08T000000Z-vm-sim-dev0 and 2026-01-09T000000Z-vm-sim-dev0"))
        fail_msg("changes exited %d:\n%s", rc, it_out);
}

/* Two disc rows renamed with candidates of 500 characters that differ only
 * in the last; the first slowed by 10 % from run f on. */
static void long_names(json_t *j, const void *f)
{
    char name[520];
    memset(name, 'x', 500);
    size_t i, n = 0;
    json_t *r;
    json_array_foreach(json_object_get(j, "rows"), i, r) {
        /* gated disc rows: os_proc_maps follows the process's layout and is never gated */
        if (strcmp(json_string_value(json_object_get(r, "path")), "disc") || n == 2 ||
            json_is_true(json_object_get(r, "skipped")) || json_integer_value(json_object_get(r, "repeat")) != 1 ||
            !strcmp(json_string_value(json_object_get(r, "candidate")), "os_proc_maps"))
            continue;
        snprintf(name + 500, 20, "%s", n ? "B" : "A");
        json_object_set_new(r, "candidate", json_string(name));
        /* the samples and median too: a row whose processes have no instrument value falls back to them */
        if (n++ == 0 && *(const double *)f > 1)
            it_scale_row(r, 1.10);
    }
}

/* Row names are whole: two that a 400-byte buffer would cut alike keep
 * their own series (the first steps, the second does not). */
static void long_row_names_stay_apart(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/long", tmp);
    /* 16 runs: with 10, a shuffle splits them as cleanly too often for p <= 0.01 */
    for (int i = 0; i < 16; i++) {
        make_run(dir, i, 1.0, false);
        char d[600];
        run_dir(d, sizeof d, dir, i);
        double f = i >= 8 ? 1.10 : 1.0;
        edit(d, "bench_discriminator.json", (void (*)(json_t *, const void *))long_names, &f);
        assert_int_equal(it_seal(d), 0);
    }
    it_sh("report/changes %s", dir);
    if (!strstr(it_out, "xA | ×1.1") || strstr(it_out, "xB | ×"))
        fail_msg("changes said:\n%s", it_out);
}

/* A series too short for change points says so; bad input is one line. */
static void short_series_and_bad_input(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/two", tmp);
    for (int i = 0; i < 2; i++)
        make_run(dir, i, 1.0 + i, false);
    assert_int_equal(it_sh("report/changes %s", dir), 0);
    assert_non_null(strstr(it_out, "too few for change points"));
    assert_int_equal(it_sh("report/changes %s/nothing-here", tmp), 2);
    assert_int_equal(it_sh("mkdir -p %s/empty && report/changes %s/empty", tmp, tmp), 2);
    assert_int_equal(it_sh("report/changes %s --window 0", dir), 2);
    assert_int_equal(it_sh("report/changes %s --json %s/two/2026-01-01T000000Z-vm-sim-dev0/env.json", dir, tmp), 5);
}

/* changes RESULTS reads the runs in a campaign's folders below it too
 * (results/CAMPAIGN/mN/RUN, and from a folder holding a copy of results/),
 * each named by its path, and leaves out an A/B session, saying so. */
static void runs_in_campaign_folders_are_read(void **s)
{
    (void)s;
    need_tool();
    char dir[128];
    snprintf(dir, sizeof dir, "%s/nested", tmp);
    for (int i = 0; i < 2; i++)
        make_run(dir, i, 1.0, false);
    assert_int_equal(it_sh("mkdir -p %s/campaign/m1 %s/campaign/ab && mv %s/2026-01-01T000000Z-vm-sim-dev0 "
                           "%s/campaign/m1/ && ab=$(ls -d results/ab-h200/m22/*Z-vm-cuda-dev0 | head -1) && "
                           "cp -r \"$ab\" %s/campaign/ab/session", dir, dir, dir, dir, dir),
                     0);
    assert_int_equal(it_sh("report/changes %s", dir), 0);
    assert_non_null(strstr(it_out, "2 whole run(s)"));
    assert_non_null(strstr(it_out, "campaign/m1/2026-01-01T000000Z-vm-sim-dev0"));
    assert_non_null(strstr(it_out, "Left out campaign/ab/session: an A/B session"));
    /* compare --series reads one folder's runs: given a campaign's, it says where they are */
    assert_int_equal(it_sh("report/compare --series %s/campaign", dir), 2);
    assert_non_null(strstr(it_out, "2 further down"));
    /* a copy of that results folder, one level down (an archive of
     * several machines' results/): the campaign's run is three levels down */
    assert_int_equal(it_sh("mkdir -p %s/archive && cp -r %s %s/archive/results", tmp, dir, tmp), 0);
    assert_int_equal(it_sh("report/changes %s/archive", tmp), 0);
    assert_non_null(strstr(it_out, "2 whole run(s)"));
    assert_non_null(strstr(it_out, "results/campaign/m1/2026-01-01T000000Z-vm-sim-dev0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_planted_step_is_found_at_its_run),
        cmocka_unit_test(a_simulated_series_never_exits_1),
        cmocka_unit_test(a_series_is_in_the_order_of_its_records_times),
        cmocka_unit_test(a_step_with_a_new_machine_start_is_not_the_codes),
        cmocka_unit_test(a_pool_throughput_step_is_found),
        cmocka_unit_test(trend_marks_the_change_points),
        cmocka_unit_test(a_long_trend_page_reads),
        cmocka_unit_test(a_flat_series_with_a_copy_and_a_broken_run),
        cmocka_unit_test(a_schema_change_is_a_break),
        cmocka_unit_test(a_series_runs_on_from_schema_3_to_4),
        cmocka_unit_test(long_row_names_stay_apart),
        cmocka_unit_test(short_series_and_bad_input),
        cmocka_unit_test(runs_in_campaign_folders_are_read),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
