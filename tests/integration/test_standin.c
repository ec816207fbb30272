/* The hip backend, line for line, against the stand-in ROCm runtime
 * (standin/): each profile answers as ROCm's sources say that release
 * does, and the tools must read those answers right. Needs the hip
 * backend and the stand-in built against headers with Host location types
 * (HIP >= 7.1): make check-standin builds them with the 7.2 headers that
 * make hip-matrix fetches; elsewhere each test says why it skips. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *build;
static char tmp[64];
static char why_not[256];     /* why the >= 7.1-header tests cannot run here */
static char why_not_any[256]; /* why no stand-in test can run here */

static int setup(void **s)
{
    (void)s;
    build = it_build();
    if (it_tmpdir(tmp, sizeof tmp, "standin"))
        return -1;
    char p[160];
    snprintf(p, sizeof p, "%s/standin/libamdhip64.so", build);
    if (!it_backend_compiled("hip"))
        snprintf(why_not, sizeof why_not, "the hip backend is compiled out here (no HIP headers)");
    else if (access(p, R_OK) != 0)
        snprintf(why_not, sizeof why_not, "the stand-in runtime is not built (%s)", p);
    snprintf(why_not_any, sizeof why_not_any, "%s", why_not);
    if (why_not[0])
        return 0;
    if (it_sh("%s/probe_discriminator --list-backends", build) == 0 && !strstr(it_out, "against HIP 7.") &&
             !strstr(it_out, "against HIP 8."))
        snprintf(why_not, sizeof why_not, "the hip backend is built against HIP < 7.1 headers, which lack Host "
                 "locations; make check-standin builds it with 7.2's (make hip-matrix fetches them)");
    return 0;
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

/* The probe's record on profile, with extra options. */
static json_t *probe(const char *profile, const char *extra)
{
    static int n;
    char path[128];
    snprintf(path, sizeof path, "%s/p%d.json", tmp, n++);
    int rc = it_sh("%s/probe_discriminator --sim-profile %s %s --json %s", build, profile, extra, path);
    if (rc != 0)
        fail_msg("probe on profile %s: %d\n%s", profile, rc, it_out);
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    assert_non_null(j);
    return j;
}

static const json_t *by(const json_t *arr, const char *key, const char *val)
{
    size_t i;
    const json_t *o;
    json_array_foreach(arr, i, o) if (!strcmp(json_string_value(json_object_get(o, key)), val)) return o;
    fail_msg("no %s=%s", key, val);
    return NULL;
}

static const json_t *kind(const json_t *j, const char *name) { return by(json_object_get(j, "kinds"), "name", name); }

/* The result of candidate cand on kind k. */
static const json_t *res(const json_t *j, const char *cand, const char *k)
{
    return by(json_object_get(by(json_object_get(j, "candidates"), "name", cand), "results"), "kind", k);
}

static const char *str(const json_t *o, const char *key) { return json_string_value(json_object_get(o, key)); }

static int readable(const json_t *j, const char *k) { return json_is_true(json_object_get(kind(j, k), "readable")); }

/* On 7.14 the probe reproduces the upstream PR's table and conclusion. */
static void profile_7_14_reproduces_the_upstream_table(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    json_t *j = probe("7.14", "");
    assert_true(json_is_true(json_object_get(j, "simulated")));
    assert_string_equal(str(json_object_get(j, "env"), "sim_profile"), "7.14");
    assert_true(readable(j, "hipMalloc"));
    assert_false(readable(j, "vmm-device"));
    assert_true(readable(j, "vmm-device+host"));
    assert_true(readable(j, "expandable+host"));
    const char *both[] = {"hipMalloc", "vmm-device"};
    for (int i = 0; i < 2; i++) {
        assert_string_equal(str(res(j, "hipPointerGetAttributes(.hostPointer)", both[i]), "class"), "null");
        assert_string_equal(str(res(j, "hipPointerGetAttribute(HOST_POINTER)", both[i]), "outcome"), "error");
        assert_string_equal(str(res(j, "hipMemGetAccess(host)", both[i]), "status_name"), "hipErrorInvalidValue");
    }
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "hipMalloc"), "outcome"), "error");
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "vmm-device"), "outcome"), "ok");
    /* no HIP query distinguishes */
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(j, "candidates"), i, c)
        if (!strncmp(str(c, "name"), "hip", 3) && json_is_true(json_object_get(c, "distinguishes")))
            fail_msg("%s distinguishes on the 7.14 stand-in", str(c, "name"));
    /* retain sends host-readable expandable-segment memory to the slow path */
    const json_t *w = by(json_object_get(by(json_object_get(j, "candidates"), "name", "hipMemRetainAllocationHandle"),
                                         "wrong_on"), "kind", "expandable+host");
    assert_string_equal(str(w, "error"), "false_negative");
    json_decref(j);
}

