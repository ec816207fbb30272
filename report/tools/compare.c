/* compare OLD NEW: what changed between two runs (typically one machine on
 * two ROCm releases), judged as regress.h says: verdicts, kinds, pool
 * checks and completeness exactly; timings on the raw samples of one
 * machine start, where the instruments say they can be.
 *   compare OLD NEW [--md FILE] [--json FILE] [--junit FILE] [--threshold FAMILY=PCT]...
 *                   [--steady-margin PCT] [--contended-share PCT] [--same-machine] [--allow-incomplete]
 *   compare --series DIR [same options]
 * The series form compares each run under DIR with the one before it of
 * the same device and backend (folder names are UTC times), loading each
 * run once. Markdown goes to stdout unless --md names a file. Exit: 0
 * clean, 1 a regression, 6 inconclusive (no regression, but timings it
 * could not judge), 2 unusable input, 5 an output exists or cannot be
 * written. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "findingsout.h"
#include "jsonw.h"
#include "opts.h"
#include "readfile.h"
#include "record.h"
#include "recw.h"
#include "regress.h"
#include "text.h"
#include "derive.h"
#include "abjudge.h"

static regress_cfg cfg;
static findings found;
static bool allow_incomplete;

typedef struct out {
    ha_record rec;
    FILE *f; /* NULL: not asked for */
} out;

static int open_out(out *o, const char *path)
{
    char err[800];
    o->f = NULL;
    if (!path)
        return 0;
    if (ha_record_open(&o->rec, path, err, sizeof err) != 0) {
        fprintf(stderr, "compare: %s\n", err);
        return HA_EXIT_OUTPUT;
    }
    o->rec.derived = true;
    o->f = o->rec.f;
    return 0;
}

static int close_out(out *o, bool keep)
{
    char err[800];
    if (!o->f)
        return 0;
    o->f = NULL;
    if (!keep) {
        ha_record_abort(&o->rec);
        return 0;
    }
    if (ha_record_commit(&o->rec, err, sizeof err) != 0) {
        fprintf(stderr, "compare: %s\n", err);
        return HA_EXIT_OUTPUT;
    }
    return 0;
}

static int load(m_run *r, const char *path)
{
    char *err = NULL;
    unsigned fl = M_WITH_SAMPLES | (allow_incomplete ? M_ALLOW_INCOMPLETE : 0);
    if (m_load_run(r, path, fl, &err) != 0) {
        fprintf(stderr, "compare: %s\n", err ? err : path);
        free(err);
        return HA_EXIT_USAGE;
    }
    return 0;
}

typedef struct group {
    char *key;
    m_run last;
} group;

static void json_skipped(jw *w, const char *name, const char *why)
{
    jw_obj(w);
    char *u = findings_utf8(name);
    hw_str(w, HF_CMP_SKIPPED, u ? u : "");
    free(u);
    u = findings_utf8(why);
    hw_str(w, HF_CMP_SKIP_WHY, u ? u : "");
    free(u);
    jw_obj_end(w);
}

/* A run of a series, loaded as it is, then judged whole or not: each
 * record is read and its digest checked once. A run that is not whole, or
 * not understood (a record that does not parse or check), is never
 * anyone's baseline: skipped and named (to o, and to w where given). */
static bool load_or_skip(m_run *cur, const char *path, const char *name, FILE *o, jw *w)
{
    char *err = NULL;
    const char *why = NULL;
    if (m_load_run(cur, path, M_WITH_SAMPLES | M_ALLOW_INCOMPLETE, &err) != 0)
        why = err ? err : "it cannot be read";
    else if (!allow_incomplete && !cur->complete)
        why = cur->incomplete;
    if (!why)
        return true;
    fprintf(o, "\nSkipped %s: %s: %s.\n", md_text(name), err ? "not understood" : "not a whole run", md_text(why));
    if (w)
        json_skipped(w, name, why);
    if (err)
        free(err);
    else
        m_free_run(cur);
    return false;
}

/* cur as the first run of a new group (its key is cur's group): 0, or -1
 * out of memory (cur is then still the caller's). */
