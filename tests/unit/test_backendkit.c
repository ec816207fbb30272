/* What the GPU backends share (common/backendkit.c), on this process's own
 * symbols: entry points bound from a table, one missing or one that is
 * data named in the backend's words; the device checks of open; a kind's
 * account. The backends' own lines through it: integration_fakes. */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "backend.h"
#include "backendkit.h"
#include "exitcodes.h"
#include "fields.h"

static const ha_runtime_words words = {"cuda", "libcuda.so.1", "the NVIDIA driver's library; reinstall the driver",
                                       "the driver", "no device"};

static void entries_are_bound_and_what_is_wrong_is_named(void **s)
{
    (void)s;
    void *self = dlopen(NULL, RTLD_NOW);
    assert_non_null(self);
    int (*p_puts)(const char *) = NULL, (*p_nothing)(void) = (int (*)(void))1;
    char why[400] = "";
    ha_entry ok[] = {{"puts", &p_puts, true}, {"hostaccess_no_such_entry", &p_nothing, false}};
    assert_int_equal(ha_bind_entries(self, ok, 2, &words, why, sizeof why), HA_EXIT_OK);
    assert_ptr_equal(p_puts, dlsym(self, "puts"));
    assert_null(p_nothing); /* an optional one absent: NULL, so CALL says it is missing */
    ha_entry lacks[] = {{"puts", &p_puts, true}, {"hostaccess_no_such_entry", &p_nothing, true}};
    assert_int_equal(ha_bind_entries(self, lacks, 2, &words, why, sizeof why), HA_EXIT_NO_RUNTIME);
    assert_string_equal(why, "cuda: libcuda.so.1 lacks hostaccess_no_such_entry: the driver is older than this "
                             "tool needs");
    void *p_environ = NULL;
    ha_entry data[] = {{"puts", &p_puts, true}, {"environ", &p_environ, false}};
    if (!dlsym(self, "environ"))
        skip(); /* this libc exports no such object */
    assert_int_equal(ha_bind_entries(self, data, 2, &words, why, sizeof why), HA_EXIT_NO_RUNTIME);
    assert_string_equal(why, "cuda: libcuda.so.1's environ is not a function (it is data): this is not the NVIDIA "
                             "driver's library; reinstall the driver");
    dlclose(self);
}

static void the_device_count_is_checked(void **s)
{
    (void)s;
    char why[400];
    assert_int_equal(ha_check_devices(&words, "cuDeviceGetCount", 0, "CUDA_SUCCESS", 2, 1, why, sizeof why),
                     HA_EXIT_OK);
    assert_int_equal(ha_check_devices(&words, "cuDeviceGetCount", 0, "CUDA_SUCCESS", -1, 0, why, sizeof why),
                     HA_EXIT_NO_RUNTIME);
    assert_string_equal(why, "cuda: cuDeviceGetCount reported -1 devices: the driver is broken; reinstall it");
    assert_int_equal(ha_check_devices(&words, "cuDeviceGetCount", 0, "CUDA_SUCCESS", HA_MAX_DEVICES + 1, 0, why,
                                      sizeof why),
                     HA_EXIT_NO_RUNTIME);
    assert_non_null(strstr(why, "257 devices, more than any machine holds (256 here): the driver is broken"));
    assert_int_equal(ha_check_devices(&words, "cuDeviceGetCount", 100, "CUDA_ERROR_NO_DEVICE", 0, 0, why, sizeof why),
                     HA_EXIT_NO_DEVICE);
    assert_string_equal(why, "cuda: no device (cuDeviceGetCount: CUDA_ERROR_NO_DEVICE, 0 device(s))");
    assert_int_equal(ha_check_devices(&words, "cuDeviceGetCount", 0, "CUDA_SUCCESS", 0, 0, why, sizeof why),
                     HA_EXIT_NO_DEVICE);
    assert_int_equal(ha_check_devices(&words, "cuDeviceGetCount", 0, "CUDA_SUCCESS", 2, 2, why, sizeof why),
                     HA_EXIT_USAGE);
    assert_string_equal(why, "device 2 does not exist: cuda has 2 device(s)");
}

static void a_kind_accounts_for_itself(void **s)
{
    (void)s;
    ha_alloc a = {0};
    int x;
    assert_int_equal(ha_kind_result(&a, &x, 4096, 2, "CUDA_ERROR_OUT_OF_MEMORY", "cuMemAlloc(%u)", 4096u), 2);
    assert_string_equal(a.detail, "cuMemAlloc(4096): CUDA_ERROR_OUT_OF_MEMORY");
    assert_ptr_equal(a.ptr, &x);
    assert_int_equal(a.size, 4096);
}

/* The names the schema allows are the backends there are, in their order,
 * and --backend's list says the same. */
static void the_schema_names_every_backend(void **s)
{
    (void)s;
    char joined[64] = "", names[64];
    for (int i = 0; ha_all_backends[i]; i++)
        snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", i ? "|" : "",
                 ha_all_backends[i]->name);
    assert_string_equal(joined, HA_BACKEND_VALUES);
    assert_string_equal(ha_backend_names(names, sizeof names), "auto, hip, cuda or sim");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(entries_are_bound_and_what_is_wrong_is_named),
        cmocka_unit_test(the_device_count_is_checked),
        cmocka_unit_test(a_kind_accounts_for_itself),
        cmocka_unit_test(the_schema_names_every_backend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
