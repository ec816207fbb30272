/* report, compare and trend on a simulated run: the Markdown and exports,
 * refusals to overwrite, missing parts stated, broken records refused with
 * one line, regressions found, and the trend page rendered in a real
 * headless browser. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *build;
static char tmp[64];
static char run[512]; /* a pristine run folder: records only */

/* (Re)writes a test folder's manifest as run_all.sh would after its tools
 * wrote what the folder now holds: edited records are then the run's own. */
static void seal(const char *name)
{
    char dir[128];
    snprintf(dir, sizeof dir, "%s/%s", tmp, name);
    assert_int_equal(it_seal(dir), 0);
}

/* A copy of the pristine run holding only its records, sealed. */
static void fresh(const char *name)
{
    assert_int_equal(it_sh("rm -rf %s/%s && mkdir %s/%s && cd %s && cp env.json probe_discriminator.json "
                        "probe_memgetaccess.json bench_discriminator.json pool_check.json %s/%s/",
                        tmp, name, tmp, name, run, tmp, name), 0);
    seal(name);
}

/* Edits a record with jansson: key path a.b, new JSON value. */
static void edit(const char *file, void (*fn)(json_t *))
{
    json_error_t e;
    json_t *j = json_load_file(file, 0, &e);
    assert_non_null(j);
    fn(j);
    assert_int_equal(json_dump_file(j, file, JSON_INDENT(1)), 0);
    json_decref(j);
}

