/* The bench keeps each sample as its record writes it (issue 46): the
 * reader derives every figure from the record's samples, so a sample kept
 * to more digits than written would give the bench's own text figures no
 * reader can make again. Linked with bench/measure.c alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "measure.h"

/* measure.c's one call into paths.c (the harness's share of a batch) */
size_t bench_unroll(bench_fn f)
{
    (void)f;
    return 1;
}

/* A batch whose time is whatever the clock says: many digits, none chosen. */
static void spin(bench_ctx *c, size_t n)
{
    for (size_t i = 0; i < n * 37; i++)
        c->sink = c->sink * 6364136223846793005ull + 1442695040888963407ull;
}

static void every_sample_is_kept_as_the_record_writes_it(void **s)
{
    (void)s;
    bench_ctx c = {0};
    bench_row r = {0};
    r.batch = 3;
    enum { N = 64 };
    r.samples = malloc(N * sizeof *r.samples);
    assert_non_null(r.samples);
    bench_take(spin, &c, &r, N / 2, 0);
    bench_take(spin, &c, &r, N / 2, 0.5);
    assert_int_equal(r.nsamples, N);
    for (size_t i = 0; i < r.nsamples; i++) {
        char written[32];
        snprintf(written, sizeof written, "%.*g", BENCH_SAMPLE_DIGITS, r.samples[i]);
        if (!(r.samples[i] > 0) || strtod(written, NULL) != r.samples[i])
            fail_msg("sample %zu is %.17g; the record writes %s", i, r.samples[i], written);
    }
    free(r.samples);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_sample_is_kept_as_the_record_writes_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
