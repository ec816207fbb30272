/* page_link: the trend page's links to its runs are relative (a page
 * published with its results still reaches them) and percent-encoded (a
 * folder name is a path, never a fragment or a query). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "pagelink.h"

static void check(const char *from, const char *to, const char *want)
{
    char *got = page_link(from, to);
    assert_non_null(got);
    if (strcmp(got, want))
        fail_msg("page_link(%s, %s) = %s, not %s", from, to, got, want);
    free(got);
}

static void links_climb_to_the_common_folder(void **s)
{
    (void)s;
    check("/w/build/trend-1", "/w/results/run1/REPORT.md", "../../results/run1/REPORT.md");
    check("/w/results/page", "/w/results/run1/REPORT.md", "../run1/REPORT.md");
    check("/w/page", "/w/page/run1/REPORT.md", "run1/REPORT.md");
    check("/tmp/p", "/work/r/REPORT.md", "../../work/r/REPORT.md");
    check("/", "/r/REPORT.md", "r/REPORT.md");
    check("/a/b", "/a/b", ".");
    /* a common prefix of letters is not a common folder */
    check("/w/res", "/w/results/REPORT.md", "../results/REPORT.md");
}

static void a_folder_name_is_a_path_never_a_fragment_or_query(void **s)
{
    (void)s;
    check("/w/p", "/w/r #1?x=%/REPORT.md", "../r%20%231%3Fx%3D%25/REPORT.md");
    check("/w/p", "/w/\"><script>/REPORT.md", "../%22%3E%3Cscript%3E/REPORT.md");
    check("/w/p", "/w/caf\xc3\xa9/REPORT.md", "../caf%C3%A9/REPORT.md");
    assert_null(page_link("relative/page", "/w/r/REPORT.md"));
    assert_null(page_link("/w/p", "r/REPORT.md"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(links_climb_to_the_common_folder),
        cmocka_unit_test(a_folder_name_is_a_path_never_a_fragment_or_query),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