static int setup(void **s)
{
    (void)s;
    build = it_build();
    if (it_tmpdir(tmp, sizeof tmp, "report"))
        return -1;
    char results[128];
    snprintf(results, sizeof results, "%s/runs", tmp);
    if (it_run_all("report", results, "--bench-args '--processes 4 --iterations 300 --repeat 2 --sweep-iterations 50 "
                   "--sweep-max 1KiB --row-seconds 0.01' --pool-args '--throughput-sizes 2MiB --cycles 5'") != 0) {
        fprintf(stderr, "%s", it_out);
        return -1;
    }
    if (it_sh("ls -d %s/runs/*-sim-dev0", tmp) != 0)
        return -1;
    it_out[strcspn(it_out, "\n")] = 0;
    snprintf(run, sizeof run, "%.500s", it_out);
    return 0;
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static void run_all_made_a_report_and_it_is_not_replaced(void **s)
{
    (void)s;
    assert_int_equal(it_sh("grep -c 'SIMULATED' %s/REPORT.md", run), 0);
    assert_int_equal(it_sh("report/report %s", run), 5);
    assert_non_null(strstr(it_out, "exists; not overwritten"));
}

static void report_has_every_section_and_export(void **s)
{
    (void)s;
    fresh("a");
    assert_int_equal(it_sh("report/report %s/a", tmp), 0);
    assert_int_equal(it_sh("cat %s/a/REPORT.md", tmp), 0);
    const char *want[] = {"# SIMULATED, not evidence", "## Verdict", "| Can the host read it? |",
                          "| Which query tells? |", "| What the fast path buys |", "### Environment", "### Kinds",
                          "### Candidates", "✔ distinguishes", "The full truth table", "MemGetAccess",
                          "### Timings", "(slow path)", "### The sleep-mode pool", "wake / ceiling", "junit.xml",
                          /* what a newcomer could not decode (issue 27): the OS candidates and the isolation */
                          "| os\\_pipe\\_write | os: write() of the bytes into a pipe",
                          "(isolation: none: the reads ran in this process, a fault caught by its handler"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(it_out, want[i]))
            fail_msg("REPORT.md lacks '%s'", want[i]);
    char p[200];
    json_error_t e;
    snprintf(p, sizeof p, "%s/a/benchmark.json", tmp);
    json_t *j = json_load_file(p, 0, &e);
    assert_true(json_is_array(j) && json_array_size(j) > 5);
    json_t *first = json_array_get(j, 0);
    assert_string_equal(json_string_value(json_object_get(first, "unit")), "ns");
    /* a series is keyed by its name: the machine and SIMULATED are in it (issue 27) */
    const char *name = json_string_value(json_object_get(first, "name"));
    if (strncmp(name, "simulated large-BAR GPU (not a device) / sim (SIMULATED) dev0: ", 63))
        fail_msg("benchmark.json names its first series '%s'", name);
    assert_true(json_is_number(json_object_get(first, "value")));
    json_decref(j);
    snprintf(p, sizeof p, "%s/a/benchmark_bigger.json", tmp);
    j = json_load_file(p, 0, &e);
    assert_true(json_is_array(j) && json_array_size(j) == 7);
    json_decref(j);
    /* one name and one unit for a figure in every export */
    assert_int_equal(it_sh("grep -c ': pool [0-9]* bytes sleep_pct_of_ceiling\"' %s/a/benchmark_bigger.json && "
                           "grep -c ',sleep_pct_of_ceiling,[0-9.e+-]*,%%,' %s/a/results.csv && "
                           "! grep -q ',fraction,' %s/a/results.csv", tmp, tmp, tmp), 0);
    const char *suites[] = {"verdicts", "expectations", "pool_check"};
    for (int i = 0; i < 3; i++)
        assert_int_equal(it_sh("grep -c '<testsuite name=\"%s\"' %s/a/junit.xml", suites[i], tmp), 0);
    assert_int_equal(it_sh("grep -c '<testcase' %s/a/junit.xml", tmp), 0);
    assert_true(atoi(it_out) > 20);
    /* a candidate that does not distinguish is a result: it passes, its verdict a property */
    assert_int_equal(it_sh("grep -c '<property name=\"verdict\" value=\"fails\"/>' %s/a/junit.xml", tmp), 0);
    assert_int_equal(it_sh("grep -c '<failure' %s/a/junit.xml", tmp), 1);
    assert_int_equal(it_sh("head -1 %s/a/results.csv", tmp), 0);
    assert_string_equal(it_out, "run,time_utc,host,device_name,device,backend,runtime_version,driver_version,"
                                "tool_version,simulated,section,name,kind,metric,value,unit,text\n");
    /* every row carries the run's keys: the CSVs of many runs concatenate */
    assert_int_equal(it_sh("awk -F, 'NR > 1 && $1 != \"a\" { bad++ } END { exit bad > 0 }' %s/a/results.csv", tmp), 0);
    if (it_sh("command -v gnuplot") == 0)
        assert_int_equal(it_sh("ls %s/a/report_paths.svg %s/a/report_pool.png", tmp, tmp), 0);
}

static void a_missing_record_is_stated(void **s)
{
    (void)s;
    fresh("b");
    assert_int_equal(it_sh("rm %s/b/bench_discriminator.json", tmp), 0);
    seal("b");
    /* a run without one of its records is not whole: refused, saying so */
    assert_int_equal(it_sh("report/report %s/b", tmp), 2);
    assert_non_null(strstr(it_out, "not a whole run: MANIFEST.json says incomplete"));
    assert_int_equal(it_sh("report/report --allow-incomplete %s/b", tmp), 0);
    assert_non_null(strstr(it_out, "INCOMPLETE"));
    assert_int_equal(it_sh("grep -c 'no bench_discriminator record in this run' %s/b/REPORT.md", tmp), 0);
    assert_int_equal(it_sh("head -1 %s/b/REPORT.md", tmp), 0);
    assert_non_null(strstr(it_out, "# INCOMPLETE RUN: "));
}

static void broken_records_are_refused_in_one_line(void **s)
{
    (void)s;
    struct { const char *damage; const char *want; } cases[] = {
        {"truncate -s 200 %s/c/probe_discriminator.json", "probe_discriminator.json: line"},
        {"sed -i 's/\"schema_version\": [0-9]*/\"schema_version\": 7/' %s/c/pool_check.json", "$.schema_version: expected 1 to "},
        /* a real where an integer is required */
        {"sed -i '0,/\"device\": 0/s//\"device\": 0.5/' %s/c/env.json", "$.env.device: expected an integer, found a number"},
        /* a required field missing */
        {"sed -i '0,/\"isolation\": \"none\",/s///' %s/c/probe_discriminator.json", "$.isolation: missing"},
        /* a key given twice */
        {"sed -i '0,/\"isolation\": \"none\"/s//\"isolation\": \"none\", \"isolation\": \"fork\"/' %s/c/probe_discriminator.json",
         "duplicate object key"},
        {"sed -i '0,/\"readable\": [a-z]*/s//\"readable\": \"yes\"/' %s/c/probe_discriminator.json",
         "$.kinds[0].readable: expected a boolean or null, found a string"},
        {"sed -i 's/\"tool\": \"bench_discriminator\"/\"tool\": \"bench\"/' %s/c/bench_discriminator.json",
         "$.tool: expected \"bench_discriminator\""},
        {"printf 'not json' > %s/c/env.json", "env.json: line 1"},
        /* damage inside the raw samples, which every reader parses: refused */
        {"sed -i '0,/\"samples_ns\": \\[/s//\"samples_ns\": [oops, /' %s/c/bench_discriminator.json",
         "bench_discriminator.json: line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fresh("c");
        char cmd[512];
        snprintf(cmd, sizeof cmd, cases[i].damage, tmp);
        assert_int_equal(it_sh("%s", cmd), 0);
        seal("c"); /* as if the tool had written the damage: the reader must refuse it */
        assert_int_equal(it_sh("cd %s/c && md5sum * > ../sums", tmp), 0);
        int rc = it_sh("report/report %s/c", tmp);
        if (rc != 2 || !strstr(it_out, cases[i].want))
            fail_msg("case %zu: status %d, output '%s'", i, rc, it_out);
        assert_ptr_equal(strchr(it_out, '\n'), strrchr(it_out, '\n')); /* one line */
        assert_int_equal(it_sh("test ! -e %s/c/REPORT.md", tmp), 0);
        assert_int_equal(it_sh("cd %s/c && md5sum -c --quiet ../sums", tmp), 0); /* inputs untouched */
        assert_int_equal(it_sh("report/compare %s/c %s", tmp, run), 2);
    }
    assert_int_equal(it_sh("report/report /nonexistent-run"), 2);
    assert_int_equal(it_sh("report/report"), 2);
}

static void uncontended(json_t *j) { it_uncontended(j); }

/* fresh(), with the bench's state probes uncontended (above) and, where
 * given, the bench record edited by fn too. */
static void fresh_bench(const char *name, void (*fn)(json_t *))
{
    fresh(name);
    char p[200];
    snprintf(p, sizeof p, "%s/%s/bench_discriminator.json", tmp, name);
    edit(p, uncontended);
    edit(p, it_as_real);
    if (fn)
        edit(p, fn);
    seal(name);
}



static void stop_distinguishing(json_t *j)
{
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(j, "candidates"), i, c)
        if (!strcmp(json_string_value(json_object_get(c, "name")), "os_pipe_write")) {
            json_object_set_new(c, "distinguishes", json_false());
            json_object_set_new(c, "verdict", json_string("fails"));
        }
}

static void slow_down(json_t *j)
{
    it_later(j);
    it_steady_rows(j, "copy_pageable");
    it_slow_rows(j, "copy_pageable", 10);
}

static void steady_pageable(json_t *j)
{
    it_steady_rows(j, "copy_pageable");
    it_steady_instruments(j);
}

/* The first throughput size's sleep cycles: the goal is judged on them. */
static double sleep_cycles[3];
static void set_sleep_cycles(json_t *j)
{
    json_t *t = json_array_get(json_object_get(j, "throughput"), 0), *c = json_array();
    for (int i = 0; i < 3; i++)
        json_array_append_new(c, json_real(sleep_cycles[i]));
    json_object_set_new(t, "sleep_fraction_by_cycle", c);
    json_object_set_new(t, "wake_fraction_by_cycle", json_pack("[f,f,f]", 0.99, 0.99, 0.99));
    json_object_set_new(t, "sleep_fraction_of_ceiling", json_real(sleep_cycles[1]));
    json_object_set_new(t, "wake_fraction_of_ceiling", json_real(0.99));
    json_array_remove(json_object_get(j, "throughput"), 1);
}

static void not_simulated(json_t *j) { json_object_set_new(j, "simulated", json_false()); }

/* A run whose records read as a GPU's (a simulation's throughput is never
 * judged: goals.h), its sleep cycles a, b and c of the ceiling. */
static void pool_with_cycles(const char *name, double a, double b, double c)
{
    fresh(name);
    sleep_cycles[0] = a, sleep_cycles[1] = b, sleep_cycles[2] = c;
    char p[200];
    snprintf(p, sizeof p, "%s/%s/pool_check.json", tmp, name);
    edit(p, set_sleep_cycles);
    const char *recs[] = {"env.json", "probe_discriminator.json", "probe_memgetaccess.json", "bench_discriminator.json",
                          "pool_check.json"};
    for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
        snprintf(p, sizeof p, "%s/%s/%s", tmp, name, recs[i]);
        edit(p, not_simulated);
    }
    seal(name);
    assert_int_equal(it_sh("report/report %s/%s", tmp, name), 0);
}

/* A performance goal is judged over its cycles in REPORT.md and the
 * benchmark export, never as a JUnit failure. */
static void the_throughput_goal_is_judged_over_cycles_and_never_fails_junit(void **s)
{
    (void)s;
    const struct { double c[3]; const char *outcome; } cases[] = {
        {{0.96, 0.97, 0.98}, "met"}, {{0.93, 0.96, 0.97}, "at the goal, within noise"}, {{0.90, 0.91, 0.94}, "missed"}};
    for (size_t i = 0; i < 3; i++) {
        pool_with_cycles("g", cases[i].c[0], cases[i].c[1], cases[i].c[2]);
        char want[200];
        snprintf(want, sizeof want, "goal ≥ 95 %% in every steady cycle: **%s**", cases[i].outcome);
        assert_int_equal(it_sh("cat %s/g/REPORT.md", tmp), 0);
        if (!strstr(it_out, want))
            fail_msg("REPORT.md lacks '%s'", want);
        assert_int_equal(it_sh("grep -c 'throughput' %s/g/junit.xml", tmp), 1);
        assert_int_equal(it_sh("grep -c '<failure' %s/g/junit.xml", tmp), 1);
        snprintf(want, sizeof want, "goal=%s", cases[i].outcome);
        assert_int_equal(it_sh("cat %s/g/benchmark_bigger.json", tmp), 0);
        if (!strstr(it_out, want) || !strstr(it_out, "\"range\": \"3 cycles"))
            fail_msg("benchmark_bigger.json lacks '%s' or the cycles' range:\n%s", want, it_out);
    }
}

