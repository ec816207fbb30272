/* The hip and cuda backends past "no device", in CI: stand-in runtimes
 * (tests/fakes) export the entry points needed to open and one allocation
 * kind backed by host memory, and nothing else. Every missing entry point
 * must be named as missing, and the run must go on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"

#include <jansson.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

static const char *build;
static char tmp[64];

static int setup(void **s)
{
    (void)s;
    build = it_build();
    return it_tmpdir(tmp, sizeof tmp, "fakes");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static const json_t *named(const json_t *arr, const char *key, const char *val)
{
    size_t i;
    json_t *o;
    json_array_foreach(arr, i, o) if (!strcmp(json_string_value(json_object_get(o, key)), val)) return o;
    fail_msg("no %s=%s", key, val);
    return NULL;
}

/* Runs the probe on a fake runtime; checks what every backend must do. */
static void probe_on(const char *backend, const char *fake, const char *plain, const char *other,
                     const char *attr_query)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s.json", tmp, backend);
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/%s %s/probe_discriminator --backend %s --json %s", build,
                           fake, build, backend, path), 0);
    assert_non_null(strstr(it_out, "no symbol"));
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    assert_non_null(j);
    assert_false(json_is_true(json_object_get(j, "simulated")));
    const json_t *kinds = json_object_get(j, "kinds");
    const json_t *k = named(kinds, "name", plain);
    assert_true(json_is_true(json_object_get(k, "created")));
    assert_true(json_is_true(json_object_get(k, "readable"))); /* the fake's memory is host memory */
    k = named(kinds, "name", other);
    assert_false(json_is_true(json_object_get(k, "created")));
    assert_string_equal(json_string_value(json_object_get(k, "create_status_name")), "symbol_missing");
    k = named(kinds, "name", "vmm-device");
    assert_non_null(strstr(json_string_value(json_object_get(k, "detail")), "symbol_missing"));
    const json_t *c = named(json_object_get(j, "candidates"), "name", attr_query);
    assert_string_equal(json_string_value(json_object_get(c, "verdict")), "undetermined");
    const json_t *r = json_array_get(json_object_get(c, "results"), 0);
    assert_string_equal(json_string_value(json_object_get(r, "outcome")), "symbol_missing");
    c = named(json_object_get(j, "candidates"), "name", "os_guarded_read");
    r = json_array_get(json_object_get(c, "results"), 0);
    assert_string_equal(json_string_value(json_object_get(r, "outcome")), "ok");
    json_decref(j);
}

static void cuda_backend_names_what_the_driver_lacks(void **s)
{
    (void)s;
    if (!it_backend_compiled("cuda"))
        it_skip("the cuda backend is compiled out here (no cuda.h under CUDA_PATH)");
    probe_on("cuda", "cuda", "cuMemAlloc", "cuMemHostAlloc", "cuPointerGetAttribute(HOST_POINTER)");
    /* the memgetaccess probe, the bench and the pool go on too */
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/cuda %s/probe_memgetaccess --backend cuda", build, build), 0);
    assert_non_null(strstr(it_out, "symbol_missing"));
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/cuda %s/bench_discriminator --backend cuda --iterations 200 "
                           "--repeat 1 --no-sweep --row-seconds 0.02", build, build), 0);
    assert_non_null(strstr(it_out, "| copy_pageable | cuMemAlloc |"));
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/cuda %s/pool_check --backend cuda --throughput-sizes none",
                           build, build), 0);
    assert_non_null(strstr(it_out, "UNSUPPORTED"));
}

static void hip_backend_names_what_the_runtime_lacks(void **s)
{
    (void)s;
    if (!it_backend_compiled("hip"))
        it_skip("the hip backend is compiled out here (no HIP headers under ROCM_PATH)");
    probe_on("hip", "hip", "hipMalloc", "hipHostMalloc", "hipPointerGetAttribute(HOST_POINTER)");
    /* a 7.2 runtime: retain on non-VMM memory is skipped (it can crash before 7.14) */
    char path[128];
    snprintf(path, sizeof path, "%s/hip.json", tmp);
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    const json_t *c = named(json_object_get(j, "candidates"), "name", "hipMemRetainAllocationHandle");
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(c, "results"), 0),
                                                          "outcome")), "skipped");
    const json_t *env = json_object_get(j, "env");
    assert_string_equal(json_string_value(json_object_get(env, "runtime_version")), "7.2.0");
    /* a header of another major.minor than the fake's 7.2 is warned about */
    const char *hv = json_string_value(json_object_get(env, "header_version"));
    const json_t *warn = json_object_get(env, "version_warning");
    if (strncmp(hv, "7.2.", 4) == 0)
        assert_true(json_is_null(warn));
    else
        assert_non_null(strstr(json_string_value(warn), "differs"));
    json_decref(j);
}