/* What differs between releases, as the profiles say. */
static void each_profile_answers_as_its_release(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    /* 6.0: VMM below CLR is missing: reserve writes NULL, the map on it fails */
    json_t *j = probe("6.0", "");
    assert_false(json_is_true(json_object_get(kind(j, "vmm-device"), "created")));
    assert_non_null(strstr(str(kind(j, "vmm-device"), "detail"), "map (on the NULL address the reserve returned): "
                                                                  "hipErrorInvalidValue"));
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "hipMalloc"), "outcome"), "error");
    json_decref(j);
    /* 6.1: two descriptors read garbage; a map takes the whole reservation;
     * no POSIX-fd handles */
    j = probe("6.1", "");
    assert_true(json_is_true(json_object_get(kind(j, "vmm-device"), "created")));
    assert_false(readable(j, "vmm-device"));
    assert_non_null(strstr(str(kind(j, "vmm-device+host"), "detail"), "set access (device+host): hipErrorInvalidValue"));
    assert_non_null(strstr(str(kind(j, "vmm-chunked"), "detail"), "map: hipErrorInvalidValue"));
    assert_non_null(strstr(str(kind(j, "expandable"), "detail"), "create: hipErrorNotSupported"));
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "hipHostMalloc"), "outcome"), "error");
    json_decref(j);
    /* 6.4: {Host, 0} is read as device 0: nothing is mapped for the CPU */
    j = probe("6.4", "");
    assert_false(readable(j, "vmm-device+host"));
    assert_false(readable(j, "expandable+host"));
    const char *non_vmm[] = {"hipMalloc", "hipHostMalloc", "hipMallocManaged", "hipHostRegister", "hipMallocAsync",
                             "hipExtMallocWithFlags(fine)"};
    for (size_t i = 0; i < sizeof non_vmm / sizeof *non_vmm; i++)
        assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", non_vmm[i]), "outcome"), "skipped");
    json_decref(j);
    /* 7.1: Host refused on device-backed memory, taken on host-backed */
    j = probe("7.1", "");
    assert_false(json_is_true(json_object_get(kind(j, "vmm-device+host"), "created")));
    assert_non_null(strstr(str(kind(j, "vmm-device+host"), "detail"), "hipErrorInvalidValue"));
    assert_true(readable(j, "vmm-host+host"));
    assert_false(json_is_true(json_object_get(kind(j, "vmm-hostnuma"), "created"))); /* HostNuma refused */
    json_decref(j);
    /* 7.2: the fix maps device memory for the CPU */
    j = probe("7.2", "");
    assert_true(readable(j, "vmm-device+host"));
    assert_true(readable(j, "vmm-chunked+host"));
    assert_false(readable(j, "vmm-chunked"));
    json_decref(j);
    /* 7.14: the IPC-capable attribute separates hipMalloc from device-only
     * VMM, and says "not" of host-granted VMM too */
    j = probe("7.14", "");
    assert_string_equal(str(res(j, "hipPointerGetAttribute(IS_LEGACY_HIP_IPC_CAPABLE)", "hipMalloc"), "class"), "1");
    assert_string_equal(str(res(j, "hipPointerGetAttribute(IS_LEGACY_HIP_IPC_CAPABLE)", "vmm-device"), "class"), "0");
    assert_string_equal(str(res(j, "hipPointerGetAttribute(IS_LEGACY_HIP_IPC_CAPABLE)", "vmm-device+host"), "class"),
                        "0");
    assert_true(readable(j, "vmm-imported+host"));
    assert_false(json_is_true(json_object_get(kind(j, "vmm-hostnuma"), "created")));
    json_decref(j);
    /* 7.15: the imported handle's host grant is refused */
    j = probe("7.15", "");
    assert_false(json_is_true(json_object_get(kind(j, "vmm-imported+host"), "created")));
    assert_non_null(strstr(str(kind(j, "vmm-imported+host"), "detail"), "set access (device+host): hipErrorInvalidValue"));
    assert_true(readable(j, "vmm-device+host"));
    json_decref(j);
    /* 10.1: HostNuma backing and descriptors taken */
    j = probe("10.1", "");
    assert_true(readable(j, "vmm-hostnuma+host"));
    assert_false(readable(j, "vmm-hostnuma"));
    assert_true(readable(j, "vmm-imported+host"));
    json_decref(j);
}

/* 6.1's map takes the whole reservation: the pool's second chunk fails, and
 * the pool says which call. */
static void the_pool_notices_6_1s_whole_reservation_map(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    int rc = it_sh("%s/pool_check --sim-profile 6.1 --mode device-nofix --throughput-sizes 16MiB --cycles 2", build);
    assert_int_not_equal(rc, 0);
    assert_non_null(strstr(it_out, "FAIL | runtime call failed: map of a"));
    assert_non_null(strstr(it_out, "hipErrorInvalidValue"));
}

