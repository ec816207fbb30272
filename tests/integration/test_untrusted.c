/* Records and folder names are untrusted, runs can be cut short, runtimes
 * can be broken: each defect found by trying the tools as a hostile
 * contributor would is one test here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <jansson.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *build;
static char tmp[64];
static char good[512];

/* A whole sim run made by run_all.sh, made when a test first needs it:
 * make mutants runs one test at a time, and a test that never reads it
 * (run_all.sh's own refusals) does not wait for it. */
static const char *the_run(void)
{
    if (!*good) {
        char results[128];
        snprintf(results, sizeof results, "%s/runs", tmp);
        if (it_sim_run(results, good, sizeof good) != 0)
            fail_msg("the simulated run every test here starts from was not made");
    }
    return good;
}

static int setup(void **s)
{
    (void)s;
    build = it_build();
    return it_tmpdir(tmp, sizeof tmp, "untrusted");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

/* A copy of the good run under dir (created), its manifest made anew after
 * fn edits the named record, as if the tool itself had written that. */
static void copy_run(const char *dir, const char *record, void (*fn)(json_t *))
{
    /* double quotes: the names tried here hold ' and ; but no " $ or ` */
    assert_int_equal(it_sh("mkdir -p \"$(dirname \"%s\")\" && cp -r %s \"%s\" && cd \"%s\" && rm -f REPORT.md "
                           "PR_COMMENT.md report_* junit.xml benchmark*.json bencher.json results.csv", dir, the_run(), dir, dir), 0);
    if (fn) {
        char p[800];
        snprintf(p, sizeof p, "%s/%s", dir, record);
        json_error_t e;
        json_t *j = json_load_file(p, 0, &e);
        assert_non_null(j);
        fn(j);
        assert_int_equal(json_dump_file(j, p, JSON_INDENT(1)), 0);
        json_decref(j);
    }
    assert_int_equal(it_seal(dir), 0);
}

static char marker[128];

static void gnuplot_code_in_titles(json_t *j)
{
    char evil[300];
    snprintf(evil, sizeof evil, "x'\nsystem('touch %s')\nset title 'y", marker);
    json_object_set_new(json_object_get(j, "sweep"), "kind", json_string(evil));
    json_object_set_new(json_object_get(j, "headline"), "fast_kind", json_string(evil));
}

static void record_text_never_reaches_gnuplot_as_code(void **s)
{
    (void)s;
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed: nothing would run the script");
    snprintf(marker, sizeof marker, "%s/PWNED-gnuplot", tmp);
    char d[200];
    snprintf(d, sizeof d, "%s/gp", tmp);
    copy_run(d, "bench_discriminator.json", gnuplot_code_in_titles);
    assert_int_equal(it_sh("report/report %s", d), 0);
    assert_int_equal(access(marker, F_OK), -1);
    assert_int_equal(it_sh("ls %s/report_sweep.svg", d), 0);
}

static void folder_names_never_reach_a_shell(void **s)
{
    (void)s;
    char d[200];
    snprintf(d, sizeof d, "%s/names/r';touch %s/PWNED-name;'", tmp, tmp);
    copy_run(d, NULL, NULL);
    int rc = it_sh("report/report \"%s\"", d);
    if (rc != 0)
        fail_msg("report on a quoted folder name: %d %s", rc, it_out);
    char m[128];
    snprintf(m, sizeof m, "%s/PWNED-name", tmp);
    assert_int_equal(access(m, F_OK), -1);
    snprintf(d, sizeof d, "%s/names/a'b", tmp);
    copy_run(d, NULL, NULL);
    assert_int_equal(it_sh("report/report \"%s\"", d), 0); /* was: SIGPIPE, exit 141 */
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed: the trend page over these folders cannot be drawn");
    assert_int_equal(it_sh("report/trend %s/names --out %s/names-trend", tmp, tmp), 0);
    assert_int_equal(access(m, F_OK), -1);
}

static void hostile_env(json_t *j)
{
    json_t *e = json_object_get(j, "env");
    json_object_set_new(e, "time_utc", json_string("<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">"));
    json_object_set_new(e, "runtime_version", json_string("<script>document.body.setAttribute('data-pwned','2')</script>"));
}

/* Nothing a run folder links to, and nothing put in after the manifest,
 * reaches a report: the secret is found nowhere. */
static void a_linked_or_unsealed_file_is_quoted_nowhere(void **s)
{
    (void)s;
    char d[200];
    snprintf(d, sizeof d, "%s/linked", tmp);
    copy_run(d, NULL, NULL);
    assert_int_equal(it_sh("printf '## SECRET-7f3a token\\n' > %s/secret.txt && rm -f %s/torch_pool.txt && "
                           "ln -s %s/secret.txt %s/torch_pool.txt", tmp, d, tmp, d), 0);
    assert_int_equal(it_sh("report/report %s && report/report --pr %s", d, d), 0);
    assert_int_equal(it_sh("grep -rl SECRET-7f3a %s/REPORT.md %s/PR_COMMENT.md", d, d), 1);
    assert_int_equal(it_sh("grep -c 'not sealed by MANIFEST.json' %s/REPORT.md", d), 0);
    /* a regular file put in after the manifest: not the run's, not quoted */
    assert_int_equal(it_sh("rm %s/torch_pool.txt %s/REPORT.md %s/PR_COMMENT.md && cp %s/secret.txt %s/torch_pool.txt "
                           "&& report/report --pr %s", d, d, d, tmp, d, d), 0);
    assert_int_equal(it_sh("grep -c SECRET-7f3a %s/PR_COMMENT.md", d), 1);
    /* a record that is a link: the run is not whole */
    assert_int_equal(it_sh("cd %s && rm -f PR_COMMENT.md && mv env.json ../env-real.json && ln -s ../env-real.json "
                           "env.json && cd - >/dev/null && report/report --pr %s", d, d), 2);
    assert_non_null(strstr(it_out, "symbolic link"));
}

static void unseal_first_record(json_t *j)
{
    json_object_set_new(json_array_get(json_object_get(j, "steps"), 0), "sha256", json_null());
}

/* A manifest that names a record without sealing it is not a whole run. */
static void a_manifest_that_does_not_seal_its_records_is_refused(void **s)
{
    (void)s;
    char d[200];
    snprintf(d, sizeof d, "%s/unsealed", tmp);
    copy_run(d, NULL, NULL);
    char p[300];
    snprintf(p, sizeof p, "%s/MANIFEST.json", d);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    assert_non_null(j);
    unseal_first_record(j);
    assert_int_equal(json_dump_file(j, p, JSON_INDENT(1)), 0);
    json_decref(j);
    assert_int_equal(it_sh("report/report %s", d), 2);
    assert_non_null(strstr(it_out, "does not seal it"));
    /* and a record the manifest does not list */
    snprintf(d, sizeof d, "%s/unlisted", tmp);
    copy_run(d, NULL, NULL);
    assert_int_equal(it_sh("cd %s && python3 -c \"import json; m = json.load(open('MANIFEST.json')); "
                           "m['steps'] = [x for x in m['steps'] if x['name'] != 'pool_check']; "
                           "json.dump(m, open('MANIFEST.json', 'w'))\"", d), 0);
    assert_int_equal(it_sh("report/report %s", d), 2);
    assert_non_null(strstr(it_out, "not listed in MANIFEST.json"));
}

static void uncontended(json_t *j);

/* One run that cannot be read spoils nothing: --series and trend name it
 * and why, and judge the others. */
static void a_run_that_is_not_understood_is_skipped_by_series_and_trend(void **s)
{
    (void)s;
    char d[200];
    const char *names[] = {"2026-01-01", "2026-02-01", "2026-03-01"};
    for (int i = 0; i < 3; i++) {
        snprintf(d, sizeof d, "%s/spoil/%s", tmp, names[i]);
        copy_run(d, "bench_discriminator.json", uncontended);
    }
    /* the middle run's probe record cut in half, and sealed as it is: a run
     * whose record does not parse */
    assert_int_equal(it_sh("cd %s/spoil/2026-02-01 && f=probe_discriminator.json && head -c $(($(stat -c %%s $f) / 2)) "
                           "$f > cut && mv cut $f", tmp), 0);
    snprintf(d, sizeof d, "%s/spoil/2026-02-01", tmp);
    assert_int_equal(it_seal(d), 0);
    int rc = it_sh("report/compare --series %s/spoil", tmp);
    if (rc == 2 || !strstr(it_out, "Skipped 2026-02-01: not understood") || !strstr(it_out, "1 pair(s) compared"))
        fail_msg("compare --series exited %d:\n%s", rc, it_out);
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed: trend cannot draw");
    assert_int_equal(it_sh("report/trend %s/spoil --out %s/spoil-trend", tmp, tmp), 0);
    assert_int_equal(it_sh("grep -c 'not understood' %s/spoil-trend/index.html", tmp), 0);
    /* an --out that exists is refused before the work */
    assert_int_equal(it_sh("report/trend %s/spoil --out %s/spoil-trend", tmp, tmp), 5);
    assert_null(strstr(it_out, "skipped"));
}

static void mentions_and_links(json_t *j)
{
    json_object_set_new(json_object_get(j, "env"), "runtime_version",
                        json_string("ping @octo-team about #9999, see https://evil.example/x, www.evil.example or mail "
                                    "boss@evil.example"));
}

/* Record text in a PR comment can neither notify anyone nor become a link. */
static void a_pr_comment_cannot_mention_or_link(void **s)
{
    (void)s;
    char d[200];
    snprintf(d, sizeof d, "%s/mention", tmp);
    copy_run(d, "env.json", mentions_and_links);
    assert_int_equal(it_sh("report/report %s && report/report --pr %s && cat %s/PR_COMMENT.md %s/REPORT.md", d, d, d,
                           d), 0);
    assert_non_null(strstr(it_out, "octo-team"));
    const char *raw[] = {"@octo", "#9999", "https://evil", "www.evil", "@evil"};
    for (size_t i = 0; i < sizeof raw / sizeof raw[0]; i++)
        if (strstr(it_out, raw[i]))
            fail_msg("'%s' reached the comment as GitHub would link it", raw[i]);
    if (it_sh("command -v cmark-gfm") != 0)
        it_skip("cmark-gfm is not installed: the comment was checked as text, not rendered");
    assert_int_equal(it_sh("cmark-gfm --extension table --extension autolink %s/PR_COMMENT.md | grep -c 'evil.example'",
                           d), 0);
    assert_int_equal(it_sh("cmark-gfm --extension table --extension autolink %s/PR_COMMENT.md | grep -c '<a href'", d),
                     1);
}

static void the_trend_page_shows_record_text_as_text(void **s)
{
    (void)s;
    char d[200];
    snprintf(d, sizeof d, "%s/html/r1", tmp);
    copy_run(d, "env.json", hostile_env);
    if (it_sh("command -v gnuplot") != 0)
        it_skip("gnuplot is not installed: trend cannot draw");
    assert_int_equal(it_sh("report/trend %s/html --out %s/html-trend", tmp, tmp), 0);
    assert_int_equal(it_sh("cat %s/html-trend/index.html", tmp), 0);
    assert_non_null(strstr(it_out, "Content-Security-Policy"));
    assert_non_null(strstr(it_out, "&lt;img src=x onerror="));
    assert_non_null(strstr(it_out, "&lt;script&gt;"));
    assert_null(strstr(it_out, "<img src=x"));
    if (!it_have_browser())
        it_skip("no chromium here: the page was checked as text, not loaded");
    char page[128];
    snprintf(page, sizeof page, "%s/html-trend/index.html", tmp);
    assert_int_equal(it_browser_dom(page, tmp, NULL), 0);
    assert_null(strstr(it_out, "data-pwned=\""));
    assert_non_null(strstr(it_out, "data-plots-rendered=\"3\"")); /* the page's own script still runs */
    assert_non_null(strstr(it_out, "&lt;script&gt;document.body"));
}

/* The series' good and slowed runs: steady copies (the process-level gate
 * resolves them), presented as real (simulated timings are never gated). */
static void slow_copies(json_t *j)
{
    it_steady_rows(j, "copy");
    it_slow_rows(j, "copy", 10);
    it_steady_instruments(j); /* under load the canary's spread would hide the 10x (commit e9b4ac8) */
    it_uncontended(j);
    it_as_real(j);
    it_later(j);
}

static void uncontended(json_t *j)
{
    it_steady_rows(j, "copy");
    it_steady_instruments(j);
    it_uncontended(j);
    it_as_real(j);
}

/* run_all.sh stopped by a signal while the bench runs: the folder says so,
 * holds no temporary files, and report, compare and the series refuse it. */
static void an_interrupted_run_is_never_taken_for_a_whole_one(void **s)
{
    (void)s;
    const char *sigs[] = {"TERM", "INT"};
    for (int k = 0; k < 2; k++) {
        int rc = it_sh("tests/integration/interrupt_run.sh %s %s/cut%d %s", build, tmp, k, sigs[k]);
        assert_int_equal(rc, 0);
        if (!strstr(it_out, k ? "status=130\n" : "status=143\n"))
            fail_msg("SIG%s: %s", sigs[k], it_out);
        assert_int_equal(it_sh("ls -d %s/cut%d/*-sim-dev0", tmp, k), 0);
        char d[300];
        it_out[strcspn(it_out, "\n")] = 0;
        snprintf(d, sizeof d, "%.299s", it_out);
        assert_int_equal(it_sh("cat %s/MANIFEST.json", d), 0);
        assert_non_null(strstr(it_out, "\"complete\": false"));
        assert_non_null(strstr(it_out, k ? "\"interrupted\": \"SIGINT\"" : "\"interrupted\": \"SIGTERM\""));
        assert_int_equal(it_sh("ls -A %s | grep -c '^\\.'", d), 1); /* no hidden temp file */
        assert_int_equal(it_sh("report/report %s", d), 2);
        assert_non_null(strstr(it_out, "interrupted by SIG"));
        assert_int_equal(it_sh("report/compare %s %s", the_run(), d), 2);
        if (k == 0) {
            /* a series: good, interrupted, 10x slower — the slowdown is measured against
             * the good run, never against the cut one */
            char p[300];
            assert_int_equal(it_sh("mkdir %s/series && cp -r %s %s/series/2026-02-01", tmp, d, tmp), 0);
            snprintf(p, sizeof p, "%s/series/2026-01-01", tmp);
            copy_run(p, "bench_discriminator.json", uncontended);
            snprintf(p, sizeof p, "%s/series/2026-03-01", tmp);
            copy_run(p, "bench_discriminator.json", slow_copies);
            assert_int_equal(it_sh("report/compare --series %s/series", tmp), 1);
            assert_non_null(strstr(it_out, "Skipped 2026-02-01: not a whole run"));
            assert_non_null(strstr(it_out, "1 pair(s) compared"));
            assert_null(strstr(it_out, " 0 regression(s) in all"));
        }
    }
}

static void a_signalled_tool_leaves_no_temporary_file(void **s)
{
    (void)s;
    assert_int_equal(it_sh("mkdir %s/sig && (%s/bench_discriminator --backend sim --json %s/sig/b.json "
                           "--row-seconds 0.2 >/dev/null 2>&1 & pid=$!; sleep 1; kill -TERM $pid; wait $pid; "
                           "echo status=$?)", tmp, build, tmp), 0);
    assert_non_null(strstr(it_out, "status=143"));
    char d[128];
    snprintf(d, sizeof d, "%s/sig", tmp);
    assert_int_equal(it_count_entries(d), 0);
}

static void a_broken_runtime_library_is_named_not_crashed_on(void **s)
{
    (void)s;
    if (!it_backend_compiled("cuda"))
        it_skip("the cuda backend is compiled out here");
    assert_int_equal(it_sh("mkdir %s/trunc && head -c 3000 %s/fakes/cuda/libcuda.so.1 > %s/trunc/libcuda.so.1",
                           tmp, build, tmp), 0);
    /* was: SIGBUS inside dlopen, exit 135, no message */
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/trunc %s/probe_discriminator --backend cuda", tmp, build), 3);
    assert_non_null(strstr(it_out, "trunc/libcuda.so.1 is truncated or corrupt"));
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/trunc %s/probe_discriminator --list", tmp, build), 0);
    assert_non_null(strstr(it_out, "truncated or corrupt"));
    assert_non_null(strstr(it_out, "backend auto: chose"));
    /* was: SIGSEGV calling data */
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/cuda-datasym %s/probe_discriminator --backend cuda", build,
                           build), 3);
    assert_non_null(strstr(it_out, "cuInit is not a function"));
    /* was: exit 2, "usage" */
    assert_int_equal(it_sh("FAKE_DEVICE_COUNT=-1 LD_LIBRARY_PATH=%s/fakes/cuda %s/probe_discriminator --backend cuda",
                           build, build), 3);
    assert_non_null(strstr(it_out, "reported -1 devices"));
    assert_null(strstr(it_out, "usage"));
    /* there, but needing a symbol nothing defines: named as broken, not "not found" */
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/cuda-undef %s/probe_discriminator --backend cuda", build, build),
                     3);
    assert_non_null(strstr(it_out, "is there but does not load"));
    assert_non_null(strstr(it_out, "ha_fake_symbol_nothing_defines"));
    /* its program-header table said to lie past the end of the file */
    assert_int_equal(it_sh("mkdir %s/phoff && cp %s/fakes/cuda/libcuda.so.1 %s/phoff/ && python3 -c \"import os, struct, "
                           "sys; f = open(sys.argv[1], 'r+b'); f.seek(32); f.write(struct.pack('<Q', "
                           "os.path.getsize(sys.argv[1]) + 4096))\" %s/phoff/libcuda.so.1", tmp, build, tmp, tmp),
                     0);
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/phoff %s/probe_discriminator --backend cuda", tmp, build), 3);
    assert_non_null(strstr(it_out, "phoff/libcuda.so.1 is truncated or corrupt"));
}

