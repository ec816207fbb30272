/* The probe's core on the simulation: what counts as an answer, and what
 * the fork-isolated truth records when the child and the process disagree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend.h"
#include "discriminate.h"
#include "gpuhelpers.h"

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

/* "Success, nothing written" is an answer (a stub's), not a missing one:
 * a query that gives it on one kind and a value on another still decides. */
static void success_without_a_value_is_an_answer(void **s)
{
    (void)s;
    static ha_discrimination d;
    memset(&d, 0, sizeof d);
    static const ha_kind k[2] = {{.name = "reads"}, {.name = "faults"}};
    static const ha_query q = {.name = "q"};
    d.nk = 2;
    d.nq = 1;
    d.queries[0] = &q;
    for (int i = 0; i < 2; i++) {
        d.kinds[i] = d.runs[i].kind = &k[i];
        d.runs[i].created = true;
        d.runs[i].readable = i == 0 ? HA_TRUTH_YES : HA_TRUTH_NO;
    }
    ha_result_status(&be, &d.runs[0].res[0], HA_ST_OK);
    d.runs[0].res[0].outcome = HA_OUT_NOT_WRITTEN; /* as ha_result_value leaves a kept sentinel */
    ha_result_status(&be, &d.runs[1].res[0], HA_ST_OK);
    snprintf(d.runs[1].res[0].cls, sizeof d.runs[1].res[0].cls, "null");
    ha_discriminate_verdicts(&d);
    assert_int_equal(d.verdicts[0].v, HA_V_DISTINGUISHES);
}

/* A page the child does not inherit (MADV_DONTFORK): the fork read faults
 * where the process reads fine. The truth is the process's, and the
 * disagreement is written down. */
static int dontfork_create(const ha_backend *b, ha_alloc *a)
{
    (void)b;
    size_t n = (size_t)sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED || madvise(p, n, MADV_DONTFORK) != 0)
        return HA_ST_UNAVAILABLE;
    a->ptr = p;
    a->size = n;
    return HA_ST_OK;
}

/* A page a child sees zeroed (MADV_WIPEONFORK): the child reads, but not
 * the pattern. */
static int wipeonfork_create(const ha_backend *b, ha_alloc *a)
{
    int st = dontfork_create(b, a);
    if (st == HA_ST_OK && (madvise(a->ptr, a->size, MADV_DOFORK) != 0 || madvise(a->ptr, a->size, MADV_WIPEONFORK) != 0))
        st = HA_ST_UNAVAILABLE;
    return st;
}

static void dontfork_destroy(const ha_backend *b, ha_alloc *a)
{
    (void)b;
    munmap(a->ptr, a->size);
}

static void a_fork_that_disagrees_is_noted_and_the_process_decides(void **s)
{
    (void)s;
    static ha_discrimination d;
    ha_discriminate_init(&be, &d, true);
    static const ha_kind k = {.name = "not-inherited", .desc = "a page a child does not get", .create = dontfork_create,
                              .destroy = dontfork_destroy};
    d.kinds[0] = &k;
    d.nk = 1;
    ha_discriminate_kind(&be, &d, 0);
    const ha_kind_run *r = &d.runs[0];
    assert_true(r->created);
    assert_int_equal(r->readable, HA_TRUTH_YES);
    assert_int_equal(r->fork_read, HA_HR_SIGSEGV);
    assert_non_null(strstr(r->truth_note, "fork isolation disagrees: child SIGSEGV, in process ok"));
}

/* A child that reads other bytes (a mismatch) is no reason to doubt the
 * process's read: the truth stays the process's, and the disagreement is noted. */
static void a_fork_that_reads_other_bytes_leaves_the_truth_to_the_process(void **s)
{
    (void)s;
    static ha_discrimination d;
    ha_discriminate_init(&be, &d, true);
    static const ha_kind k = {.name = "wiped-in-child", .desc = "a page a child sees zeroed",
                              .create = wipeonfork_create, .destroy = dontfork_destroy};
    d.kinds[0] = &k;
    d.nk = 1;
    ha_discriminate_kind(&be, &d, 0);
    const ha_kind_run *r = &d.runs[0];
    if (!r->created)
        skip(); /* a kernel before 4.14 has no MADV_WIPEONFORK */
    assert_int_equal(r->fork_read, HA_HR_MISMATCH);
    assert_int_equal(r->readable, HA_TRUTH_YES);
    assert_non_null(strstr(r->truth_note, "fork isolation disagrees: child mismatch, in process ok"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(success_without_a_value_is_an_answer),
        cmocka_unit_test(a_fork_that_disagrees_is_noted_and_the_process_decides),
        cmocka_unit_test(a_fork_that_reads_other_bytes_leaves_the_truth_to_the_process),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
