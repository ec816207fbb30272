/* What the README promises about the outputs and the tools' surface: every
 * tool says its version; --require-gpu turns the simulation fallback into a
 * failure with the reason; the PR comment renders like GitHub renders it,
 * verdict first, no local images, under the comment limit; compacted
 * records stay readable and a regenerated report touches nothing else. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *build;
static char tmp[64];
static char run[512];

static int setup(void **s)
{
    (void)s;
    build = it_build();
    if (it_tmpdir(tmp, sizeof tmp, "outputs"))
        return -1;
    char results[128];
    snprintf(results, sizeof results, "%s/runs", tmp);
    return it_sim_run(results, run, sizeof run);
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static void every_tool_says_its_version(void **s)
{
    (void)s;
    const char *tools[] = {"probe_discriminator", "probe_memgetaccess", "bench_discriminator", "pool_check",
                           "run_manifest", "bin/report", "bin/compare", "bin/trend", "bin/fleet"};
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++) {
        char p[200];
        snprintf(p, sizeof p, "%s/%s", build, tools[i]);
        if (access(p, X_OK) != 0 && !strncmp(tools[i], "bin/", 4))
            continue; /* the report tools need libjansson-dev: their own tests say so */
        if (it_sh("%s --version", p) != 0)
            fail_msg("%s --version: %s", tools[i], it_out);
        if (strlen(it_out) < 3 || strstr(it_out, "unknown"))
            fail_msg("%s --version printed '%s'", tools[i], it_out);
    }
}

static void require_gpu_turns_the_fallback_into_a_failure(void **s)
{
    (void)s;
    if (it_sh("%s/probe_discriminator --list-devices", build) == 0 && !strstr(it_out, "sim"))
        it_skip("a GPU backend opens here: there is no fallback to refuse");
    int rc = it_sh("%s/probe_discriminator --require-gpu", build);
    assert_true(rc == 3 || rc == 4);
    assert_true(strlen(it_out) > 10);
    rc = it_sh("HOSTACCESS_REQUIRE_GPU=1 %s/probe_discriminator", build);
    assert_true(rc == 3 || rc == 4);
    rc = it_sh("BUILD=%s ./run_all.sh --require-gpu --results %s/refused", build, tmp);
    assert_true(rc == 3 || rc == 4);
    assert_int_equal(access(strcat(strcpy((char[128]){0}, tmp), "/refused"), F_OK), -1);
    /* and by default the quick start still runs the simulation, saying so */
    assert_int_equal(it_sh("grep -c SIMULATED %s/REPORT.md", run), 0);
}

/* The PR comment as GitHub renders it: cmark-gfm with its table and
 * autolink extensions, the same engine GitHub's comments use; raw HTML kept
 * (--unsafe), as GitHub keeps the <details> it allows. */
static void the_pr_comment_renders_verdict_first(void **s)
{
    (void)s;
    char cmt[600];
    snprintf(cmt, sizeof cmt, "%s/PR_COMMENT.md", run);
    if (access(cmt, F_OK) != 0)
        assert_int_equal(it_sh("%s/bin/report --pr %s", build, run), 0);
    struct stat st;
    assert_int_equal(stat(cmt, &st), 0);
    assert_true(st.st_size > 200 && st.st_size < 65536);
    /* no image or link to a local file: a pasted comment would lose it */
    assert_int_not_equal(it_sh("grep -E '!\\[[^]]*\\]\\([^h)]' %s", cmt), 0);
    if (it_sh("command -v cmark-gfm") != 0)
        it_skip("cmark-gfm is not installed (apt-get install cmark-gfm): the comment is not rendered here");
    assert_int_equal(it_sh("cmark-gfm --unsafe --extension table --extension autolink %s > %s/pr.html", cmt, tmp), 0);
    assert_int_equal(it_sh("grep -c '<table>' %s/pr.html", tmp), 0);
    assert_int_equal(it_sh("grep -c '<details>' %s/pr.html", tmp), 0);
    /* the first table is the verdict, and it comes before any folded part */
    assert_int_equal(it_sh("awk '/<table>/ { t = NR } /<details>/ && !d { d = NR } /Can the host read it/ && !v { v = NR } "
                           "END { exit !(t && v && v < d) }' %s/pr.html", tmp), 0);
    assert_int_not_equal(it_sh("grep -E '<img[^>]+src=\"[^h]' %s/pr.html", tmp), 0);
    /* REPORT.md answers on its first screen */
    assert_int_equal(it_sh("head -40 %s/REPORT.md | grep -c 'Can the host read it\\|Which query tells\\|What the fast path "
                           "buys\\|The pool with the host-access fix'", run), 0);
    assert_true(atoi(it_out) == 4);
}

static void compacted_records_stay_readable_and_a_rerender_touches_only_the_report(void **s)
{
    (void)s;
    char dir[128];
    snprintf(dir, sizeof dir, "%s/compact", tmp);
    assert_int_equal(it_sh("mkdir -p %s && cp -r %s %s/", dir, run, dir), 0);
    assert_int_equal(it_sh("tools/compact_results.sh %s", dir), 0);
    assert_int_equal(it_sh("ls %s/*/ | grep -c 'json.gz$'", dir), 0);
    assert_true(atoi(it_out) >= 4);
    assert_int_equal(it_sh("cd %s/*/ && ls *.json | grep -v -e MANIFEST -e benchmark -e bencher | wc -l", dir), 0);
    assert_string_equal(it_out, "0\n");
    assert_int_equal(it_sh("cd %s/*/ && cat MANIFEST.json *.json.gz *.log | sha256sum > %s/before", dir, tmp), 0);
    /* stale report files, a PR comment among them (an earlier test may have made one) */
    assert_int_equal(it_sh("rm -f %s/*/PR_COMMENT.md && %s/bin/report --pr %s/*/ && cd %s/*/ && echo old > PR_COMMENT.md "
                           "&& echo old > REPORT.md", dir, build, dir, dir), 0);
    assert_int_equal(it_sh("BUILD=%s tools/rerender_results.sh %s", build, dir), 0);
    assert_int_equal(it_sh("cd %s/*/ && cat MANIFEST.json *.json.gz *.log | sha256sum | cmp - %s/before", dir, tmp), 0);
    /* the report and the PR comment it had are made again (the run keeps
     * its plots, so they are drawn again where gnuplot is) */
    assert_int_equal(it_sh("! grep -qx old %s/*/REPORT.md && grep -c '^## ' %s/*/REPORT.md && "
                           "grep -c '^## ' %s/*/PR_COMMENT.md", dir, dir, dir), 0);
    int rc = it_sh("%s/bin/compare %s %s/*/", build, run, dir);
    assert_true(rc == 0 || rc == 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_tool_says_its_version),
        cmocka_unit_test(require_gpu_turns_the_fallback_into_a_failure),
        cmocka_unit_test(the_pr_comment_renders_verdict_first),
        cmocka_unit_test(compacted_records_stay_readable_and_a_rerender_touches_only_the_report),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