/* compare reports a throughput move only when the goal's outcome changed,
 * by more than the margin, with the runs' cycles apart. */
static void a_throughput_move_needs_the_cycles_apart_and_the_margin(void **s)
{
    (void)s;
    pool_with_cycles("t1", 0.96, 0.97, 0.98);
    pool_with_cycles("t2", 0.90, 0.905, 0.91); /* missed, 6.5 points down, apart */
    pool_with_cycles("t3", 0.944, 0.955, 0.946); /* within noise, 1.5 points: not a move */
    pool_with_cycles("t4", 0.90, 0.935, 0.99); /* missed by its median, but its cycles overlap t1's */
    it_sh("report/compare --same-machine %s/t1 %s/t2", tmp, tmp);
    assert_non_null(strstr(it_out, "throughput pool"));
    it_sh("report/compare --same-machine %s/t1 %s/t3", tmp, tmp);
    assert_null(strstr(it_out, "throughput pool"));
    it_sh("report/compare --same-machine %s/t1 %s/t4", tmp, tmp);
    assert_null(strstr(it_out, "throughput pool"));
}

static void one_process_for_a_row(json_t *j)
{
    it_steady_instruments(j);
    it_later(j);
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(j, "rows"), i, r) {
        const char *cand = json_string_value(json_object_get(r, "candidate"));
        if (strcmp(json_string_value(json_object_get(r, "path")), "disc") || !cand || strcmp(cand, "os_pipe_write"))
            continue;
        json_t *bp = json_object_get(r, "by_process");
        while (json_array_size(bp) > 1)
            json_array_remove(bp, 1);
        break;
    }
}

/* A row that kept one process's value on a side cannot be judged: it is
 * said, and it is not a gated row, so never exit 6. */
static void a_row_with_one_process_is_said_not_inconclusive(void **s)
{
    (void)s;
    fresh_bench("p1", steady_pageable);
    fresh_bench("p2", one_process_for_a_row);
    int rc = it_sh("report/compare --same-machine %s/p1 %s/p2", tmp, tmp);
    if (rc == 6 || !strstr(it_out, "not judged: fewer than 4 processes kept a value"))
        fail_msg("compare exited %d", rc);
}

/* Four processes a row, one fifty times the others: a spread no pair can
 * resolve. The instruments stay steady: the machine's clock did not move. */
static void one_process_far_apart(json_t *j)
{
    it_steady_instruments(j);
    it_later(j);
    size_t i, k;
    json_t *r, *m;
    json_array_foreach(json_object_get(j, "rows"), i, r) {
        const char *path = json_string_value(json_object_get(r, "path"));
        if (path && (!strcmp(path, "canary") || !strcmp(path, "harness") || !strcmp(path, "syscall")))
            continue;
        size_t p;
        json_t *proc;
        json_array_foreach(json_object_get(r, "by_process"), p, proc) {
            if (json_integer_value(json_object_get(proc, "process")) != 4)
                continue;
            json_array_foreach(json_object_get(proc, "block_medians_ns"), k, m)
                json_real_set(m, 50 * json_number_value(m));
        }
    }
}

/* What a pair cannot resolve is said in words a reader can use, never as
 * a detectable change of +4e81 %. */
static void an_unresolvable_row_is_said_so(void **s)
{
    (void)s;
    fresh_bench("w1", steady_pageable);
    fresh_bench("w2", one_process_far_apart);
    it_sh("report/compare --same-machine %s/w1 %s/w2", tmp, tmp);
    if (!strstr(it_out, "cannot resolve even a tenfold change"))
        fail_msg("compare said:\n%s", it_out);
    assert_int_equal(it_sh("report/compare --same-machine %s/w1 %s/w2 | grep -E 'detects \\+([0-9]{4,}|inf)'", tmp,
                           tmp), 1);
}

static void fail_a_pool_check(json_t *j)
{
    json_t *c = json_array_get(json_object_get(j, "checks"), 1);
    json_object_set_new(c, "status", json_string("FAIL"));
    json_object_set_new(c, "passed", json_false());
}

static void an_answer_errs(json_t *j)
{
    json_t *c = json_array_get(json_object_get(j, "candidates"), 0);
    json_t *w = json_array_get(json_object_get(c, "wrong_on"), 0);
    json_object_set_new(json_array_get(json_object_get(c, "results"), 0), "outcome", json_string("error"));
    if (w)
        json_object_set_new(w, "error", json_string(strcmp(json_string_value(json_object_get(w, "error")),
                                                           "false_positive") ? "false_positive" : "false_negative"));
}

/* results.csv: one row per (section, name, kind, metric) whatever the
 * outcome, so that a check going PASS -> FAIL stays on its series. */
static void csv_keys_stay_when_an_outcome_changes(void **s)
{
    (void)s;
    fresh("k1");
    fresh("k2");
    char p[200];
    snprintf(p, sizeof p, "%s/k2/pool_check.json", tmp);
    edit(p, fail_a_pool_check);
    snprintf(p, sizeof p, "%s/k2/probe_discriminator.json", tmp);
    edit(p, an_answer_errs);
    seal("k2");
    for (int i = 1; i <= 2; i++)
        assert_int_equal(it_sh("report/report %s/k%d && cut -d, -f11-14 %s/k%d/results.csv | sort > %s/keys%d", tmp, i,
                               tmp, i, tmp, i), 0);
    assert_int_equal(it_sh("grep -c 'pool_check,.*,passed,0,bool,\"\\?FAIL: ' %s/k2/results.csv", tmp), 0);
    assert_int_equal(it_sh("grep -c ',answer,.*,status,.*,\"\\?error: ' %s/k2/results.csv", tmp), 0);
    assert_int_equal(it_sh("diff %s/keys1 %s/keys2", tmp, tmp), 0);
}