static void a_foreign_library_earlier_on_the_path_is_named(void **s)
{
    (void)s;
    if (!it_backend_compiled("hip"))
        it_skip("the hip backend is compiled out here");
    /* a 32-bit class byte: dlopen passes such a file over without a word */
    assert_int_equal(it_sh("mkdir %s/foreign && cp %s/fakes/hip/libamdhip64.so %s/foreign/ && printf '\\001' | "
                           "dd of=%s/foreign/libamdhip64.so bs=1 seek=4 conv=notrunc 2>/dev/null", tmp, build, tmp,
                           tmp), 0);
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/foreign:%s/fakes/hip %s/probe_discriminator --backend hip --list",
                           tmp, build, build), 0);
    assert_non_null(strstr(it_out, "foreign/libamdhip64.so is passed over"));
}

static void big_failed(json_t *j)
{
    json_object_set_new(json_object_get(j, "summary"), "failed", json_integer(INT64_MAX));
}
static void big_device(json_t *j) { json_object_set_new(json_object_get(j, "env"), "device", json_integer(INT64_MAX)); }
static void object_samples(json_t *j)
{
    json_t *r = json_array_get(json_object_get(j, "rows"), 0);
    json_t *a = json_array();
    json_array_append_new(a, json_object());
    json_object_set_new(r, "samples_ns", a);
}
/* every figure 0: the samples it is derived from (schema 4) and, where a
 * record carries it (schema 3), the median */
