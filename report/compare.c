/* compare OLD NEW: what changed between two runs (typically one machine on
 * two ROCm releases), judged as regress.h says: verdicts, kinds, pool
 * checks and completeness exactly; timings on the raw samples, with a
 * significance test and a practical threshold per path family.
 *   compare OLD NEW [--md FILE] [--json FILE] [--threshold FAMILY=PCT]...
 *                   [--timings-across-hosts] [--allow-incomplete]
 *   compare --series DIR [same options]
 * The series form compares each run under DIR with the one before it of
 * the same device and backend (folder names are UTC times), loading each
 * run once. Markdown goes to stdout unless --md names a file. Exit: 0 no
 * regression, 1 regression, 2 unusable input, 5 an output exists or cannot
 * be written. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "findings.h"
#include "jsonw.h"
#include "opts.h"
#include "record.h"
#include "records.h"
#include "regress.h"
#include "rundir.h"
#include "text.h"

static regress_cfg cfg;
static findings found;

/* Opens an output: a new file (never replacing one), or stdout. */
static FILE *open_out(ha_record *rec, const char *path, bool *ok)
{
    char err[800];
    *ok = true;
    if (!path)
        return NULL;
    if (ha_record_open(rec, path, err, sizeof err) != 0) {
        fprintf(stderr, "compare: %s\n", err);
        *ok = false;
        return NULL;
    }
    rec->derived = true;
    return rec->f;
}

static int close_out(ha_record *rec, FILE *f)
{
    char err[800];
    if (f && ha_record_commit(rec, err, sizeof err) != 0) {
        fprintf(stderr, "compare: %s\n", err);
        return HA_EXIT_OUTPUT;
    }
    return 0;
}

#define MAX_RUNS 4096
#define MAX_GROUPS 64

static bool allow_incomplete;

static int series(const char *dir, const char *md, const char *js)
{
    static char names[MAX_RUNS][256];
    int n = rundir_list(dir, names, MAX_RUNS);
    if (n < 0) {
        fprintf(stderr, "compare: %s: expected a folder of runs (results/)\n", dir);
        return HA_EXIT_USAGE;
    }
    if (n == 0) {
        fprintf(stderr, "compare: %s: no run folders in it: expected results/<run>/ folders\n", dir);
        return HA_EXIT_USAGE;
    }
    ha_record mrec, jrec;
    bool ok;
    FILE *mf = open_out(&mrec, md, &ok);
    if (!ok)
        return HA_EXIT_OUTPUT;
    FILE *jf = open_out(&jrec, js, &ok);
    if (!ok) {
        if (mf)
            ha_record_abort(&mrec);
        return HA_EXIT_OUTPUT;
    }
    FILE *out = mf ? mf : stdout;
    jw w;
    if (jf) {
        jw_init(&w, jf, true);
        jw_obj(&w);
        jw_kint(&w, "schema_version", 1);
        jw_kstr(&w, "tool", "compare");
        jw_kstr(&w, "series", findings_utf8(dir));
        jw_key(&w, "pairs");
        jw_arr(&w);
    }
    static rundir last[MAX_GROUPS];
    char keys[MAX_GROUPS][300];
    int ngroups = 0, pairs = 0, rc = 0, skipped = 0;
    size_t total = 0;
    fprintf(out, "# hostaccess compare: every run against the one before it, in %s\n", md_text(dir));
    for (int i = 0; i < n && !rc; i++) {
        char p[800], err[900], key[300];
        snprintf(p, sizeof p, "%.500s/%.255s", dir, names[i]);
        rundir cur;
        char why[400];
        /* A run that is not whole is never anyone's baseline: skipped, said. */
        if (!allow_incomplete && rundir_check_whole(p, why, sizeof why) != 0) {
            fprintf(out, "\nSkipped %s: not a whole run: %s.\n", md_text(names[i]), md_text(why));
            skipped++;
            if (jf) {
                jw_obj(&w);
                jw_kstr(&w, "skipped", findings_utf8(names[i]));
                jw_kstr(&w, "why", why);
                jw_obj_end(&w);
            }
            continue;
        }
        if (rundir_load(&cur, p, true, true, err, sizeof err) != 0) {
            fprintf(stderr, "compare: %s\n", err);
            rc = HA_EXIT_USAGE;
            break;
        }
        rundir_group(&cur, key, sizeof key);
        int g = 0;
        while (g < ngroups && strcmp(keys[g], key))
            g++;
        if (g == ngroups) {
            if (ngroups == MAX_GROUPS) {
                rundir_free(&cur);
                continue;
            }
            snprintf(keys[ngroups++], sizeof keys[0], "%s", key);
        } else {
            regress_analyse(&cfg, &last[g], &cur, &found);
            total += findings_count(&found, REGRESSION);
            pairs++;
            fprintf(out, "\n");
            findings_markdown(out, &found, &last[g], &cur);
            if (jf)
                findings_json(&w, &found, &last[g], &cur);
            rundir_free(&last[g]);
        }
        last[g] = cur;
    }
    for (int g = 0; g < ngroups; g++)
        rundir_free(&last[g]);
    fprintf(out, "\n%d pair(s) compared, %zu regression(s) in all%s", pairs, total, skipped ? "; " : ".\n");
    if (skipped)
        fprintf(out, "%d run folder(s) skipped as not whole.\n", skipped);
    if (jf) {
        jw_arr_end(&w);
        jw_kint(&w, "regressions", (int64_t)total);
        jw_kint(&w, "skipped_incomplete", skipped);
        jw_obj_end(&w);
        jw_finish(&w);
    }
    if (rc) {
        if (mf)
            ha_record_abort(&mrec);
        if (jf)
            ha_record_abort(&jrec);
        return rc;
    }
    rc = close_out(&mrec, mf);
    if (!rc)
        rc = close_out(&jrec, jf);
    return rc ? rc : total ? HA_EXIT_FAIL : HA_EXIT_OK;
}