static void compare_finds_regressions(void **s)
{
    (void)s;
    fresh_bench("base", steady_pageable);
    char base[200];
    snprintf(base, sizeof base, "%s/base", tmp);
    assert_int_equal(it_sh("report/compare %s %s", base, base), 2); /* one folder twice: nothing to compare */
    assert_non_null(strstr(it_out, "are one folder"));
    fresh_bench("d", slow_down);
    char p[200];
    snprintf(p, sizeof p, "%s/d/probe_discriminator.json", tmp);
    edit(p, stop_distinguishing);
    seal("d");
    assert_int_equal(it_sh("report/compare %s %s/d --json %s/cmp.json --md %s/cmp.md", base, tmp, tmp, tmp), 1);
    assert_int_equal(it_sh("cat %s/cmp.md", tmp), 0);
    assert_non_null(strstr(it_out, "candidate os\\_pipe\\_write: stopped distinguishing"));
    assert_non_null(strstr(it_out, "timing copy\\_pageable"));
    snprintf(p, sizeof p, "%s/cmp.json", tmp);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    assert_true(json_array_size(json_object_get(j, "regressions")) >= 2);
    json_decref(j);
    /* the other way round, the same differences are improvements: never a
     * regression (clean, or unresolved where the machine running the tests
     * is too busy for this pair of runs to decide its rows) */
    int back = it_sh("report/compare %s/d %s", tmp, base);
    if (back != 0 && back != 7)
        fail_msg("the pair the other way round exited %d:\n%s", back, it_out);
    assert_non_null(strstr(it_out, "started distinguishing"));
    assert_int_equal(it_sh("report/compare %s %s/d --json %s/cmp.json", base, tmp, tmp), 5);
    /* a series: each run against the one before it, one regression pair */
    assert_int_equal(it_sh("mkdir %s/series && cp -r %s %s/series/2026-01-01 && cp -r %s/d %s/series/2026-02-01 "
                        "&& cp -r %s %s/series/2026-03-01", tmp, base, tmp, tmp, tmp, base, tmp), 0);
    assert_int_equal(it_sh("report/compare --series %s/series --json %s/series.json", tmp, tmp), 1);
    assert_non_null(strstr(it_out, "2 pair(s) compared"));
    snprintf(p, sizeof p, "%s/series.json", tmp);
    j = json_load_file(p, 0, &e);
    assert_int_equal(json_array_size(json_object_get(j, "pairs")), 2);
    json_decref(j);
    assert_int_equal(it_sh("report/compare --series /nonexistent-ha"), 2);
}

/* The rules that leave processes out of a row are the gate's
 * configuration (issue 46, item 7), not constants of the build: on a
 * committed H200 pair that leaves out contended and slow-state processes,
 * compare told to keep every process keeps them, and says which rules
 * judged it; a rule out of range is one line, exit 2. */
static void the_process_rules_are_compare_options(void **s)
{
    (void)s;
    const char *m22 = "results/gate-proc-h200/m22/2026-12-03T0745";
    if (it_sh("test -d %s44Z-vm-cuda-dev0 && test -d %s44Z-vm-cuda-dev0", m22, m22) != 0)
        it_skip("the committed H200 runs of results/gate-proc-h200/m22 are not in this tree");
    assert_int_equal(it_sh("report/compare %s44Z-vm-cuda-dev0 %s35Z-vm-cuda-dev0 | grep -c 'rows leave out'", m22,
                           "results/gate-proc-h200/m22/2026-12-03T0746"), 0);
    assert_int_equal(atoi(it_out), 3);
    it_sh("report/compare %s44Z-vm-cuda-dev0 %s35Z-vm-cuda-dev0 --steady-margin 1e9 --contended-share 0 "
          "--json %s/rules.json > %s/rules.md; echo $? $(grep -c 'rows leave out' %s/rules.md)", m22,
          "results/gate-proc-h200/m22/2026-12-03T0746", tmp, tmp, tmp);
    int rc = -1, left_out = -1;
    if (sscanf(it_out, "%d %d", &rc, &left_out) != 2 || (rc != 0 && rc != 1 && rc != 6 && rc != 7) || left_out != 0)
        fail_msg("compare keeping every process exited %d, %d notes of processes left out:\n%s", rc, left_out, it_out);
    assert_int_equal(it_sh("grep -c \"rules other than the gate's own: a steady margin of 1e+09 %% and a contended share of 0 %%\" %s/rules.json",
                           tmp), 0);
    /* an A/B session's rounds are judged in pairs: the rules have nothing to choose, and say so */
    if (it_sh("ls -d results/ab-h200/m13/*/ | head -1") == 0 && it_out[0]) {
        char ab[400];
        snprintf(ab, sizeof ab, "%.*s", (int)strcspn(it_out, "\n"), it_out);
        for (int i = 0; i < 2; i++) {
            rc = it_sh("report/compare %s %s", ab, i ? "--threshold query=10" : "--steady-margin 20");
            if (rc != 2 || !strstr(it_out, "an A/B session's rounds are judged in pairs"))
                fail_msg("compare on an A/B session with a two-run option exited %d:\n%s", rc, it_out);
        }
    }
    for (int i = 0; i < 2; i++) {
        rc = it_sh("report/compare %s44Z-vm-cuda-dev0 %s44Z-vm-cuda-dev0 %s", m22, m22,
                       i ? "--contended-share 101" : "--steady-margin -5");
        if (rc != 2 || strchr(it_out, '\n') != strrchr(it_out, '\n'))
            fail_msg("a rule out of range exited %d, not with one line:\n%s", rc, it_out);
    }
}

static void another_device(json_t *j) { it_set_every(j, "device_name", "another GPU"); }
static void device_one(json_t *j) { json_object_set_new(json_object_get(j, "env"), "device", json_integer(1)); }

/* compare --series pairs each run with the one before it of its own
 * device, and never with a run that is not whole: a run of another
 * device between two of one, a run of the same GPU model's second device
 * (one series per device: m_derived.series, as trend's groups and the
 * exports' names), and a run whose pool check died without a record (its
 * manifest says it is not whole) between them, change no pair. */
static void a_series_pairs_whole_runs_of_one_device(void **s)
{
    (void)s;
    fresh("sa");
    fresh("sb");
    const char *recs[] = {"env.json", "probe_discriminator.json", "probe_memgetaccess.json",
                          "bench_discriminator.json", "pool_check.json"};
    char p[256];
    for (int k = 0; k < 5; k++) {
        snprintf(p, sizeof p, "%s/sb/%s", tmp, recs[k]);
        edit(p, another_device);
    }
    seal("sb");
    fresh("sc");
    for (int k = 0; k < 5; k++) {
        snprintf(p, sizeof p, "%s/sc/%s", tmp, recs[k]);
        edit(p, device_one);
    }
    seal("sc");
    fresh("sd");
    snprintf(p, sizeof p, "%s/sd/probe_discriminator.json", tmp);
    edit(p, stop_distinguishing);
    seal("sd");
    fresh("si");
    assert_int_equal(it_sh("rm -f %s/si/MANIFEST.json %s/si/pool_check.json && %s/run_manifest %s/si --backend sim "
                           "--device 0 env:0 probe_discriminator:0 probe_memgetaccess:0 bench_discriminator:0 "
                           "pool_check:139 && grep -q '\"complete\": false' %s/si/MANIFEST.json",
                           tmp, tmp, build, tmp, tmp), 0);
    assert_int_equal(it_sh("mkdir %s/mixed && cp -r %s/sa %s/mixed/2026-01-01 && cp -r %s/sb %s/mixed/2026-02-01 && "
                           "cp -r %s/si %s/mixed/2026-03-01 && cp -r %s/sc %s/mixed/2026-03-15 && "
                           "cp -r %s/sd %s/mixed/2026-04-01",
                           tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp), 0);
    int rc = it_sh("report/compare --series %s/mixed", tmp);
    if (rc != 1 || !strstr(it_out, "1 pair(s) compared in 3 group(s)") ||
        !strstr(it_out, "Skipped 2026-03-01: not a whole run"))
        fail_msg("a series of two devices and a run that is not whole exited %d:\n%s", rc, it_out);
}

/* The machine's clock moved 50 %: more than the canary's normalisation is
 * trusted for, so the pair cannot be judged. */
