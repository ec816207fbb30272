/* The loader on real records (the committed H200 run), each edited in one
 * place: what the schema does not allow is refused with the place named;
 * what a manifest does not seal makes the run not whole. Each test is the
 * one that catches a mutation of tests/mutants.md. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <zlib.h>

#include "readfile.h"
#include "recfix.h"
#include "derive.h"

/* A measured row of the bench record (not skipped, with samples). */
static json_t *measured_row(json_t *bench)
{
    size_t i;
    json_t *row;
    json_array_foreach(json_object_get(bench, "rows"), i, row)
        if (json_is_false(json_object_get(row, "skipped")) && json_array_size(json_object_get(row, "samples_ns")))
            return row;
    fail_msg("no measured row");
    return NULL;
}

static void the_unedited_records_load(void **s)
{
    (void)s;
    const char *names[] = {"env.json", "probe_discriminator.json", "probe_memgetaccess.json",
                           "bench_discriminator.json", "pool_check.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        json_t *rec = recfix_load(names[i]);
        m_run r;
        char *err = NULL;
        if (recfix_read(&r, rec, &err) != 0)
            fail_msg("%s: %s", names[i], err);
        m_free_run(&r);
        json_decref(rec);
    }
}

static void a_negative_sample_is_refused(void **s)
{
    (void)s;
    json_t *bench = recfix_load("bench_discriminator.json");
    json_array_set_new(json_object_get(measured_row(bench), "samples_ns"), 0, json_real(-1.5));
    recfix_refused(bench, ".samples_ns[0]", NULL);
    json_decref(bench);
}

/* One process's values listed twice in a row would count as two
 * processes' (issue 45: listed 8 or 2,000 times they were judged with K
 * that many); a process the run never started is no sample either; a
 * process listed twice in processes.list is no run. Each refused, named. */
static void a_process_repeated_or_unknown_is_refused(void **s)
{
    (void)s;
    json_t *bench = recfix_load("bench_discriminator.json");
    json_t *bp = json_object_get(measured_row(bench), "by_process");
    assert_true(json_array_size(bp) >= 2);
    json_array_append(bp, json_array_get(bp, 0));
    recfix_refused(bench, "is given twice in one row", NULL);
    json_decref(bench);
    bench = recfix_load("bench_discriminator.json");
    bp = json_object_get(measured_row(bench), "by_process");
    json_object_set_new(json_array_get(bp, 0), "process", json_integer(77));
    recfix_refused(bench, "process 77 is not in processes.list", NULL);
    json_decref(bench);
    bench = recfix_load("bench_discriminator.json");
    json_t *list = json_object_get(json_object_get(bench, "processes"), "list");
    json_object_set_new(json_array_get(list, 1), "index", json_integer(1));
    recfix_refused(bench, "process 1 is listed twice", NULL);
    json_decref(bench);
}

static void a_value_the_field_does_not_list_is_refused(void **s)
{
    (void)s;
    json_t *probe = recfix_load("probe_discriminator.json");
    json_t *cand = recfix_find(json_object_get(probe, "candidates"), "name", "cuPointerGetAttribute(HOST_POINTER)");
    json_object_set_new(cand, "verdict", json_string("maybe"));
    recfix_refused(probe, ".verdict", NULL);
    json_decref(probe);
}

/* "processes" came with schema 3: a schema-3 bench record needs it. */
static void a_field_of_the_records_own_version_is_required(void **s)
{
    (void)s;
    json_t *bench = recfix_load("bench_discriminator.json");
    assert_int_equal(json_integer_value(json_object_get(bench, "schema_version")), 3);
    json_object_del(bench, "processes");
    recfix_refused(bench, "$.processes: missing", NULL);
    json_decref(bench);
}

static void a_measured_row_needs_its_figures(void **s)
{
    (void)s;
    json_t *bench = recfix_load("bench_discriminator.json");
    json_object_del(measured_row(bench), "median_ns");
    recfix_refused(bench, ".median_ns: missing", NULL);
    json_decref(bench);
}