/* The record of a probe on the fake HIP runtime reporting version v. */
static json_t *hip_probe_at(long v)
{
    static int n;
    char path[128];
    snprintf(path, sizeof path, "%s/skew-%d-%ld.json", tmp, n++, v);
    assert_int_equal(it_sh("FAKE_HIP_VERSION=%ld LD_LIBRARY_PATH=%s/fakes/hip %s/probe_discriminator --backend hip "
                           "--kind hipMalloc --json %s", v, build, build, path), 0);
    json_error_t e;
    json_t *j = json_load_file(path, 0, &e);
    assert_non_null(j);
    return j;
}

static const json_t *type_field(const json_t *j)
{
    const json_t *c = named(json_object_get(j, "candidates"), "name", "hipPointerGetAttributes(.type)");
    return json_array_get(json_object_get(c, "results"), 0);
}

/* A header and a runtime on two sides of the hipMemoryType renumbering
 * (6.0): the memory type is refused with the reason, never named wrong. */
static void header_runtime_skew_is_refused_not_reported(void **s)
{
    (void)s;
    if (!it_backend_compiled("hip"))
        it_skip("the hip backend is compiled out here (no HIP headers under ROCM_PATH)");
    json_t *j = hip_probe_at(70200000);
    const char *hv = json_string_value(json_object_get(json_object_get(j, "env"), "header_version"));
    int major = 0, minor = 0, patch = 0;
    assert_int_equal(sscanf(hv, "%d.%d.%d", &major, &minor, &patch), 3);
    long header = major * 10000000L + minor * 100000L + patch;
    json_decref(j);
    long same = header, other = major >= 6 ? 50200000 : 70200000;
    j = hip_probe_at(same);
    assert_true(json_is_null(json_object_get(json_object_get(j, "env"), "layout_skew")));
    assert_string_equal(json_string_value(json_object_get(type_field(j), "outcome")), "ok");
    assert_string_equal(json_string_value(json_object_get(type_field(j), "class")), "2");
    json_decref(j);
    j = hip_probe_at(other);
    const char *skew = json_string_value(json_object_get(json_object_get(j, "env"), "layout_skew"));
    assert_non_null(skew);
    assert_non_null(strstr(skew, "hipMemoryType's numbering"));
    assert_string_equal(json_string_value(json_object_get(type_field(j), "outcome")), "skipped");
    assert_string_equal(json_string_value(json_object_get(type_field(j), "status_name")),
                        "refused_header_runtime_skew");
    json_decref(j);
}