static int new_group(group **groups, size_t *ngroups, const m_run *cur)
{
    group *ng = realloc(*groups, (*ngroups + 1) * sizeof *ng);
    if (ng)
        *groups = ng;
    char *key = ng ? strdup(cur->d.series) : NULL;
    if (!key)
        return -1;
    ng[*ngroups].key = key;
    ng[(*ngroups)++].last = *cur;
    return 0;
}

/* A series' last line (and its JSON's counts, w where given, closed). */
static void series_totals(FILE *o, jw *w, size_t pairs, size_t ngroups, size_t reg, size_t inc, size_t skipped)
{
    fprintf(o, "\n%zu pair(s) compared in %zu group(s): %zu regression(s), %zu inconclusive finding(s) in all.%s",
            pairs, ngroups, reg, inc, skipped ? " " : "\n");
    if (skipped)
        fprintf(o, "%zu run folder(s) skipped as not whole or not understood (named above).\n", skipped);
    if (w) {
        jw_arr_end(w);
        hw_uint(w, HF_CMP_NREG, reg);
        hw_uint(w, HF_CMP_NINC, inc);
        hw_uint(w, HF_CMP_NSKIPPED, skipped);
        jw_obj_end(w);
        jw_finish(w);
    }
}

/* --series over a folder without runs: a campaign's folder
 * (results/CAMPAIGN/mN/RUN) holds them further down, and is told so. */
static int no_runs_in(const char *dir)
{
    char **below = NULL;
    long deeper = m_list_runs_below(dir, 2, &below);
    m_free_names(below, deeper > 0 ? deeper : 0);
    if (deeper > 0)
        fprintf(stderr, "compare: %s: no run folders in it, %ld further down: give the folder that holds them "
                        "(--series compares the runs of one folder), or report/changes %s, which reads below\n",
                dir, deeper, dir);
    else
        fprintf(stderr, "compare: %s: no run folders in it: expected results/<run>/ folders\n", dir);
    return HA_EXIT_USAGE;
}

static int series(const char *dir, out *md, out *js)
{
    char **names = NULL;
    long n = m_list_runs(dir, &names);
    if (n < 0) {
        fprintf(stderr, "compare: %s: expected a folder of runs (results/)\n", dir);
        return HA_EXIT_USAGE;
    }
    if (n == 0)
        return no_runs_in(dir);
    FILE *o = md->f ? md->f : stdout;
    jw w;
    if (js->f) {
        jw_init(&w, js->f, true);
        jw_obj(&w);
        hw_ident(&w, "compare");
        char *u = findings_utf8(dir);
        hw_str(&w, HF_CMP_SERIES, u ? u : "");
        free(u);
        hw_arr(&w, HF_CMP_PAIRS);
    }
    group *groups = NULL;
    size_t ngroups = 0, pairs = 0, reg = 0, inc = 0, skipped = 0;
    int rc = 0;
    fprintf(o, "# hostaccess compare: every run against the one before it, in %s\n", md_text(dir));
    for (long i = 0; i < n && !rc; i++) {
        char *p = rf_join(dir, names[i]);
        if (!p) {
            rc = HA_EXIT_USAGE;
            break;
        }
        m_run cur;
        bool loaded = load_or_skip(&cur, p, names[i], o, js->f ? &w : NULL);
        free(p);
        if (!loaded) {
            skipped++;
            continue;
        }
        size_t g = 0;
        while (g < ngroups && strcmp(groups[g].key, cur.d.series))
            g++;
        if (g == ngroups) {
            /* a group's first run: nothing before it to judge it against */
            if (new_group(&groups, &ngroups, &cur) != 0) {
                m_free_run(&cur);
                rc = HA_EXIT_USAGE;
                break;
            }
            continue;
        }
        regress_analyse(&cfg, &groups[g].last, &cur, &found);
        reg += findings_count(&found, REGRESSION);
        inc += findings_count(&found, INCONCLUSIVE);
        pairs++;
        fprintf(o, "\n");
        findings_markdown(o, &found, &groups[g].last, &cur);
        if (js->f)
            findings_json(&w, &found, &groups[g].last, &cur);
        m_free_run(&groups[g].last);
        groups[g].last = cur;
        text_pool_free();
    }
    for (size_t g = 0; g < ngroups; g++) {
        m_free_run(&groups[g].last);
        free(groups[g].key);
    }
    free(groups);
    m_free_names(names, n);
    series_totals(o, js->f ? &w : NULL, pairs, ngroups, reg, inc, skipped);
    if (rc)
        return rc;
    return reg ? HA_EXIT_FAIL : inc ? HA_EXIT_INCONCLUSIVE : HA_EXIT_OK;
}

