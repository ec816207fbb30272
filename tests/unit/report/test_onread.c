/* A bench record of schema 4 holds measurements, and its reader derives
 * every figure from them (report/load/onread.c, issue 46). The committed
 * H200 record (schema 3, which carries the bench's own figures) is turned
 * into the schema-4 shape of the same measurement: what the reader
 * derives must be what the bench wrote, to the 5 significant digits its
 * samples keep, and each figure is checked against a computation of its
 * own here (a sort, not the library). A schema-4 record that carries a
 * figure, or process 1's block medians, or a measured row without samples,
 * says one thing twice or nothing at all: refused, the place named. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "recfix.h"

static const char *const row_figures[] = {"n", "min_ns", "median_ns", "p90_ns", "p99_ns", "max_ns", "mean_ns",
                                          "mad_ns", "spread_ns", "outliers", "slow_first_batch", "overhead_pct"};

/* The committed schema-3 record as the schema-4 bench writes the same
 * measurement: no figure, no process 1 in by_process, the headline's kinds. */
static json_t *as_schema_4(const json_t *v3)
{
    json_t *b = json_deep_copy(v3);
    json_object_set_new(b, "schema_version", json_integer(4));
    size_t i, k;
    json_t *row, *p;
    json_array_foreach(json_object_get(b, "rows"), i, row) {
        for (size_t f = 0; f < sizeof row_figures / sizeof row_figures[0]; f++)
            json_object_del(row, row_figures[f]);
        json_t *bp = json_object_get(row, "by_process");
        json_array_foreach(bp, k, p) if (json_integer_value(json_object_get(p, "process")) == 1) {
            json_array_remove(bp, k);
            break;
        }
    }
    json_t *h = json_object_get(b, "headline");
    const char *keep[] = {"fast_kind", "slow_kind"};
    json_t *kinds = json_object();
    for (int j = 0; j < 2; j++)
        json_object_set(kinds, keep[j], json_object_get(h, keep[j]));
    json_object_set_new(b, "headline", kinds);
    return b;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of n values by a sort of a copy: this test's own arithmetic. */
static double median_of(const double *v, size_t n)
{
    double *c = malloc(n * sizeof *c);
    assert_non_null(c);
    memcpy(c, v, n * sizeof *c);
    qsort(c, n, sizeof *c, by_value);
    double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
    free(c);
    return m;
}

static void near(double got, double want, const char *what, const char *row)
{
    if (!(fabs(got - want) <= 2e-4 * fabs(want) + 1e-9))
        fail_msg("%s of %s: derived %.9g, the bench wrote %.9g", what, row, got, want);
}

static void load(const json_t *rec, m_run *r)
{
    char *err = NULL;
    if (recfix_read(r, rec, &err) != 0)
        fail_msg("refused: %s", err);
}

static void the_figures_derived_on_read_are_the_benchs(void **s)
{
    (void)s;
    json_t *v3 = recfix_load("bench_discriminator.json"), *v4 = as_schema_4(v3);
    m_run old, now;
    load(v3, &old);
    load(v4, &now);
    assert_int_equal(old.bench.nrows, now.bench.nrows);
    size_t measured = 0;
    for (size_t i = 0; i < now.bench.nrows; i++) {
        const m_row *a = &old.bench.rows[i], *b = &now.bench.rows[i];
        if (b->skipped)
            continue;
        measured++;
        assert_int_equal(b->n, (long long)b->nsamples);
        assert_int_equal(b->n, a->n);
        /* exact against this test's own median of the samples the record holds */
        assert_true(b->st.median == median_of(b->samples, b->nsamples));
        near(b->st.median, a->st.median, "median", b->path);
        near(b->st.min, a->st.min, "min", b->path);
        near(b->st.p99, a->st.p99, "p99", b->path);
        near(b->st.mean, a->st.mean, "mean", b->path);
        near(b->overhead_pct, a->overhead_pct, "overhead_pct", b->path);
        /* process 1 first, by the bench's rule: the median of each block it kept */
        assert_int_equal(b->nprocs, a->nprocs);
        assert_int_equal(b->procs[0].process, 1);
        assert_int_equal(b->procs[0].nblocks, a->procs[0].nblocks);
        for (size_t k = 0; k < b->procs[0].nblocks; k++)
            near(b->procs[0].blocks[k], a->procs[0].blocks[k], "process 1's block median", b->path);
        for (size_t k = 1; k < b->nprocs; k++)
            assert_int_equal(b->procs[k].process, a->procs[k].process);
    }
    assert_true(measured > 10);
    /* the headline: the rows the one rule (families.h) finds in either
     * record, its figures, and the BAR the schema-3 bench said it crossed */
    assert_non_null(now.d.fast);
    assert_non_null(now.d.slow);
    assert_string_equal(now.d.fast->path, old.d.fast->path);
    assert_string_equal(now.d.slow->path, old.d.slow->path);
    assert_string_equal(now.d.slow->kind, old.d.slow->kind);
    near(m_fast_ns(&now), m_fast_ns(&old), "headline fast figure", "the headline");
    near(m_slow_ns(&now), m_slow_ns(&old), "headline slow figure", "the headline");
    assert_int_equal(now.d.fast_crosses_bar, old.bench.fast_crosses_bar);
    m_free_run(&old);
    m_free_run(&now);
    /* a fast row that reads across the PCIe BAR (an AMD large-BAR GPU's
     * VRAM) says so, and the headline follows its row */
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(v4, "rows"), i, row)
        if (!strcmp(json_string_value(json_object_get(row, "path")), "fast"))
            json_object_set_new(row, "comparable_to_bar_read", json_true());
    load(v4, &now);
    assert_true(now.d.fast_crosses_bar);
    m_free_run(&now);
    json_decref(v3);
    json_decref(v4);
}

