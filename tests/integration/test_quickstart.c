/* The README's first command, as a new user types it: a fresh clone,
 * `make probes && ./run_all.sh`, and a report at the end. It runs once, in
 * the plain pass (the sanitizer pass builds the same tools again). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

static char tmp[64];

static int setup(void **s)
{
    (void)s;
    return it_tmpdir(tmp, sizeof tmp, "quickstart");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

static void readme_quick_start_writes_a_report(void **s)
{
    (void)s;
    if (strcmp(it_build(), "build") != 0)
        it_skip("the quick start runs in the plain pass only (this is %s)", it_build());
    if (it_sh("git rev-parse --is-inside-work-tree") != 0)
        it_skip("this copy is not a git checkout: there is nothing to clone");
    if (it_sh("grep -qF 'make probes && ./run_all.sh' README.md") != 0)
        fail_msg("README.md no longer shows the quick start 'make probes && ./run_all.sh'");
    assert_int_equal(it_sh("git clone -q . %s/clone", tmp), 0);
    /* The clone builds with its own defaults: nothing from this make. */
    int rc = it_sh("cd %s/clone && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD -u CFLAGS -u LDFLAGS "
                   "sh -c 'make probes >make.log 2>&1 && ./run_all.sh'", tmp);
    if (rc != 0) {
        char out[8192];
        snprintf(out, sizeof out, "%s", it_tail(sizeof out - 1));
        it_sh("cd %s/clone && for f in results/*/*.log; do echo \"== $f\"; tail -n 15 \"$f\"; done", tmp);
        fail_msg("the quick start exited %d:\n%s\nits tools' logs end:\n%s", rc, out, it_tail(6000));
    }
    if (strstr(it_out, "not built")) {
        char out[4096];
        snprintf(out, sizeof out, "%.4000s", it_out);
        it_sh("cd %s/clone && git log -1 --oneline && tail -5 make.log", tmp);
        fail_msg("the quick start left a tool unbuilt:\n%s\nclone and build:\n%s", out, it_out);
    }
    /* the run says its verdict, not only where the report is */
    if (!strstr(it_out, "    Can the host read it?: ") || !strstr(it_out, "    What the fast path buys: "))
        fail_msg("the quick start did not print its verdict:\n%s", it_out);
    /* a simulated run's box fits 80 columns, its reason wrapped, not cut */
    bool boxed = false;
    for (const char *l = it_out; *l;) {
        size_t n = strcspn(l, "\n");
        if (n >= 2 && l[0] == '|' && l[1] == ' ') {
            boxed = true;
            if (n != 80)
                fail_msg("a box line of %zu columns: %.*s", n, (int)n, l);
        }
        l += n + (l[n] == '\n');
    }
    if (strstr(it_out, "SIMULATED run"))
        assert_true(boxed);
    const char *r = strstr(it_out, "report: ");
    assert_non_null(r);
    char path[512];
    assert_int_equal(sscanf(r, "report: %511s", path), 1);
    assert_non_null(strstr(path, "/REPORT.md"));
    assert_int_equal(access(path, R_OK), 0);
    /* Where no GPU answers, the run is the simulation's and says so. */
    if (strstr(it_out, "backend sim"))
        assert_int_equal(it_sh("grep -c SIMULATED %s", path), 0);
}

/* Every relative link in the README, docs/ and the evidence folders'
 * READMEs leads to a file or folder in the tree: the example report, the
 * evidence a claim points to. */
static void every_link_in_the_docs_leads_somewhere(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed");
    int rc = it_sh("python3 -c \"import glob, os, re, sys\n"
                   "bad = []\n"
                   "for f in ['README.md'] + sorted(glob.glob('docs/*.md') + glob.glob('results/*/README.md')):\n"
                   "    for m in re.finditer(r'\\]\\(([^)#\\s]+)', open(f, encoding='utf-8').read()):\n"
                   "        t = m.group(1)\n"
                   "        if '://' in t or t.startswith('mailto:'): continue\n"
                   "        if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(f), t))): bad.append(f + ': ' + t)\n"
                   "print('\\n'.join(bad)); sys.exit(1 if bad else 0)\"");
    if (rc != 0)
        fail_msg("links that lead nowhere:\n%s", it_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readme_quick_start_writes_a_report),
        cmocka_unit_test(every_link_in_the_docs_leads_somewhere),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
