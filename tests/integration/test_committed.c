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

/* results/ as a user's checkout has it after run_all.sh (issue 44): every
 * committed entry, linked, and one new run of the user's own (a committed
 * run's records, copied), in tmp/mine. The committed change points are
 * regenerated over this, once: what this tree makes of them must not
 * depend on a user's runs beside them. */
static int setup(void **s)
{
    (void)s;
    if (it_tmpdir(tmp, sizeof tmp, "committed"))
        return -1;
    return it_sh("mkdir %s/mine && for e in results/*; do ln -s \"$PWD/$e\" %s/mine/; done && "
                 "cp -r results/2026-12-03T014124Z-vm-cuda-dev0 %s/mine/2099-01-01T000000Z-vm-cuda-dev0",
                 tmp, tmp, tmp);
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
                   "for f in MANIFEST.json torch_pool.txt torch_pool.txt.gz; do [ -e \"$m/$f\" ] && cp \"$m/$f\" \"$d\"/; done; "
                   "rm -f \"$d\"/benchmark*.json \"$d\"/bencher.json; "
                   "%s/bin/report --allow-incomplete --no-plots \"$d\" >/dev/null 2>\"$d.err\" || "
                   "{ bad=$((bad+1)); echo \"$m: $(cat \"$d.err\")\"; }; done; echo \"$n runs, $bad failed\"; "
                   "[ $bad -eq 0 ] && [ $n -gt 0 ]",
                   tmp, it_build());
    if (rc != 0)
        fail_msg("committed runs that no longer load:\n%s", it_out);
}

/* Every committed REPORT.md is what this tree's report makes of its run's
 * records, byte for byte: a change to a derived fact or its wording shows
 * as a diff here, and make rerender-results makes them again. */
static void every_committed_report_is_what_this_tree_renders(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/report", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev, zlib1g-dev)");
    /* git says which are committed; in a copy without .git (make mutants'
     * scratch tree), every report but a simulated run's, which .gitignore
     * keeps out of results/ */
    const char *list = it_sh("git ls-files --error-unmatch README.md") == 0
                           ? "git ls-files 'results/*REPORT.md'"
                           : "find results -name REPORT.md -not -path '*-sim-dev*' -not -path '*-simhip*' | sort";
    int rc = it_sh("n=0; bad=0; for rep in $(%s); do m=$(dirname \"$rep\"); "
                   "n=$((n+1)); d=%s/rr$n/$(basename \"$m\"); mkdir -p \"$d\" && cp \"$m\"/*.json* \"$d\"/ && "
                   "rm -f \"$d\"/benchmark*.json \"$d\"/bencher.json && for f in torch_pool.txt torch_pool.txt.gz; do "
                   "if [ -e \"$m/$f\" ]; then cp \"$m/$f\" \"$d\"/; fi; done; "
                   "plots=--no-plots; if [ -e \"$m/report_paths.png\" ]; then "
                   "if command -v gnuplot >/dev/null; then plots=; else echo \"$m: keeps its plots and gnuplot is not "
                   "installed: its REPORT.md is not compared\"; continue; fi; fi; "
                   "if ! %s/bin/report $plots \"$d\" >/dev/null 2>\"$d.err\"; then bad=$((bad+1)); "
                   "echo \"$m: not rendered: $(cat \"$d.err\")\"; elif ! cmp -s \"$rep\" \"$d/REPORT.md\"; then "
                   "bad=$((bad+1)); echo \"$rep differs from this tree's rendering:\"; diff \"$rep\" \"$d/REPORT.md\" | head -8; "
                   "fi; done; echo \"$n reports, $bad differ\"; [ $bad -eq 0 ] && [ $n -gt 0 ]",
                   list, tmp, it_build());
    if (rc != 0)
        fail_msg("committed reports that this tree renders otherwise (make rerender-results makes them "
                 "again):\n%s", it_out);
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

/* Two committed H200 runs from two machine starts, as a series: each pair
 * of a series is judged as compare judges the pair alone. A run kept by
 * value while the next one loads once took the next one's environment
 * for its own, and the series judged every pair as one machine. */
static void a_series_of_two_machines_is_judged_as_its_pair(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/compare", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev, zlib1g-dev)");
    const char *a = "results/gate-proc-h200/m1/2026-12-02T091017Z-vm-cuda-dev0",
               *b = "results/gate-proc-h200/m2/2026-12-02T091349Z-vm-cuda-dev0";
    assert_int_equal(it_sh("mkdir %s/two && cp -r %s %s %s/two/", tmp, a, b, tmp), 0);
    int pair = it_sh("%s/bin/compare %s %s", it_build(), a, b);
    int series = it_sh("%s/bin/compare --series %s/two", it_build(), tmp);
    if (series != pair || !strstr(it_out, "machine start (boot id)"))
        fail_msg("the pair exits %d, the series %d:\n%.2000s", pair, series, it_out);
    assert_int_equal(pair, 6); /* another machine start: timings not judged */
}

