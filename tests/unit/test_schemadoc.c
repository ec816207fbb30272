/* results/SCHEMA.md is written from the field table whole: every value a
 * field may take is on its page, however long the list (a fixed buffer
 * once cut "compare" to "comp" and the A/B steps off the manifest's). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "schemadoc.h"

static void every_value_of_every_field_is_on_the_page(void **s)
{
    (void)s;
    char *page = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&page, &len);
    assert_non_null(f);
    ha_schema_markdown(f);
    assert_int_equal(fclose(f), 0);
    size_t checked = 0;
    for (int id = 0; id < HF_COUNT; id++) {
        const char *v = ha_fields[id].vals;
        while (v && *v) {
            size_t n = strcspn(v, "|");
            /* as the page lists it: ", " between values, a cell's " |" after the last */
            char want[200];
            assert_true(n + 3 < sizeof want);
            snprintf(want, sizeof want, "%.*s%s", (int)n, v, v[n] ? ", " : " |");
            if (!strstr(page, want))
                fail_msg("field %s: value '%.*s' is not on the schema page", ha_fields[id].key, (int)n, v);
            checked++;
            v += n + (v[n] == '|');
        }
    }
    assert_true(checked > 20);
    free(page);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_value_of_every_field_is_on_the_page),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
