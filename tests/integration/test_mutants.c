/* make mutants' runner refuses a catalogue it cannot apply exactly: text
 * that is not in its file once, an entry without its tests, an unknown id;
 * and the catalogue in the tree is one it accepts. (Running the mutations
 * is make mutants itself, in CI.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "itest.h"

static char tmp[256];

static int setup(void **s)
{
    (void)s;
    return it_tmpdir(tmp, sizeof tmp, "mutants");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static void the_catalogue_is_accepted_and_lists_its_entries(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed");
    assert_int_equal(it_sh("tools/mutants.py --list | wc -l"), 0);
    assert_true(atoi(it_out) >= 40);
    assert_int_equal(it_sh("tools/mutants.py --list | grep -c '(control)'"), 0);
}

/* Writes a one-entry catalogue: its find text and its fields. */
static void catalogue(const char *find, const char *extra)
{
    FILE *f;
    char p[300];
    snprintf(p, sizeof p, "%s/cat.md", tmp);
    f = fopen(p, "w");
    assert_non_null(f);
    fprintf(f, "### one: a mutation\n- file: `report/render/text.c`\n- find: `%s`\n- replace: `x`\n%s- why: w\n", find,
            extra);
    fclose(f);
}

static void a_catalogue_it_cannot_apply_exactly_is_refused(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed");
    catalogue("text that is in no file of this tree", "- tests: `report_test_text`\n");
    assert_int_equal(it_sh("tools/mutants.py --catalogue %s/cat.md", tmp), 2);
    assert_non_null(strstr(it_out, "one: the text to replace occurs 0 times in report/render/text.c"));
    catalogue("    return out;", "- tests: `report_test_text`\n"); /* more than once in text.c */
    assert_int_equal(it_sh("tools/mutants.py --catalogue %s/cat.md", tmp), 2);
    assert_non_null(strstr(it_out, "times in report/render/text.c (must be once)"));
    catalogue("#define WORD_JOINER", "");
    assert_int_equal(it_sh("tools/mutants.py --catalogue %s/cat.md", tmp), 2);
    assert_non_null(strstr(it_out, "one has no tests"));
    assert_int_equal(it_sh("tools/mutants.py --only no-such-id"), 2);
    assert_non_null(strstr(it_out, "no-such-id"));
    assert_int_equal(it_sh("tools/mutants.py --catalogue %s/none.md", tmp), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_catalogue_is_accepted_and_lists_its_entries),
        cmocka_unit_test(a_catalogue_it_cannot_apply_exactly_is_refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