static void clock_moved(json_t *j)
{
    it_later(j);
    steady_pageable(j);
    it_slow_rows(j, "canary", 1.5);
}

/* Inconclusive is a verdict: compare keeps the outputs that say why and
 * exits 6, in a series too; and in JUnit a regression is a failure. */
static void an_inconclusive_compare_keeps_its_outputs_and_its_status(void **s)
{
    (void)s;
    fresh_bench("ibase", steady_pageable);
    fresh_bench("iclock", clock_moved);
    int rc = it_sh("report/compare %s/ibase %s/iclock --md %s/inc.md --json %s/inc.json --junit %s/inc.xml", tmp, tmp,
                   tmp, tmp, tmp);
    if (rc != 6)
        fail_msg("a pair whose clock moved 50 %%: status %d, expected 6 (inconclusive)\n%.2000s", rc, it_out);
    assert_int_equal(it_sh("test -s %s/inc.md && test -s %s/inc.json && grep -c '<skipped' %s/inc.xml", tmp, tmp,
                           tmp), 0);
    assert_int_equal(it_sh("mkdir %s/iseries && cp -r %s/ibase %s/iseries/2026-01-01 && cp -r %s/iclock "
                           "%s/iseries/2026-02-01", tmp, tmp, tmp, tmp, tmp), 0);
    assert_int_equal(it_sh("report/compare --series %s/iseries", tmp), 6);
    fresh_bench("islow", slow_down);
    assert_int_equal(it_sh("report/compare %s/ibase %s/islow --junit %s/reg.xml", tmp, tmp, tmp), 1);
    assert_int_equal(it_sh("grep -c '<failure' %s/reg.xml", tmp), 0);
}

static void slowed_sim(json_t *j)
{
    slow_down(j);
    it_steady_instruments(j);
}

/* The copy_pageable row 10 % slower, the timed window left as it was: a
 * copy of a run edited after the fact. */
static void slowed_in_place(json_t *j)
{
    it_steady_rows(j, "copy_pageable");
    it_slow_rows(j, "copy_pageable", 10);
    it_steady_instruments(j);
}

/* Every "device" number in a record (its env head, wherever it is) set to 1. */
static void on_device_one(json_t *j)
{
    const char *k;
    json_t *v;
    size_t i;
    if (json_is_object(j)) {
        json_object_foreach(j, k, v) {
            if (!strcmp(k, "device") && json_is_integer(v))
                json_object_set_new(j, k, json_integer(1));
            else
                on_device_one(v);
        }
    } else if (json_is_array(j)) {
        json_array_foreach(j, i, v)
            on_device_one(v);
    }
}

static void on_another_bus(json_t *j)
{
    on_device_one(j);
    it_set_every(j, "pci_bus_id", "0000:00:07.0");
}

/* Two GPUs of one machine start (run_all.sh --parallel: dev0 and dev1)
 * are not compared on timings: a slower second GPU is not a regression of
 * the first (issue 45), and a pair whose timings are not judged is never
 * clean: inconclusive (6). --same-machine judges them, as it says, and
 * the slowdown is then flagged: the test can tell. */
static void two_devices_of_one_machine_are_never_timed(void **s)
{
    (void)s;
    fresh_bench("dev0", steady_pageable);
    fresh_bench("dev1", slow_down);
    assert_int_equal(it_sh("report/compare %s/dev0 %s/dev1", tmp, tmp), 1);
    const char *recs[] = {"env.json", "probe_discriminator.json", "probe_memgetaccess.json", "bench_discriminator.json",
                          "pool_check.json"};
    for (size_t i = 0; i < sizeof recs / sizeof recs[0]; i++) {
        char p[200];
        snprintf(p, sizeof p, "%s/dev1/%s", tmp, recs[i]);
        edit(p, on_another_bus);
    }
    seal("dev1");
    int rc = it_sh("report/compare %s/dev0 %s/dev1", tmp, tmp);
    if (rc != 6 || !strstr(it_out, "two devices of one machine") || strstr(it_out, "timing copy\\_pageable"))
        fail_msg("compare of two devices exited %d:\n%.1500s", rc, it_out);
    rc = it_sh("report/compare --same-machine %s/dev0 %s/dev1", tmp, tmp);
    if (rc != 1 || !strstr(it_out, "timing copy\\_pageable"))
        fail_msg("compare --same-machine of two devices exited %d:\n%.1500s", rc, it_out);
}

/* Two simulated runs: their timings are reported, never gated; and one
 * run given twice is said to be the same run. */
static void simulated_timings_are_never_gated(void **s)
{
    (void)s;
    fresh("simbase");
    char p[200];
    snprintf(p, sizeof p, "%s/simbase/bench_discriminator.json", tmp);
    edit(p, uncontended); /* a busy host's contended processes would leave too few to report */
    edit(p, steady_pageable);
    seal("simbase");
    /* one folder twice is refused; its copy is the same run, never clean */
    assert_int_equal(it_sh("report/compare %s/simbase %s/simbase", tmp, tmp), 2);
    assert_int_equal(it_sh("rm -rf %s/simcopy && cp -r %s/simbase %s/simcopy", tmp, tmp, tmp), 0);
    assert_int_equal(it_sh("report/compare %s/simbase %s/simcopy --md %s/twice.md; s=$?; cat %s/twice.md; exit $s", tmp,
                           tmp, tmp, tmp), 6);
    assert_non_null(strstr(it_out, "the same run given twice"));
    /* a copy edited after the fact shares the boot and the timed window, not
     * the seals: two runs, judged as such (issue 45) */
    assert_int_equal(it_sh("rm -rf %s/simedit && cp -r %s/simbase %s/simedit", tmp, tmp, tmp), 0);
    snprintf(p, sizeof p, "%s/simedit/bench_discriminator.json", tmp);
    edit(p, slowed_in_place);
    seal("simedit");
    it_sh("report/compare %s/simbase %s/simedit", tmp, tmp);
    assert_null(strstr(it_out, "the same run given twice"));
    assert_non_null(strstr(it_out, "not their sealed records"));
    fresh("simslow");
    snprintf(p, sizeof p, "%s/simslow/bench_discriminator.json", tmp);
    edit(p, uncontended);
    edit(p, slowed_sim);
    seal("simslow");
    int rc = it_sh("report/compare %s/simbase %s/simslow --md %s/sim.md; s=$?; cat %s/sim.md; exit $s", tmp, tmp, tmp,
                   tmp);
    if (rc != 7) /* never clean: unresolved */
        fail_msg("two simulated runs: status %d\n%.3000s", rc, it_out);
    assert_non_null(strstr(it_out, "both runs are SIMULATED"));
    assert_non_null(strstr(it_out, "**0 regression(s)**"));
    assert_non_null(strstr(it_out, "timing copy\\_pageable")); /* reported, as another change */
    /* a simulated pair whose canary moved past what normalisation is
     * trusted for: said, and still never what makes compare inconclusive */
    assert_int_equal(it_sh("rm -rf %s/simclock && cp -r %s/simbase %s/simclock", tmp, tmp, tmp), 0);
    snprintf(p, sizeof p, "%s/simclock/bench_discriminator.json", tmp);
    edit(p, clock_moved);
    seal("simclock");
    rc = it_sh("report/compare %s/simbase %s/simclock", tmp, tmp);
    if (rc != 7 || !strstr(it_out, "the machine's clock moved +50.0 %") || !strstr(it_out, "0 inconclusive"))
        fail_msg("a simulated pair whose canary moved: status %d\n%.3000s", rc, it_out);
}