/* Every way the hip backend's open can go wrong is one clear line. */
static void a_broken_hip_runtime_is_named(void **s)
{
    (void)s;
    if (!it_backend_compiled("hip"))
        it_skip("the hip backend is compiled out here (no HIP headers under ROCM_PATH)");
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/hip-datasym %s/probe_discriminator --backend hip", build, build), 3);
    assert_non_null(strstr(it_out, "hipInit is not a function"));
    assert_int_equal(it_sh("FAKE_DEVICE_COUNT=-1 LD_LIBRARY_PATH=%s/fakes/hip %s/probe_discriminator --backend hip",
                           build, build), 3);
    assert_non_null(strstr(it_out, "hipGetDeviceCount reported -1 devices"));
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/hip %s/probe_discriminator --backend hip --device 1", build,
                           build), 2);
    assert_non_null(strstr(it_out, "device 1 does not exist: hip has 1 device(s)"));
    /* a library that is not the HIP runtime at all lacks what the backend needs */
    assert_int_equal(it_sh("HOSTACCESS_HIP_LIBRARY=%s/fakes/cuda/libcuda.so.1 %s/probe_discriminator --backend hip",
                           build, build), 3);
    assert_non_null(strstr(it_out, "lacks hipGetDeviceCount"));
    assert_int_equal(it_sh("HOSTACCESS_HIP_LIBRARY=/nonexistent/libamdhip64.so %s/probe_discriminator --backend hip",
                           build), 3);
    assert_non_null(strstr(it_out, "not found"));
    /* libraries whose loading misbehaves: named, and the tool lives on */
    assert_int_equal(it_sh("LD_LIBRARY_PATH=%s/fakes/hip-initexit %s/probe_discriminator --backend hip", build, build), 3);
    assert_non_null(strstr(it_out, "ended the process from its initialiser"));
    assert_int_equal(it_sh("HOSTACCESS_LOAD_TIMEOUT_S=1 LD_LIBRARY_PATH=%s/fakes/hip-inithang timeout 20 "
                           "%s/probe_discriminator --backend hip", build, build), 3);
    assert_non_null(strstr(it_out, "did not finish in 1 s"));
    char fifo[64];
    snprintf(fifo, sizeof fifo, "/tmp/ha-fifo-%d", (int)getpid());
    assert_int_equal(it_sh("rm -f %s && mkfifo %s", fifo, fifo), 0);
    int rc = it_sh("HOSTACCESS_HIP_LIBRARY=%s timeout 20 %s/probe_discriminator --backend hip", fifo, build);
    bool named = strstr(it_out, "is not a regular file") != NULL;
    it_sh("rm -f %s", fifo);
    assert_int_equal(rc, 3);
    assert_true(named);
    /* a runtime that will not say its version, or one newer than any known: warned */
    assert_int_equal(it_sh("FAKE_HIP_VERSION=fail LD_LIBRARY_PATH=%s/fakes/hip %s/probe_discriminator --backend hip "
                           "--env-only", build, build), 0);
    assert_non_null(strstr(it_out, "did not give its version"));
    assert_non_null(strstr(it_out, "runtime unknown"));
    assert_int_equal(it_sh("FAKE_HIP_VERSION=80000000 LD_LIBRARY_PATH=%s/fakes/hip %s/probe_discriminator "
                           "--backend hip --env-only", build, build), 0);
    assert_non_null(strstr(it_out, "newer than any release this tool knows"));
}

/* The timeout variables take digits only (strtol alone took " 5" and
 * "+5"), and a long bad value is quoted in part, saying so (issue 45). */
static void odd_timeout_values_are_said(void **s)
{
    (void)s;
    const char *odd[] = {" 5", "+5", "5 "};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        it_sh("HOSTACCESS_CALL_TIMEOUT_S='%s' %s/probe_discriminator --backend sim --list-devices", odd[i], build);
        if (!strstr(it_out, "is not a whole number of seconds"))
            fail_msg("HOSTACCESS_CALL_TIMEOUT_S='%s' taken silently:\n%s", odd[i], it_out);
    }
    it_sh("HOSTACCESS_CALL_TIMEOUT_S=$(head -c 100000 /dev/zero | tr '\\0' 7) %s/probe_discriminator --backend sim "
          "--list-devices", build);
    assert_non_null(strstr(it_out, "(100000 bytes, quoted in part)"));
    assert_true(strlen(it_out) < 2000);
}

/* Calls into the runtime, not only its loading, are bounded: a device
 * count that never returns, one that calls exit(0), one that prints on
 * stdout, an absurd count, an initialiser that leaves a child holding
 * stdout. Each is one line naming the library and the call, status 3, and
 * nothing left behind. */