static void zero_medians(json_t *j)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(j, "rows"), i, r)
        it_scale_row(r, 0);
}

static void the_reader_refuses_what_is_not_a_record(void **s)
{
    (void)s;
    char d[200];
    snprintf(d, sizeof d, "%s/rd/fifo", tmp);
    copy_run(d, NULL, NULL);
    /* was: every tool hung on a FIFO, tried malloc(2^63) on a folder */
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(it_sh("cd %s && rm env.json && mkfifo env.json && BUILD=%s/%s timeout 10 %s/report/report "
                           "--allow-incomplete .", d, cwd, build, cwd), 2);
    assert_non_null(strstr(it_out, "env.json: expected a regular file, found a FIFO"));
    assert_int_equal(it_sh("cd %s && rm env.json && mkdir env.json && BUILD=%s/%s timeout 10 %s/report/report "
                           "--allow-incomplete .", d, cwd, build, cwd), 2);
    assert_non_null(strstr(it_out, "found a folder"));
    struct { const char *rec; void (*fn)(json_t *); const char *want; } cases[] = {
        {"pool_check.json", big_failed, "$.summary.failed: expected a number from 0 to 1000000, found"},
        {"env.json", big_device, "$.env.device: expected a number from 0 to 1023, found"},
        {"bench_discriminator.json", object_samples, "samples_ns[0]: expected a number, found an object"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(d, sizeof d, "%s/rd/c%zu", tmp, i);
        copy_run(d, cases[i].rec, cases[i].fn);
        int rc = it_sh("report/report %s", d);
        if (rc != 2 || !strstr(it_out, cases[i].want))
            fail_msg("case %zu: %d %s", i, rc, it_out);
    }
    assert_int_equal(it_sh("dd if=/dev/zero of=%s/rd/big.json bs=1M count=0 seek=65 2>/dev/null && "
                           "mkdir %s/rd/bigrun && cp %s/rd/big.json %s/rd/bigrun/env.json && "
                           "report/report --allow-incomplete %s/rd/bigrun", tmp, tmp, tmp, tmp, tmp), 2);
    assert_non_null(strstr(it_out, "expected at most 64 MiB"));
    /* all-zero medians: no "nan" anywhere in the report */
    snprintf(d, sizeof d, "%s/rd/zero", tmp);
    copy_run(d, "bench_discriminator.json", zero_medians);
    assert_int_equal(it_sh("report/report --no-plots %s && grep -ci nan %s/REPORT.md", d, d), 1);
}

static void compare_json_is_utf8_whatever_the_folder_name(void **s)
{
    (void)s;
    char d[200];
    snprintf(d, sizeof d, "%s/u/\xff\xfe-run", tmp);
    copy_run(d, NULL, NULL);
    int rc = it_sh("report/compare %s '%s' --json %s/u.json", the_run(), d, tmp);
    assert_true(rc == 0 || rc == 6); /* clean, or timings left unjudged on a busy machine */
    char p[200];
    snprintf(p, sizeof p, "%s/u.json", tmp);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e); /* jansson refuses invalid UTF-8 */
    if (!j)
        fail_msg("compare --json is not valid UTF-8 JSON: %s", e.text);
    assert_non_null(strstr(json_string_value(json_object_get(j, "new")), "\xef\xbf\xbd"));
    json_decref(j);
}

