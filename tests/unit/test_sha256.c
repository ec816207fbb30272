/* SHA-256: the manifest's seals and the loader's checks rest on it. The
 * FIPS 180-2 examples on both paths (the CPU's SHA instructions where it
 * has them, the portable rounds), and the two paths agree on every length
 * and split of the input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"

static void digest(const void *data, size_t n, size_t split, char out[65])
{
    ha_sha256 s;
    ha_sha256_init(&s);
    split = split < n ? split : n;
    ha_sha256_add(&s, data, split);
    ha_sha256_add(&s, (const char *)data + split, n - split);
    ha_sha256_hex(&s, out);
}

static void check_examples(void)
{
    char out[65];
    digest("", 0, 0, out);
    assert_string_equal(out, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    digest("abc", 3, 1, out);
    assert_string_equal(out, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    digest(two, strlen(two), 7, out);
    assert_string_equal(out, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    char *a = malloc(1000000);
    assert_non_null(a);
    memset(a, 'a', 1000000);
    digest(a, 1000000, 333333, out);
    assert_string_equal(out, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
    free(a);
}

static void the_fips_examples_on_the_portable_rounds(void **s)
{
    (void)s;
    ha_sha256_fast_path(0);
    check_examples();
    ha_sha256_fast_path(1);
}

static void the_fips_examples_on_this_cpu(void **s)
{
    (void)s;
    if (!ha_sha256_fast_path(1)) {
        printf("[  SKIP    ] because this CPU has no SHA instructions (or this is not x86-64): the portable "
               "rounds are all there is here\n");
        skip();
    }
    check_examples();
}

/* Lengths around every block boundary and random splits, with random
 * bytes: a wrong schedule word or state lane shows here. */
static void both_paths_agree(void **s)
{
    (void)s;
    if (!ha_sha256_fast_path(1))
        skip();
    unsigned char buf[1200];
    unsigned seed = 12345;
    for (size_t i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)(rand_r(&seed) >> 7);
    for (size_t n = 0; n <= sizeof buf; n += n < 200 ? 1 : 37) {
        size_t split = (size_t)rand_r(&seed) % (n + 1);
        char fast[65], portable[65];
        ha_sha256_fast_path(1);
        digest(buf, n, split, fast);
        ha_sha256_fast_path(0);
        digest(buf, n, split, portable);
        if (strcmp(fast, portable))
            fail_msg("%zu bytes split at %zu: %s on this CPU, %s portable", n, split, fast, portable);
    }
    ha_sha256_fast_path(1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_fips_examples_on_the_portable_rounds),
        cmocka_unit_test(the_fips_examples_on_this_cpu),
        cmocka_unit_test(both_paths_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