static void a_runtime_call_that_misbehaves_is_named_and_bounded(void **s)
{
    (void)s;
    if (!it_backend_compiled("hip"))
        it_skip("the hip backend is compiled out here");
    assert_int_equal(it_sh("FAKE_COUNT_MISBEHAVES=hang HOSTACCESS_CALL_TIMEOUT_S=1 LD_LIBRARY_PATH=%s/fakes/hip "
                           "timeout 20 %s/probe_discriminator --backend hip --list-devices", build, build), 3);
    assert_non_null(strstr(it_out, "libamdhip64 hipGetDeviceCount did not return in 1 s"));
    assert_int_equal(it_sh("HOSTACCESS_CALL_TIMEOUT_S=soon LD_LIBRARY_PATH=%s/fakes/hip %s/probe_discriminator "
                           "--backend hip --list-devices", build, build), 0);
    assert_non_null(strstr(it_out, "HOSTACCESS_CALL_TIMEOUT_S='soon' is not a whole number of seconds"));
    assert_int_equal(it_sh("mkdir %s/exiting && FAKE_COUNT_MISBEHAVES=exit LD_LIBRARY_PATH=%s/fakes/hip "
                           "%s/probe_discriminator --backend hip --env-only --json %s/exiting/x.json", tmp, build,
                           build, tmp), 3);
    assert_non_null(strstr(it_out, "libamdhip64 hipGetDeviceCount ended the process (it called exit)"));
    char exiting[128];
    snprintf(exiting, sizeof exiting, "%s/exiting", tmp);
    assert_int_equal(it_count_entries(exiting), 0); /* no record, no temporary file */
    /* what it prints on stdout goes to stderr: the listing stays the listing */
    assert_int_equal(it_sh("(FAKE_COUNT_MISBEHAVES=print LD_LIBRARY_PATH=%s/fakes/hip %s/probe_discriminator "
                           "--backend hip --list-devices 2>/dev/null)", build, build), 0);
    assert_string_equal(it_out, "hip 1\n");
    assert_int_equal(it_sh("FAKE_DEVICE_COUNT=100000 LD_LIBRARY_PATH=%s/fakes/hip BUILD=%s timeout 30 ./run_all.sh "
                           "--backend hip --results %s/many", build, build, tmp), 3);
    assert_non_null(strstr(it_out, "reported 100000 devices, more than any machine holds"));
    assert_int_equal(it_sh("test -e %s/many", tmp), 1); /* no folder, let alone 100000 */
    /* the initialiser's child sleeps a minute holding stdout: the run does
     * not wait for it (timeout's 124 would say it did) */
    int rc = it_sh("FAKE_INIT_FORK=1 LD_LIBRARY_PATH=%s/fakes/hip BUILD=%s timeout 45 ./run_all.sh --backend hip "
                   "--no-torch --results %s/forked --bench-args '--processes 2 --iterations 100 --rounds 2 --no-sweep "
                   "--row-seconds 0.01' --pool-args '--cycles 2 --throughput-sizes 1MiB'", build, build, tmp);
    if (rc != 0)
        fail_msg("run_all.sh over a runtime whose initialiser leaves a child: status %d\n%.2000s", rc, it_out);
}

static void a_runtime_without_devices_is_status_4(void **s)
{
    (void)s;
    int cuda = it_backend_compiled("cuda"), hip = it_backend_compiled("hip");
    if (!cuda && !hip)
        it_skip("both the hip and the cuda backend are compiled out here");
    if (cuda) {
        assert_int_equal(it_sh("FAKE_NO_DEVICE=1 LD_LIBRARY_PATH=%s/fakes/cuda %s/probe_discriminator "
                               "--backend cuda", build, build), 4);
        assert_non_null(strstr(it_out, "CUDA_ERROR_NO_DEVICE"));
    }
    if (hip) {
        assert_int_equal(it_sh("FAKE_NO_DEVICE=1 LD_LIBRARY_PATH=%s/fakes/hip %s/probe_discriminator "
                               "--backend hip", build, build), 4);
        assert_non_null(strstr(it_out, "hip: no"));
    }
    /* auto falls through both to sim, and says why */
    assert_int_equal(it_sh("FAKE_NO_DEVICE=1 LD_LIBRARY_PATH=%s/fakes/hip:%s/fakes/cuda %s/probe_discriminator "
                           "--list", build, build, build), 0);
    assert_non_null(strstr(it_out, "chose sim because hip"));
    if (hip)
        assert_non_null(strstr(it_out, "because hip: no"));
    if (cuda)
        assert_non_null(strstr(it_out, "CUDA_ERROR_NO_DEVICE"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cuda_backend_names_what_the_driver_lacks),
        cmocka_unit_test(hip_backend_names_what_the_runtime_lacks),
        cmocka_unit_test(header_runtime_skew_is_refused_not_reported),
        cmocka_unit_test(a_broken_hip_runtime_is_named),
        cmocka_unit_test(odd_timeout_values_are_said),
        cmocka_unit_test(a_runtime_call_that_misbehaves_is_named_and_bounded),
        cmocka_unit_test(a_runtime_without_devices_is_status_4),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