static void hidden_text(json_t *j)
{
    json_object_set_new(json_object_get(j, "env"), "runtime_version",
                        json_string("13.0 \u202e<evil>\xc2\x85" "x\x1b[2J"));
}

/* ESC, C1 controls and bidirectional formatting in a folder's name or a
 * record's text reach no output and no terminal as they are: each reads
 * as a replacement (U+FFFD in the outputs, '?' on the terminal, an
 * escape in JSON), so no name can command a terminal or read as another. */
static void hidden_characters_reach_no_output_and_no_terminal(void **s)
{
    (void)s;
    char d[200];
    snprintf(d, sizeof d, "%s/hidden/r\x1b[2J\u202e-evil\xc2\x9b", tmp);
    copy_run(d, "env.json", hidden_text);
    /* the same name, cut short: trend names it as it skips it */
    assert_int_equal(it_sh("cp -r \"%s\" \"%s-cut\" && rm \"%s-cut/MANIFEST.json\"", d, d, d), 0);
    char term[128];
    snprintf(term, sizeof term, "%s/hidden-terminal.txt", tmp);
    assert_int_equal(it_sh("report/report \"%s\" > %s 2>&1", d, term), 0);
    assert_int_equal(it_sh("report/report \"%s\" >> %s 2>&1", d, term), 5); /* names the folder */
    assert_int_equal(it_sh("report/report --pr \"%s\" >> %s 2>&1", d, term), 0);
    int rc = it_sh("report/compare %s \"%s\" --md %s/hidden-cmp.md --json %s/hidden-cmp.json >> %s 2>&1",
                   the_run(), d, tmp, tmp, term);
    assert_true(rc == 0 || rc == 6 || rc == 7);
    assert_int_equal(it_sh("%s/probe_discriminator --backend sim --json \"%s/none/x.json\" >> %s 2>&1", build, d, term),
                     5);
    bool trend = it_sh("command -v gnuplot") == 0;
    if (trend)
        assert_int_equal(it_sh("report/trend %s/hidden --out %s/hidden-trend >> %s 2>&1", tmp, tmp, term), 0);
    /* the text arrived, replaced (the test would pass vacuously otherwise) */
    assert_int_equal(it_sh("grep -c 'r?\\[2J?-evil?' %s", term), 0);
    assert_int_equal(it_sh("grep -c '13.0 \xef\xbf\xbd\\\\<evil' \"%s/REPORT.md\"", d), 0);
    /* and nowhere as it was: the terminal, every output (the records the
     * test planted, and the plots' pixels, are not outputs) */
    rc = it_sh("cd %s && LC_ALL=C grep -rlP '\\x1b|\\xc2[\\x80-\\x9f]|\\xe2\\x80[\\x8e\\x8f\\xaa-\\xae]|"
               "\\xe2\\x81[\\xa6-\\xa9]|\\xd8\\x9c' hidden-terminal.txt hidden-cmp.md hidden-cmp.json hidden %s "
               "--exclude='*.png' --exclude=env.json --exclude='probe_*.json' --exclude=bench_discriminator.json "
               "--exclude=pool_check.json --exclude=MANIFEST.json",
               tmp, trend ? "hidden-trend" : "");
    if (rc != 1)
        fail_msg("hidden characters reached these as they are:\n%s", it_out);
}

