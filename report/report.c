/* report RUN_DIR: the run's records as RUN_DIR/REPORT.md with plots and
 * exports beside it. Nothing in the run folder is changed or replaced: if a
 * report file exists, it says so and stops.
 * Exit: 0 written; 2 unusable input (one line names the file and place);
 * 5 an output exists or cannot be written. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exitcodes.h"
#include "exports.h"
#include "markdown.h"
#include "opts.h"
#include "plots.h"
#include "record.h"
#include "rundir.h"

/* What this run has written so far, removed again if a later file fails:
 * a report is whole or absent, so a failure never blocks the next try. */
static char written[16][700];
static int nwritten;

static void undo(void)
{
    while (nwritten > 0)
        unlink(written[--nwritten]);
}

static int write_file(const char *dir, const char *name, void (*fn)(FILE *, const rundir *, int),
                      const rundir *r, int arg)
{
    char path[700], err[800];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ha_record rec;
    if (ha_record_open(&rec, path, err, sizeof err) != 0) {
        fprintf(stderr, "report: %s\n", err);
        return HA_EXIT_OUTPUT;
    }
    rec.derived = true;
    fn(rec.f, r, arg);
    if (ha_record_commit(&rec, err, sizeof err) != 0) {
        fprintf(stderr, "report: %s\n", err);
        return HA_EXIT_OUTPUT;
    }
    if (nwritten < 16)
        snprintf(written[nwritten++], sizeof written[0], "%s", path);
    return 0;
}

static const char *plots_flag;

static void w_md(FILE *f, const rundir *r, int a) { (void)a; md_write(f, r, plots_flag); }
static void w_junit(FILE *f, const rundir *r, int a) { (void)a; export_junit(f, r); }
static void w_bench(FILE *f, const rundir *r, int a) { export_benchmark(f, r, a); }
static void w_csv(FILE *f, const rundir *r, int a) { (void)a; export_csv(f, r); }

static bool no_plots, allow;
static const ha_opt options[] = {
    {"no-plots", HA_OPT_FLAG, 0, 0, &no_plots, NULL, "no gnuplot figures (the Markdown and exports only)", NULL},
    {"allow-incomplete", HA_OPT_FLAG, 0, 0, &allow, NULL, "report a run that is not whole, under an INCOMPLETE RUN title", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
static const ha_cli cli = {"report", "RUN_DIR", "writes RUN_DIR/REPORT.md, plots and exports; replaces nothing",
                           options, 1, 1, NULL};

int main(int argc, char **argv)
{
    const char *dir;
    int done = ha_cli_parse_one(&cli, argc, argv, &dir);
    if (done >= 0)
        return done;
    rundir r;
    char err[1200];
    if (rundir_load(&r, dir, allow, false, err, sizeof err) != 0) {
        fprintf(stderr, "report: %s\n", err);
        return HA_EXIT_USAGE;
    }
    /* Refuse before writing anything, so a report is never half replaced. */
    const char *const *lists[] = {export_files, plot_files};
    const char *outs[] = {"REPORT.md"};
    struct stat st;
    for (int l = -1; l < 2; l++) {
        const char *const *names = l < 0 ? outs : lists[l];
        for (int i = 0; l < 0 ? i < 1 : names[i] != NULL; i++) {
            char path[700];
            snprintf(path, sizeof path, "%s/%s", dir, names[i]);
            if (stat(path, &st) == 0) {
                fprintf(stderr, "report: %s exists; not overwritten: remove the report files to "
                                "make it again\n", path);
                rundir_free(&r);
                return HA_EXIT_OUTPUT;
            }
        }
    }
    int pr = no_plots ? 2 : plots_make(&r, dir, err, sizeof err);
    if (pr < 0) {
        fprintf(stderr, "report: %s\n", err);
        rundir_free(&r);
        return HA_EXIT_OUTPUT;
    }
    plots_flag = pr == 0 ? "yes" : NULL;
    int rc = write_file(dir, "junit.xml", w_junit, &r, 0);
    if (!rc) rc = write_file(dir, "benchmark.json", w_bench, &r, 0);
    if (!rc) rc = write_file(dir, "benchmark_bigger.json", w_bench, &r, 1);
    if (!rc) rc = write_file(dir, "results.csv", w_csv, &r, 0);
    if (!rc) rc = write_file(dir, "REPORT.md", w_md, &r, 0);
    if (rc) {
        undo();
        for (int i = 0; pr == 0 && plot_files[i]; i++) {
            char p[700];
            snprintf(p, sizeof p, "%s/%s", dir, plot_files[i]);
            unlink(p);
        }
    }
    if (!rc)
        printf("report: wrote %s/REPORT.md%s%s\n", dir, r.complete ? "" : " (INCOMPLETE run, marked so)",
               pr == 0 ? " with plots" : pr == 2 ? " (no plots: --no-plots)" : " (no plots: gnuplot not installed)");
    rundir_free(&r);
    return rc;
}
