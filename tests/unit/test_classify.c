/* Sentinels catch silent successes and short writes; classes never hold
 * raw addresses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "classify.h"

static ha_alloc alloc_at(uintptr_t base, size_t size)
{
    ha_alloc a;
    memset(&a, 0, sizeof a);
    a.ptr = (void *)base;
    a.size = size;
    return a;
}

static void nothing_written_is_its_own_outcome(void **s)
{
    (void)s;
    ha_alloc a = alloc_at(0x10000, 4096);
    uint64_t v;
    ha_sentinel_fill(&v, sizeof v);
    ha_result r = {0};
    ha_result_value(&r, &a, HA_VT_PTR, &v, sizeof v);
    assert_int_equal(r.outcome, HA_OUT_NOT_WRITTEN);
    assert_string_equal(r.cls, "not-written");
}

/* HIP writes one byte for MAPPED and four for RANGE_SIZE. */
static void short_writes_are_decoded_and_noted(void **s)
{
    (void)s;
    ha_alloc a = alloc_at(0x10000, 4096);
    unsigned char buf[8];
    ha_sentinel_fill(buf, sizeof buf);
    buf[0] = 1;
    ha_result r = {0};
    ha_result_value(&r, &a, HA_VT_BOOL, buf, 4);
    assert_int_equal(r.outcome, HA_OUT_OK);
    assert_string_equal(r.cls, "1");
    assert_non_null(strstr(r.value, "1 of 4 bytes"));
    ha_sentinel_fill(buf, sizeof buf);
    uint32_t four = 4096;
    memcpy(buf, &four, 4);
    ha_result_value(&r, &a, HA_VT_SIZE, buf, 8);
    assert_string_equal(r.cls, "=size");
    assert_non_null(strstr(r.value, "4 of 8 bytes"));
}

static void pointer_and_size_classes(void **s)
{
    (void)s;
    ha_alloc a = alloc_at(0x10000, 4096);
    char c[32];
    ha_cls_ptr(&a, 0, c, sizeof c);
    assert_string_equal(c, "null");
    ha_cls_ptr(&a, 0x10000, c, sizeof c);
    assert_string_equal(c, "=ptr");
    ha_cls_ptr(&a, 0x10010, c, sizeof c);
    assert_string_equal(c, "in-alloc");
    ha_cls_ptr(&a, 0x20000, c, sizeof c);
    assert_string_equal(c, "other");
    ha_cls_size(&a, 8192, c, sizeof c);
    assert_string_equal(c, ">size");
    ha_cls_size(&a, 100, c, sizeof c);
    assert_string_equal(c, "<size");
}

static void ids_and_handles_are_reduced(void **s)
{
    (void)s;
    ha_alloc a = alloc_at(0x10000, 4096);
    uint64_t id = 123456;
    ha_result r = {0};
    ha_result_value(&r, &a, HA_VT_ID, &id, sizeof id);
    assert_string_equal(r.cls, "nonzero");
    assert_string_equal(r.value, "123456");
    ha_result_value(&r, &a, HA_VT_HANDLE, &id, sizeof id);
    assert_string_equal(r.cls, "non-null");
}

static void outcome_keys_ignore_values_of_errors(void **s)
{
    (void)s;
    ha_result r = {0};
    r.outcome = HA_OUT_ERROR;
    strcpy(r.status_name, "CUDA_ERROR_INVALID_VALUE");
    strcpy(r.cls, "stale");
    char key[96], cell[40];
    ha_outcome_key(&r, key, sizeof key);
    assert_string_equal(key, "CUDA_ERROR_INVALID_VALUE|");
    ha_result_cell(&r, cell, sizeof cell);
    assert_string_equal(cell, "x INVALID_VALUE");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nothing_written_is_its_own_outcome),
        cmocka_unit_test(short_writes_are_decoded_and_noted),
        cmocka_unit_test(pointer_and_size_classes),
        cmocka_unit_test(ids_and_handles_are_reduced),
        cmocka_unit_test(outcome_keys_ignore_values_of_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