/* run_all.sh refuses what it cannot run as given before it makes a folder,
 * with its documented status, and a run that is not whole is not exit 0. */
static void run_all_refuses_before_a_folder_and_never_calls_a_partial_run_whole(void **s)
{
    (void)s;
    const struct { const char *args; int rc; const char *says; } bad[] = {
        {"--bench-args \"$(printf -- '--iterations 300\\n--kind no-such-kind')\"", 2, "holds a newline"},
        {"--bench-args --help", 2, "is not for --bench-args"},
        {"--pool-args --version", 2, "is not for --bench-args"},
        {"--bench-args '--kind no-such-kind'", 2, "unknown kind 'no-such-kind'"},
        {"--device", 2, "--device takes a value"},
        {"--results /tmp/elsewhere", 2, "--results is given twice"}, /* never the last taken silently */
        {"--backend=cuda", 2, "--backend is given twice"},
        {"--device -1", 2, "not the option-like '-1'"},
    };
    char d[200];
    snprintf(d, sizeof d, "%s/refused", tmp);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = it_sh("BUILD=%s ./run_all.sh --backend sim --no-torch --results %s %s", build, d, bad[i].args);
        if (rc != bad[i].rc || !strstr(it_out, bad[i].says))
            fail_msg("run_all.sh %s: exit %d, wanted %d and '%s':\n%s", bad[i].args, rc, bad[i].rc, bad[i].says,
                     it_out);
        assert_int_equal(it_sh("ls -A %s 2>/dev/null | grep -c .", d), 1);
    }
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --backend sim --no-torch --results /etc/passwd", build), 5);
    assert_non_null(strstr(it_out, "name a writable folder"));
    /* a value that looks like an option is said as such, and no folder '-res' is made */
    /* an empty folder name is bad command-line input (2), never a folder write failing (5) */
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --backend sim --no-torch --results ''", build), 2);
    assert_non_null(strstr(it_out, "--results takes a value, not ''"));
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --backend sim --no-torch --results=", build), 2);
    assert_int_equal(it_sh("d=$PWD && cd %s && BUILD=%s \"$d/run_all.sh\" --results -res", tmp, build), 2);
    assert_non_null(strstr(it_out, "--results takes a value, not the option-like '-res'"));
    assert_int_not_equal(it_sh("test -e %s/-res", tmp), 0);
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --version", build), 0);
    assert_non_null(strstr(it_out, "hostaccess"));
    /* a tool that is not built: the run is not whole, and says so in its status */
    assert_int_equal(it_sh("rm -rf %s/b && mkdir %s/b && cp -a %s/. %s/b/ && rm %s/b/pool_check", tmp, tmp, build,
                           tmp, tmp), 0);
    int rc = it_sh("BUILD=%s/b ./run_all.sh --backend sim --no-torch --results %s/partial --bench-args "
                   "'--iterations 200 --sweep-iterations 20 --sweep-max 1KiB --row-seconds 0.01 --processes 2' "
                   "--pool-args '--throughput-sizes 2MiB --cycles 3'", tmp, tmp);
    if (rc != 1 || !strstr(it_out, "pool_check: not built"))
        fail_msg("a run without pool_check exited %d:\n%s", rc, it_out);
    /* a tool that exits 0 without its record: the manifest says incomplete, and so does the status */
    assert_int_equal(it_sh("printf '#!/bin/sh\\nexit 0\\n' > %s/b/pool_check && chmod +x %s/b/pool_check", tmp, tmp),
                     0);
    rc = it_sh("BUILD=%s/b ./run_all.sh --backend sim --no-torch --results %s/silent --bench-args "
               "'--iterations 200 --sweep-iterations 20 --sweep-max 1KiB --row-seconds 0.01 --processes 2'", tmp, tmp);
    if (rc != 1 || !strstr(it_out, "the run is incomplete"))
        fail_msg("a run whose pool_check exits 0 without a record exited %d:\n%s", rc, it_out);
}

