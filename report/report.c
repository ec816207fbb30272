/* report RUN_DIR: the run's records as RUN_DIR/REPORT.md with plots and
 * exports beside it. Nothing in the run folder is changed or replaced: if a
 * report file exists, it says so and stops.
 * Exit: 0 written; 2 unusable input (one line names the file and place);
 * 5 an output exists or cannot be written. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "exports.h"
#include "markdown.h"
#include "plots.h"
#include "record.h"
#include "rundir.h"

static int write_file(const char *dir, const char *name, void (*fn)(FILE *, const rundir *, int),
                      const rundir *r, int arg)
{
    char path[700], err[800];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ha_record rec;
    if (ha_record_open(&rec, path, err, sizeof err) != 0) {
        fprintf(stderr, "report: %s\n", err);
        return 5;
    }
    rec.derived = true;
    fn(rec.f, r, arg);
    if (ha_record_commit(&rec, err, sizeof err) != 0) {
        fprintf(stderr, "report: %s\n", err);
        return 5;
    }
    return 0;
}

static const char *plots_flag;

static void w_md(FILE *f, const rundir *r, int a) { (void)a; md_write(f, r, plots_flag); }
static void w_junit(FILE *f, const rundir *r, int a) { (void)a; export_junit(f, r); }
static void w_bench(FILE *f, const rundir *r, int a) { export_benchmark(f, r, a); }
static void w_csv(FILE *f, const rundir *r, int a) { (void)a; export_csv(f, r); }

int main(int argc, char **argv)
{
    bool no_plots = argc == 3 && !strcmp(argv[1], "--no-plots");
    if (argc != 2 + no_plots || argv[argc - 1][0] == '-') {
        fprintf(stderr, "usage: report [--no-plots] RUN_DIR   (writes RUN_DIR/REPORT.md, plots and exports)\n");
        return 2;
    }
    const char *dir = argv[argc - 1];
    rundir r;
    char err[800];
    if (rundir_load(&r, dir, err, sizeof err) != 0) {
        fprintf(stderr, "report: %s\n", err);
        return 2;
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
                return 5;
            }
        }
    }
    int pr = no_plots ? 2 : plots_make(&r, dir, err, sizeof err);
    if (pr < 0) {
        fprintf(stderr, "report: %s\n", err);
        rundir_free(&r);
        return 5;
    }
    plots_flag = pr == 0 ? "yes" : NULL;
    int rc = write_file(dir, "junit.xml", w_junit, &r, 0);
    if (!rc) rc = write_file(dir, "benchmark.json", w_bench, &r, 0);
    if (!rc) rc = write_file(dir, "benchmark_bigger.json", w_bench, &r, 1);
    if (!rc) rc = write_file(dir, "results.csv", w_csv, &r, 0);
    if (!rc) rc = write_file(dir, "REPORT.md", w_md, &r, 0);
    if (!rc)
        printf("report: wrote %s/REPORT.md%s\n", dir,
               pr == 0 ? " with plots" : pr == 2 ? " (no plots: --no-plots)" : " (no plots: gnuplot not installed)");
    rundir_free(&r);
    return rc;
}
