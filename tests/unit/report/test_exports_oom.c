/* The exports out of memory. report drops a file whose export returns -1
 * (report.c's write_file), so each export must return -1 whenever one of
 * its strings could not be made: here every vasprintf the exports make is
 * failed in turn, on the committed H200 run. Under ASan this also shows
 * that nothing leaks on the way out and that no pointer vasprintf left
 * undefined is freed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "derive.h"
#include "exports.h"
#include "text.h"
#include "readfile.h"
#include "recfix.h"

static int fail_at = -1, calls;

/* Put in rf_vasprintf (readfile.h), the report tools' one way to make a
 * string: the call numbered fail_at fails, and leaves *strp as glibc
 * documents it, undefined (here a pointer that must never be freed). The
 * seam, not a vasprintf of this binary's own: with _FORTIFY_SOURCE the
 * calls go to __vasprintf_chk and such a replacement is never called. */
static int failing_vasprintf(char **strp, const char *fmt, va_list ap)
{
    if (fail_at >= 0 && calls++ == fail_at) {
        *strp = (char *)"left undefined by a failed vasprintf";
        return -1;
    }
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(NULL, 0, fmt, again);
    va_end(again);
    char *s = n < 0 ? NULL : malloc((size_t)n + 1);
    if (!s)
        return -1;
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    *strp = s;
    return n;
}

static m_run run;

static int load_run(void **s)
{
    (void)s;
    char *err = NULL;
    if (m_load_run(&run, RECFIX_RUN, 0, &err) != 0)
        fail_msg("%s does not load: %s", RECFIX_RUN, err);
    rf_vasprintf = failing_vasprintf;
    return 0;
}

static int free_run(void **s)
{
    (void)s;
    m_free_run(&run);
    text_pool_free();
    return 0;
}

typedef int (*export_fn)(FILE *, const m_run *, int);
static int junit(FILE *f, const m_run *r, int arg) { (void)arg; return export_junit(f, r); }
static int bench(FILE *f, const m_run *r, int arg) { return export_benchmark(f, r, arg); }
static int csv(FILE *f, const m_run *r, int arg) { (void)arg; return export_csv(f, r); }

/* Fails the 1st, 2nd, ... string the export makes until it makes none
 * more; each failure must be reported. Returns how many it made. */
static int fail_each_in_turn(export_fn fn, int arg)
{
    for (int n = 0;; n++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&buf, &len);
        assert_non_null(f);
        fail_at = n;
        calls = 0;
        int rc = fn(f, &run, arg);
        bool reached = calls > n;
        fail_at = -1;
        fclose(f);
        free(buf);
        if (!reached) {
            assert_int_equal(rc, 0);
            return n;
        }
        if (rc != -1)
            fail_msg("string %d of the export could not be made, and the export returned %d, not -1", n + 1, rc);
    }
}

static void junit_says_when_it_ran_out_of_memory(void **s)
{
    (void)s;
    assert_true(fail_each_in_turn(junit, 0) >= 1);
}

static void benchmark_json_says_when_it_ran_out_of_memory(void **s)
{
    (void)s;
    /* the run's bench rows (3 strings each) and its pool sizes */
    assert_true(fail_each_in_turn(bench, 0) > 3);
    assert_true(fail_each_in_turn(bench, 1) > 3);
}

static void csv_says_when_it_ran_out_of_memory(void **s)
{
    (void)s;
    assert_true(fail_each_in_turn(csv, 0) > 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(junit_says_when_it_ran_out_of_memory),
        cmocka_unit_test(benchmark_json_says_when_it_ran_out_of_memory),
        cmocka_unit_test(csv_says_when_it_ran_out_of_memory),
    };
    return cmocka_run_group_tests(tests, load_run, free_run);
}
