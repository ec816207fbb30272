/* Large BAR as sysfs shows it, from fixture trees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "envinfo.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

static void amd_large_bar_from_vis_vram_and_kfd(void **s)
{
    (void)s;
    ha_env e;
    ha_env_init(&e, "hip", false);
    snprintf(e.pci_bus_id, sizeof e.pci_bus_id, "0000:C1:00.0"); /* HIP spells it in capitals */
    e.vram_bytes = 206141652992ULL;
    ha_env_sysfs(&e, FIXTURES "/sysfs-amd");
    assert_int_equal(e.large_bar_sysfs, 1);
    assert_int_equal(e.amdgpu_vis_vram, 206141652992LL);
    assert_int_equal(e.kfd_heap_type, 1);
    assert_int_equal(e.nbars, 3); /* BARs 0, 2 and 5 are memory */
    assert_int_equal(e.bars[0].index, 0);
    assert_int_equal(e.bars[0].size, 0x2000000000ULL);
    assert_int_equal(e.largest_bar, 0x2000000000ULL);
}

static void amd_small_bar(void **s)
{
    (void)s;
    ha_env e;
    ha_env_init(&e, "hip", false);
    snprintf(e.pci_bus_id, sizeof e.pci_bus_id, "0000:03:00.0");
    e.vram_bytes = 17163091968ULL;
    ha_env_sysfs(&e, FIXTURES "/sysfs-amd-smallbar");
    assert_int_equal(e.large_bar_sysfs, 0);
    assert_int_equal(e.kfd_heap_type, 2);
    assert_non_null(strstr(e.large_bar_sysfs_note, "mem_info_vis_vram_total 256 MiB"));
}

/* CUDA spells the bus id with an 8-digit domain. */
static void nvidia_bar1_against_vram(void **s)
{
    (void)s;
    ha_env e;
    ha_env_init(&e, "cuda", false);
    snprintf(e.pci_bus_id, sizeof e.pci_bus_id, "00000000:00:06.0");
    e.vram_bytes = 150109880320ULL;
    ha_env_sysfs(&e, FIXTURES "/sysfs-nvidia");
    assert_int_equal(e.large_bar_sysfs, 1);
    assert_int_equal(e.largest_bar, 274877906944ULL);
    assert_int_equal(e.amdgpu_vis_vram, -1);
    assert_int_equal(e.kfd_heap_type, -1);
    e.vram_bytes = 300000000000ULL;
    ha_env_sysfs(&e, FIXTURES "/sysfs-nvidia");
    assert_int_equal(e.large_bar_sysfs, 0);
}

static void missing_device_is_unknown(void **s)
{
    (void)s;
    ha_env e;
    ha_env_init(&e, "cuda", false);
    snprintf(e.pci_bus_id, sizeof e.pci_bus_id, "0000:99:00.0");
    ha_env_sysfs(&e, FIXTURES "/sysfs-nvidia");
    assert_int_equal(e.large_bar_sysfs, -1);
    assert_non_null(strstr(e.large_bar_sysfs_note, "no sysfs entry"));
}

static void header_runtime_mismatch_warns(void **s)
{
    (void)s;
    ha_env e;
    ha_env_init(&e, "hip", false);
    ha_env_check_versions(&e, "HIP header", "5.2.21153", "HIP runtime", "5.2.0");
    assert_string_equal(e.version_warning, "");
    ha_env_check_versions(&e, "HIP header", "5.2.21153", "HIP runtime", "7.1.25424");
    assert_non_null(strstr(e.version_warning, "5.2 differs from HIP runtime 7.1"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(amd_large_bar_from_vis_vram_and_kfd),
        cmocka_unit_test(amd_small_bar),
        cmocka_unit_test(nvidia_bar1_against_vram),
        cmocka_unit_test(missing_device_is_unknown),
        cmocka_unit_test(header_runtime_mismatch_warns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
