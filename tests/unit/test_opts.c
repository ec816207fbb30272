/* The one option parser: every type, both spellings of a value, and each
 * way a command line can be wrong, answered with usage status 2. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "exitcodes.h"
#include "opts.h"

static bool flag;
static const char *str;
static long num;
static double real;
static ha_opt_list list;

static const ha_opt table[] = {
    {"flag", HA_OPT_FLAG, 0, 0, &flag, NULL, "a flag", NULL},
    {"str", HA_OPT_STRING, 0, 0, &str, "S", "a string", NULL},
    {"num", HA_OPT_LONG, 1, 10, &num, "N", "1 to 10", NULL},
    {"real", HA_OPT_REAL, 0.01, 600, &real, "S", "0.01 to 600", NULL},
    {"item", HA_OPT_LIST, 0, 0, &list, "X", "repeatable", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
static const ha_cli cli = {"t", "A [B]", "a test tool", table, 1, 2, NULL};

static int parse(const char *line, const char **pos, int *npos)
{
    static char buf[512];
    char *argv[32] = {"t"};
    int argc = 1;
    snprintf(buf, sizeof buf, "%s", line);
    for (char *save = NULL, *w = strtok_r(buf, " ", &save); w && argc < 32; w = strtok_r(NULL, " ", &save))
        argv[argc++] = strcmp(w, "''") ? w : "";
    flag = false;
    str = NULL;
    num = real = 0;
    list.n = 0;
    return ha_cli_parse(&cli, argc, argv, pos, npos);
}

static void every_type_and_both_spellings(void **s)
{
    (void)s;
    const char *pos[2];
    int n;
    assert_int_equal(parse("--flag --str x --num=7 --real 0.5 --item a --item=b p q", pos, &n), 0);
    assert_true(flag);
    assert_string_equal(str, "x");
    assert_int_equal(num, 7);
    assert_true(real == 0.5);
    assert_int_equal(list.n, 2);
    assert_string_equal(list.v[1], "b");
    assert_int_equal(n, 2);
    assert_string_equal(pos[1], "q");
    assert_int_equal(parse("-- --flag", pos, &n), 0); /* after --, a positional */
    assert_string_equal(pos[0], "--flag");
    assert_false(flag);
}

static void every_bad_line_is_a_usage_error(void **s)
{
    (void)s;
    const char *pos[2];
    int n;
    const char *bad[] = {
        "--num 0 p", "--num 11 p", "--num +5 p", "--num 5x p", "--num '' p", "--real 1e9 p", "--real nan p",
        "--nope p", "-x p", "--flag=1 p", "--str p", "--str '' p", "--flag --flag p", "--str a --str b p",
        "p q r", "", "--num",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = parse(bad[i], pos, &n);
        if (rc != HA_EXIT_USAGE)
            fail_msg("'%s' gave %d", bad[i], rc);
    }
}

static void help_is_served_not_an_error(void **s)
{
    (void)s;
    const char *pos[2];
    int n;
    assert_int_equal(parse("--help", pos, &n), -1);
    assert_int_equal(parse("p -h", pos, &n), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_type_and_both_spellings),
        cmocka_unit_test(every_bad_line_is_a_usage_error),
        cmocka_unit_test(help_is_served_not_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
