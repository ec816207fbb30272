/* The simulation backend's model: host readability follows the host grant,
 * unmapping takes it away, and memory is accounted for. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "backend.h"
#include "hostread.h"

static ha_backend be;

static int setup(void **s)
{
    (void)s;
    char msg[256];
    return ha_backend_open("sim", 0, &be, msg, sizeof msg);
}

static int teardown(void **s)
{
    (void)s;
    ha_backend_close(&be);
    return 0;
}

static void grant_decides_readability(void **s)
{
    (void)s;
    const ha_vmm_ops *v = be.ops->vmm;
    size_t g, free0, free1, total;
    ha_loc dev = {HA_LOC_DEVICE, 0}, both[2] = {{HA_LOC_DEVICE, 0}, {HA_LOC_HOST, 0}};
    assert_int_equal(v->granularity(&be, dev, false, &g), 0);
    assert_int_equal(be.ops->mem_info(&be, &free0, &total), 0);
    void *va = NULL;
    ha_vmm_handle h;
    assert_int_equal(v->reserve(&be, &va, g, g, NULL), 0);
    assert_int_equal(v->create(&be, &h, g, dev, false), 0);
    assert_int_equal(be.ops->mem_info(&be, &free1, &total), 0);
    assert_int_equal(free0 - free1, g);
    assert_int_equal(v->map(&be, va, g, h), 0);
    unsigned char pat[8] = {1, 2, 3, 4, 5, 6, 7, 8}, got[8];
    /* the device's copy needs the device's access, as a copy engine does */
    assert_int_not_equal(be.ops->copy_h2d(&be, va, pat, 8), 0);
    assert_int_equal(v->set_access(&be, va, g, &dev, 1), 0);
    assert_int_equal(be.ops->copy_h2d(&be, va, pat, 8), 0);
    assert_int_equal(ha_guarded_read(va, got, 8, pat, NULL), HA_HR_SIGSEGV);
    assert_int_equal(v->set_access(&be, va, g, both, 2), 0);
    assert_int_equal(ha_guarded_read(va, got, 8, pat, NULL), HA_HR_OK);
    assert_int_equal(v->unmap(&be, va, g), 0);
    assert_int_equal(ha_guarded_read(va, got, 8, NULL, NULL), HA_HR_SIGSEGV);
    assert_int_equal(v->release(&be, h), 0);
    /* released, but the range is still reserved: the VRAM is kept (ROCm) */
    assert_int_equal(be.ops->mem_info(&be, &free1, &total), 0);
    assert_int_equal(free0 - free1, g);
    assert_int_equal(v->free_va(&be, va, g), 0);
    assert_int_equal(be.ops->mem_info(&be, &free1, &total), 0);
    assert_int_equal(free1, free0);
}

static void bad_calls_are_refused(void **s)
{
    (void)s;
    const ha_vmm_ops *v = be.ops->vmm;
    ha_loc dev = {HA_LOC_DEVICE, 0};
    ha_vmm_handle h;
    assert_int_not_equal(v->create(&be, &h, 12345, dev, false), 0); /* not a granule */
    assert_int_not_equal(v->release(&be, 4000), 0);                  /* no such handle */
    assert_int_not_equal(v->unmap(&be, (void *)0x1000, 65536), 0);   /* nothing mapped */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(grant_decides_readability),
        cmocka_unit_test(bad_calls_are_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