static void null_is_refused_where_the_field_does_not_allow_it(void **s)
{
    (void)s;
    json_t *probe = recfix_load("probe_discriminator.json");
    json_object_set_new(json_array_get(json_object_get(probe, "kinds"), 0), "name", json_null());
    recfix_refused(probe, ".name", NULL);
    json_decref(probe);
}

/* readable: null is a read never tried (the kind was not created): unknown,
 * never false, which compare would take for a kind that stopped reading. */
static void readable_null_is_unknown_not_false(void **s)
{
    (void)s;
    json_t *probe = recfix_load("probe_discriminator.json");
    json_t *k = recfix_find(json_object_get(probe, "kinds"), "name", "vmm-device+host");
    assert_true(json_is_null(json_object_get(k, "readable")));
    m_run r;
    char *err = NULL;
    assert_int_equal(recfix_read(&r, probe, &err), 0);
    const m_kind *kd = m_probe_kind(&r.probe, "vmm-device+host");
    assert_non_null(kd);
    assert_int_equal(kd->readable, -1);
    assert_int_equal(m_probe_kind(&r.probe, "cuMemHostAlloc")->readable, 1);
    assert_int_equal(m_probe_kind(&r.probe, "cuMemAlloc")->readable, 0);
    m_free_run(&r);
    json_decref(probe);
}

/* Writes doc as dir/name (plain JSON, compact as the tools do not write
 * it: only its validity matters to these tests). */
static void write_file(const char *dir, const char *name, const char *text, size_t len)
{
    char *p = rf_join(dir, name);
    FILE *f = fopen(p, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
    free(p);
}

static void remove_file(const char *dir, const char *name)
{
    char *p = rf_join(dir, name);
    assert_int_equal(unlink(p), 0);
    free(p);
}

static void not_whole(const char *dir, const char *why)
{
    char *reason = NULL;
    if (m_check_whole(dir, &reason) == 0)
        fail_msg("%s: taken for a whole run; expected: %s", dir, why);
    if (!reason || !strstr(reason, why))
        fail_msg("not whole for another reason: %s (expected %s)", reason ? reason : "(none)", why);
    free(reason);
}

static void a_record_under_another_tools_name_is_refused(void **s)
{
    (void)s;
    char dir[64];
    recfix_copy_run(dir, sizeof dir);
    char *text = NULL, *err = NULL;
    size_t len = 0;
    char *pool = rf_join(dir, "pool_check.json.gz");
    assert_int_equal(rf_read(pool, (size_t)64 << 20, true, &text, &len, &err), 0);
    free(pool);
    remove_file(dir, "bench_discriminator.json.gz");
    write_file(dir, "bench_discriminator.json", text, len);
    m_run r;
    assert_int_not_equal(m_load_run(&r, dir, M_ALLOW_INCOMPLETE, &err), 0);
    assert_non_null(strstr(err, "expected \"bench_discriminator\""));
    free(err);
    free(text);
    recfix_remove(dir);
}

/* Every record, one at a time, changed after the run (one character of
 * free text, same length, still a valid record): the seal sees it. */
static void every_record_changed_after_the_fact_is_not_whole(void **s)
{
    (void)s;
    const char *names[] = {"env.json", "probe_discriminator.json", "probe_memgetaccess.json",
                           "bench_discriminator.json", "pool_check.json"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        char dir[64];
        recfix_copy_run(dir, sizeof dir);
        char *gz = rf_printf("%s/%s.gz", dir, names[i]), *text = NULL, *err = NULL;
        size_t len = 0;
        assert_int_equal(rf_read(gz, (size_t)64 << 20, true, &text, &len, &err), 0);
        char *at = strstr(text, "\"backend_choice\": \"");
        assert_non_null(at);
        at += strlen("\"backend_choice\": \"");
        *at = *at == 'X' ? 'Y' : 'X';
        char *gzname = rf_printf("%s.gz", names[i]);
        remove_file(dir, gzname);
        free(gzname);
        write_file(dir, names[i], text, len);
        m_run r;
        assert_int_equal(m_load_run(&r, dir, M_ALLOW_INCOMPLETE, &err), 0); /* still a valid record */
        m_free_run(&r);
        not_whole(dir, "changed after the run");
        free(gz);
        free(text);
        recfix_remove(dir);
    }
}

/* Replaces the text a in dir's MANIFEST.json by b (once). */
static void edit_manifest(const char *dir, const char *a, const char *b)
{
    char *p = rf_join(dir, "MANIFEST.json"), *text = NULL, *err = NULL;
    size_t len = 0;
    assert_int_equal(rf_read(p, 1 << 20, false, &text, &len, &err), 0);
    char *at = strstr(text, a);
    assert_non_null(at);
    char *out = rf_printf("%.*s%s%s", (int)(at - text), text, b, at + strlen(a));
    write_file(dir, "MANIFEST.json", out, strlen(out));
    free(out);
    free(text);
    free(p);
}

/* The folder matches the manifest but for the name: a path in place of
 * a record's name is refused for itself. */
static void a_manifest_naming_a_path_is_not_whole(void **s)
{
    (void)s;
    const char *paths[] = {"../pool_check.json", "sub/pool_check.json", ".pool_check.json"};
    for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        char dir[64];
        recfix_copy_run(dir, sizeof dir);
        remove_file(dir, "pool_check.json.gz");
        char *named = rf_printf("\"record\": \"%s\"", paths[i]);
        edit_manifest(dir, "\"record\": \"pool_check.json\"", named);
        not_whole(dir, "expected a record's file name");
        free(named);
        recfix_remove(dir);
    }
}