static void small_ones(void **s)
{
    (void)s;
    /* an index past what bash can hold: refused before any folder is made */
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --backend sim --results %s/small --device 99999999999999999999",
                           build, tmp), 2);
    char d[200];
    snprintf(d, sizeof d, "%s/small", tmp);
    assert_int_equal(access(d, F_OK), -1);
    const char *bad_sim[] = {"0", "-1", "abc", "9"};
    for (int i = 0; i < 4; i++) {
        assert_int_equal(it_sh("HA_SIM_DEVICES=%s %s/probe_discriminator --backend sim", bad_sim[i], build), 2);
        assert_non_null(strstr(it_out, "HA_SIM_DEVICES"));
    }
    /* two outputs on one path: refused before the work, not after */
    assert_int_equal(it_sh("%s/bench_discriminator --backend sim --json %s/same.out --sweep-csv %s/./same.out",
                           build, tmp, tmp), 2);
    assert_null(strstr(it_out, "| fast"));
    assert_int_equal(it_sh("report/compare %s %s --md %s/same.md --json %s/same.md", the_run(), the_run(), tmp, tmp), 2);
    snprintf(d, sizeof d, "%s/same.md", tmp);
    assert_int_equal(access(d, F_OK), -1);
    assert_int_equal(it_sh("report/report --help"), 0);
    assert_non_null(strstr(it_out, "usage: report"));
    assert_int_equal(it_sh("mkdir %s/empty && report/compare --series %s/empty", tmp, tmp), 2);
    /* a folder that is not a run at all: said so, with no --allow-incomplete to try */
    assert_int_equal(it_sh("report/report %s/empty", tmp), 2);
    assert_non_null(strstr(it_out, "not a run folder"));
    assert_null(strstr(it_out, "--allow-incomplete"));
    assert_int_equal(it_sh("report/trend %s/empty --out %s/empty-trend", tmp, tmp), 2);
    const char *bad_n[] = {"+5", "' 5'", "5x", "''"};
    for (int i = 0; i < 4; i++)
        assert_int_equal(it_sh("%s/bench_discriminator --backend sim --iterations %s", build, bad_n[i]), 2);
    assert_int_equal(it_sh("%s/probe_discriminator --backend sim --kind vmm-device --kind vmm-device", build), 2);
    assert_non_null(strstr(it_out, "given twice"));
}

static void a_full_disk_is_said_and_leaves_nothing(void **s)
{
    (void)s;
    /* RLIMIT_FSIZE with SIGXFSZ ignored: writes fail as on a full disk
     * (was: "internal error: unbalanced JSON" and a 0-byte temp file) */
    assert_int_equal(it_sh("mkdir %s/full && bash -c \"trap '' XFSZ; ulimit -f 0; %s/probe_discriminator "
                           "--backend sim --env-only --json %s/full/env.json >/dev/null\"", tmp, build, tmp), 5);
    assert_non_null(strstr(it_out, "cannot write"));
    assert_null(strstr(it_out, "unbalanced"));
    char d[200];
    snprintf(d, sizeof d, "%s/full", tmp);
    assert_int_equal(it_count_entries(d), 0);
    /* the report: a failure part-way leaves no export that would block the next try */
    snprintf(d, sizeof d, "%s/fullrep", tmp);
    copy_run(d, NULL, NULL);
    assert_int_equal(it_sh("bash -c \"trap '' XFSZ; ulimit -f 12; report/report --no-plots %s\"", d), 5);
    assert_int_equal(it_sh("cd %s && test ! -e junit.xml && test ! -e benchmark.json && test ! -e REPORT.md "
                           "&& test ! -e results.csv", d), 0);
    assert_int_equal(it_sh("ls -A %s | grep -c '^\\.'", d), 1);
    assert_int_equal(it_sh("report/report --no-plots %s", d), 0);
}

/* A record changed after the run, by one byte or by its size, or a tool's
 * temporary file left in the folder: the run is not whole any more, and
 * report, compare and the series say why. */
static void a_run_changed_after_the_fact_is_not_whole(void **s)
{
    (void)s;
    char dir[128];
    const char *edit[] = {
        /* same size: one digit of the record's schema version is another */
        "sed -i '0,/\"schema_version\": [2-9]/s//\"schema_version\": 1/' %s/env.json",
        "printf ' ' >> %s/env.json",
        "touch %s/.probe_discriminator.json.Xy12ab",
    };
    const char *said[] = {"SHA-256 is not the one MANIFEST.json lists", "bytes, MANIFEST.json says",
                          "temporary file .probe_discriminator.json.Xy12ab was left behind"};
    for (int i = 0; i < 3; i++) {
        snprintf(dir, sizeof dir, "%s/changed%d", tmp, i);
        copy_run(dir, NULL, NULL);
        assert_int_equal(it_sh("gzip -d %s/env.json.gz 2>/dev/null; true", dir), 0);
        char cmd[300];
        snprintf(cmd, sizeof cmd, edit[i], dir);
        assert_int_equal(it_sh("%s", cmd), 0);
        assert_int_equal(it_sh("%s/bin/report %s", build, dir), 2);
        if (!strstr(it_out, said[i]))
            fail_msg("edit %d: report said: %s", i, it_out);
        assert_int_equal(it_sh("%s/bin/compare %s %s", build, the_run(), dir), 2);
        assert_non_null(strstr(it_out, said[i]));
    }
}

/* A record reaches the disk (fsync) before its name appears (link): a
 * crash in between leaves no record that looks whole and is not. */
static void a_record_is_on_disk_before_its_name_appears(void **s)
{
    (void)s;
    char shim[160];
    snprintf(shim, sizeof shim, "%s/fakes/io_order.so", build);
    if (access(shim, R_OK) != 0)
        it_skip("the I/O-order shim is not built (%s)", shim);
    if (strstr(build, "asan"))
        it_skip("an LD_PRELOAD shim cannot load ahead of the sanitizer runtime; the plain pass runs this");
    assert_int_equal(it_sh("rm -f %s/io.log %s/env-io.json && IO_ORDER_LOG=%s/io.log LD_PRELOAD=%s "
                           "%s/probe_discriminator --backend sim --env-only --json %s/env-io.json",
                           tmp, tmp, tmp, shim, build, tmp), 0);
    assert_int_equal(it_sh("awk '/^fsync/ { f = NR } /^link .*env-io.json$/ { l = NR } END { exit !(f && l && f < l) }' "
                           "%s/io.log", tmp), 0);
}

