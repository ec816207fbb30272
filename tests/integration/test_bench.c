/* bench_discriminator end to end on sim, the record fields the report
 * reads, and bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <jansson.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define QUICK "--iterations 300 --repeat 2 --sweep-iterations 50 --sweep-max 1KiB --row-seconds 0.05"

static const char *build;
static char tmp[64];

static int setup(void **s)
{
    (void)s;
    build = it_build();
    return it_tmpdir(tmp, sizeof tmp, "bench");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static const json_t *row(const json_t *rows, const char *path, const char *cand, int rep)
{
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r) {
        const char *c = json_string_value(json_object_get(r, "candidate"));
        if (strcmp(json_string_value(json_object_get(r, "path")), path) == 0 &&
            json_integer_value(json_object_get(r, "repeat")) == rep &&
            (!cand || (c && strcmp(c, cand) == 0)))
            return r;
    }
    fail_msg("no row %s/%s repeat %d", path, cand ? cand : "-", rep);
    return NULL;
}

/* Runs the simulated bench with env (VAR=VALUE ..., or "") and args,
 * writing tmp/NAME.json, and returns that record (the caller frees it). */
static json_t *bench_record(const char *env, const char *args, const char *name)
{
    if (it_sh("%s %s/bench_discriminator --backend sim %s --json %s/%s.json", env, build, args, tmp, name) != 0)
        fail_msg("the bench exited non-zero:\n%s", it_out);
    char p[128];
    snprintf(p, sizeof p, "%s/%s.json", tmp, name);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    if (!j)
        fail_msg("%s: %s", p, e.text);
    return j;
}

static void every_path_runs_and_is_recorded(void **s)
{
    (void)s;
    assert_int_equal(it_sh("%s/bench_discriminator --backend sim --kind plain-readable " QUICK
                        " --json %s/b.json --sweep-csv %s/s.csv", build, tmp, tmp), 0);
    assert_non_null(strstr(it_out, "SIMULATED"));
    assert_non_null(strstr(it_out, "## Headline"));
    assert_non_null(strstr(it_out, "harness overhead"));
    char p[128];
    snprintf(p, sizeof p, "%s/b.json", tmp);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    assert_non_null(j);
    assert_true(json_is_true(json_object_get(j, "simulated")));
    assert_string_equal(json_string_value(json_object_get(j, "tool")), "bench_discriminator");
    json_t *clock = json_object_get(j, "clock");
    assert_true(json_number_value(json_object_get(clock, "read_ns")) > 0);
    json_t *rows = json_object_get(j, "rows");
    const char *paths[] = {"harness", "fast", "guarded", "guarded_session", "copy_pageable",
                           "copy_pinned", "copy_async", "fault", "fault_fallback"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++)
        for (int rep = 1; rep <= 2; rep++) {
            const json_t *r = row(rows, paths[i], NULL, rep);
            assert_false(json_is_true(json_object_get(r, "skipped")));
            /* measurements, never a figure derived from them (schema 4: the reader's) */
            assert_null(json_object_get(r, "median_ns"));
            assert_null(json_object_get(r, "n"));
            json_t *samples = json_object_get(r, "samples_ns"), *x;
            size_t n = json_array_size(samples), k;
            assert_true(n > 0);
            assert_int_equal(n % (size_t)json_integer_value(json_object_get(r, "block_samples")), 0);
            json_array_foreach(samples, k, x) {
                char kept[32];
                snprintf(kept, sizeof kept, "%.5g", json_number_value(x));
                assert_true(json_number_value(x) > 0 && strtod(kept, NULL) == json_number_value(x));
            }
            assert_int_equal(json_integer_value(json_object_get(r, "loop_status")), 0);
        }
    /* the guarded read distinguishes on sim, so it has a hardened row */
    const json_t *h = row(rows, "hardened", "os_guarded_read", 1);
    assert_int_equal(json_integer_value(json_object_get(h, "fallbacks")), 0);
    json_t *head = json_object_get(j, "headline");
    assert_string_equal(json_string_value(json_object_get(head, "fast_kind")), "plain-readable");
    assert_int_equal(json_object_size(head), 2); /* the kinds the bench chose; their figures are the rows' */
    json_t *sweep = json_object_get(j, "sweep");
    assert_int_equal(json_array_size(json_object_get(sweep, "points")), 9); /* 4 B .. 1 KiB */
    json_decref(j);
    assert_int_equal(it_sh("grep -c '^[0-9]' %s/s.csv", tmp), 0);
    assert_int_equal(atoi(it_out), 9);
}

