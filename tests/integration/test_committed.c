/* Every run committed under results/ still loads and renders with this
 * build's loader and renderers, and the committed series holds no
 * regression: the evidence stays readable as the schema grows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char tmp[64];

static int setup(void **s)
{
    (void)s;
    return it_tmpdir(tmp, sizeof tmp, "committed");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static void every_committed_run_loads_and_renders(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/report", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev, zlib1g-dev)");
    /* each run folder, copied without the report files it carries, reported again */
    int rc = it_sh("n=0; bad=0; for m in $(find results \\( -name env.json -o -name env.json.gz -o -name "
                   "probe_discriminator.json -o -name probe_discriminator.json.gz \\) | xargs -n1 dirname | sort -u); "
                   "do n=$((n+1)); d=%s/r$n; mkdir \"$d\" && cp \"$m\"/*.json* \"$d\"/ 2>/dev/null; "
                   "for f in MANIFEST.json torch_pool.txt; do [ -e \"$m/$f\" ] && cp \"$m/$f\" \"$d\"/; done; "
                   "rm -f \"$d\"/benchmark*.json; "
                   "%s/bin/report --allow-incomplete --no-plots \"$d\" >/dev/null 2>\"$d.err\" || "
                   "{ bad=$((bad+1)); echo \"$m: $(cat \"$d.err\")\"; }; done; echo \"$n runs, $bad failed\"; "
                   "[ $bad -eq 0 ] && [ $n -gt 0 ]",
                   tmp, it_build());
    if (rc != 0)
        fail_msg("committed runs that no longer load:\n%s", it_out);
}

static void the_committed_series_holds_no_regression(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/compare", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev, zlib1g-dev)");
    int rc = it_sh("%s/bin/compare --series results >/dev/null", it_build());
    if (rc == 1)
        fail_msg("compare --series results reports a regression between committed runs");
    assert_true(rc == 0 || rc == 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_committed_run_loads_and_renders),
        cmocka_unit_test(the_committed_series_holds_no_regression),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
