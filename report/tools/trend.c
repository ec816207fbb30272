/* trend DIR [--out OUTDIR] [--changes FILE]: every run folder under DIR on
 * one static HTML page, grouped by device and backend, in run-time order,
 * with gnuplot SVG trend plots; with FILE (report/changes --json), each
 * change point marked on its group's plots and listed with links to both
 * its runs. Writes OUTDIR, which must not exist; by default
 * build/trend-<UTC time> under the current folder, never inside DIR (results/
 * is tracked: derived pages do not belong there). Exit: 0 written; 2 unusable input (FILE included); 3 gnuplot missing; 5 the output
 * exists or cannot be written. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "derive.h"
#include "exitcodes.h"
#include "gnuplot.h"
#include "opts.h"
#include "pagelink.h"
#include "readfile.h"
#include "text.h"
#include "trendmarks.h"
#include "trendpage.h"

static trend_run *runs;
static size_t nruns;
static trend_skip *skipped;
static size_t nskipped;

static void *more(void *p, size_t n, size_t size)
{
    void *q = realloc(p, (n + 1) * size);
    if (!q)
        rf_out_of_memory("listing the runs");
    return q;
}

/* Where the page will be, absolute and canonical: OUTDIR does not exist
 * yet, its parent must (or mkdir fails later and says so). NULL when it
 * cannot be told. */
static char *page_folder(const char *o)
{
    char *copy = strdup(o);
    if (!copy)
        return NULL;
    size_t n = strlen(copy);
    while (n > 1 && copy[n - 1] == '/')
        copy[--n] = 0;
    char *slash = strrchr(copy, '/'), *parent, *page = NULL;
    const char *base = slash ? slash + 1 : copy;
    if (slash == copy)
        parent = realpath("/", NULL);
    else {
        if (slash)
            *slash = 0;
        parent = realpath(slash ? copy : ".", NULL);
    }
    if (parent && *base)
        page = rf_printf("%s%s%s", parent, strcmp(parent, "/") ? "/" : "", base);
    free(parent);
    free(copy);
    return page;
}

static char *page_dir; /* page_folder(out) */

/* The link a point and a table row carry: the run's REPORT.md, relative
 * to the page (it still works when the page and the results are
 * published together); an absolute file:// link where that cannot be
 * told. */
static char *report_link(const char *path)
{
    char *abs = realpath(path, NULL), *report = abs ? rf_printf("%s/REPORT.md", abs) : NULL;
    char *link = page_dir && report ? page_link(page_dir, report) : NULL;
    if (!link)
        link = rf_printf("file://%s/REPORT.md", abs ? abs : path);
    free(report);
    free(abs);
    return link;
}

static int load_all(const char *dir)
{
    char **names = NULL;
    long n = m_list_runs(dir, &names);
    if (n < 0) {
        fprintf(stderr, "trend: %s: expected a folder of runs (results/)\n", dir);
        return HA_EXIT_USAGE;
    }
    for (long i = 0; i < n; i++) {
        char *p = rf_join(dir, names[i]), *err = NULL;
        if (!p)
            continue;
        m_run r;
        /* A run that is not whole, or not understood, is listed as such on
         * the page, never plotted; the others are. */
        bool loaded = m_load_run(&r, p, M_ALLOW_INCOMPLETE, &err) == 0;
        if (!loaded || !r.complete) {
            const char *why = loaded ? r.incomplete : err ? err : "it cannot be read";
            skipped = more(skipped, nskipped, sizeof *skipped);
            skipped[nskipped].dir = strdup(names[i]);
            skipped[nskipped++].why = rf_printf("%s: %s", loaded ? "not a whole run" : "not understood", why);
            fprintf(stderr, "trend: skipped %s: %s: %s\n", names[i], loaded ? "not a whole run" : "not understood",
                    why);
            if (loaded)
                m_free_run(&r);
            free(err);
            free(p);
            continue;
        }
        char *link = report_link(p);
        runs = more(runs, nruns, sizeof *runs);
        trend_summarise(&runs[nruns++], &r, names[i], link ? link : "");
        free(link);
        m_free_run(&r);
        free(p);
    }
    m_free_names(names, n);
    if (!nruns) {
        fprintf(stderr, "trend: %s: no run folders with records in it\n", dir);
        return HA_EXIT_USAGE;
    }
    trend_sort(runs, nruns);
    return 0;
}

