/* trend DIR [--out OUTDIR]: every run folder under DIR on one static HTML
 * page, grouped by device and backend, ordered by runtime version, with
 * gnuplot SVG trend plots. Writes OUTDIR, which must not exist; by default
 * build/trend-<UTC time> under the current folder, never inside DIR (results/
 * is tracked: derived pages do not belong there). Exit: 0 written; 2 unusable input; 3 gnuplot missing; 5 the output
 * exists or cannot be written. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cleanup.h"
#include "exitcodes.h"
#include "opts.h"
#include "gnuplot.h"
#include "records.h"
#include "text.h"
#include "rundir.h"
#include "trendpage.h"

#define MAX_RUNS 4096

static trend_run runs[MAX_RUNS];
static size_t nruns;
static trend_skip skipped[MAX_RUNS];
static size_t nskipped;

/* Versions compare number by number: 7.14 comes after 7.2. */
static int vercmp(const char *a, const char *b)
{
    while (*a || *b) {
        if (isdigit((unsigned char)*a) && isdigit((unsigned char)*b)) {
            char *ea, *eb;
            unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
            if (x != y)
                return x < y ? -1 : 1;
            a = ea;
            b = eb;
        } else {
            if (*a != *b)
                return (unsigned char)*a - (unsigned char)*b;
            a++;
            b++;
        }
    }
    return 0;
}

static int by_group_version(const void *x, const void *y)
{
    const trend_run *a = x, *b = y;
    int c = strcmp(a->group, b->group);
    if (c)
        return c;
    c = vercmp(a->version, b->version);
    return c ? c : strcmp(a->time, b->time);
}

static int load_all(const char *dir)
{
    static char names[MAX_RUNS][256];
    int n = rundir_list(dir, names, MAX_RUNS);
    if (n < 0) {
        fprintf(stderr, "trend: %s: expected a folder of runs (results/)\n", dir);
        return HA_EXIT_USAGE;
    }
    for (int i = 0; i < n; i++) {
        char p[800], err[900];
        snprintf(p, sizeof p, "%.500s/%.255s", dir, names[i]);
        rundir r;
        char why[400];
        /* A run that is not whole is listed as such on the page, never plotted. */
        if (rundir_check_whole(p, why, sizeof why) != 0) {
            if (nskipped < MAX_RUNS) {
                snprintf(skipped[nskipped].dir, sizeof skipped[0].dir, "%.255s", names[i]);
                snprintf(skipped[nskipped++].why, sizeof skipped[0].why, "%s", why);
            }
            fprintf(stderr, "trend: skipped %s: not a whole run: %s\n", names[i], why);
            continue;
        }
        if (rundir_load(&r, p, false, false, err, sizeof err) != 0) {
            fprintf(stderr, "trend: %s\n", err);
            return HA_EXIT_USAGE;
        }
        trend_summarise(&runs[nruns++], &r, names[i]);
        rundir_free(&r);
    }
    if (!nruns) {
        fprintf(stderr, "trend: %s: no run folders with records in it\n", dir);
        return HA_EXIT_USAGE;
    }
    qsort(runs, nruns, sizeof runs[0], by_group_version);
    return 0;
}

static const char *out;
static const ha_opt options[] = {
    {"out", HA_OPT_STRING, 0, 0, &out, "OUTDIR", "write the page into OUTDIR, which must not exist "
                                                 "(default: build/trend-<UTC time>)", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
static const ha_cli cli = {"trend", "RESULTS_DIR", "every run folder on one HTML page with SVG trend plots",
                           options, 1, 1, NULL};

int main(int argc, char **argv)
{
    const char *dir;
    int done = ha_cli_parse_one(&cli, argc, argv, &dir);
    if (done >= 0)
        return done;
    char outbuf[800];
    if (!out) {
        char stamp[32];
        time_t now = time(NULL);
        strftime(stamp, sizeof stamp, "%Y-%m-%dT%H%M%SZ", gmtime(&now));
        mkdir("build", 0755);
        snprintf(outbuf, sizeof outbuf, "build/trend-%s", stamp);
        out = outbuf;
    }
    int rc = load_all(dir);
    if (rc)
        return rc;
    if (!gp_available()) {
        fprintf(stderr, "trend: gnuplot is not installed (apt-get install gnuplot-nox)\n");
        return HA_EXIT_NO_RUNTIME;
    }
    if (mkdir(out, 0755) != 0) {
        fprintf(stderr, "trend: %s: %s\n", out,
                errno == EEXIST ? "exists; not overwritten: choose another --out" : strerror(errno));
        return HA_EXIT_OUTPUT;
    }
    /* The page is whole or absent: a failure removes what was written, so
     * it never blocks the next try. */
    ha_cleanup_add(out);
    char p[800];
    trend_track(out, "gnuplot.log", p, sizeof p);
    int g = 0;
    char err[900] = "";
    for (size_t i = 0; i < nruns; g++) {
        size_t j = i;
        while (j < nruns && !strcmp(runs[j].group, runs[i].group))
            j++;
        char script[64];
        if (trend_write_group(out, g, runs, i, j, script, sizeof script) != 0 ||
            gp_run(out, script, err, sizeof err) != 0) {
            fprintf(stderr, "trend: %s\n", err[0] ? err : "cannot write the plots' data");
            ha_remove_flat_dir(out);
            return HA_EXIT_OUTPUT;
        }
        i = j;
    }
    static fleet fl;
    char ferr[1200];
    bool have_fleet = fleet_load(&fl, dir, ferr, sizeof ferr) == 0;
    int wrote = trend_write_html(out, dir, runs, nruns, skipped, nskipped, have_fleet ? &fl : NULL);
    if (have_fleet)
        fleet_free(&fl);
    if (wrote < 0) {
        fprintf(stderr, "trend: cannot write %s/index.html\n", out);
        ha_remove_flat_dir(out);
        return HA_EXIT_OUTPUT;
    }
    printf("trend: %zu runs in %d group(s): %s/index.html\n", nruns, g, out);
    return 0;
}
