/* make mutants' runner refuses a catalogue it cannot apply exactly: text
 * that is not in its file once, an entry without its tests, an unknown id;
 * and the catalogue in the tree is one it accepts. (Running the mutations
 * is make mutants itself, in CI.) The suite runner runs suites at once and
 * prints each one's output whole; on a GPU, the ones named alone after. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "itest.h"

static char tmp[256];

static int setup(void **s)
{
    (void)s;
    return it_tmpdir(tmp, sizeof tmp, "mutants");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static void the_catalogue_is_accepted_and_lists_its_entries(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed");
    assert_int_equal(it_sh("tools/mutants.py --list | wc -l"), 0);
    assert_true(atoi(it_out) >= 40);
    assert_int_equal(it_sh("tools/mutants.py --list | grep -c '(control)'"), 0);
}

/* Writes a one-entry catalogue: its find text and its fields. */
static void catalogue(const char *find, const char *extra)
{
    FILE *f;
    char p[300];
    snprintf(p, sizeof p, "%s/cat.md", tmp);
    f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "### one: a mutation\n- file: `report/render/text.c`\n- find: `%s`\n- replace: `x`\n%s- why: w\n", find,
            extra);
    fclose(f);
}

static void a_catalogue_it_cannot_apply_exactly_is_refused(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed");
    catalogue("text that is in no file of this tree", "- tests: `report_test_text`\n");
    assert_int_equal(it_sh("tools/mutants.py --catalogue %s/cat.md", tmp), 2);
    assert_non_null(strstr(it_out, "one: the text to replace occurs 0 times in report/render/text.c"));
    catalogue("    return out;", "- tests: `report_test_text`\n"); /* more than once in text.c */
    assert_int_equal(it_sh("tools/mutants.py --catalogue %s/cat.md", tmp), 2);
    assert_non_null(strstr(it_out, "times in report/render/text.c (must be once)"));
    catalogue("#define WORD_JOINER", "");
    assert_int_equal(it_sh("tools/mutants.py --catalogue %s/cat.md", tmp), 2);
    assert_non_null(strstr(it_out, "one has no tests"));
    assert_int_equal(it_sh("tools/mutants.py --only no-such-id"), 2);
    assert_non_null(strstr(it_out, "no-such-id"));
    assert_int_equal(it_sh("tools/mutants.py --catalogue %s/none.md", tmp), 2);
}

/* Writes an executable script at tmp/name. */
static void script(const char *name, const char *body)
{
    char p[300];
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n%s\n", body);
    fclose(f);
    assert_int_equal(it_sh("chmod +x %s", p), 0);
}

/* Two suites at once (the first waits, up to 20 s, for the second to have
 * started: run one at a time it fails), each suite's lines together though
 * the second printed between the first's, a failing suite named and the
 * exit status 1; a count of jobs that is not one is refused (2). */
static void the_suites_run_at_once_and_each_prints_whole(void **s)
{
    (void)s;
    char wait_b[1024];
    assert_true((size_t)snprintf(wait_b, sizeof wait_b,
             "echo a1; i=0; while [ ! -e %s/b.started ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i+1)); done\n"
             "[ -e %s/b.started ] || { echo 'a ran alone'; exit 1; }\necho a2",
             tmp, tmp) < sizeof wait_b);
    script("a", wait_b);
    char b[600];
    assert_true((size_t)snprintf(b, sizeof b, "touch %s/b.started; echo b1; sleep 0.2; echo b2; exit 1", tmp) < sizeof b);
    script("b", b);
    assert_int_equal(it_sh("HA_TEST_JOBS=2 tests/run_unit.sh %s/a %s/b", tmp, tmp), 1);
    assert_null(strstr(it_out, "a ran alone"));
    assert_non_null(strstr(it_out, "a1\na2\n"));
    assert_non_null(strstr(it_out, "b1\nb2\n"));
    assert_non_null(strstr(it_out, "FAILED: "));
    assert_non_null(strstr(it_out, "/b\n"));
    assert_non_null(strstr(it_out, "suites: 1 passed, 1 failed (2 at once)"));
    assert_int_equal(it_sh("HA_TEST_JOBS=0 tests/run_unit.sh %s/a", tmp), 2);
    assert_non_null(strstr(it_out, "HA_TEST_JOBS must be a whole number above 0"));
    assert_int_equal(it_sh("tools/mutants.py --jobs 0"), 2);
    assert_non_null(strstr(it_out, "--jobs must be 1 or more"));
}

/* On a GPU a suite named in HA_TEST_ALONE runs after the others, alone;
 * without one it runs beside them. */
static void a_gpu_suite_named_alone_runs_after_the_others(void **s)
{
    (void)s;
    char a[600], b[600];
    assert_true((size_t)snprintf(a, sizeof a, "[ -e %s/b.done ] && echo 'a after b' || echo 'a beside b'", tmp) <
                sizeof a);
    script("a", a);
    assert_true((size_t)snprintf(b, sizeof b, "sleep 1; touch %s/b.done", tmp) < sizeof b);
    script("b", b);
    assert_int_equal(it_sh("HA_TEST_GPU=1 HA_TEST_ALONE='x a' HA_TEST_JOBS=2 tests/run_unit.sh %s/a %s/b", tmp, tmp), 0);
    assert_non_null(strstr(it_out, "a after b"));
    assert_non_null(strstr(it_out, "suites: 2 passed, 0 failed"));
    assert_int_equal(it_sh("rm %s/b.done && HA_TEST_GPU=0 HA_TEST_ALONE=a HA_TEST_JOBS=2 tests/run_unit.sh %s/a %s/b", tmp, tmp, tmp), 0);
    assert_non_null(strstr(it_out, "a beside b"));
}

/* A fixture run kept for make mutants (HA_IT_RUN_CACHE) is copied without
 * the files report writes, and this tree's report renders it again: a
 * mutation of the report tools still meets its own rendering. */
static void a_kept_fixture_run_is_rendered_by_this_tree(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/report", it_build()) != 0)
        it_skip("the report tools are not built (libjansson-dev)");
    const char *committed = "results/2026-12-02T130224Z-vm-cuda-dev0";
    assert_int_equal(it_sh("mkdir -p %s/cache/k/runs/r && cp %s/MANIFEST.json %s/*.json.gz %s/torch_pool.txt* "
                           "%s/cache/k/runs/r/ && touch %s/cache/k/done",
                           tmp, committed, committed, committed, tmp, tmp),
                     0);
    char results[300], cache[300];
    snprintf(results, sizeof results, "%s/results", tmp);
    snprintf(cache, sizeof cache, "%s/cache", tmp);
    assert_int_equal(setenv("HA_IT_RUN_CACHE", cache, 1), 0);
    int rc = it_run_all("k", results, "--never-run"); /* an option run_all.sh refuses: it must not run */
    unsetenv("HA_IT_RUN_CACHE");
    assert_int_equal(rc, 0);
    assert_int_equal(it_sh("test -s %s/r/REPORT.md && test -s %s/r/bencher.json && test ! -e %s/cache/k/runs/r/REPORT.md",
                           results, results, tmp),
                     0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_catalogue_is_accepted_and_lists_its_entries),
        cmocka_unit_test(a_catalogue_it_cannot_apply_exactly_is_refused),
        cmocka_unit_test(the_suites_run_at_once_and_each_prints_whole),
        cmocka_unit_test(a_gpu_suite_named_alone_runs_after_the_others),
        cmocka_unit_test(a_kept_fixture_run_is_rendered_by_this_tree),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
