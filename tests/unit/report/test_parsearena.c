/* The parse arena keeps its chunks from one document for the next (issue
 * 45: mapping them anew for each of 10,000 runs faulted their pages in
 * again). A kept chunk must only be reused for what fits in it: a small
 * document, then one whose array alone is bigger than a chunk, parse
 * whole and read back intact. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parsearena.h"

/* "[0,1,2,...,n-1]" */
static char *numbers(size_t n, size_t *len)
{
    char *s = malloc(n * 8 + 3);
    assert_non_null(s);
    size_t w = 0;
    s[w++] = '[';
    for (size_t i = 0; i < n; i++)
        w += (size_t)sprintf(s + w, i ? ",%zu" : "%zu", i % 1000);
    s[w++] = ']';
    s[w] = 0;
    *len = w;
    return s;
}

static void a_big_document_after_a_small_one_is_whole(void **state)
{
    (void)state;
    for (int round = 0; round < 3; round++) {
        pa_begin();
        json_t *small = json_loads("{\"a\": [1, 2, 3]}", 0, NULL);
        assert_non_null(small);
        json_decref(small);
        pa_end();
        /* 2,000,000 values: their array's table alone is 16 MB, twice a chunk */
        size_t len, n = 2000000;
        char *text = numbers(n, &len);
        pa_begin();
        json_t *big = json_loadb(text, len, 0, NULL);
        assert_non_null(big);
        assert_int_equal(json_array_size(big), n);
        long long sum = 0;
        for (size_t i = 0; i < n; i++)
            sum += json_integer_value(json_array_get(big, i));
        json_decref(big);
        pa_end();
        free(text);
        assert_int_equal(sum, 2000LL * 499500); /* 2,000 times 0 + 1 + ... + 999 */
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_big_document_after_a_small_one_is_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