/* The committed change points (results/changes-h200) and the gate's
 * campaign summaries (results/gate-proc-h200, results/ab-h200) are what this tree's tools
 * make of the committed runs, byte for byte: they are regenerated, never
 * edited, and a change to the method or its wording shows here. The change
 * points are made with a user's own run beside the committed ones (setup):
 * the runs results/changes-h200/runs.txt names, and no other, count. */
static void the_committed_change_points_and_summaries_are_what_this_tree_makes(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/changes && test -x %s/bin/compare", it_build(), it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev, zlib1g-dev)");
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed (campaign_summary.py)");
    int rc = it_sh("HA_RESULTS_DIR=%s/mine report/evidence/changes_committed.sh %s/chg >/dev/null || exit 1; "
                   "cmp results/changes-h200/CHANGES.md %s/chg/CHANGES.md && "
                   "cmp results/changes-h200/changes.json %s/chg/changes.json || "
                   "{ diff results/changes-h200/CHANGES.md %s/chg/CHANGES.md | head -20; exit 1; }",
                   tmp, tmp, tmp, tmp, tmp);
    if (rc != 0)
        fail_msg("results/changes-h200 is not what report/evidence/changes_committed.sh makes now, or a run of the "
                 "user's own under results/ changed it:\n%s", it_out);
    const char *g = "results/gate-proc-h200";
    /* SUMMARY.md is over every machine folder mN, in N's order */
    rc = it_sh("python3 report/evidence/campaign_summary.py --compare %s/bin/compare "
               "$(ls -d %s/m* | grep -E '/m[0-9]+$' | sort -V) > %s/SUMMARY.md 2>/dev/null && "
               "cmp %s/SUMMARY.md %s/SUMMARY.md",
               it_build(), g, tmp, g, tmp);
    if (rc != 0)
        fail_msg("a campaign summary under %s is not what results/gate-proc-h200/README.md's commands make "
                 "now:\n%s", g, it_out);
    /* The A/B sessions' summary: its exit says whether the goals hold, so
     * only its words are compared (2, unreadable input, is a failure). */
    rc = it_sh("python3 report/evidence/ab_summary.py --compare %s/bin/compare "
               "$(ls -d results/ab-h200/m* | sort -V) > %s/AB.md 2>&1; [ $? -le 1 ] && "
               "cmp results/ab-h200/SUMMARY.md %s/AB.md || { diff results/ab-h200/SUMMARY.md %s/AB.md | head; exit 1; }",
               it_build(), tmp, tmp, tmp);
    if (rc != 0)
        fail_msg("results/ab-h200/SUMMARY.md is not what report/evidence/ab_summary.py makes now:\n%s", it_out);
}

/* The README's example, the report a newcomer opens first, shows the
 * plots a run makes (issue 44): every image its REPORT.md links is there,
 * beside it, and is a PNG. */
static void the_readme_example_shows_its_plots(void **s)
{
    (void)s;
    int rc = it_sh("rep=$(grep -o '(results/[^)]*/REPORT.md)' README.md | head -1 | tr -d '()'); "
                   "[ -n \"$rep\" ] && [ -f \"$rep\" ] || { echo \"README.md links no example REPORT.md\"; exit 1; }; "
                   "imgs=$(grep -o '](report_[a-z]*\\.png)' \"$rep\" | tr -d '()]'); "
                   "[ -n \"$imgs\" ] || { echo \"$rep links no plot\"; exit 1; }; n=0; "
                   "for i in $imgs; do f=$(dirname \"$rep\")/$i; n=$((n+1)); "
                   "[ \"$(head -c 8 \"$f\" 2>/dev/null | od -An -tx1 | tr -d ' \\n')\" = 89504e470d0a1a0a ] || "
                   "{ echo \"$f: linked, not a PNG beside it\"; exit 1; }; done; echo \"$n plots\"; [ $n -ge 3 ]");
    if (rc != 0)
        fail_msg("the README's example does not show its plots:\n%s", it_out);
}

/* The trend page of the committed H200 campaigns (210 runs, change
 * points one run apart), looked at in chromium (issue 44, item 8): no two
 * x-axis labels and no two change-point numbers overlap. Before, the
 * newest run's label crowded the one before it on every plot and 12 pairs
 * of numbers were drawn over each other. */