/* PyTorch's rule, modelled: on 7.14 it takes the host read of every kind
 * its allocator hands out, so it reads the device-only VMM memory that
 * faults; before 7.2 it copies, giving up hipMalloc's fast path; memory
 * it never hands out is not judged. */
static void the_pytorch_rule_meets_the_truth(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    json_t *j = probe("7.14", "");
    const json_t *c = by(json_object_get(j, "candidates"), "name", "pytorch_item_rule");
    assert_string_equal(str(c, "source"), "model");
    assert_string_equal(str(res(j, "pytorch_item_rule", "hipMalloc"), "class"), "1");
    assert_string_equal(str(res(j, "pytorch_item_rule", "hipHostMalloc"), "outcome"), "skipped");
    const json_t *w = by(json_object_get(c, "wrong_on"), "kind", "vmm-device");
    assert_string_equal(str(w, "error"), "false_positive");
    json_decref(j);
    j = probe("7.1", "");
    c = by(json_object_get(j, "candidates"), "name", "pytorch_item_rule");
    assert_string_equal(str(res(j, "pytorch_item_rule", "hipMalloc"), "class"), "0");
    w = by(json_object_get(c, "wrong_on"), "kind", "hipMalloc");
    assert_string_equal(str(w, "error"), "false_negative");
    json_decref(j);
}

/* A runtime newer than every profile: the newest guards, and a warning in
 * the record. */
static void a_newer_runtime_gets_the_newest_guards_and_a_warning(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    setenv("HOSTACCESS_STANDIN_REPORT_VERSION", "71800000", 1);
    json_t *j = probe("10.1", "--kind hipMalloc --kind vmm-device");
    unsetenv("HOSTACCESS_STANDIN_REPORT_VERSION");
    assert_non_null(strstr(str(json_object_get(j, "env"), "version_warning"), "newer than any release"));
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "hipMalloc"), "status_name"), "hipErrorInvalidValue");
    json_decref(j);
}

/* For 7.14 and 10.1 the report says whether any HIP query tells. */
static void the_report_says_whether_a_hip_query_tells(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    const char *profiles[] = {"7.14", "10.1"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(it_sh("mkdir -p %s/rep%d && %s/probe_discriminator --sim-profile %s --json "
                               "%s/rep%d/probe_discriminator.json && %s/bin/report --allow-incomplete %s/rep%d",
                               tmp, i, build, profiles[i], tmp, i, build, tmp, i), 0);
        assert_int_equal(it_sh("grep -F 'Does any hip query tell, on every kind made here? | **no**: 0 of' %s/rep%d/REPORT.md",
                               tmp, i), 0);
    }
}

/* Retain on a hipMalloc pointer really crashes the 7.2 stand-in; the
 * version guard is what keeps the tool alive, and --unsafe-queries asks it
 * in a child, where the crash becomes the answer. */
static void the_retain_guard_is_what_prevents_the_crash(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    json_t *j = probe("7.2", "--kind hipMalloc --kind vmm-device");
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "hipMalloc"), "outcome"), "skipped");
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "hipMalloc"), "status_name"),
                        "skipped_crashes_this_runtime");
    json_decref(j);
    j = probe("7.2", "--kind hipMalloc --kind vmm-device --unsafe-queries");
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "hipMalloc"), "status_name"), "crashed_in_child");
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "vmm-device"), "outcome"), "ok");
    json_decref(j);
    /* 7.14: fixed, asked in process either way */
    j = probe("7.14", "--kind hipMalloc --unsafe-queries");
    assert_string_equal(str(res(j, "hipMemRetainAllocationHandle", "hipMalloc"), "status_name"), "hipErrorInvalidValue");
    json_decref(j);
}

/* Every tool runs over it: a whole run, labelled simulated with its profile. */
static void run_all_runs_every_tool_over_the_stand_in(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    int rc = it_sh("BUILD=%s ./run_all.sh --sim-profile 7.14 --results %s/runs --bench-args '--iterations 200 --repeat 1 "
                   "--sweep-iterations 50 --sweep-max 256 --row-seconds 0.02' --pool-args '--throughput-sizes 4MiB "
                   "--cycles 5'", build, tmp);
    if (rc != 0)
        fail_msg("run_all over the stand-in: %d\n%s", rc, it_out);
    assert_non_null(strstr(it_out, "profile 7.14: SIMULATED"));
    assert_int_equal(it_sh("ls -d %s/runs/*-simhip7.14-dev0", tmp), 0);
    char d[300];
    it_out[strcspn(it_out, "\n")] = 0;
    snprintf(d, sizeof d, "%.299s", it_out);
    assert_int_equal(it_sh("grep -c '\"complete\": true' %s/MANIFEST.json", d), 0);
    assert_int_equal(it_sh("head -8 %s/REPORT.md", d), 0);
    assert_non_null(strstr(it_out, "SIMULATED"));
    assert_non_null(strstr(it_out, "stand-in ROCm runtime, profile 7.14"));
    char p[400];
    snprintf(p, sizeof p, "%s/pool_check.json", d);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    assert_non_null(j);
    assert_int_equal(json_integer_value(json_object_get(json_object_get(j, "summary"), "failed")), 0);
    /* the fix, on device memory, through the ROCm re-reserve path */
    const json_t *c = by(json_object_get(j, "checks"), "mode", "device+fix");
    assert_non_null(c);
    json_decref(j);
}

