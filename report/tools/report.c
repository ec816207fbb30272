/* report RUN_DIR: the run's records as RUN_DIR/REPORT.md, verdict first,
 * with plots and exports beside it; report --pr RUN_DIR: the PR comment,
 * RUN_DIR/PR_COMMENT.md. --out DIR writes them into DIR instead, a new
 * folder (a committed run, or one that already has its report, is read
 * where it lies). Nothing is changed or replaced: if an output exists, it
 * says so and stops; a report that fails part-way removes what it wrote.
 * Exit: 0 written; 2 unusable input (one line names the file and place),
 * or a PR comment that cannot fit; 5 an output exists or cannot be written. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <errno.h>

#include "exitcodes.h"
#include "exports.h"
#include "markdown.h"
#include "opts.h"
#include "pagelink.h"
#include "plots.h"
#include "readfile.h"
#include "record.h"
#include "text.h"
#include "derive.h"
#include "abjudge.h"
#include "regress.h"

/* What this run has written so far, removed again if a later file fails. */
static char *written[16];
static int nwritten;

static void undo(void)
{
    while (nwritten > 0) {
        unlink(written[--nwritten]);
        free(written[nwritten]);
    }
}

typedef struct job {
    const m_run *r;
    int arg;
    const md_opts *md;
} job;

static int write_file(const char *dir, const char *name, int (*fn)(FILE *, const job *), const job *j)
{
    char *path = rf_join(dir, name), err[1200];
    ha_record rec;
    if (!path || ha_record_open(&rec, path, err, sizeof err) != 0) {
        fprintf(stderr, "report: %s\n", path ? err : "out of memory");
        free(path);
        return HA_EXIT_OUTPUT;
    }
    rec.derived = true;
    int frc = fn(rec.f, j);
    if (frc) {
        ha_record_abort(&rec);
        free(path);
        return frc;
    }
    if (ha_record_commit(&rec, err, sizeof err) != 0) {
        fprintf(stderr, "report: %s\n", err);
        free(path);
        return HA_EXIT_OUTPUT;
    }
    if (nwritten < 16)
        written[nwritten++] = path;
    else
        free(path);
    return 0;
}

static int w_md(FILE *f, const job *j) { md_write(f, j->r, j->md); return 0; }
/* An export that ran out of memory is not whole: write_file drops it. */
static int export_rc(int rc)
{
    if (rc == 0)
        return 0;
    fprintf(stderr, "report: out of memory writing the exports: free some memory and run report again\n");
    return HA_EXIT_OUTPUT;
}
static int w_export(FILE *f, const job *j) { return export_rc(exports[j->arg].write(f, j->r)); }

static int w_pr(FILE *f, const job *j)
{
    if (md_write_pr(f, j->r, j->md) == 0)
        return 0;
    fprintf(stderr, "report: the verdict alone passes GitHub's %d-character comment limit: the record holds more "
                    "kinds or candidates than a comment can list\n", MD_PR_LIMIT);
    return HA_EXIT_USAGE;
}

/* Refuse before writing anything, so a report is never half replaced. */
static int refuse_existing(const char *dir, const char *const *names)
{
    struct stat st;
    for (int i = 0; names[i]; i++) {
        char *p = rf_join(dir, names[i]);
        bool there = p && lstat(p, &st) == 0;
        if (there)
            fprintf(stderr, "report: %s exists; not overwritten: remove the report files to make it again\n", p);
        free(p);
        if (there)
            return HA_EXIT_OUTPUT;
    }
    return 0;
}

