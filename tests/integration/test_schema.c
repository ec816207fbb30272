/* The field table is the one place a record's keys are spelled: the
 * committed schema page is what it generates, and no writer or reader
 * spells a record key of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void the_schema_page_is_what_the_table_generates(void **s)
{
    (void)s;
    int rc = it_sh("%s/schema_md | diff -u results/SCHEMA.md - | head -40", it_build());
    assert_int_equal(rc, 0);
    if (it_out[0])
        fail_msg("results/SCHEMA.md differs from common/fields.def: run 'make schema'\n%s", it_out);
}

/* Keys of more than one word (the ones no option or message spells by
 * chance) appear as string literals in fields.def alone. */
static void each_record_key_is_spelled_once(void **s)
{
    (void)s;
    assert_int_equal(it_sh("%s/schema_md --keys | grep _ | sort -u > /tmp/ha-keys.$$ && "
                           "while read -r k; do grep -rnF \"\\\"$k\\\"\" common bench fix probes report tools "
                           "--include='*.c' --include='*.h' | grep -v '^common/fields.def' | sed \"s/^/$k: /\"; "
                           "done < /tmp/ha-keys.$$; rm -f /tmp/ha-keys.$$", it_build()), 0);
    if (it_out[0])
        fail_msg("a record key spelled outside common/fields.def (use its HF_ id):\n%s", it_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_schema_page_is_what_the_table_generates),
        cmocka_unit_test(each_record_key_is_spelled_once),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
