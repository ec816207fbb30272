/* compare OLD NEW: what changed between two runs (typically one machine on
 * two ROCm releases). A candidate that stopped distinguishing, a kind that
 * lost host readability or could no longer be made, a pool check that
 * started failing, a timing that got slower by more than the measured
 * spread of both runs, a throughput that fell below the goal: regressions.
 * Their opposites are improvements; changed statuses and versions are
 * listed as changes.
 *   compare OLD NEW [--md FILE] [--json FILE]
 *   compare --series DIR [--md FILE] [--json FILE]
 * The series form compares each run under DIR with the one before it of
 * the same device and backend (folder names are UTC times), loading each
 * run once. Markdown goes to stdout unless --md names a file. Exit: 0 no
 * regression, 1 regression, 2 unusable input, 5 an output exists or cannot
 * be written. */
#include <math.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw.h"
#include "record.h"
#include "records.h"
#include "rundir.h"
#include "text.h"

enum { REGRESSION, IMPROVEMENT, CHANGE, NCLASS };
static const char *const class_names[NCLASS] = {"regressions", "improvements", "changes"};

typedef struct finding {
    int cls;
    char what[24];
    char name[200];
    char detail[400];
} finding;

static finding *found;
static size_t nfound, capfound;

static void note(int cls, const char *what, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void note(int cls, const char *what, const char *name, const char *fmt, ...)
{
    if (nfound == capfound) {
        capfound = capfound ? 2 * capfound : 64;
        finding *g = realloc(found, capfound * sizeof *found);
        if (!g) {
            fprintf(stderr, "compare: out of memory\n");
            exit(2);
        }
        found = g;
    }
    finding *f = &found[nfound++];
    f->cls = cls;
    snprintf(f->what, sizeof f->what, "%s", what);
    snprintf(f->name, sizeof f->name, "%s", name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
}

static const json_t *by_key(const json_t *arr, const char *key, const char *val)
{
    size_t i;
    const json_t *o;
    json_array_foreach(arr, i, o) if (!strcmp(rec_str(o, key), val)) return o;
    return NULL;
}

static void cmp_env(const json_t *a, const json_t *b)
{
    const char *keys[] = {"header_version", "runtime_version", "driver_version", "device_name", "backend"};
    for (int i = 0; i < 5; i++)
        if (strcmp(rec_str(a, keys[i]), rec_str(b, keys[i])))
            note(CHANGE, "environment", keys[i], "%s → %s", rec_str(a, keys[i]), rec_str(b, keys[i]));
}

static void cmp_probe(const json_t *a, const json_t *b)
{
    size_t i, k;
    const json_t *ka, *ca;
    json_array_foreach(json_object_get(a, "kinds"), i, ka) {
        const char *n = rec_str(ka, "name");
        const json_t *kb = by_key(json_object_get(b, "kinds"), "name", n);
        if (!kb) {
            note(CHANGE, "kind", n, "no longer probed");
            continue;
        }
        int ca_ = json_is_true(json_object_get(ka, "created")), cb = json_is_true(json_object_get(kb, "created"));
        if (ca_ != cb)
            note(ca_ ? REGRESSION : IMPROVEMENT, "kind", n, "%s (%s)",
                 ca_ ? "can no longer be made" : "can now be made", rec_str(kb, "detail"));
        int ra = rec_tri(ka, "readable"), rb = rec_tri(kb, "readable");
        if (ra >= 0 && rb >= 0 && ra != rb)
            note(ra ? REGRESSION : IMPROVEMENT, "kind", n, "host read: %s → %s",
                 ra ? "readable" : "faults", rb ? "readable" : "faults");
    }
    json_array_foreach(json_object_get(a, "candidates"), i, ca) {
        const char *n = rec_str(ca, "name");
        const json_t *cb = by_key(json_object_get(b, "candidates"), "name", n);
        if (!cb) {
            note(CHANGE, "candidate", n, "no longer probed");
            continue;
        }
        const char *va = rec_str(ca, "verdict"), *vb = rec_str(cb, "verdict");
        bool da = !strcmp(va, "distinguishes"), db = !strcmp(vb, "distinguishes");
        if (da != db)
            note(da ? REGRESSION : IMPROVEMENT, "candidate", n, "%s distinguishing (%s → %s)",
                 da ? "stopped" : "started", va, vb);
        else if (strcmp(va, vb))
            note(CHANGE, "candidate", n, "verdict %s → %s", va, vb);
        const json_t *ra;
        json_array_foreach(json_object_get(ca, "results"), k, ra) {
            const json_t *rb = by_key(json_object_get(cb, "results"), "kind", rec_str(ra, "kind"));
            if (!rb)
                continue;
            if (strcmp(rec_str(ra, "status_name"), rec_str(rb, "status_name")) ||
                strcmp(rec_str(ra, "class"), rec_str(rb, "class"))) {
                char name[200];
                snprintf(name, sizeof name, "%s on %s", n, rec_str(ra, "kind"));
                note(CHANGE, "status", name, "%s %s → %s %s", rec_str(ra, "status_name"),
                     rec_str(ra, "class"), rec_str(rb, "status_name"), rec_str(rb, "class"));
            }
        }
    }
    json_array_foreach(json_object_get(b, "candidates"), i, ca)
        if (!by_key(json_object_get(a, "candidates"), "name", rec_str(ca, "name")))
            note(CHANGE, "candidate", rec_str(ca, "name"), "new (%s)", rec_str(ca, "verdict"));
}

/* The same row (path, kind, candidate) of another record. */
static const json_t *row_like(const json_t *bench, const json_t *r, int repeat)
{
    return rec_bench_row(bench, rec_str(r, "path"), rec_str(r, "kind"), rec_str(r, "candidate"), repeat);
}

/* A run's measured spread for a row: the robust spread of its samples plus
 * how far its own second repeat landed (the run-to-run part the samples of
 * one repeat cannot show). */
static double run_noise(const json_t *bench, const json_t *r)
{
    const json_t *r2 = row_like(bench, r, 2);
    return rec_num(r, "spread_ns") + (r2 ? fabs(rec_num(r2, "median_ns") - rec_num(r, "median_ns")) : 0);
}

/* A timing moved when the medians differ by more than both runs' measured
 * spreads. */
static void cmp_bench(const json_t *a, const json_t *b)
{
    size_t i;
    const json_t *ra;
    json_array_foreach(json_object_get(a, "rows"), i, ra) {
        if (json_integer_value(json_object_get(ra, "repeat")) != 1 || json_is_true(json_object_get(ra, "skipped")) ||
            !strcmp(rec_str(ra, "path"), "harness"))
            continue;
        const json_t *rb = row_like(b, ra, 1);
        if (!rb)
            continue;
        double ma = rec_num(ra, "median_ns"), mb = rec_num(rb, "median_ns");
        double na = run_noise(a, ra), nb = run_noise(b, rb);
        double noise = na + nb;
        if (!(fabs(mb - ma) > noise))
            continue;
        char name[200];
        snprintf(name, sizeof name, "%s / %s%s%s", rec_str(ra, "path"), rec_str(ra, "kind"),
                 *rec_str(ra, "candidate") ? " / " : "", rec_str(ra, "candidate"));
        note(mb > ma ? REGRESSION : IMPROVEMENT, "timing", name,
             "%.4g → %.4g ns (%+.1f%%), beyond the measured spreads of both runs (%.3g + %.3g ns: "
             "sample spread plus repeat-to-repeat difference)", ma, mb, 100 * (mb - ma) / ma, na, nb);
    }
}

static void cmp_pool(const json_t *a, const json_t *b)
{
    size_t i;
    const json_t *ca;
    json_array_foreach(json_object_get(a, "checks"), i, ca) {
        const json_t *cb = NULL, *o;
        size_t k;
        json_array_foreach(json_object_get(b, "checks"), k, o)
            if (!strcmp(rec_str(o, "name"), rec_str(ca, "name")) && !strcmp(rec_str(o, "mode"), rec_str(ca, "mode")))
                cb = o;
        if (!cb || !strcmp(rec_str(ca, "status"), rec_str(cb, "status")))
            continue;
        char name[200];
        snprintf(name, sizeof name, "%s [%s]", rec_str(ca, "name"), rec_str(ca, "mode"));
        const char *sa = rec_str(ca, "status"), *sb = rec_str(cb, "status");
        note(!strcmp(sb, "FAIL") ? REGRESSION : !strcmp(sa, "FAIL") ? IMPROVEMENT : CHANGE, "pool_check",
             name, "%s → %s: %s", sa, sb, rec_str(cb, "detail"));
    }
    /* Throughput has no spread of its own: the goal (90 % of the ceiling)
     * is the line that matters. */
    json_array_foreach(json_object_get(a, "throughput"), i, ca) {
        const json_t *cb = NULL, *o;
        size_t k;
        json_array_foreach(json_object_get(b, "throughput"), k, o)
            if (rec_num(o, "pool_bytes") == rec_num(ca, "pool_bytes"))
                cb = o;
        if (!cb || !json_is_true(json_object_get(ca, "measured")) || !json_is_true(json_object_get(cb, "measured")))
            continue;
        const char *what[] = {"sleep_fraction_of_ceiling", "wake_fraction_of_ceiling"};
        for (int w = 0; w < 2; w++) {
            double fa = rec_num(ca, what[w]), fb = rec_num(cb, what[w]);
            if ((fa >= 0.9) == (fb >= 0.9))
                continue;
            char name[120];
            snprintf(name, sizeof name, "pool %.0f bytes %s", rec_num(ca, "pool_bytes"), what[w]);
            note(fb < 0.9 ? REGRESSION : IMPROVEMENT, "throughput", name,
                 "%.1f%% → %.1f%% of the pinned-copy ceiling (goal 90%%)", 100 * fa, 100 * fb);
        }
    }
}

static void markdown(FILE *f, const rundir *a, const rundir *b)
{
    size_t n[NCLASS] = {0};
    for (size_t i = 0; i < nfound; i++)
        n[found[i].cls]++;
    fprintf(f, "## hostaccess compare\n\n- old: `%s` (%s %s, runtime %s)%s\n- new: `%s` (%s %s, runtime %s)%s\n\n",
            md_text(a->path), md_text(rec_str(a->env, "device_name")), md_text(rec_str(a->env, "backend")),
            md_text(rec_str(a->env, "runtime_version")), rundir_simulated(a) ? " SIMULATED" : "", md_text(b->path),
            md_text(rec_str(b->env, "device_name")), md_text(rec_str(b->env, "backend")), md_text(rec_str(b->env, "runtime_version")),
            rundir_simulated(b) ? " SIMULATED" : "");
    if (strcmp(rec_str(a->env, "device_name"), rec_str(b->env, "device_name")))
        fprintf(f, "> The two runs are from different devices: differences may be the hardware's.\n\n");
    fprintf(f, "**%zu regression(s)**, %zu improvement(s), %zu other change(s).\n", n[0], n[1], n[2]);
    for (int c = 0; c < NCLASS; c++) {
        if (!n[c])
            continue;
        fprintf(f, "\n### %c%s\n\n", class_names[c][0] - 32, class_names[c] + 1);
        for (size_t i = 0; i < nfound; i++)
            if (found[i].cls == c)
                fprintf(f, "- %s `%s`: %s\n", found[i].what, md_text(found[i].name), md_text(found[i].detail));
    }
}

/* Folder names may be any bytes; JSON must be UTF-8. One ring of four. */
static const char *utf8(const char *s)
{
    static char ring[4][1024];
    static int k;
    char *o = ring[k++ & 3];
    utf8_clean(s, o, sizeof ring[0]);
    return o;
}

static void json_pair(jw *w, const rundir *a, const rundir *b)
{
    jw_obj(w);
    jw_kint(w, "schema_version", 1);
    jw_kstr(w, "tool", "compare");
    jw_kstr(w, "old", utf8(a->path));
    jw_kstr(w, "new", utf8(b->path));
    for (int c = 0; c < NCLASS; c++) {
        jw_key(w, class_names[c]);
        jw_arr(w);
        for (size_t i = 0; i < nfound; i++) {
            if (found[i].cls != c)
                continue;
            jw_obj(w);
            jw_kstr(w, "what", found[i].what);
            jw_kstr(w, "name", found[i].name);
            jw_kstr(w, "detail", found[i].detail);
            jw_obj_end(w);
        }
        jw_arr_end(w);
    }
    jw_obj_end(w);
}

static void analyse(const rundir *a, const rundir *b)
{
    nfound = 0;
    cmp_env(a->env, b->env);
    if (a->rec[RUN_PROBE] && b->rec[RUN_PROBE])
        cmp_probe(a->rec[RUN_PROBE], b->rec[RUN_PROBE]);
    if (a->rec[RUN_BENCH] && b->rec[RUN_BENCH])
        cmp_bench(a->rec[RUN_BENCH], b->rec[RUN_BENCH]);
    if (a->rec[RUN_POOL] && b->rec[RUN_POOL])
        cmp_pool(a->rec[RUN_POOL], b->rec[RUN_POOL]);
}

static size_t regressions(void)
{
    size_t n = 0;
    for (size_t i = 0; i < nfound; i++)
        n += found[i].cls == REGRESSION;
    return n;
}

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
        return 5;
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
        return 2;
    }
    if (n == 0) {
        fprintf(stderr, "compare: %s: no run folders in it: expected results/<run>/ folders\n", dir);
        return 2;
    }
    ha_record mrec, jrec;
    bool ok;
    FILE *mf = open_out(&mrec, md, &ok);
    if (!ok)
        return 5;
    FILE *jf = open_out(&jrec, js, &ok);
    if (!ok) {
        if (mf)
            ha_record_abort(&mrec);
        return 5;
    }
    FILE *out = mf ? mf : stdout;
    jw w;
    if (jf) {
        jw_init(&w, jf, true);
        jw_obj(&w);
        jw_kint(&w, "schema_version", 1);
        jw_kstr(&w, "tool", "compare");
        jw_kstr(&w, "series", utf8(dir));
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
                jw_kstr(&w, "skipped", utf8(names[i]));
                jw_kstr(&w, "why", why);
                jw_obj_end(&w);
            }
            continue;
        }
        if (rundir_load(&cur, p, true, err, sizeof err) != 0) {
            fprintf(stderr, "compare: %s\n", err);
            rc = 2;
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
            analyse(&last[g], &cur);
            total += regressions();
            pairs++;
            fprintf(out, "\n");
            markdown(out, &last[g], &cur);
            if (jf)
                json_pair(&w, &last[g], &cur);
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
    return rc ? rc : total ? 1 : 0;
}