static void the_committed_trend_page_reads_in_a_browser(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/trend && test -x %s/bin/changes && command -v gnuplot", it_build(), it_build()) != 0)
        it_skip("the trend page needs the report tools and gnuplot");
    if (!it_have_browser())
        it_skip("no chromium here: nothing to look at the page with");
    int rc = it_sh("mkdir %s/gp && cp -r results/gate-proc-h200/m*/20*/ %s/gp/ && "
                   "{ report/changes %s/gp --json %s/gp.json >/dev/null; [ $? -le 1 ]; } && "
                   "report/trend %s/gp --changes %s/gp.json --out %s/gp-trend >/dev/null",
                   tmp, tmp, tmp, tmp, tmp, tmp, tmp);
    if (rc != 0)
        fail_msg("the committed campaigns' trend page was not made:\n%s", it_out);
    char dir[128];
    snprintf(dir, sizeof dir, "%s/gp-trend", tmp);
    assert_int_equal(it_plots_in_browser(dir, tmp), 0);
    const char *marks = strstr(it_out, "data-marks=\"");
    if (!marks || atoi(marks + strlen("data-marks=\"")) < 2 || !strstr(it_out, "data-xlabel-overlaps=\"0\"") ||
        !strstr(it_out, "data-mark-overlaps=\"0\""))
        fail_msg("in chromium the committed runs' plots overlap (or show no change points to judge):\n%s", it_out);
}

/* The committed change points are made over the runs
 * results/changes-h200/runs.txt names (the test above, with a user's own
 * run beside them). Here, the control: the same folder read as "every run"
 * does count the user's run, so that test can tell. */
static void a_users_own_run_leaves_the_committed_change_points_alone(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/changes", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev, zlib1g-dev)");
    int rc = it_sh("HA_RESULTS_DIR=%s/mine report/evidence/changes_committed.sh --all %s/every >/dev/null; "
                   "grep -c . %s/every/runs.txt; grep -c . results/changes-h200/runs.txt; "
                   "cmp -s results/changes-h200/CHANGES.md %s/every/CHANGES.md",
                   tmp, tmp, tmp, tmp);
    if (rc == 0)
        fail_msg("every run, the user's included, made the same page: the test cannot tell:\n%s", it_out);
    /* a listed run that is gone is said, not passed over */
    assert_int_equal(it_sh("mkdir %s/gone && cp -r results/changes-h200 %s/gone/ && "
                           "HA_RESULTS_DIR=%s/gone report/evidence/changes_committed.sh %s/g", tmp, tmp, tmp, tmp), 2);
    assert_non_null(strstr(it_out, "is listed in"));
}

/* make compact-results stores a run's sealed torch_pool.txt compressed, as
 * it does the records: the report quotes it as before, links the file that
 * holds it, and still quotes nothing the run did not seal. */
static void a_compacted_torch_log_is_quoted_as_before(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/report", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev, zlib1g-dev)");
    char d[128], clear[300];
    snprintf(d, sizeof d, "%s/torchgz", tmp);
    /* report never overwrites its files: each rendering starts from the records */
    snprintf(clear, sizeof clear, "(cd %s && rm -f REPORT.md junit.xml benchmark*.json bencher.json results.csv)", d);
    /* a committed H200 run that sealed its torch log, plain as run_all.sh wrote it */
    assert_int_equal(it_sh("m=$(for r in $(find results -name MANIFEST.json | sort | xargs -n1 dirname); do "
                           "ls \"$r\"/torch_pool.txt* >/dev/null 2>&1 && grep -q '\"attachments\"' \"$r\"/MANIFEST.json && echo \"$r\"; "
                           "done | head -1); [ -n \"$m\" ] && "
                           "mkdir -p %s && cp \"$m\"/*.json* \"$m\"/torch_pool.txt* %s/ && rm -f %s/benchmark*.json %s/bencher.json && "
                           "if [ -e %s/torch_pool.txt.gz ]; then gzip -d %s/torch_pool.txt.gz; fi",
                           d, d, d, d, d, d), 0);
    assert_int_equal(it_sh("%s/bin/report --no-plots %s >/dev/null && mv %s/REPORT.md %s/plain.md", it_build(), d, d, tmp), 0);
    assert_int_equal(it_sh("grep -c '\\[torch_pool.txt\\](torch_pool.txt)' %s/plain.md", tmp), 0);
    assert_int_equal(it_sh("tools/compact_results.sh %s && test -f %s/torch_pool.txt.gz && ! test -e %s/torch_pool.txt",
                           d, d, d), 0);
    assert_int_equal(it_sh("%s && %s/bin/report --no-plots %s >/dev/null", clear, it_build(), d), 0);
    /* the same report but for the link */
    assert_int_equal(it_sh("diff %s/plain.md %s/REPORT.md | grep '^[<>]' | grep -vc 'torch_pool.txt'", tmp, d), 1);
    assert_int_equal(it_sh("diff %s/plain.md %s/REPORT.md | grep -c '^> .*\\[torch_pool.txt.gz\\](torch_pool.txt.gz)'",
                           tmp, d), 0);
    /* a compressed log that is not the sealed one is not quoted */
    assert_int_equal(it_sh("printf '## FORGED-91c2 passed\\n' | gzip -n > %s/torch_pool.txt.gz && %s && "
                           "%s/bin/report --no-plots %s >/dev/null", d, clear, it_build(), d), 0);
    assert_int_equal(it_sh("grep -c FORGED-91c2 %s/REPORT.md", d), 1);
    assert_int_equal(it_sh("grep -c '(not shown: ' %s/REPORT.md", d), 0);
    /* both forms at once: neither is taken */
    assert_int_equal(it_sh("printf '## FORGED-91c2 passed\\n' > %s/torch_pool.txt && %s && "
                           "%s/bin/report --no-plots %s >/dev/null", d, clear, it_build(), d), 0);
    assert_int_equal(it_sh("grep -c 'both it and its .gz are there' %s/REPORT.md", d), 0);
    assert_int_equal(it_sh("grep -c FORGED-91c2 %s/REPORT.md", d), 1);
}