static void steady(json_t *j) { it_steady_rows(j, "copy_pinned"); }

static void mark_slowed(json_t *j)
{
    it_later(j);
    steady(j);
    json_object_set_new(j, "test_slowdown", json_pack("[{s:s, s:i}]", "path", "copy_pinned", "percent", 20));
    it_slow_rows(j, "copy_pinned", 1.2);
}

/* A run slowed on purpose says so in its report, and compare counts what
 * it caught. The copy_pinned samples are made steady in both runs first:
 * the sim run under them was timed on whatever machine runs the tests,
 * and on a loaded one its own spread swallows +20 % (CI, 2026-12-02). */
static void a_slowed_run_says_so(void **s)
{
    (void)s;
    fresh_bench("steady", steady);
    fresh_bench("slow", mark_slowed);
    assert_int_equal(it_sh("report/report %s/slow && head -3 %s/slow/REPORT.md", tmp, tmp), 0);
    assert_non_null(strstr(it_out, "SLOWED ON PURPOSE, not evidence"));
    it_sh("report/compare %s/steady %s/slow --json %s/slow.json", tmp, tmp, tmp);
    it_sh("cat %s/slow.json", tmp);
    if (!strstr(it_out, "copy_pinned +20%): 1 of 1 rows flagged"))
        fail_msg("the slowed copy_pinned rows were not counted as flagged:\n%.3000s", it_out);
}

/* The report tools stand on the base library alone: no backend, no
 * runtime loader, no platform model inside them. */
static void the_report_tools_hold_no_gpu_code(void **s)
{
    (void)s;
    if (it_sh("command -v nm") != 0)
        it_skip("nm (binutils) is not installed: nothing to list the symbols with");
    const char *tools[] = {"report", "compare", "trend"};
    for (int i = 0; i < 3; i++) {
        int rc = it_sh("nm %s/bin/%s | grep -E ' (ha_backend_open|ha_kinds|ha_raw_same_class|ha_result_value|lb_reserve|dlopen)(@.*)?$'",
                       it_build(),
                       tools[i]);
        if (rc == 0)
            fail_msg("%s links GPU code: %s", tools[i], it_out);
    }
}

/* The pipeline has one direction, load -> derive -> stats -> render: no
 * stage's objects call what a later stage defines (the loader once called
 * back into derive.c, the fleet model sat in load/ and called m_load_run,
 * and compare's findings in derive/ called render's escaping). */
static void no_stage_calls_a_later_one(void **s)
{
    (void)s;
    if (it_sh("command -v nm") != 0)
        it_skip("nm (binutils) is not installed: nothing to list the symbols with");
    /* each stage's objects as its sources name them (an object left
     * behind by a source that moved is not the stage's) */
    int rc = it_sh("objs() { ls report/$1/*.c | sed 's|^|%s/|; s|[.]c$|.o|'; } && "
                   "test -e %s/report/load/model.o && test -e %s/report/render/text.o && st='load derive stats render' && "
                   "i=0; for a in $st; do i=$((i+1)); j=0; for b in $st; do j=$((j+1)); [ $j -le $i ] && continue; "
                   "nm -u $(objs $a) | awk '{print $NF}' | sort -u > %s/$a.u && "
                   "nm --defined-only $(objs $b) | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u > %s/$b.d && "
                   "comm -12 %s/$a.u %s/$b.d | sed \"s|^|$a calls $b: |\"; done; done",
                   it_build(), it_build(), it_build(), tmp, tmp, tmp, tmp);
    if (rc != 0 && it_sh("test -x %s/bin/report", it_build()) != 0)
        it_skip("the report tools are not built");
    if (rc != 0)
        fail_msg("the report tools are built but not from report/load/ ... report/render/ objects:\n%s", it_out);
    if (it_out[0])
        fail_msg("a stage of report/ calls a later one:\n%s", it_out);
}

/* Every JSON the report tools read passes the loader's one gate (parse.c:
 * the document checked whole against common/fields.def): no object
 * outside report/load/ calls jansson (trend's change points once parsed
 * changes' file on their own, their keys spelled by hand, issue 46). */
static void only_the_loader_parses_json(void **s)
{
    (void)s;
    if (it_sh("command -v nm") != 0)
        it_skip("nm (binutils) is not installed: nothing to list the symbols with");
    if (it_sh("test -e %s/report/load/model.o && test -e %s/report/render/trendmarks.o", it_build(), it_build()) != 0)
        it_skip("the report tools are not built (make report)");
    int rc = it_sh("for o in $(ls report/derive/*.c report/stats/*.c report/render/*.c report/tools/*.c | "
                   "sed 's|^|%s/|; s|[.]c$|.o|'); do nm -u $o | awk -v o=$o '$NF ~ /^json_/ {print o \": \" $NF}'; "
                   "done", it_build());
    if (rc != 0 || it_out[0])
        fail_msg("JSON parsed outside report/load/ (read it through the loader):\n%s", it_out);
}

/* Every room is layered inside too: no object of common/, bench/ or a
 * room of report/ calls into one of its room that calls back into it,
 * directly or around a loop (the kinds' and candidates' recipes once
 * called gpuhelpers.c, whose table walks list their rows; the loader's
 * model.c and onread.c called each other, and so did regress.c and the
 * process judgement it runs). tsort names the loop. */
static void no_room_calls_around_a_loop(void **s)
{
    (void)s;
    if (it_sh("command -v nm && command -v tsort && command -v join") != 0)
        it_skip("nm, tsort or join is not installed: nothing to list the calls with");
    static const char *const rooms[] = {"common", "bench", "report/load", "report/derive", "report/stats",
                                        "report/render"};
    for (size_t i = 0; i < sizeof rooms / sizeof *rooms; i++) {
        const char *dir = rooms[i];
        if (it_sh("test -e %s/common/hostread.o && test -e %s/bench/procrun.o && test -e %s/report/load/model.o",
                  it_build(), it_build(), it_build()) != 0)
            it_skip("the tools' objects are not built (make probes)");
        int rc = it_sh("objs=$(ls %s/*.c | sed 's|^|%s/|; s|[.]c$|.o|') && "
                       "for o in $objs; do nm --defined-only $o | awk -v o=${o##*/} '$2 ~ /^[TDBR]$/ {print $3, o}'; "
                       "done | LC_ALL=C sort > %s/calls-defs && "
                       "for o in $objs; do nm -u $o | awk -v o=${o##*/} '{print $NF, o}'; done | LC_ALL=C sort > %s/calls-uses && "
                       "LC_ALL=C join %s/calls-defs %s/calls-uses | awk '$2 != $3 {print $3, $2}' | sort -u > %s/calls-edges && "
                       "test -s %s/calls-edges && { tsort %s/calls-edges 2>&1 >/dev/null; }",
                       dir, it_build(), tmp, tmp, tmp, tmp, tmp, tmp, tmp);
        if (rc != 0 || strstr(it_out, "loop"))
            fail_msg("%s/'s objects call around a loop (or were not listed):\n%s", dir, it_out);
    }
}