static void a_listed_record_that_is_missing_is_not_whole(void **s)
{
    (void)s;
    char dir[64];
    recfix_copy_run(dir, sizeof dir);
    remove_file(dir, "pool_check.json.gz");
    not_whole(dir, "pool_check.json: missing, though MANIFEST.json lists it");
    recfix_remove(dir);
}

/* A second gzip member after the first: the file holds two documents, and
 * a reader that stops at the first reads another record than gzip -dc. */
static void a_second_gzip_member_is_refused(void **s)
{
    (void)s;
    char dir[64];
    recfix_copy_run(dir, sizeof dir);
    char *p = rf_join(dir, "env.json.gz");
    gzFile g = gzopen(p, "ab");
    assert_non_null(g);
    assert_true(gzputs(g, "{}") > 0);
    assert_int_equal(gzclose(g), Z_OK);
    char *text = NULL, *err = NULL;
    size_t len = 0;
    assert_int_not_equal(rf_read(p, 1 << 20, true, &text, &len, &err), 0);
    assert_non_null(strstr(err, "one whole gzip stream"));
    free(err);
    free(p);
    recfix_remove(dir);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_unedited_records_load),
        cmocka_unit_test(a_negative_sample_is_refused),
        cmocka_unit_test(a_process_repeated_or_unknown_is_refused),
        cmocka_unit_test(a_value_the_field_does_not_list_is_refused),
        cmocka_unit_test(a_field_of_the_records_own_version_is_required),
        cmocka_unit_test(a_measured_row_needs_its_figures),
        cmocka_unit_test(null_is_refused_where_the_field_does_not_allow_it),
        cmocka_unit_test(readable_null_is_unknown_not_false),
        cmocka_unit_test(a_record_under_another_tools_name_is_refused),
        cmocka_unit_test(every_record_changed_after_the_fact_is_not_whole),
        cmocka_unit_test(a_manifest_naming_a_path_is_not_whole),
        cmocka_unit_test(a_listed_record_that_is_missing_is_not_whole),
        cmocka_unit_test(a_second_gzip_member_is_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