/* What was found, in every form asked for; its exit status. */
static int emit(out *mdo, out *jso, out *juo, const m_run *a, const m_run *b)
{
    findings_markdown(mdo->f ? mdo->f : stdout, &found, a, b);
    if (jso->f) {
        jw w;
        jw_init(&w, jso->f, true);
        findings_json(&w, &found, a, b);
        jw_finish(&w);
    }
    if (juo->f)
        findings_junit(juo->f, &found, a, b);
    return findings_status(&found);
}

/* compare RUN: an A/B session's two sides, judged on their pairs. */
static int ab_session(const char *dir, out *mdo, out *jso, out *juo)
{
    m_run r;
    int rc = load(&r, dir);
    if (rc)
        return rc;
    char why[400];
    ab_tally t;
    if (abjudge_usable(&r, why, sizeof why) != 0) {
        fprintf(stderr, "compare: %s: %s\n", dir, why);
        m_free_run(&r);
        return HA_EXIT_USAGE;
    }
    if (abjudge(&r, &found, &t) != 0)
        rf_out_of_memory("judging the session");
    regress_side_b(&cfg, &r, &found);
    int rc2 = emit(mdo, jso, juo, &r, r.side_b ? r.side_b : &r);
    m_free_run(&r);
    return rc2;
}

static const char *md, *js, *junit, *ser;
static ha_opt_list thresholds;
static double steady_pct = -1, contended_pct = -1; /* the rules in %; -1: not given */

