/* Results appear whole or not at all, and never replace an earlier one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record.h"

static char dir[64];

static int setup(void **s)
{
    (void)s;
    snprintf(dir, sizeof dir, "/tmp/ha-record-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int entries(void)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += e->d_name[0] != '.' || (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."));
    closedir(d);
    return n;
}

static int teardown(void **s)
{
    (void)s;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd);
}

static void commit_links_the_whole_file(void **s)
{
    (void)s;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/a.json", dir);
    ha_record r;
    assert_int_equal(ha_record_open(&r, path, err, sizeof err), 0);
    fputs("{}", r.f);
    assert_int_equal(access(path, F_OK), -1); /* not there until committed */
    assert_int_equal(ha_record_commit(&r, err, sizeof err), 0);
    assert_int_equal(access(path, F_OK), 0);
    assert_int_equal(entries(), 1); /* no temporary left behind */
}

static void existing_file_is_never_overwritten(void **s)
{
    (void)s;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/b.json", dir);
    FILE *f = fopen(path, "w");
    fputs("earlier", f);
    fclose(f);
    ha_record r;
    assert_int_not_equal(ha_record_open(&r, path, err, sizeof err), 0);
    assert_non_null(strstr(err, "already exists"));
    /* and if it appears while a record is being written */
    char path2[128];
    snprintf(path2, sizeof path2, "%s/c.json", dir);
    assert_int_equal(ha_record_open(&r, path2, err, sizeof err), 0);
    fputs("new", r.f);
    f = fopen(path2, "w");
    fputs("raced", f);
    fclose(f);
    assert_int_not_equal(ha_record_commit(&r, err, sizeof err), 0);
    char buf[16] = "";
    f = fopen(path2, "r");
    assert_non_null(fgets(buf, sizeof buf, f));
    fclose(f);
    assert_string_equal(buf, "raced");
}

static void unwritable_folder_fails_cleanly(void **s)
{
    (void)s;
    char err[256];
    ha_record r;
    assert_int_not_equal(ha_record_open(&r, "/nonexistent-ha/x.json", err, sizeof err), 0);
    assert_non_null(strstr(err, "/nonexistent-ha/x.json"));
}

static void abort_leaves_nothing(void **s)
{
    (void)s;
    char path[128], err[256];
    snprintf(path, sizeof path, "%s/d.json", dir);
    int before = entries();
    ha_record r;
    assert_int_equal(ha_record_open(&r, path, err, sizeof err), 0);
    ha_record_abort(&r);
    assert_int_equal(entries(), before);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(commit_links_the_whole_file, setup, teardown),
        cmocka_unit_test_setup_teardown(existing_file_is_never_overwritten, setup, teardown),
        cmocka_unit_test(unwritable_folder_fails_cleanly),
        cmocka_unit_test_setup_teardown(abort_leaves_nothing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