static const char *out, *changes_json;
static trend_mark *marks;
static size_t nmarks;
static const ha_opt options[] = {
    {"changes", HA_OPT_STRING, 0, 0, &changes_json, "FILE", "mark the change points in FILE (what report/changes "
                                                             "--json FILE writes over these runs) on the plots", NULL},
    {"out", HA_OPT_STRING, 0, 0, &out, "OUTDIR", "write the page into OUTDIR, which must not exist "
                                                 "(default: build/trend-<UTC time>)", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
static const ha_cli cli = {"trend", "RESULTS_DIR", "every run folder on one HTML page with SVG trend plots",
                           options, 1, 1, NULL};

static void free_all(void)
{
    for (size_t i = 0; i < nruns; i++)
        trend_run_free(&runs[i]);
    for (size_t i = 0; i < nskipped; i++) {
        free(skipped[i].dir);
        free(skipped[i].why);
    }
    free(runs);
    free(skipped);
    trend_marks_free(marks, nmarks);
    text_pool_free();
    free(page_dir);
    page_dir = NULL;
}

/* Each group's plots (its runs are neighbours in runs[]) into out: how
 * many groups, or -1 (said). */
static int plot_groups(void)
{
    int g = 0;
    char err[900] = "";
    for (size_t i = 0; i < nruns; g++) {
        size_t j = i;
        while (j < nruns && !strcmp(runs[j].group, runs[i].group))
            j++;
        char script[64];
        snprintf(script, sizeof script, "group%d.gp", g);
        if (trend_write_group(out, g, runs, i, j, marks, nmarks) != 0 || gp_run(out, script, err, sizeof err) != 0) {
            fprintf(stderr, "trend: %s\n", err[0] ? err : "cannot write the plots' data");
            return -1;
        }
        i = j;
    }
    return g;
}

int main(int argc, char **argv)
{
    const char *dir;
    int done = ha_cli_parse_one(&cli, argc, argv, &dir);
    if (done >= 0)
        return done;
    char outbuf[64];
    if (!out) {
        char stamp[32];
        time_t now = time(NULL);
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H%M%SZ", gmtime(&now));
        mkdir("build", 0755);
        snprintf(outbuf, sizeof outbuf, "build/trend-%s", stamp);
        out = outbuf;
    }
    /* Refused before the work, not after it. */
    if (access(out, F_OK) == 0) {
        fprintf(stderr, "trend: %s: exists; not overwritten: choose another --out\n", out);
        free_all();
        return HA_EXIT_OUTPUT;
    }
    char *merr = NULL;
    if (changes_json && trend_marks_load(changes_json, &marks, &nmarks, &merr) != 0) {
        fprintf(stderr, "trend: --changes %s\n", merr ? merr : changes_json);
        free(merr);
        free_all();
        return HA_EXIT_USAGE;
    }
    page_dir = page_folder(out);
    int rc = load_all(dir);
    if (rc) {
        free_all();
        return rc;
    }
    if (!gp_available()) {
        fprintf(stderr, "trend: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        free_all();
        return HA_EXIT_NO_RUNTIME;
    }
    if (mkdir(out, 0755) != 0) {
        fprintf(stderr, "trend: %s: %s\n", out,
                errno == EEXIST ? "exists; not overwritten: choose another --out" : strerror(errno));
        free_all();
        return HA_EXIT_OUTPUT;
    }
    /* The page is whole or absent: a failure removes what was written, so
     * it never blocks the next try. */
    ha_cleanup_add(out);
    free(trend_track(out, "gnuplot.log"));
    int g = plot_groups();
    if (g < 0) {
        ha_remove_flat_dir(out);
        free_all();
        return HA_EXIT_OUTPUT;
    }
    static fleet fl;
    char *ferr = NULL;
    bool have_fleet = fleet_load(&fl, dir, &ferr) == 0;
    free(ferr);
    int wrote = trend_write_html(out, dir, runs, nruns, skipped, nskipped, have_fleet ? &fl : NULL, marks, nmarks);
    if (have_fleet)
        fleet_free(&fl);
    if (wrote < 0) {
        fprintf(stderr, "trend: cannot write %s/index.html\n", out);
        ha_remove_flat_dir(out);
        free_all();
        return HA_EXIT_OUTPUT;
    }
    printf("trend: %zu runs in %d group(s): %s/index.html\n", nruns, g, out);
    free_all();
    return 0;
}
