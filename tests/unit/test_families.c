/* The path families' table (common/families.def): one home for what a
 * family's timings follow and how it is drawn, read by the bench, the
 * gate and the plots alike. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"

/* Each family once; the instruments have no colour and no share but 1;
 * every path family a colour of its own and a share in (0, 1]. */
static void every_family_is_whole_and_once(void **s)
{
    (void)s;
    size_t paths = 0;
    for (size_t i = 0; i < HA_NFAMILIES; i++) {
        const ha_family *f = &ha_families[i];
        assert_ptr_equal(ha_family_find(f->name), f);
        assert_true(f->clock_share > 0 && f->clock_share <= 1);
        if (f->instrument) {
            assert_null(f->colour);
            assert_true(ha_family_is_instrument(f->name));
            continue;
        }
        paths++;
        assert_non_null(f->colour);
        for (size_t j = 0; j < i; j++)
            assert_true(!ha_families[j].colour || strcmp(ha_families[j].colour, f->colour));
        assert_false(ha_family_is_instrument(f->name));
    }
    assert_int_equal(paths, HA_NPATH_FAMILIES);
    assert_null(ha_family_find("no such family"));
    assert_false(ha_family_is_instrument("no such family"));
}

/* What the words quote comes from the table: the path families' names in
 * order, and the clock shares that are not 1. */
static void the_words_quote_the_table(void **s)
{
    (void)s;
    char want[256] = "";
    for (size_t i = 0; i < HA_NFAMILIES; i++)
        if (!ha_families[i].instrument)
            snprintf(want + strlen(want), sizeof want - strlen(want), "%s, ", ha_families[i].name);
    assert_string_equal(ha_family_path_names, want);
    char shares[200];
    assert_int_equal(ha_family_shares(shares, sizeof shares), 0);
    assert_non_null(strstr(shares, "memory 0.7"));
    assert_null(strstr(shares, "read"));
    assert_int_equal(ha_family_shares(shares, 8), -1); /* never cut to fit */
}

/* Every family a bench path names is in the table (bench/pathdefs.c's
 * families, as --list-paths prints them, second column). */
static void every_bench_family_is_in_the_table(void **s)
{
    (void)s;
    const char *build = getenv("BUILD") ? getenv("BUILD") : "build";
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/bench_discriminator --list-paths 2>/dev/null", build);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char line[512], path[64], fam[64];
    size_t n = 0;
    while (fgets(line, sizeof line, p))
        if (sscanf(line, "%63s %63s", path, fam) == 2) {
            if (!ha_family_find(fam))
                fail_msg("path %s names family %s, which common/families.def lacks", path, fam);
            n++;
        }
    pclose(p);
    if (!n) {
        fprintf(stderr, "skipped: no %s/bench_discriminator to list the paths (make probes)\n", build);
        skip();
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_family_is_whole_and_once),
        cmocka_unit_test(the_words_quote_the_table),
        cmocka_unit_test(every_bench_family_is_in_the_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
