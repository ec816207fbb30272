/* A worker's environment (bench/workerenv.c): side B's variables replace
 * exactly the variables they name, the padding is the size drawn, and the
 * log level defaults to warn only where nobody set one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "workerenv.h"

static const char *value_of(char **env, const char *name)
{
    size_t l = strlen(name);
    const char *found = NULL;
    for (; *env; env++)
        if (!strncmp(*env, name, l) && (*env)[l] == '=') {
            if (found)
                fail_msg("%s is in the environment twice", name);
            found = *env + l + 1;
        }
    return found;
}

/* TMP=... replaces TMP and leaves TMPDIR; a variable B names replaces A's. */
static void a_variable_replaces_only_its_own_name(void **s)
{
    (void)s;
    char *base[] = {"TMPDIR=/scratch", "TMP=/a", "PATH=/bin", "HOSTACCESS_ENV_PAD=xxx", "T=1", NULL};
    char *extra[] = {"TMP=/b", "PATH_EXTRA=1"};
    char *pad;
    char **e = bench_worker_env(base, 5, &pad, extra, 2);
    assert_non_null(e);
    assert_string_equal(value_of(e, "TMPDIR"), "/scratch");
    assert_string_equal(value_of(e, "TMP"), "/b");
    assert_string_equal(value_of(e, "PATH"), "/bin");
    assert_string_equal(value_of(e, "PATH_EXTRA"), "1");
    assert_string_equal(value_of(e, "T"), "1");
    assert_string_equal(value_of(e, "HOSTACCESS_ENV_PAD"), "xxxxx"); /* A's padding never kept */
    assert_string_equal(value_of(e, "HOSTACCESS_LOG"), "warn");
    free(e);
    free(pad);
}

/* The log level someone set, on either side, is kept; the padding may be empty. */
static void a_set_log_level_is_kept(void **s)
{
    (void)s;
    char *base[] = {"HOSTACCESS_LOG=info", NULL}, *none[] = {NULL}, *extra[] = {"HOSTACCESS_LOG=debug"};
    char *pad;
    char **e = bench_worker_env(base, 0, &pad, NULL, 0);
    assert_string_equal(value_of(e, "HOSTACCESS_LOG"), "info");
    assert_string_equal(value_of(e, "HOSTACCESS_ENV_PAD"), "");
    free(e);
    free(pad);
    e = bench_worker_env(none, 3, &pad, extra, 1);
    assert_string_equal(value_of(e, "HOSTACCESS_LOG"), "debug");
    free(e);
    free(pad);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_variable_replaces_only_its_own_name),
        cmocka_unit_test(a_set_log_level_is_kept),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
