/* The built tools, end to end: the sim backend gives the verdicts its model
 * implies; the hip and cuda backends without a GPU or driver exit with the
 * documented status and a one-line reason; bad input is refused with a
 * usage line; records are never overwritten; run_all.sh lays it_out a run. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "fields.h"
#include "itest.h"
#include <dlfcn.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* Enough samples to exercise every path, few enough to keep CI quick. */
#define QUICK_BENCH \
    "--bench-args '--processes 2 --iterations 200 --repeat 1 --sweep-iterations 50 --sweep-max 256 --row-seconds 0.02' " \
    "--pool-args '--throughput-sizes 1MiB --cycles 5'"

static const char *build;
static char tmp[64];

static json_t *load(const char *path)
{
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    if (!j)
        fail_msg("%s: %s at line %d", path, e.text, e.line);
    return j;
}

static json_t *find_by(json_t *arr, const char *key, const char *val)
{
    size_t i;
    json_t *o;
    json_array_foreach(arr, i, o) {
        if (strcmp(json_string_value(json_object_get(o, key)), val) == 0)
            return o;
    }
    fail_msg("no %s=%s", key, val);
    return NULL;
}

static int setup(void **s)
{
    (void)s;
    build = it_build();
    return it_tmpdir(tmp, sizeof tmp, "int");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static void siha_verdict_kinds_follow_the_model(void **s)
{
    (void)s;
    assert_int_equal(it_sh("%s/probe_discriminator --backend sim --json %s/pd.json", build, tmp), 0);
    assert_non_null(strstr(it_out, "SIMULATED"));
    char path[128];
    snprintf(path, sizeof path, "%s/pd.json", tmp);
    json_t *j = load(path);
    assert_true(json_is_true(json_object_get(j, "simulated")));
    assert_int_equal(json_integer_value(json_object_get(j, "schema_version")), HA_SCHEMA_VERSION);
    json_t *kinds = json_object_get(j, "kinds");
    static const struct { const char *kind; int readable; } truth[] = {
        {"plain-readable", 1}, {"plain-unreadable", 0}, {"vmm-device", 0},
        {"vmm-device+host", 1}, {"vmm-chunked", 0}, {"vmm-chunked+host", 1},
        {"expandable", 0}, {"expandable+host", 1}, {"vmm-host", 0}, {"vmm-host+host", 1},
    };
    for (size_t i = 0; i < sizeof truth / sizeof truth[0]; i++) {
        json_t *k = find_by(kinds, "name", truth[i].kind);
        assert_true(json_is_true(json_object_get(k, "created")));
        assert_int_equal(json_is_true(json_object_get(k, "readable")), truth[i].readable);
        assert_int_equal(json_is_true(json_object_get(k, "writable")), truth[i].readable);
    }
    json_t *cands = json_object_get(j, "candidates");
    /* The PFNMAP control reads with a load and write(), not with
     * process_vm_readv: that one alone of the OS candidates fails, on it. */
    json_t *ctl = find_by(kinds, "name", "pfnmap-control");
    assert_true(json_is_true(json_object_get(ctl, "control")));
    assert_true(json_is_true(json_object_get(ctl, "readable")));
    const char *os[] = {"os_proc_maps", "os_pipe_write", "os_guarded_read"};
    for (int i = 0; i < 3; i++)
        assert_true(json_is_true(json_object_get(find_by(cands, "name", os[i]), "distinguishes")));
    json_t *pvr = find_by(cands, "name", "os_process_vm_readv");
    assert_false(json_is_true(json_object_get(pvr, "distinguishes")));
    json_t *wrong = json_object_get(pvr, "wrong_on");
    assert_int_equal(json_array_size(wrong), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(wrong, 0), "kind")), "pfnmap-control");
    assert_string_equal(json_string_value(json_object_get(json_array_get(wrong, 0), "error")), "false_negative");
    /* The pointer type is "device" everywhere: as many readable kinds as
     * unreadable give it, so the rule reads it as unreadable (the safe
     * guess) and loses the fast path on every readable kind. */
    json_t *pt = find_by(cands, "name", "sim_pointer_type");
    assert_string_equal(json_string_value(json_object_get(pt, "verdict")), "fails");
    json_t *w = find_by(json_object_get(pt, "wrong_on"), "kind", "plain-readable");
    assert_string_equal(json_string_value(json_object_get(w, "error")), "false_negative");
    /* and it is not judged on the control, which is not GPU memory */
    size_t wi;
    json_t *wk;
    json_array_foreach(json_object_get(pt, "wrong_on"), wi, wk)
        assert_string_not_equal(json_string_value(json_object_get(wk, "kind")), "pfnmap-control");
    /* Retain succeeds on VMM memory: wrong on plain readable memory. */
    json_t *rt = find_by(cands, "name", "sim_retain_handle");
    w = find_by(json_object_get(rt, "wrong_on"), "kind", "plain-readable");
    assert_string_equal(json_string_value(json_object_get(w, "error")), "false_negative");
    assert_true(json_real_value(json_object_get(j, "wall_time_s")) > 0);
    json_decref(j);
}