/* Every row's blocks made K times longer (the same samples repeated), as a
 * long live run would record them: about 50 MB of bench record. */
static void fifty_megabytes(json_t *j)
{
    size_t i;
    json_t *r;
    json_t *rows = json_object_get(j, "rows");
    size_t rows_with_samples = 0;
    json_array_foreach(rows, i, r) rows_with_samples += json_array_size(json_object_get(r, "samples_ns")) > 0;
    /* ~17 bytes a number as copy_run writes them (indented, a line each) */
    long long per_row = 50000000ll / 17 / (long long)(rows_with_samples ? rows_with_samples : 1);
    json_array_foreach(rows, i, r) {
        json_t *sm = json_object_get(r, "samples_ns");
        long long per_block = json_integer_value(json_object_get(r, "block_samples"));
        size_t n = json_array_size(sm);
        if (!n || per_block <= 0)
            continue;
        size_t blocks = n / (size_t)per_block, k = (size_t)(per_row / (long long)n) + 1;
        json_t *big = json_array();
        for (size_t b = 0; b < blocks; b++)
            for (size_t rep = 0; rep < k; rep++)
                for (long long x = 0; x < per_block; x++)
                    json_array_append(big, json_array_get(sm, b * (size_t)per_block + (size_t)x));
        json_object_set_new(r, "samples_ns", big);
        json_object_set_new(r, "block_samples", json_integer(per_block * (long long)k));
        if (json_object_get(r, "n")) /* a schema-3 record's count; from 4 the reader's */
            json_object_set_new(r, "n", json_integer((long long)json_array_size(big)));
    }
}

/* A 50 MB record is reported and compared with bounded memory, and says
 * what the small one says (its blocks are the small one's, repeated). How
 * long it takes is a benchmark's figure (report/evidence/bench_report.sh --big),
 * never a test's: a busy machine stretches it. */
static void a_fifty_megabyte_record_is_read_in_bounded_memory_and_reads_as_the_small_one(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed: it measures the tools' memory");
    char dir[128];
    snprintf(dir, sizeof dir, "%s/fifty", tmp);
    copy_run(dir, "bench_discriminator.json", fifty_megabytes);
    assert_int_equal(it_sh("test $(stat -c %%s %s/bench_discriminator.json) -gt 45000000", dir), 0);
    /* compare refuses one folder given twice: its copy, linked, not copied */
    assert_int_equal(it_sh("cp -al %s %s.copy", dir, dir), 0);
    assert_int_equal(it_sh("python3 -c \"import resource, subprocess, sys; "
                           "a = subprocess.run(['%s/bin/report', '--no-plots', '%s']).returncode; "
                           "b = subprocess.run(['%s/bin/compare', '%s', '%s.copy', '--json', '%s/c.json']).returncode; "
                           "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
                           "print('status', a, b, 'rss_mib %%d' %% (r.ru_maxrss // 1024))\"",
                           build, dir, build, dir, dir, tmp), 0);
    int a = -1, b = -1, rss = -1;
    const char *line = strstr(it_out, "status ");
    assert_non_null(line);
    assert_int_equal(sscanf(line, "status %d %d rss_mib %d", &a, &b, &rss), 3);
    if (a != 0)
        fail_msg("report on the 50 MB record: status %d\n%s", a, it_out);
    assert_true(b == 0 || b == 1 || b == 6 || b == 7);
    print_message("report and compare on a 50 MB record: at most %d MiB resident\n", rss);
    if (!strstr(build, "asan"))
        assert_true(rss < 512); /* the record is read once and its samples are not kept */
    /* the verdict is the small run's: same figures, same words */
    assert_int_equal(it_sh("sed -n '/^## Verdict/,/^## Details/p' %s/REPORT.md > %s/v-small && "
                           "sed -n '/^## Verdict/,/^## Details/p' %s/REPORT.md > %s/v-big && "
                           "test -s %s/v-small && diff %s/v-small %s/v-big",
                           the_run(), tmp, dir, tmp, tmp, tmp, tmp), 0);
}

/* A record people attach can be long in any of its arrays: each shape
 * report/evidence/bigrecords.py knows, grown to 10 MB, is reported and compared in
 * memory linear in its size (a copy per item, as report/derive/derive.c once made,
 * needs gigabytes here; the address space is capped so it fails, not
 * swaps). Their time is report/evidence/bench_report.sh's figure, never a test's. */
static void every_shape_of_a_long_record_is_read_in_linear_memory(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed: it grows the records and measures the tools' memory");
    bool asan = strstr(build, "asan") != NULL;
    assert_int_equal(it_sh("python3 report/evidence/bigrecords.py --list"), 0);
    char shapes[512];
    assert_true(strlen(it_out) < sizeof shapes);
    memcpy(shapes, it_out, strlen(it_out) + 1);
    /* Under ASan memory is not judged (its shadow and quarantine are most of
     * it): the shapes are read at 2 MB there, for the sanitizer's eye on the
     * same code, at a fifth of the time. */
    int mb = asan ? 2 : 10;
    for (char *shape = strtok(shapes, "\n"); shape; shape = strtok(NULL, "\n")) {
        char dir[160];
        snprintf(dir, sizeof dir, "%s/shape-%s", tmp, shape);
        copy_run(dir, "env.json", NULL);
        assert_int_equal(it_sh("python3 report/evidence/bigrecords.py %s %s %d", shape, dir, mb), 0);
        assert_int_equal(it_seal(dir), 0);
        int rc = it_sh("python3 -c \"import resource, subprocess; "
                       "cap = lambda: %s; "
                       "a = subprocess.run(['%s/bin/report', '--no-plots', '%s'], preexec_fn=cap).returncode; "
                       "b = subprocess.run(['%s/bin/compare', '%s', '%s'], stdout=subprocess.DEVNULL, "
                       "preexec_fn=cap).returncode; "
                       "r = resource.getrusage(resource.RUSAGE_CHILDREN); "
                       "print('status', a, b, 'rss_mib %%d' %% (r.ru_maxrss // 1024))\"",
                       asan ? "None" : "resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))", build, dir,
                       build, the_run(), dir);
        int a = -1, b = -1, rss = -1;
        const char *line = strstr(it_out, "status ");
        if (rc != 0 || !line || sscanf(line, "status %d %d rss_mib %d", &a, &b, &rss) != 3)
            fail_msg("%s: the measurement failed:\n%s", shape, it_out);
        print_message("%s, %d MB: report %d, compare %d, at most %d MiB resident\n", shape, mb, a, b, rss);
        if (a != 0 || !(b == 0 || b == 1 || b == 6 || b == 7))
            fail_msg("%s: report exited %d, compare %d:\n%s", shape, a, b, it_out);
        if (!asan)
            assert_true(rss < 192); /* about 9x the record today; a copy per item is 100x more */
        assert_int_equal(it_sh("rm -rf %s", dir), 0);
    }
}