/* The bench's lower units (each header bench.h includes, and its .c) never
 * include bench.h: they see what a view lends them, never the bench struct
 * (bench/procs.c once read the whole struct, issue 46, item 5). */
static void the_bench_units_below_bench_h_do_not_include_it(void **s)
{
    (void)s;
    int rc = it_sh("n=0; for h in $(sed -n 's/^#include \"\\([a-z]*\\)[.]h\"$/\\1/p' bench/bench.h); do "
                   "for f in bench/$h.h bench/$h.c; do [ -e $f ] || continue; n=$((n+1)); "
                   "grep -l '#include \"bench[.]h\"' $f; done; done; echo \"units: $n\"");
    if (rc != 0 || strstr(it_out, "bench/"))
        fail_msg("a unit bench.h builds on includes bench.h (lend it a view instead):\n%s", it_out);
    int units = 0;
    assert_int_equal(sscanf(strstr(it_out, "units: "), "units: %d", &units), 1);
    assert_true(units >= 10); /* the listing found bench.h's headers and their sources */
}

/* report --out DIR: a committed run (or one already reported) is reported
 * into a new folder, its links reaching every file, the run's own ones
 * back in the run folder; an existing DIR is refused; the run folder is
 * untouched (issue 44, item 9). */
static void report_writes_elsewhere_with_out(void **s)
{
    (void)s;
    const char *committed = "results/2026-12-03T014124Z-vm-cuda-dev0";
    assert_int_equal(it_sh("ls -l --time-style=full-iso %s > %s/before", committed, tmp), 0);
    assert_int_equal(it_sh("report/report --no-plots --out %s/elsewhere %s", tmp, committed), 0);
    assert_int_equal(it_sh("cd %s/elsewhere && test -s REPORT.md && n=0 && "
                           "for l in $(grep -o '](\\([^)]*\\))' REPORT.md | sed 's/^](//; s/)$//'); do "
                           "case $l in http*|'#'*) continue;; esac; n=$((n+1)); "
                           "f=$(printf '%%b' \"$(echo \"$l\" | sed 's/%%/\\\\x/g')\"); "
                           "[ -e \"$f\" ] || { echo \"dead link: $l\"; exit 1; }; done; "
                           "grep -q '](\\.\\./.*torch_pool.txt' REPORT.md || { echo 'no link back to the run'; exit 1; }; "
                           "echo links=$n", tmp),
                     0);
    const char *links = strstr(it_out, "links=");
    assert_true(links && atoi(links + 6) >= 5); /* the exports and the torch log at least */
    assert_int_equal(it_sh("report/report --no-plots --out %s/elsewhere %s", tmp, committed), 5);
    assert_non_null(strstr(it_out, "exists"));
    assert_int_equal(it_sh("ls -l --time-style=full-iso %s | cmp - %s/before", committed, tmp), 0);
}

/* report --out DIR that fails part-way (a file-size limit stops the CSV
 * after three exports were written) leaves no DIR behind, so the same
 * command runs once the cause is gone instead of being refused. */
static void a_report_out_that_fails_part_way_leaves_nothing(void **s)
{
    (void)s;
    const char *committed = "results/2026-12-03T014124Z-vm-cuda-dev0";
    int rc = it_sh("trap '' XFSZ; ulimit -f 100 && report/report --no-plots --out %s/partway %s", tmp, committed);
    if (rc != 5 || !strstr(it_out, "results.csv"))
        fail_msg("a report stopped at results.csv: status %d\n%s", rc, it_out);
    if (it_sh("test -e %s/partway", tmp) == 0) {
        it_sh("ls -la %s/partway", tmp);
        fail_msg("the failed report left its folder behind:\n%s", it_out);
    }
    assert_int_equal(it_sh("report/report --no-plots --out %s/partway %s", tmp, committed), 0);
}

/* No function of the product (report/, bench/, common/, fix/, probes/)
 * is over 80 lines: each does one thing a reader can hold
 * (docs/architecture.md, "Sizes"). */
static void functions_stay_short(void **s)
{
    (void)s;
    if (it_sh("tools/funcsize.sh --over 80 report bench common fix probes") != 0)
        fail_msg("functions over 80 lines (split them, or say in docs/architecture.md why not):\n%s", it_out);
    /* the tool does see a long one: every function is longer than 1 line */
    assert_int_equal(it_sh("tools/funcsize.sh --over 1 report >/dev/null"), 1);
}

/* report/ shows the pipeline: nothing but the tools' wrappers at its top,
 * each stage in its folder (docs/architecture.md says which holds what). */
static void report_folders_show_the_pipeline(void **s)
{
    (void)s;
    if (it_sh("ls report/*.c report/*.h report/*.sh report/*.py 2>/dev/null") == 0)
        fail_msg("sources at the top of report/ (give each its stage's folder):\n%s", it_out);
    assert_int_equal(it_sh("for d in load derive stats render tools fuzz evidence; do "
                           "ls report/$d/* >/dev/null || exit 1; grep -q \"^report/$d/\" docs/architecture.md || "
                           "{ echo \"docs/architecture.md does not say what report/$d holds\"; exit 1; }; done"),
                     0);
}

static void trend_page_renders_every_plot(void **s)
{
    (void)s;
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed (apt-get install gnuplot-nox)");
    assert_int_equal(it_sh("mkdir %s/many && cp -r %s %s/many/r1 && cp -r %s %s/many/r2", tmp, run, tmp, run, tmp), 0);
    char p[200];
    snprintf(p, sizeof p, "%s/many/r2/env.json", tmp);
    assert_int_equal(it_sh("sed -i 's/\"runtime_version\": \"sim 1\"/\"runtime_version\": \"sim 2\"/' %s", p), 0);
    snprintf(p, sizeof p, "%s/many/r2", tmp);
    assert_int_equal(it_seal(p), 0);
    /* By default the page goes under build/, never into the results tree. */
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(it_sh("cd %s && BUILD=%s/%s %s/report/trend %s/many", tmp, cwd, build, cwd, tmp), 0);
    assert_non_null(strstr(it_out, "build/trend-"));
    char many[96];
    snprintf(many, sizeof many, "%s/many", tmp);
    assert_int_equal(it_count_entries(many), 2);
    assert_int_equal(it_sh("report/trend %s/many --out %s/many-trend", tmp, tmp), 0);
    assert_int_equal(it_sh("report/trend %s/many --out %s/many-trend", tmp, tmp), 5); /* not overwritten */
    /* its links to the runs are relative, and reach their reports from
     * the page's folder (a page published with its results still works) */
    assert_int_equal(it_sh("cd %s/many-trend && grep -o 'href=\"[^\"]*REPORT.md\"' index.html | sort -u | "
                           "sed 's/^href=\"//; s/\"$//' | { n=0; while read -r l; do case $l in /*|*:*) "
                           "echo \"not relative: $l\"; exit 1;; esac; [ -f \"$l\" ] || { echo \"dead: $l\"; "
                           "exit 1; }; n=$((n+1)); done; [ $n -eq 2 ]; }", tmp), 0);
    /* every plot of a simulated group says so on its face */
    assert_int_equal(it_sh("ls %s/many-trend/*.svg | wc -l; grep -L SIMULATED %s/many-trend/*.svg", tmp, tmp), 0);
    assert_string_equal(it_out, "3\n");
    if (!it_have_browser())
        it_skip("no chromium here: the page was written but not loaded");
    char page[128];
    snprintf(page, sizeof page, "%s/many-trend/index.html", tmp);
    assert_int_equal(it_browser_dom(page, tmp, "data-p[a-z-]*=\"[0-9]*\""), 0);
    assert_non_null(strstr(it_out, "data-plots-total=\"3\""));
    assert_non_null(strstr(it_out, "data-plots-rendered=\"3\""));
    /* each plotted point links to its run */
    const char *links = strstr(it_out, "data-point-links=\"");
    assert_non_null(links);
    assert_true(atoi(strchr(links, '"') + 1) >= 2 * 5);
}