static void fork_isolation_agrees_on_sim(void **s)
{
    (void)s;
    assert_int_equal(it_sh("%s/probe_discriminator --backend sim --isolate=fork --json %s/f.json",
                        build, tmp), 0);
    char p[128];
    snprintf(p, sizeof p, "%s/f.json", tmp);
    json_t *j = load(p);
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(j, "kinds"), i, k) {
        assert_true(json_is_true(json_object_get(k, "isolation_agrees")));
        assert_non_null(json_string_value(json_object_get(k, "fork_read_status")));
    }
    json_decref(j);
}

static void memgetaccess_stages_on_sim(void **s)
{
    (void)s;
    assert_int_equal(it_sh("%s/probe_memgetaccess --backend sim --json %s/m.json", build, tmp), 0);
    char p[128];
    snprintf(p, sizeof p, "%s/m.json", tmp);
    json_t *j = load(p);
    json_t *dev = find_by(json_object_get(j, "shapes"), "kind", "vmm-device");
    json_t *stages = json_object_get(dev, "stages");
    assert_int_equal(json_array_size(stages), 4);
    const char *want[] = {"SIGSEGV", "SIGSEGV", "ok", "SIGSEGV"};
    for (int i = 0; i < 4; i++)
        assert_string_equal(json_string_value(json_object_get(json_array_get(stages, (size_t)i),
                                                              "host_read")), want[i]);
    json_t *acc = json_object_get(json_array_get(stages, 1), "access");
    assert_int_equal(json_integer_value(json_object_get(find_by(acc, "location", "device"), "flags")), 3);
    json_decref(j);
}

static void hip_without_gpu_exits_with_reason(void **s)
{
    (void)s;
    int rc = it_sh("%s/probe_discriminator --backend hip --json %s/hip.json", build, tmp);
    if (!it_backend_compiled("hip")) {
        assert_int_equal(rc, 3);
        assert_non_null(strstr(it_out, "hip backend compiled out"));
        assert_non_null(strstr(it_out, "then run 'make probes' again")); /* what to do, too */
    } else if (!it_loadable("libamdhip64.so")) {
        assert_int_equal(rc, 3);
        assert_non_null(strstr(it_out, "libamdhip64.so not found"));
    } else {
        if (rc == 0)
            it_skip("an AMD GPU answers here: the no-device path cannot be shown");
        assert_int_equal(rc, 4);
        assert_non_null(strstr(it_out, "hip: no"));
    }
    /* one line, nothing written */
    assert_ptr_equal(strchr(it_out, '\n'), strrchr(it_out, '\n'));
    char p[128];
    snprintf(p, sizeof p, "%s/hip.json", tmp);
    assert_int_equal(access(p, F_OK), -1);
}

static void cuda_without_driver_exits_with_reason(void **s)
{
    (void)s;
    int rc = it_sh("%s/probe_memgetaccess --backend cuda", build);
    if (!it_backend_compiled("cuda")) {
        assert_int_equal(rc, 3);
        assert_non_null(strstr(it_out, "cuda backend compiled out"));
        assert_non_null(strstr(it_out, "then run 'make probes' again"));
        return;
    }
    if (it_loadable("libcuda.so.1"))
        it_skip("libcuda.so.1 loads here: the missing-driver path cannot be shown");
    assert_int_equal(rc, 3);
    assert_non_null(strstr(it_out, "libcuda.so.1 not found"));
}

static void auto_falls_back_and_says_why(void **s)
{
    (void)s;
    /* Whatever is here, auto chooses one backend and names it; where the
     * first choice (hip) cannot open it also says why. */
    assert_int_equal(it_sh("%s/probe_discriminator --backend auto --list", build), 0);
    assert_non_null(strstr(it_out, "backend auto: chose"));
    if (!strstr(it_out, "chose hip"))
        assert_non_null(strstr(it_out, "because hip"));
}

static void bad_input_is_a_usage_error(void **s)
{
    (void)s;
    const char *bad[] = {"--backend rocm", "--device abc", "--device -1", "--device 5",
                         "--frobnicate", "--isolate=thread", "--kind no-such-kind", "stray"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = it_sh("%s/probe_discriminator --backend sim %s", build, bad[i]);
        if (rc != 2)
            fail_msg("'%s' gave %d: %s", bad[i], rc, it_out);
        assert_non_null(strstr(it_out, "--help lists the options"));
    }
    assert_int_equal(it_sh("%s/probe_memgetaccess --backend sim --device 9", build), 2);
}

static void unwritable_or_existing_record_is_refused(void **s)
{
    (void)s;
    assert_int_equal(it_sh("%s/probe_discriminator --backend sim --json /nonexistent-ha/x.json", build), 5);
    assert_non_null(strstr(it_out, "/nonexistent-ha/x.json"));
    assert_null(strstr(it_out, "| candidate")); /* refused before any work */
    char p[128];
    snprintf(p, sizeof p, "%s/old.json", tmp);
    FILE *f = fopen(p, "w");
    fputs("earlier", f);
    fclose(f);
    assert_int_equal(it_sh("%s/probe_memgetaccess --backend sim --json %s", build, p), 5);
    assert_non_null(strstr(it_out, "already exists"));
    assert_int_equal(it_sh("cat %s", p), 0);
    assert_string_equal(it_out, "earlier");
}