/* Out of memory (a virtual-memory limit swept from too small to start to
 * enough), a report tool either answers as it does unbounded, word for
 * word, or stops with one line and status 8: never a run skipped as "not
 * valid JSON" and a series judged without it, which reads as no regression. */
static void out_of_memory_is_said_never_judged_around(void **s)
{
    (void)s;
    if (strstr(build, "asan"))
        it_skip("a sanitizer build reserves more address space than any limit here leaves: the plain pass runs this");
    const char *cmds[] = {"changes results/aa-calibration", "compare results/2026-12-03T014124Z-vm-cuda-dev0 "
                          "results/2026-12-04T212129Z-vm-cuda-dev0"};
    for (size_t c = 0; c < sizeof cmds / sizeof *cmds; c++) {
        int want = it_sh("(%s/bin/%s > %s/oom-full.md)", build, cmds[c], tmp), stopped = 0;
        for (int kib = 4000; kib <= 40000; kib += 2000) {
            int rc = it_sh("(ulimit -v %d && %s/bin/%s > %s/oom.md)", kib, build, cmds[c], tmp);
            if (rc == 127)
                continue; /* too little to map the libraries: the tool never started */
            if (rc == 8 && strstr(it_out, "out of memory") && !strchr(strchr(it_out, '\n') + 1, '\n')) {
                stopped++;
                continue;
            }
            if (rc != want || it_sh("cmp -s %s/oom.md %s/oom-full.md", tmp, tmp) != 0)
                fail_msg("%s under %d KiB: status %d (unbounded %d), its answer not the unbounded one:\n%s", cmds[c],
                         kib, rc, want, it_out);
        }
        if (!stopped)
            printf("note: no limit from 4000 to 40000 KiB stopped '%s' here\n", cmds[c]);
    }
}


static void pool_settings_are_refused_when_not_understood(void **s)
{
    (void)s;
    it_need_ctypes(build);
    const char *bad[] = {"HOSTACCESS_POOL_BACKING=vram", "HOSTACCESS_POOL_HOST_ACCESS=yes",
                         "HOSTACCESS_POOL_CHUNK=lots"};
    for (int i = 0; i < 3; i++) {
        assert_int_equal(it_sh("HOSTACCESS_BACKEND=sim %s python3 -c \"import ctypes; l = ctypes.CDLL('%s/"
                               "libhostaccess_pool.so'); l.my_malloc.restype = ctypes.c_void_p; "
                               "l.hostaccess_last_error.restype = ctypes.c_char_p; "
                               "p = l.my_malloc(ctypes.c_ssize_t(4096), 0, None); "
                               "print('ptr', p); print(l.hostaccess_last_error().decode())\"",
                               bad[i], build), 0);
        assert_non_null(strstr(it_out, "ptr None"));
        char var[64];
        snprintf(var, sizeof var, "%.*s", (int)strcspn(bad[i], "="), bad[i]);
        assert_non_null(strstr(it_out, var));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(record_text_never_reaches_gnuplot_as_code),
        cmocka_unit_test(folder_names_never_reach_a_shell),
        cmocka_unit_test(the_trend_page_shows_record_text_as_text),
        cmocka_unit_test(an_interrupted_run_is_never_taken_for_a_whole_one),
        cmocka_unit_test(a_signalled_tool_leaves_no_temporary_file),
        cmocka_unit_test(a_broken_runtime_library_is_named_not_crashed_on),
        cmocka_unit_test(a_foreign_library_earlier_on_the_path_is_named),
        cmocka_unit_test(the_reader_refuses_what_is_not_a_record),
        cmocka_unit_test(compare_json_is_utf8_whatever_the_folder_name),
        cmocka_unit_test(hidden_characters_reach_no_output_and_no_terminal),
        cmocka_unit_test(small_ones),
        cmocka_unit_test(out_of_memory_is_said_never_judged_around),
        cmocka_unit_test(a_pr_comment_cannot_mention_or_link),
        cmocka_unit_test(a_run_that_is_not_understood_is_skipped_by_series_and_trend),
        cmocka_unit_test(a_linked_or_unsealed_file_is_quoted_nowhere),
        cmocka_unit_test(a_manifest_that_does_not_seal_its_records_is_refused),
        cmocka_unit_test(run_all_refuses_before_a_folder_and_never_calls_a_partial_run_whole),
        cmocka_unit_test(a_full_disk_is_said_and_leaves_nothing),
        cmocka_unit_test(pool_settings_are_refused_when_not_understood),
        cmocka_unit_test(a_fifty_megabyte_record_is_read_in_bounded_memory_and_reads_as_the_small_one),
        cmocka_unit_test(every_shape_of_a_long_record_is_read_in_linear_memory),
        cmocka_unit_test(a_run_changed_after_the_fact_is_not_whole),
        cmocka_unit_test(a_record_is_on_disk_before_its_name_appears),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