static bool no_plots, allow, pr;
static const char *out_dir;
static const ha_opt options[] = {
    {"out", HA_OPT_STRING, 0, 0, &out_dir, "DIR",
     "write into DIR, a new folder report makes, instead of RUN_DIR (a committed run, or one already reported)",
     NULL},
    {"pr", HA_OPT_FLAG, 0, 0, &pr, NULL,
     "write RUN_DIR/PR_COMMENT.md alone: the verdict first, everything else folded, no local images, under "
     "GitHub's 65,536-character comment limit", NULL},
    {"no-plots", HA_OPT_FLAG, 0, 0, &no_plots, NULL, "no gnuplot figures (the Markdown and exports only)", NULL},
    {"allow-incomplete", HA_OPT_FLAG, 0, 0, &allow, NULL, "report a run that is not whole, under an INCOMPLETE RUN title", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
static const ha_cli cli = {"report", "RUN_DIR", "writes RUN_DIR/REPORT.md, plots and exports; replaces nothing",
                           options, 1, 1, NULL};

/* An A/B session's judgement, as compare makes it on the folder, for the
 * report to open with: into o (its why when it cannot be judged). */
static findings session;
static ab_tally tally;
static char session_why[400];
static void judge_session(const m_run *r, md_opts *o)
{
    if (!r->bench.ab.on)
        return;
    regress_cfg cfg;
    regress_defaults(&cfg);
    if (abjudge_usable(r, session_why, sizeof session_why) != 0) {
        o->session_why = session_why;
    } else if (abjudge(r, &session, &tally) != 0) {
        o->session_why = "out of memory judging it";
    } else {
        regress_side_b(&cfg, r, &session);
        o->session = &session;
        o->tally = &tally;
    }
}

static int full_report(const char *dir, const m_run *r, const char *run_link)
{
    static const char *const md_name[] = {"REPORT.md", NULL};
    int rc = refuse_existing(dir, md_name);
    for (int i = 0; !rc && exports[i].file; i++) {
        const char *const one[] = {exports[i].file, NULL};
        rc = refuse_existing(dir, one);
    }
    rc = rc ? rc : refuse_existing(dir, plot_files);
    if (rc)
        return rc;
    plot_result plots;
    char *err = NULL;
    int pr_rc = no_plots ? 2 : plots_make(r, dir, &plots, &err);
    if (pr_rc < 0) {
        fprintf(stderr, "report: %s\n", err);
        free(err);
        return HA_EXIT_OUTPUT;
    }
    md_opts mo = {.plots = pr_rc == 0 ? &plots : NULL,
                  .no_plots_why = pr_rc == 2 ? "--no-plots" : "gnuplot is not installed here: apt-get install gnuplot-nox",
                  .run_link = run_link};
    judge_session(r, &mo);
    job j = {r, 0, &mo};
    for (int i = 0; !rc && exports[i].file; i++) {
        job e = {r, i, &mo};
        rc = write_file(dir, exports[i].file, w_export, &e);
    }
    rc = rc ? rc : write_file(dir, "REPORT.md", w_md, &j);
    if (rc) {
        undo();
        for (int i = 0; pr_rc == 0 && plot_files[i]; i++) {
            char *p = rf_join(dir, plot_files[i]);
            if (p)
                unlink(p);
            free(p);
        }
    } else {
        int refused = 0;
        for (int i = 0; pr_rc == 0 && i < PLOT_N; i++)
            refused += plots.why[i] != NULL;
        printf("report: wrote %s/REPORT.md%s%s%s\n", dir, r->complete ? "" : " (INCOMPLETE run, marked so)",
               pr_rc == 0 ? " with plots" : pr_rc == 2 ? " (no plots: --no-plots)" : " (no plots: gnuplot not installed)",
               refused ? " (a plot gnuplot refused is left out; REPORT.md says why)" : "");
    }
    if (pr_rc == 0)
        plots_result_free(&plots);
    while (nwritten > 0)
        free(written[--nwritten]);
    return rc;
}

/* --out: a new folder, and the link from it back to the run's own files.
 * 0, or the exit status with one line said. */
static int make_out(const char *out, const char *run, char **run_link, bool *made)
{
    struct stat st;
    if (lstat(out, &st) == 0) {
        fprintf(stderr, "report: --out %s exists: name a new folder (nothing is replaced)\n", out);
        return HA_EXIT_OUTPUT;
    }
    if (mkdir(out, 0755) != 0) {
        fprintf(stderr, "report: --out %s: cannot make it: %s\n", out, strerror(errno));
        return HA_EXIT_OUTPUT;
    }
    *made = true;
    char *from = realpath(out, NULL), *to = realpath(run, NULL);
    *run_link = from && to ? page_link(from, to) : NULL;
    free(from);
    free(to);
    if (!*run_link) {
        fprintf(stderr, "report: out of memory linking %s to %s\n", out, run);
        return HA_EXIT_OUTPUT;
    }
    return 0;
}

int main(int argc, char **argv)
{
    const char *dir;
    int done = ha_cli_parse_one(&cli, argc, argv, &dir);
    if (done >= 0)
        return done;
    m_run r;
    char *err = NULL;
    if (m_load_run(&r, dir, allow ? M_ALLOW_INCOMPLETE : 0, &err) != 0) {
        fprintf(stderr, "report: %s\n", err ? err : dir);
        free(err);
        return HA_EXIT_USAGE;
    }
    char *run_link = NULL;
    bool made = false;
    int rc = out_dir ? make_out(out_dir, dir, &run_link, &made) : 0;
    const char *to = out_dir ? out_dir : dir;
    if (rc) {
        /* said by make_out */
    } else if (pr) {
        static const char *const pr_name[] = {"PR_COMMENT.md", NULL};
        md_opts mo = {0};
        judge_session(&r, &mo);
        job j = {&r, 0, &mo};
        rc = refuse_existing(to, pr_name);
        rc = rc ? rc : write_file(to, "PR_COMMENT.md", w_pr, &j);
        if (!rc)
            printf("report: wrote %s/PR_COMMENT.md\n", to);
        while (nwritten > 0)
            free(written[--nwritten]);
    } else {
        rc = full_report(to, &r, run_link);
    }
    if (rc && made)
        rmdir(out_dir); /* the folder it made, empty again after a failure */
    free(run_link);
    findings_free(&session);
    m_free_run(&r);
    text_pool_free();
    return rc;
}