/* A worker that stopped before its end line (as one killed while writing
 * would: HOSTACCESS_TEST_WORKER_STOPS) is not finished and none of its rows
 * count; each process has an order seed of its own and the environment
 * sizes differ (each process draws its own layout). */
static void a_worker_that_stops_early_counts_for_nothing(void **s)
{
    (void)s;
    json_t *j = bench_record("HOSTACCESS_TEST_WORKER_STOPS=3",
                             "--kind plain-readable --processes 5 --iterations 200 --repeat 1 --no-sweep "
                             "--row-seconds 0.02", "w");
    json_t *procs = json_object_get(j, "processes"), *list = json_object_get(procs, "list");
    assert_int_equal(json_integer_value(json_object_get(procs, "finished")), 4);
    assert_int_equal(json_array_size(list), 5);
    size_t i, k;
    json_t *pr, *r, *bp;
    long long pads[5];
    const char *seeds[5];
    json_array_foreach(list, i, pr) {
        long long id = json_integer_value(json_object_get(pr, "index"));
        assert_int_equal(json_is_true(json_object_get(pr, "ok")), id != 3);
        if (id == 3)
            assert_non_null(strstr(json_string_value(json_object_get(pr, "detail")), "not written whole"));
        pads[i] = json_integer_value(json_object_get(pr, "env_pad_bytes"));
        seeds[i] = json_string_value(json_object_get(pr, "order_seed"));
        assert_non_null(seeds[i]);
        for (size_t m = 0; m < i; m++)
            assert_string_not_equal(seeds[m], seeds[i]);
    }
    bool sizes_differ = false;
    for (size_t m = 1; m < 5; m++)
        sizes_differ |= pads[m] != pads[1];
    assert_true(sizes_differ);
    size_t with_values = 0;
    json_array_foreach(json_object_get(j, "rows"), i, r) {
        json_array_foreach(json_object_get(r, "by_process"), k, bp) {
            assert_int_not_equal(json_integer_value(json_object_get(bp, "process")), 3);
            with_values++;
        }
    }
    assert_true(with_values > 0);
    json_decref(j);
}

/* Process p starts on the CPU the first process's survey ranks p-th
 * steadiest (wrapping around the CPUs surveyed): workers spread over the
 * steady CPUs, never all on the steadiest one. Compared by the surveyed
 * p90, so two CPUs that tie are either's place. */
static void starts_follow_the_survey(const json_t *j)
{
    const json_t *survey = json_object_get(json_object_get(j, "cpu_choice"), "survey");
    size_t n = json_array_size(survey), i, k;
    const json_t *pr, *c;
    if (n < 2) {
        printf("note: %zu CPU(s) surveyed: every process starts on one, the spread is not checked\n", n);
        return;
    }
    double *p90 = calloc(n, sizeof *p90);
    assert_non_null(p90);
    json_array_foreach(survey, i, c) {
        p90[i] = json_number_value(json_object_get(c, "empty_loop_p90_ns"));
        for (k = i; k > 0 && p90[k] < p90[k - 1]; k--) { /* ascending: steadiest first */
            double t = p90[k];
            p90[k] = p90[k - 1];
            p90[k - 1] = t;
        }
    }
    json_array_foreach(json_object_get(json_object_get(j, "processes"), "list"), i, pr) {
        json_int_t cpu = json_integer_value(json_object_get(pr, "start_cpu"));
        double at = -1;
        json_array_foreach(survey, k, c)
            if (json_integer_value(json_object_get(c, "cpu")) == cpu)
                at = json_number_value(json_object_get(c, "empty_loop_p90_ns"));
        if (at != p90[i % n])
            fail_msg("process %zu started on CPU %lld (p90 %g ns), not the %zu-th steadiest (p90 %g ns)", i + 1,
                     (long long)cpu, at, i % n + 1, p90[i % n]);
    }
    free(p90);
}

