/* What the writer writes, read back with jansson. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"

/* What write() writes, pretty, as text (the caller frees it); *err is jw_finish's. */
static char *written(void (*write)(jw *), size_t *len, int *err)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    assert_non_null(f);
    jw w;
    jw_init(&w, f, true);
    write(&w);
    *err = jw_finish(&w);
    fclose(f);
    return buf;
}

static json_t *roundtrip(void (*write)(jw *), int *err)
{
    size_t len;
    char *buf = written(write, &len, err);
    json_error_t je;
    json_t *j = json_loadb(buf, len, 0, &je);
    free(buf);
    return j;
}

static void write_strings(jw *w)
{
    jw_obj(w);
    jw_kstr(w, "quote\"back\\slash", "line\nfeed\ttab\r\x01\x1f\x7f end");
    jw_kstr(w, "utf8", "µs ✔");
    jw_kstr(w, "null", NULL);
    jw_key(w, "empty");
    jw_arr(w);
    jw_arr_end(w);
    jw_obj_end(w);
}

static void escapes_survive(void **s)
{
    (void)s;
    int err;
    json_t *j = roundtrip(write_strings, &err);
    assert_int_equal(err, 0);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "quote\"back\\slash")),
                        "line\nfeed\ttab\r\x01\x1f\x7f end");
    assert_string_equal(json_string_value(json_object_get(j, "utf8")), "µs ✔");
    assert_true(json_is_null(json_object_get(j, "null")));
    assert_int_equal(json_array_size(json_object_get(j, "empty")), 0);
    json_decref(j);
}

static void write_hidden(jw *w)
{
    jw_obj(w);
    jw_kstr(w, "name", "ab\u202ec\u2066d\xc2\x9b" "e\u200dµ");
    jw_obj_end(w);
}

/* A hidden character (utf8.h) is written as its escape: the file read as
 * text shows it, and read as JSON gives the string back whole. */
static void hidden_characters_are_escaped_and_kept(void **s)
{
    (void)s;
    size_t len;
    int err;
    char *buf = written(write_hidden, &len, &err);
    assert_int_equal(err, 0);
    assert_non_null(strstr(buf, "ab\\u202ec\\u2066d\\u009be\u200dµ"));
    json_t *j = json_loadb(buf, len, 0, NULL);
    assert_non_null(j);
    assert_string_equal(json_string_value(json_object_get(j, "name")), "ab\u202ec\u2066d\xc2\x9b" "e\u200dµ");
    json_decref(j);
    free(buf);
}

static void write_numbers(jw *w)
{
    jw_obj(w);
    jw_kint(w, "min", INT64_MIN);
    jw_kint(w, "max", INT64_MAX);
    jw_kuint(w, "u", 12345678901234ULL);
    jw_kdbl(w, "third", 1.0 / 3.0);
    jw_kdbl(w, "tiny", 1e-300);
    jw_kdbl(w, "whole", 1128.0);
    jw_kdbl(w, "nan", NAN);
    jw_kdbl(w, "inf", INFINITY);
    jw_kbool(w, "t", true);
    jw_ktri(w, "unknown", -1);
    jw_ktri(w, "yes", 1);
    jw_obj_end(w);
}

static void numbers_are_numbers(void **s)
{
    (void)s;
    int err;
    json_t *j = roundtrip(write_numbers, &err);
    assert_int_equal(err, 0);
    assert_non_null(j);
    assert_true(json_integer_value(json_object_get(j, "min")) == INT64_MIN);
    assert_true(json_integer_value(json_object_get(j, "max")) == INT64_MAX);
    assert_true(json_integer_value(json_object_get(j, "u")) == 12345678901234LL);
    assert_true(json_real_value(json_object_get(j, "third")) == 1.0 / 3.0);
    assert_true(json_real_value(json_object_get(j, "tiny")) == 1e-300);
    assert_true(json_number_value(json_object_get(j, "whole")) == 1128.0);
    assert_true(json_is_null(json_object_get(j, "nan")));
    assert_true(json_is_null(json_object_get(j, "inf")));
    assert_true(json_is_true(json_object_get(j, "t")));
    assert_true(json_is_null(json_object_get(j, "unknown")));
    assert_true(json_is_true(json_object_get(j, "yes")));
    json_decref(j);
}

static void write_unbalanced(jw *w)
{
    jw_obj(w);
    jw_key(w, "a");
    jw_arr(w);
}

static void unbalanced_output_is_an_error(void **s)
{
    (void)s;
    int err;
    json_t *j = roundtrip(write_unbalanced, &err);
    assert_int_not_equal(err, 0);
    assert_null(j);
}

static void write_flat(jw *w)
{
    jw_obj(w);
    jw_key(w, "samples");
    jw_arr_flat(w);
    for (int i = 1; i <= 3; i++)
        jw_int(w, i);
    jw_arr_end(w);
    jw_kint(w, "after", 4);
    jw_obj_end(w);
}

/* A flat array stays on one line in pretty output and reads back the same. */
static void flat_arrays_stay_on_one_line(void **s)
{
    (void)s;
    size_t len;
    int err;
    char *buf = written(write_flat, &len, &err);
    assert_int_equal(err, 0);
    assert_non_null(strstr(buf, "\"samples\": [1, 2, 3],\n"));
    json_error_t je;
    json_t *j = json_loads(buf, 0, &je);
    assert_non_null(j);
    assert_int_equal(json_array_size(json_object_get(j, "samples")), 3);
    assert_int_equal(json_integer_value(json_object_get(j, "after")), 4);
    json_decref(j);
    free(buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(escapes_survive),
        cmocka_unit_test(hidden_characters_are_escaped_and_kept),
        cmocka_unit_test(numbers_are_numbers),
        cmocka_unit_test(unbalanced_output_is_an_error),
        cmocka_unit_test(flat_arrays_stay_on_one_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