static const char usage[] =
    "usage: compare OLD_RUN_DIR NEW_RUN_DIR [--md FILE] [--json FILE] [--allow-incomplete]\n"
    "       compare --series RESULTS_DIR [--md FILE] [--json FILE] [--allow-incomplete]\n";

int main(int argc, char **argv)
{
    const char *dirs[2] = {NULL, NULL}, *md = NULL, *js = NULL, *ser = NULL;
    int nd = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--md") && i + 1 < argc) {
            md = argv[++i];
        } else if (!strcmp(argv[i], "--json") && i + 1 < argc) {
            js = argv[++i];
        } else if (!strcmp(argv[i], "--series") && i + 1 < argc) {
            ser = argv[++i];
        } else if (!strcmp(argv[i], "--allow-incomplete")) {
            allow_incomplete = true;
        } else if (argv[i][0] != '-' && nd < 2) {
            dirs[nd++] = argv[i];
        } else {
            nd = 3;
        }
    }
    if ((ser && nd != 0) || (!ser && nd != 2)) {
        fputs(usage, stderr);
        return 2;
    }
    /* Two outputs on one path: refused before any work, not after it. */
    if (md && js && ha_same_file(md, js)) {
        fprintf(stderr, "compare: --md and --json name the same file (%s): choose two\n", md);
        return 2;
    }
    if (ser)
        return series(ser, md, js);
    rundir a, b;
    char err[1200];
    if (rundir_load(&a, dirs[0], allow_incomplete, err, sizeof err) != 0) {
        fprintf(stderr, "compare: %s\n", err);
        return 2;
    }
    if (rundir_load(&b, dirs[1], allow_incomplete, err, sizeof err) != 0) {
        fprintf(stderr, "compare: %s\n", err);
        rundir_free(&a);
        return 2;
    }
    analyse(&a, &b);
    ha_record mrec, jrec;
    bool ok;
    FILE *mf = open_out(&mrec, md, &ok);
    int rc = ok ? 0 : 5;
    FILE *jf = rc ? NULL : open_out(&jrec, js, &ok);
    if (!rc && !ok) {
        rc = 5;
        if (mf)
            ha_record_abort(&mrec);
        mf = NULL;
    }
    if (!rc) {
        markdown(mf ? mf : stdout, &a, &b);
        if (jf) {
            jw w;
            jw_init(&w, jf, true);
            json_pair(&w, &a, &b);
            jw_finish(&w);
        }
        rc = close_out(&mrec, mf);
        if (!rc)
            rc = close_out(&jrec, jf);
    }
    size_t reg = regressions();
    rundir_free(&a);
    rundir_free(&b);
    free(found);
    return rc ? rc : reg ? 1 : 0;
}