/* Each process runs the row orders its own seed makes, shuffled anew every
 * round (issue 45): the record says what each one ran, not only the seed
 * it was given, so a worker that ran process 1's order, or one order every
 * round, shows. */
static void each_process_runs_its_own_shuffled_orders(void **s)
{
    (void)s;
    json_t *j = bench_record("", "--processes 3 --iterations 200 --repeat 1 --no-sweep --row-seconds 0.02", "order");
    assert_true(json_integer_value(json_object_get(json_object_get(j, "plan"), "rounds")) >= 3);
    const char *digest[3] = {NULL, NULL, NULL};
    size_t i;
    json_t *pr;
    json_array_foreach(json_object_get(json_object_get(j, "processes"), "list"), i, pr) {
        assert_true(i < 3 && json_is_true(json_object_get(pr, "ok")));
        digest[i] = json_string_value(json_object_get(pr, "order_digest"));
        assert_non_null(digest[i]);
        json_int_t same = json_integer_value(json_object_get(pr, "rounds_unshuffled"));
        if (!json_is_integer(json_object_get(pr, "rounds_unshuffled")) || same != 0)
            fail_msg("process %zu ran %lld round(s) in the order of the round before", i + 1, (long long)same);
    }
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 3; b++)
            if (digest[a] && digest[b] && !strcmp(digest[a], digest[b]))
                fail_msg("processes %d and %d ran the same row orders (%s)", a + 1, b + 1, digest[a]);
    starts_follow_the_survey(j);
    json_decref(j);
}

/* On a CPU found contended after every block (HOSTACCESS_TEST_CONTENDED),
 * a worker moves off it as the first process does (it had no CPU to move
 * to, issue 43) unless the run is held on one CPU (--cpu), every
 * process's counts reach the record, and an
 * instrument's block is taken again whatever the retake budget: a process
 * whose canary or syscall loop kept no block is lost to every row, a
 * path's lost block to its own row only. */