/* A figure whose definition changed is never joined to its later self:
 * the committed H200 runs before 2e5addf copied another allocation for the
 * slow path and timed the wake right after its sleep. Labels are whole. */
static void trend_keeps_a_changed_definition_apart(void **s)
{
    (void)s;
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed (apt-get install gnuplot-nox)");
    assert_int_equal(it_sh("mkdir %s/defs && cp -r results/2026-11-30T194335Z-vm-cuda-dev0 "
                           "results/2026-12-02T130224Z-vm-cuda-dev0 %s/defs/", tmp, tmp), 0);
    assert_int_equal(it_sh("report/trend %s/defs --out %s/defs-trend", tmp, tmp), 0);
    assert_int_equal(it_sh("grep -c -e 'slow path: 1 of 2 runs' -e 'wake: 1 of 2 runs (schema-1' "
                           "%s/defs-trend/index.html", tmp), 0);
    assert_string_equal(it_out, "2\n");
    /* the older run: no like-for-like slow path (5) and no paused wake (9);
     * the newer one's slow path is its figure over 7 processes, not the pooled 4709 ns;
     * its copy (11) and its wake right after sleep (10) under their own names */
    assert_int_equal(it_sh("awk -F'\"' '{ split($3, v, \" \"); print $2, v[3], v[7], v[8], v[9] }' "
                           "%s/defs-trend/group0.dat", tmp), 0);
    if (!strstr(it_out, "0caf234 13.0 2026-11-30T19:43:35Z NaN NaN 9") ||
        !strstr(it_out, "2e5addf 13.0 2026-12-02T13:02:24Z 5140.92 96.9763 90.8829 NaN\n"))
        fail_msg("group0.dat (label, slow, wake, wake right after, other copy):\n%s", it_out);
}

/* Runs that hold no figure (env.json alone) still get their page: the
 * plots with nothing to draw are named, not handed to gnuplot. */
static void trend_draws_only_plots_with_figures(void **s)
{
    (void)s;
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed (apt-get install gnuplot-nox)");
    for (int i = 1; i <= 2; i++)
        assert_int_equal(it_sh("mkdir -p %s/envonly/r%d && cp %s/env.json %s/envonly/r%d/ && "
                               "%s/run_manifest %s/envonly/r%d --backend sim --device 0 env:0",
                               tmp, i, run, tmp, i, build, tmp, i), 0);
    assert_int_equal(it_sh("report/trend %s/envonly --out %s/envonly-trend", tmp, tmp), 0);
    assert_int_equal(it_sh("grep -c 'Not plotted: no run of this group' %s/envonly-trend/index.html", tmp), 0);
    assert_string_equal(it_out, "3\n");
    /* a gnuplot that fails: one line that quotes it, and no folder pointed at that is gone */
    assert_int_equal(it_sh("mkdir -p %s/badgp && printf '#!/bin/sh\\necho \"line 7: all points y value "
                           "undefined!\" >&2\\nexit 1\\n' > %s/badgp/gnuplot && chmod +x %s/badgp/gnuplot", tmp, tmp,
                           tmp), 0);
    assert_int_equal(it_sh("PATH=%s/badgp:$PATH report/trend %s/runs --out %s/badgp-trend", tmp, tmp, tmp), 5);
    if (!strstr(it_out, "gnuplot exited 1 on group0.gp: line 7: all points y value undefined!") ||
        strstr(it_out, "gnuplot.log"))
        fail_msg("trend said:\n%s", it_out);
    assert_int_equal(it_sh("test -e %s/badgp-trend", tmp), 1);
}

/* The report benchmark never calls a figure "met" when a tool it times failed. */
static void bench_report_fails_when_a_tool_fails(void **s)
{
    (void)s;
    assert_int_equal(it_sh("mkdir -p %s/broken/bin && for t in report compare trend; do printf '#!/bin/sh\\nexit 2\\n' "
                           "> %s/broken/bin/$t; chmod +x %s/broken/bin/$t; done", tmp, tmp, tmp), 0);
    assert_int_equal(it_sh("BUILD=%s/broken report/evidence/bench_report.sh %s 2", tmp, run), 1);
    assert_non_null(strstr(it_out, "not measured: a tool failed"));
    assert_null(strstr(it_out, ": met"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(run_all_made_a_report_and_it_is_not_replaced),
        cmocka_unit_test(report_has_every_section_and_export),
        cmocka_unit_test(a_missing_record_is_stated),
        cmocka_unit_test(broken_records_are_refused_in_one_line),
        cmocka_unit_test(the_throughput_goal_is_judged_over_cycles_and_never_fails_junit),
        cmocka_unit_test(csv_keys_stay_when_an_outcome_changes),
        cmocka_unit_test(a_throughput_move_needs_the_cycles_apart_and_the_margin),
        cmocka_unit_test(a_row_with_one_process_is_said_not_inconclusive),
        cmocka_unit_test(an_unresolvable_row_is_said_so),
        cmocka_unit_test(compare_finds_regressions),
        cmocka_unit_test(a_series_pairs_whole_runs_of_one_device),
        cmocka_unit_test(an_inconclusive_compare_keeps_its_outputs_and_its_status),
        cmocka_unit_test(two_devices_of_one_machine_are_never_timed),
        cmocka_unit_test(simulated_timings_are_never_gated),
        cmocka_unit_test(a_slowed_run_says_so),
        cmocka_unit_test(the_report_tools_hold_no_gpu_code),
        cmocka_unit_test(no_stage_calls_a_later_one),
        cmocka_unit_test(no_room_calls_around_a_loop),
        cmocka_unit_test(only_the_loader_parses_json),
        cmocka_unit_test(the_process_rules_are_compare_options),
        cmocka_unit_test(the_bench_units_below_bench_h_do_not_include_it),
        cmocka_unit_test(report_folders_show_the_pipeline),
        cmocka_unit_test(functions_stay_short),
        cmocka_unit_test(report_writes_elsewhere_with_out),
        cmocka_unit_test(a_report_out_that_fails_part_way_leaves_nothing),
        cmocka_unit_test(trend_page_renders_every_plot),
        cmocka_unit_test(trend_keeps_a_changed_definition_apart),
        cmocka_unit_test(trend_draws_only_plots_with_figures),
        cmocka_unit_test(bench_report_fails_when_a_tool_fails),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