static const ha_opt options[] = {
    {"md", HA_OPT_STRING, 0, 0, &md, "FILE", "the Markdown into FILE (a new file) instead of stdout", NULL},
    {"json", HA_OPT_STRING, 0, 0, &js, "FILE", "the findings as JSON into FILE (a new file)", NULL},
    {"junit", HA_OPT_STRING, 0, 0, &junit, "FILE", "the findings as JUnit XML into FILE: a regression fails", NULL},
    {"series", HA_OPT_STRING, 0, 0, &ser, "RESULTS_DIR",
     "every run under RESULTS_DIR against the one before it of its device and backend", NULL},
    {"threshold", HA_OPT_LIST, 0, 0, &thresholds, "FAMILY=PCT",
     "a path family's practical threshold, or all families' (an unknown family is refused with the list; "
     "default 5 each on runs of 4 processes or more, 8 on fewer); repeatable", NULL},
    {"steady-margin", HA_OPT_REAL, 0, 1e9, &steady_pct, "PCT",
     "a process whose syscall loop ran more than PCT % above its run's steadiest is left out of the guarded, query "
     "and hardened rows (default 10; docs/gate.md)", NULL},
    {"contended-share", HA_OPT_REAL, 0, 100, &contended_pct, "PCT",
     "a process that kept an uncontended block in fewer than PCT % of the rows of its run's most complete process "
     "is left out of every row (default 70; docs/gate.md)", NULL},
    {"same-machine", HA_OPT_FLAG, 0, 0, &cfg.same_machine, NULL,
     "judge timings although host, device, CPU or machine start differ", NULL},
    {"allow-incomplete", HA_OPT_FLAG, 0, 0, &allow_incomplete, NULL, "read runs that are not whole, marked as such", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static const ha_cli cli = {"compare", "OLD_RUN_DIR NEW_RUN_DIR | AB_RUN_DIR | --series RESULTS_DIR",
                           "what changed between two runs, or between the two sides of an A/B session (run_all.sh "
                           "--ab); exit 1 on a regression, 6 when timings could not be judged, 7 when too few rows "
                           "were shown the same to call it clean",
                           options, 0, 2, NULL};

/* Two outputs on one path: refused before any work, not after it. */
static int distinct_outputs(void)
{
    const char *o[] = {md, js, junit};
    for (int i = 0; i < 3; i++)
        for (int k = i + 1; k < 3; k++)
            if (o[i] && o[k] && ha_same_file(o[i], o[k])) {
                fprintf(stderr, "compare: two outputs name the same file (%s): choose another\n", o[i]);
                return HA_EXIT_USAGE;
            }
    return 0;
}

static int pair(const char *old, const char *new, out *mdo, out *jso, out *juo)
{
    if (ha_same_file(old, new)) {
        fprintf(stderr, "compare: %s and %s are one folder: give two runs to compare, or an A/B session's folder "
                        "alone\n", old, new);
        return HA_EXIT_USAGE;
    }
    m_run a, b;
    int rc = load(&a, old);
    if (rc)
        return rc;
    if ((rc = load(&b, new)) != 0) {
        m_free_run(&a);
        return rc;
    }
    regress_analyse(&cfg, &a, &b, &found);
    rc = emit(mdo, jso, juo, &a, &b);
    m_free_run(&a);
    m_free_run(&b);
    return rc;
}

int main(int argc, char **argv)
{
    const char *dirs[2] = {NULL, NULL};
    int nd = 0;
    regress_defaults(&cfg);
    int rc = ha_cli_parse(&cli, argc, argv, dirs, &nd);
    if (rc)
        return rc < 0 ? HA_EXIT_OK : rc;
    if ((ser && nd != 0) || (!ser && nd != 1 && nd != 2))
        return ha_usage_error("compare", "give two run folders, an A/B session's folder, or --series and a results folder");
    if (ser && junit)
        return ha_usage_error("compare", "--junit takes one pair, not --series");
    /* an A/B session is judged on its paired rounds (abjudge.c), at its own
     * threshold and with no process left out: these options change nothing there */
    if (!ser && nd == 1 && (steady_pct >= 0 || contended_pct >= 0 || thresholds.n))
        return ha_usage_error("compare", "--threshold, --steady-margin and --contended-share judge two runs; an A/B "
                                         "session's rounds are judged in pairs at the session's own threshold "
                                         "(docs/gate.md): give two run folders");
    for (int i = 0; i < thresholds.n; i++) {
        char err[200];
        if (regress_set_threshold(&cfg, thresholds.v[i], err, sizeof err) != 0) {
            fprintf(stderr, "compare: %s\n", err);
            return HA_EXIT_USAGE;
        }
    }
    if (steady_pct >= 0)
        cfg.rules.steady_margin = steady_pct / 100;
    if (contended_pct >= 0)
        cfg.rules.contended_share = contended_pct / 100;
    if ((rc = distinct_outputs()) != 0)
        return rc;
    out mdo, jso, juo;
    if ((rc = open_out(&mdo, md)) != 0)
        return rc;
    if ((rc = open_out(&jso, js)) != 0) {
        close_out(&mdo, false);
        return rc;
    }
    if ((rc = open_out(&juo, junit)) != 0) {
        close_out(&mdo, false);
        close_out(&jso, false);
        return rc;
    }
    rc = ser      ? series(ser, &mdo, &jso)
         : nd == 1 ? ab_session(dirs[0], &mdo, &jso, &juo)
                   : pair(dirs[0], dirs[1], &mdo, &jso, &juo);
    /* A failure to read the runs leaves no output behind; a verdict keeps them. */
    bool keep = rc == HA_EXIT_OK || rc == HA_EXIT_FAIL || rc == HA_EXIT_INCONCLUSIVE || rc == HA_EXIT_UNRESOLVED;
    int orc = close_out(&mdo, keep);
    orc = orc ? orc : close_out(&jso, keep);
    orc = orc ? orc : close_out(&juo, keep);
    findings_free(&found);
    text_pool_free();
    return orc ? orc : rc;
}