static void run_all_lays_out_one_folder_per_device(void **s)
{
    (void)s;
    /* the script lives in the repo; tests run from its root */
    int rc = it_sh("HA_SIM_DEVICES=2 BUILD=%s ./run_all.sh --backend sim --results %s/r %s", build, tmp,
                QUICK_BENCH);
    if (rc != 0) /* what run_all.sh said is what tells a broken tool from a busy machine */
        fail_msg("run_all.sh over two simulated devices exited %d; it ended:\n%s", rc, it_tail(1200));
    assert_non_null(strstr(it_out, "SIMULATED"));
    char r[96];
    snprintf(r, sizeof r, "%s/r", tmp);
    assert_int_equal(it_count_entries(r), 2);
    assert_int_equal(it_sh("ls %s/r/*-sim-dev1/env.json %s/r/*-sim-dev1/probe_discriminator.json "
                        "%s/r/*-sim-dev1/probe_memgetaccess.json %s/r/*-sim-dev1/bench_discriminator.json "
                        "%s/r/*-sim-dev1/bench_sweep.csv %s/r/*-sim-dev1/pool_check.json",
                        tmp, tmp, tmp, tmp, tmp, tmp), 0);
    /* a second run makes new folders and touches none of the old */
    assert_int_equal(it_sh("HA_SIM_DEVICES=2 BUILD=%s ./run_all.sh --backend sim --device 1 --results %s/r %s",
                        build, tmp, QUICK_BENCH), 0);
    assert_int_equal(it_count_entries(r), 3);
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --backend sim --device 4 --results %s/r", build, tmp), 2);
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --bogus", build), 2);
    /* the tools judge their own options, in their words, before anything runs */
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --backend sim --pool-args --cycles=0 --results %s/r", build, tmp), 2);
    assert_non_null(strstr(it_out, "pool_check: --cycles takes"));
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --backend sim --isolate spawn --results %s/r", build, tmp), 2);
    assert_non_null(strstr(it_out, "--isolate takes none or fork"));
    assert_int_equal(it_count_entries(r), 3);
}

/* A tool that wrote its record and then exited non-zero: the manifest
 * may call the run whole, but run_all.sh names the tool and exits 1. The
 * build is the real one, every entry linked, pool_check wrapped. */
static void a_tool_that_fails_fails_the_run(void **s)
{
    (void)s;
    assert_int_equal(it_sh("b=%s/failing && real=$(cd '%s' && pwd) && mkdir -p $b && for e in \"$real\"/*; do "
                           "ln -s \"$e\" $b/; done && rm $b/pool_check && printf '#!/bin/sh\\n\"%%s/pool_check\" "
                           "\"$@\" || exit\\ncase \"$*\" in *--json*) exit 3;; esac\\n' \"$real\" > $b/pool_check && "
                           "chmod +x $b/pool_check",
                           tmp, build), 0);
    int rc = it_sh("BUILD=%s/failing ./run_all.sh --backend sim --no-torch --results %s/f %s", tmp, tmp, QUICK_BENCH);
    if (rc != 1 || !strstr(it_out, "pool_check: FAILED with status 3"))
        fail_msg("a tool that exited 3 left run_all.sh exiting %d:\n%s", rc, it_out);
}

/* The small things a new user meets first. */
static void first_contact_is_clean(void **s)
{
    (void)s;
    /* --help is the comment block, not the script's first line of code */
    assert_int_equal(it_sh("./run_all.sh --help"), 0);
    assert_non_null(strstr(it_out, "One run of everything"));
    assert_null(strstr(it_out, "set -u"));
    /* a compiled-out backend's reason is said once */
    assert_int_equal(it_sh("%s/probe_discriminator --list-backends", build), 0);
    char *line = it_out;
    for (char *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        char *first = strstr(line, "compiled out");
        if (first && strstr(first + 1, "compiled out"))
            fail_msg("said twice: %s", line);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(siha_verdict_kinds_follow_the_model),
        cmocka_unit_test(fork_isolation_agrees_on_sim),
        cmocka_unit_test(memgetaccess_stages_on_sim),
        cmocka_unit_test(hip_without_gpu_exits_with_reason),
        cmocka_unit_test(cuda_without_driver_exits_with_reason),
        cmocka_unit_test(auto_falls_back_and_says_why),
        cmocka_unit_test(bad_input_is_a_usage_error),
        cmocka_unit_test(unwritable_or_existing_record_is_refused),
        cmocka_unit_test(run_all_lays_out_one_folder_per_device),
        cmocka_unit_test(a_tool_that_fails_fails_the_run),
        cmocka_unit_test(first_contact_is_clean),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