static const char *md, *js, *ser;
static ha_opt_list thresholds;

static const ha_opt options[] = {
    {"md", HA_OPT_STRING, 0, 0, &md, "FILE", "the Markdown into FILE (a new file) instead of stdout", NULL},
    {"json", HA_OPT_STRING, 0, 0, &js, "FILE", "the findings as JSON into FILE (a new file)", NULL},
    {"series", HA_OPT_STRING, 0, 0, &ser, "RESULTS_DIR",
     "every run under RESULTS_DIR against the one before it of its device and backend", NULL},
    {"threshold", HA_OPT_LIST, 0, 0, &thresholds, "FAMILY=PCT",
     "a family's practical threshold: read, memory, guarded, query, hardened, copy, fault or all "
     "(defaults: copy 8, memory 15, the rest 10); repeatable", NULL},
    {"timings-across-hosts", HA_OPT_FLAG, 0, 0, &cfg.timings_across_hosts, NULL,
     "judge timings of runs from different hosts or devices too", NULL},
    {"allow-incomplete", HA_OPT_FLAG, 0, 0, &allow_incomplete, NULL, "read runs that are not whole, marked as such", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};

static const ha_cli cli = {"compare", "OLD_RUN_DIR NEW_RUN_DIR | --series RESULTS_DIR",
                           "what changed between two runs; exit 1 on a regression", options, 0, 2, NULL};

int main(int argc, char **argv)
{
    const char *dirs[2] = {NULL, NULL};
    int nd = 0;
    regress_defaults(&cfg);
    int rc = ha_cli_parse(&cli, argc, argv, dirs, &nd);
    if (rc)
        return rc < 0 ? HA_EXIT_OK : rc;
    if ((ser && nd != 0) || (!ser && nd != 2)) {
        return ha_usage_error("compare", "give two run folders, or --series and a results folder");
    }
    for (int i = 0; i < thresholds.n; i++) {
        char err[200];
        if (regress_set_threshold(&cfg, thresholds.v[i], err, sizeof err) != 0) {
            fprintf(stderr, "compare: %s\n", err);
            return HA_EXIT_USAGE;
        }
    }
    /* Two outputs on one path: refused before any work, not after it. */
    if (md && js && ha_same_file(md, js)) {
        fprintf(stderr, "compare: --md and --json name the same file (%s): choose two\n", md);
        return HA_EXIT_USAGE;
    }
    if (ser) {
        rc = series(ser, md, js);
        findings_free(&found);
        return rc;
    }
    rundir a, b;
    char err[1200];
    if (rundir_load(&a, dirs[0], allow_incomplete, true, err, sizeof err) != 0) {
        fprintf(stderr, "compare: %s\n", err);
        return HA_EXIT_USAGE;
    }
    if (rundir_load(&b, dirs[1], allow_incomplete, true, err, sizeof err) != 0) {
        fprintf(stderr, "compare: %s\n", err);
        rundir_free(&a);
        return HA_EXIT_USAGE;
    }
    regress_analyse(&cfg, &a, &b, &found);
    ha_record mrec, jrec;
    bool ok;
    FILE *mf = open_out(&mrec, md, &ok);
    rc = ok ? 0 : HA_EXIT_OUTPUT;
    FILE *jf = rc ? NULL : open_out(&jrec, js, &ok);
    if (!rc && !ok) {
        rc = HA_EXIT_OUTPUT;
        if (mf)
            ha_record_abort(&mrec);
        mf = NULL;
    }
    if (!rc) {
        findings_markdown(mf ? mf : stdout, &found, &a, &b);
        if (jf) {
            jw w;
            jw_init(&w, jf, true);
            findings_json(&w, &found, &a, &b);
            jw_finish(&w);
        }
        rc = close_out(&mrec, mf);
        if (!rc)
            rc = close_out(&jrec, jf);
    }
    size_t reg = findings_count(&found, REGRESSION);
    rundir_free(&a);
    rundir_free(&b);
    findings_free(&found);
    return rc ? rc : reg ? HA_EXIT_FAIL : HA_EXIT_OK;
}