static void a_contended_worker_moves_and_keeps_its_instruments(void **s)
{
    (void)s;
    json_t *j = bench_record("HOSTACCESS_TEST_CONTENDED=1",
                             "--kind plain-readable --processes 2 --iterations 200 --repeat 1 --no-sweep "
                             "--row-seconds 0.01", "c");
    cpu_set_t set;
    int ncpu = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
    size_t i;
    json_t *pr, *r;
    json_array_foreach(json_object_get(json_object_get(j, "processes"), "list"), i, pr) {
        assert_true(json_is_true(json_object_get(pr, "ok")));
        json_int_t blocks = json_integer_value(json_object_get(pr, "blocks"));
        assert_true(blocks > 0);
        assert_int_equal(json_integer_value(json_object_get(pr, "blocks_kept_contended")), blocks);
        assert_true(json_integer_value(json_object_get(pr, "blocks_retaken")) > 0);
        if (ncpu >= 2)
            assert_true(json_integer_value(json_object_get(pr, "cpu_moves")) > 0);
    }
    if (ncpu < 2)
        printf("note: one CPU here, so no process can move; the moves are not checked\n");
    int instruments = 0, paths_cut = 0;
    json_array_foreach(json_object_get(j, "rows"), i, r) {
        const char *fam = json_string_value(json_object_get(r, "family"));
        json_int_t blocks = (json_int_t)json_array_size(json_object_get(r, "block_state_ns")),
                   retaken = json_integer_value(json_object_get(r, "retaken"));
        if (json_is_true(json_object_get(r, "skipped")) || !fam || blocks == 0)
            continue;
        if (!strcmp(fam, "canary") || !strcmp(fam, "syscall") || !strcmp(fam, "harness")) {
            instruments++;
            if (retaken != 3 * blocks)
                fail_msg("instrument %s: %lld retakes of %lld blocks, not 3 each", fam, (long long)retaken,
                         (long long)blocks);
        } else
            paths_cut += retaken < 3 * blocks;
    }
    assert_int_equal(instruments, 3);
    assert_true(paths_cut > 0); /* the budget binds the paths: the test can tell */
    json_decref(j);
    /* a run held on one CPU (--cpu) holds every process there */
    j = bench_record("HOSTACCESS_TEST_CONTENDED=1",
                     "--kind plain-readable --cpu 0 --processes 2 --iterations 200 --repeat 1 --no-sweep "
                     "--row-seconds 0.01", "held");
    json_array_foreach(json_object_get(json_object_get(j, "processes"), "list"), i, pr) {
        assert_true(json_is_true(json_object_get(pr, "ok")));
        assert_int_equal(json_integer_value(json_object_get(pr, "cpu_moves")), 0);
    }
    json_decref(j);
}

static void no_readable_kind_says_why_and_runs_the_rest(void **s)
{
    (void)s;
    /* plain-unreadable is the only kind asked for: the fast rows say why */
    assert_int_equal(it_sh("%s/bench_discriminator --backend sim --kind plain-unreadable " QUICK
                        " --no-sweep", build), 0);
    assert_non_null(strstr(it_out, "no readable kind"));
    assert_non_null(strstr(it_out, "| fault |"));
}

static void bad_input_is_refused(void **s)
{
    (void)s;
    const char *bad[] = {"--iterations 0", "--iterations -5", "--iterations abc",
                         "--iterations 99999999999", "--warmup x", "--repeat 0",
                         "--sweep-max 3000", "--sweep-max 2MiB", "--path nowhere",
                         "--row-seconds 0", "--kind nothing"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = it_sh("%s/bench_discriminator --backend sim %s", build, bad[i]);
        if (rc != 2)
            fail_msg("'%s' gave %d: %s", bad[i], rc, it_out);
        assert_non_null(strstr(it_out, "--help lists the options"));
    }
    assert_int_equal(it_sh("%s/bench_discriminator --backend sim --sweep-csv /nonexistent-ha/s.csv", build), 5);
    /* HOSTACCESS_TEST_SLOWDOWN read whole: an empty item, an unknown path, a
     * path twice or a percent out of range is refused, never skipped */
    const char *slow[] = {",", "fast=10,,disc=5", "fast=10,", ",fast=10", "fast", "nowhere=5", "fast=0",
                          "fast=10,fast=5"};
    for (size_t i = 0; i < sizeof slow / sizeof slow[0]; i++) {
        int rc = it_sh("HOSTACCESS_TEST_SLOWDOWN='%s' %s/bench_discriminator --backend sim --json %s/slow.json", slow[i],
                       build, tmp);
        if (rc != 2 || !strstr(it_out, "HOSTACCESS_TEST_SLOWDOWN takes PATH=PERCENT"))
            fail_msg("HOSTACCESS_TEST_SLOWDOWN='%s' gave %d: %s", slow[i], rc, it_out);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_path_runs_and_is_recorded),
        cmocka_unit_test(a_worker_that_stops_early_counts_for_nothing),
        cmocka_unit_test(a_contended_worker_moves_and_keeps_its_instruments),
        cmocka_unit_test(each_process_runs_its_own_shuffled_orders),
        cmocka_unit_test(no_readable_kind_says_why_and_runs_the_rest),
        cmocka_unit_test(bad_input_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