/* Bencher's bounds are in the unit of their value: a pool's share of the
 * ceiling and its steady cycles' range both in percent, the range around
 * the value; a latency's interval around its ns. JUnit counts the pool's
 * time once. Judged on what report writes from a committed H200 run, not
 * on the committed copy. */
static void bencher_bounds_hold_their_values(void **s)
{
    (void)s;
    if (it_sh("test -x %s/bin/report", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev, zlib1g-dev)");
    char d[128];
    snprintf(d, sizeof d, "%s/bencher", tmp);
    assert_int_equal(it_sh("m=$(for f in results/20*-cuda-dev*/bencher.json results/20*-hip-dev*/bencher.json; do grep -qs upper_value $f && grep -q _pct_of_ceiling $f && dirname $f; done "
                           "| tail -1) && [ -n \"$m\" ] && "
                           "mkdir -p %s && cp \"$m\"/*.json* %s/ && rm -f %s/benchmark*.json %s/bencher.json && "
                           "%s/bin/report --no-plots %s >/dev/null", d, d, d, d, it_build(), d), 0);
    int rc = it_sh("python3 -c \"import json, sys\n"
                   "b = json.load(open('%s/bencher.json')); n = pct = 0\n"
                   "for name, ms in b.items():\n"
                   "    for k, m in ms.items():\n"
                   "        if 'lower_value' not in m: continue\n"
                   "        n += 1; pct += k.endswith('_pct_of_ceiling')\n"
                   "        ok = m['lower_value'] <= m['value'] * 1.0001 and m['value'] <= m['upper_value'] * 1.0001\n"
                   "        if not ok: sys.exit(f'{name} {k}: {m}')\n"
                   "if not pct: sys.exit('no pool share with its range')\n"
                   "print(n, pct)\"", d);
    if (rc != 0)
        fail_msg("a Bencher bound does not hold its value: %s", it_out);
    /* JUnit's times: the pool's wall time on the pool_check suite, once;
     * the expectations, read from records, take none */
    rc = it_sh("python3 -c \"import gzip, json, sys, xml.etree.ElementTree as E\n"
               "t = {s.get('name'): float(s.get('time')) for s in E.parse('%s/junit.xml').getroot()}\n"
               "w = json.load(gzip.open('%s/pool_check.json.gz'))['wall_time_s']\n"
               "sys.exit(0 if t['expectations'] == 0 and abs(t['pool_check'] - w) < 0.001 else f'{t} {w}')\"",
               d, d);
    if (rc != 0)
        fail_msg("JUnit's suite times do not add up: %s", it_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_committed_run_loads_and_renders),
        cmocka_unit_test(every_committed_report_is_what_this_tree_renders),
        cmocka_unit_test(the_committed_series_holds_no_regression),
        cmocka_unit_test(a_series_of_two_machines_is_judged_as_its_pair),
        cmocka_unit_test(the_committed_change_points_and_summaries_are_what_this_tree_makes),
        cmocka_unit_test(the_readme_example_shows_its_plots),
        cmocka_unit_test(the_committed_trend_page_reads_in_a_browser),
        cmocka_unit_test(a_users_own_run_leaves_the_committed_change_points_alone),
        cmocka_unit_test(a_compacted_torch_log_is_quoted_as_before),
        cmocka_unit_test(bencher_bounds_hold_their_values),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