static json_t *first_measured(json_t *bench)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(bench, "rows"), i, row) if (json_is_false(json_object_get(row, "skipped")))
        return row;
    fail_msg("no measured row");
    return NULL;
}

static void a_schema_4_record_carrying_a_figure_is_refused(void **s)
{
    (void)s;
    json_t *v3 = recfix_load("bench_discriminator.json");
    for (size_t f = 0; f < sizeof row_figures / sizeof row_figures[0]; f++) {
        json_t *v4 = as_schema_4(v3);
        json_object_set(first_measured(v4), row_figures[f], json_object_get(first_measured(v3), row_figures[f]));
        char where[64];
        snprintf(where, sizeof where, ".%s: a figure derived", row_figures[f]);
        recfix_refused(v4, where, "says one thing twice");
        json_decref(v4);
    }
    json_t *v4 = as_schema_4(v3);
    json_object_set_new(json_object_get(v4, "headline"), "fast_median_ns", json_real(1));
    recfix_refused(v4, "$.headline.fast_median_ns", "says one thing twice");
    json_decref(v4);
    v4 = as_schema_4(v3);
    json_t *bp = json_object_get(first_measured(v4), "by_process");
    json_array_insert_new(bp, 0, json_pack("{s:i, s:[f]}", "process", 1, "block_medians_ns", 1.0));
    recfix_refused(v4, ".by_process[0]", "process 1's block medians");
    json_decref(v4);
    v4 = as_schema_4(v3);
    json_object_set_new(first_measured(v4), "samples_ns", json_array());
    recfix_refused(v4, ".samples_ns", "a measured row without samples");
    json_decref(v4);
    json_decref(v3);
}

/* A schema-3 record still carries its figures: they are read, not derived
 * (the committed evidence keeps what the bench wrote). */
static void a_schema_3_record_keeps_its_own_figures(void **s)
{
    (void)s;
    json_t *v3 = recfix_load("bench_discriminator.json");
    assert_int_equal(json_integer_value(json_object_get(v3, "schema_version")), 3);
    json_t *row = first_measured(v3);
    json_object_set_new(row, "median_ns", json_real(12345.0));
    m_run r;
    load(v3, &r);
    for (size_t i = 0; i < r.bench.nrows; i++)
        if (!r.bench.rows[i].skipped) {
            assert_true(r.bench.rows[i].st.median == 12345.0);
            break;
        }
    m_free_run(&r);
    json_decref(v3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_figures_derived_on_read_are_the_benchs),
        cmocka_unit_test(a_schema_4_record_carrying_a_figure_is_refused),
        cmocka_unit_test(a_schema_3_record_keeps_its_own_figures),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
