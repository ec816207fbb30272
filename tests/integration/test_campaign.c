/* The gate's evidence scripts: report/evidence/campaign.sh makes one machine's runs
 * (plain, then slowed on purpose) and report/evidence/campaign_summary.py judges
 * them with compare. Live runs on the simulation, so only what does not
 * depend on timing is asserted: the runs are listed in order, the slowed
 * ones carry their stretch, every pair and every slowed path is reported,
 * and bad input is refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *build;
static char tmp[64];

static int setup(void **s)
{
    (void)s;
    build = it_build();
    return it_tmpdir(tmp, sizeof tmp, "campaign");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

/* Four runs: each as small as still gives every row the summary judges
 * (four processes, the fewest compare judges timings over; no sweep). */
#define QUICK "--backend sim --no-torch --bench-args '--processes 4 --iterations 100 --rounds 2 --no-sweep " \
              "--row-seconds 0.01' --pool-args '--throughput-sizes 1MiB --cycles 2'"

static void a_campaign_is_listed_and_judged(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed: campaign_summary.py needs it");
    char cmp[160];
    snprintf(cmp, sizeof cmp, "%s/bin/compare", build);
    if (access(cmp, X_OK) != 0)
        it_skip("compare is not built here (%s: no libjansson-dev or zlib1g-dev)", cmp);
    int rc = it_sh("BUILD=%s report/evidence/campaign.sh --results %s/c1 --plain 3 --slowed fast=15,copy_pinned=3 -- " QUICK,
                   build, tmp);
    if (rc != 0)
        fail_msg("campaign: %d\n%s", rc, it_out);
    assert_int_equal(it_sh("cut -f1 %s/c1/campaign.tsv | tr '\\n' ' '", tmp), 0);
    assert_string_equal(it_out, "plain plain plain slowed ");
    /* each run's status and seconds, for the health of the runs */
    assert_int_equal(it_sh("awk -F'\t' '$2 == 0 && $3 > 0 && $4 != \"\" { n++ } END { print n }' %s/c1/runs.tsv", tmp), 0);
    assert_string_equal(it_out, "4\n");
    assert_int_equal(it_sh("grep -c 'fast=15,copy_pinned=3' %s/c1/campaign.tsv", tmp), 0);
    rc = it_sh("BUILD=%s report/evidence/campaign_summary.py --out %s/judged %s/c1", build, tmp, tmp);
    assert_true(rc == 0 || rc == 1); /* whether the goals hold is the timing's business */
    assert_non_null(strstr(it_out, "A/A pairs: 2 from 1 machine start(s)"));
    assert_non_null(strstr(it_out, "| fast | read | +15 % |"));
    assert_non_null(strstr(it_out, "| copy\\_pinned | copy | +3 % |")); /* record text, as Markdown (mdtext.py) */
    assert_non_null(strstr(it_out, "| family | +3 % all | +3 % gated | +15 % all | +15 % gated |"));
    assert_non_null(strstr(it_out, "run_all.sh: 4 run(s), 4 exit 0"));
    assert_int_equal(it_count_entries(tmp), 2); /* c1 and judged, nothing else */
    assert_int_equal(it_sh("ls %s/judged | grep -c 'aa1.json\\|aa2.json\\|slowed1.json'", tmp), 0);
    assert_string_equal(it_out, "3\n");
}

static void bad_campaign_input_is_refused(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed: campaign_summary.py needs it");
    assert_int_equal(it_sh("report/evidence/campaign.sh --results %s/x --plain 1", tmp), 2);
    assert_int_equal(it_sh("report/evidence/campaign.sh --results %s/x --slowed 'fast=15;rm -rf /'", tmp), 2);
    assert_non_null(strstr(it_out, "is not PATH=PERCENT"));
    assert_int_equal(it_sh("mkdir -p %s/exists && report/evidence/campaign.sh --results %s/exists", tmp, tmp), 2);
    assert_non_null(strstr(it_out, "a campaign is never added to"));
    assert_int_equal(it_sh("report/evidence/campaign_summary.py %s/exists", tmp), 2);
    assert_non_null(strstr(it_out, "not a campaign folder"));
    assert_int_equal(it_sh("printf 'plain\\t../../etc\\n' > %s/exists/campaign.tsv && report/evidence/campaign_summary.py %s/exists",
                           tmp, tmp), 2);
    assert_non_null(strstr(it_out, "is not a run folder's name"));
}

/* The summaries quote compare's findings and folder names: as Markdown
 * text (report/evidence/mdtext.py, the rule of REPORT.md's md_text), so
 * a name can neither end a table cell, become a link or a mention, nor
 * read as another. */
static void record_text_in_a_summary_is_markdown_text(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed: the summaries need it");
    int rc = it_sh("cd report/evidence && python3 -c \"from mdtext import md\n"
                   "cases = [('a|b\\\\nc', 'a\\\\|b c'), ('<img src=x>', '\\\\<img src=x\\\\>'),\n"
                   "         ('copy_pinned', 'copy\\\\_pinned'), ('x\\u202ey\\x85z', 'x\\ufffdy\\ufffdz'),\n"
                   "         ('@team #9 https://e.org www.e.org', '@\\u2060team \\\\#\\u20609 https:\\u2060//e.org "
                   "www\\u2060.e.org'),\n"
                   "         ('[a](javascript:x)', '\\\\[a\\\\](javascript:x)')]\n"
                   "bad = [(i, md(i), o) for i, o in cases if md(i) != o]\n"
                   "assert not bad, bad\"");
    if (rc != 0)
        fail_msg("mdtext.md does not escape as REPORT.md does:\n%s", it_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_campaign_is_listed_and_judged),
        cmocka_unit_test(bad_campaign_input_is_refused),
        cmocka_unit_test(record_text_in_a_summary_is_markdown_text),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