/* The pool library (PyTorch's pluggable-allocator entry points) over the
 * stand-in: the fix keeps the fast path working across sleep and wake. */
static void the_pool_library_runs_over_the_stand_in(void **s)
{
    (void)s;
    if (why_not[0])
        it_skip("%s", why_not);
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed: nothing to load the library with ctypes");
    if (strcmp(build, "build") != 0 && strstr(build, "asan"))
        it_skip("python3 cannot load a sanitizer-built library (%s)", build);
    for (int fix = 1; fix >= 0; fix--) {
        int rc = it_sh("python3 tests/standin/pool_over_standin.py %s %d", build, fix);
        if (rc != 0)
            fail_msg("the pool over the stand-in (fix %d): %d\n%s", fix, rc, it_out);
        assert_non_null(strstr(it_out, "0 failed"));
        assert_non_null(strstr(it_out, fix ? "read after wake: status 0 value 0x5ca1ab1e"
                                           : "read after wake faults, contained: status 11"));
    }
}

/* 5.2's VMM calls succeed without doing anything: with 5.2 headers the
 * sentinels catch it (success, nothing written); with newer headers the
 * hipMemAllocationProp layouts differ and the calls are refused. */
static void profile_5_2_stubs_are_caught(void **s)
{
    (void)s;
    if (why_not_any[0])
        it_skip("%s", why_not_any);
    json_t *j = probe("5.2", "--kind vmm-device --kind hipMalloc");
    const char *hv = str(json_object_get(j, "env"), "header_version");
    const char *detail = str(kind(j, "vmm-device"), "detail");
    assert_false(json_is_true(json_object_get(kind(j, "vmm-device"), "created")));
    if (!strncmp(hv, "5.2.", 4)) {
        assert_non_null(strstr(detail, "address reserve: success_not_written"));
    } else {
        assert_non_null(strstr(detail, "refused_header_runtime_skew"));
        assert_non_null(strstr(str(json_object_get(j, "env"), "layout_skew"), "hipMemAllocationProp"));
    }
    json_decref(j);
}

static void bad_profiles_are_refused(void **s)
{
    (void)s;
    assert_int_equal(it_sh("%s/probe_discriminator --sim-profile 9.9", build), 2);
    assert_non_null(strstr(it_out, "a stand-in ROCm profile (5.2, 6.0, 6.1, 6.4, 7.1, 7.2, 7.14, 7.15, 10.1)"));
    assert_int_equal(it_sh("%s/probe_discriminator --list-sim-profiles", build), 0);
    assert_non_null(strstr(it_out, "7.14 "));
    assert_non_null(strstr(it_out, "10.1  ROCm 10.1  HIP 7.16  runtime 71600000"));
    if (why_not[0])
        it_skip("%s", why_not);
    assert_int_equal(it_sh("%s/probe_discriminator --sim-profile 7.14 --backend cuda", build), 2);
    assert_int_equal(it_sh("BUILD=%s ./run_all.sh --sim-profile 9.9 --results %s/bad", build, tmp), 2);
    char d[128];
    snprintf(d, sizeof d, "%s/bad", tmp);
    assert_int_equal(access(d, F_OK), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(profile_7_14_reproduces_the_upstream_table),
        cmocka_unit_test(each_profile_answers_as_its_release),
        cmocka_unit_test(the_pool_notices_6_1s_whole_reservation_map),
        cmocka_unit_test(the_pytorch_rule_meets_the_truth),
        cmocka_unit_test(a_newer_runtime_gets_the_newest_guards_and_a_warning),
        cmocka_unit_test(the_report_says_whether_a_hip_query_tells),
        cmocka_unit_test(the_retain_guard_is_what_prevents_the_crash),
        cmocka_unit_test(run_all_runs_every_tool_over_the_stand_in),
        cmocka_unit_test(the_pool_library_runs_over_the_stand_in),
        cmocka_unit_test(profile_5_2_stubs_are_caught),
        cmocka_unit_test(bad_profiles_are_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
