/* fleet RESULTS_DIR: the survey of many nodes (fleet/) on one page. A row
 * per host x device: backend, runtime and driver, large-BAR evidence, each
 * kind's host readability, the distinguishing candidates, the pool checks
 * and the headline timings. Each column's majority value is the fleet's
 * configuration; every cell that departs from it is marked. Folders that
 * are not whole, tasks that failed or never finished, duplicate host/device
 * folders and records of another schema version are listed, never dropped
 * in silence.
 *   fleet RESULTS_DIR [--md FILE]
 * Exit: 0 every host agrees on large-BAR evidence, readability, verdicts
 * and pool checks; 1 a host departs in one of them (versions are marked
 * but do not fail the survey; timings are only reported);
 * 2 unusable input; 5 the output exists or cannot be written. */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "fleetmodel.h"
#include "opts.h"
#include "readfile.h"
#include "record.h"
#include "text.h"

static fleet fl;

/* The last lines of a task's log, read with the same bound as any file
 * (a FIFO or a device named like a log is refused, never waited on). */
static void last_lines(FILE *f, const char *path, int want)
{
    char *buf = NULL, *err = NULL;
    size_t len;
    if (rf_read(path, 16 << 20, false, &buf, &len, &err) != 0) {
        fprintf(f, "  > (%s)\n", md_text(err));
        free(err);
        return;
    }
    int seen = 0;
    char *end = buf + len;
    while (end > buf && end[-1] == '\n')
        end--;
    char *start = end;
    while (start > buf && seen < want) {
        start--;
        if (*start == '\n' && ++seen == want) {
            start++;
            break;
        }
    }
    *end = 0;
    for (char *line = start, *nl; line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl)
            *nl = 0;
        fprintf(f, "  > %s\n", md_text(line));
    }
    free(buf);
}

/* The task logs: a task with no status never finished; a status other
 * than 0 is a failure. Prints each with its log's last lines. */
static void tasks(FILE *f, const char *dir)
{
    char *tdir = rf_join(dir, "tasks");
    DIR *d = tdir ? opendir(tdir) : NULL;
    if (!d) {
        free(tdir);
        return;
    }
    bool head = false;
    for (struct dirent *e; (e = readdir(d));) {
        size_t l = strlen(e->d_name);
        if (l < 9 || strcmp(e->d_name + l - 8, ".started"))
            continue;
        char *base = strndup(e->d_name, l - 8), *sp = base ? rf_printf("%s/%s.status", tdir, base) : NULL;
        char *status = NULL, *err = NULL;
        size_t sl = 0;
        bool have = sp && rf_read(sp, 64, false, &status, &sl, &err) == 0;
        if (have)
            status[strcspn(status, "\n")] = 0;
        if (!have || strcmp(status, "0")) {
            if (!head)
                fprintf(f, "\n## Tasks that failed or did not finish\n\n");
            head = true;
            fprintf(f, "- %s: %s\n", md_text(base ? base : e->d_name),
                    have ? "failed" : "no status: killed, timed out or still running");
            if (have)
                fprintf(f, "  (status %s)\n", md_text(status));
            char *lp = base ? rf_printf("%s/%s.log", tdir, base) : NULL;
            if (lp)
                last_lines(f, lp, 5);
            free(lp);
        }
        free(base);
        free(sp);
        free(status);
        free(err);
    }
    closedir(d);
    free(tdir);
}

static void departures(FILE *f)
{
    bool head = false;
    for (size_t i = 0; i < fl.nnodes; i++)
        for (size_t c = 0; c < fl.ncols; c++) {
            if (!fleet_departs(&fl, i, c))
                continue;
            if (!head)
                fprintf(f, "\n## Departures from the fleet's majority\n\n");
            head = true;
            const char *v = fleet_cell(&fl, i, c), *m = fl.majority[c];
            fprintf(f, "- %s device %lld, %s: %s (the majority: %s)%s\n", md_text(fl.nodes[i].host),
                    fl.nodes[i].device, md_text(fl.cols[c].name), md_text(*v ? v : "absent"),
                    md_text(*m ? m : "absent"),
                    fl.cols[c].judged ? ": **a verdict, readability, large-BAR or pool-check departure**" : "");
        }
    if (!head)
        fprintf(f, "\nEvery host agrees with the fleet's majority in every column.\n");
}

static void table(FILE *f)
{
    fprintf(f, "| host | device |");
    for (size_t c = 0; c < fl.ncols; c++)
        fprintf(f, " %s |", md_text(fl.cols[c].name));
    fprintf(f, "\n|---|---|");
    for (size_t c = 0; c < fl.ncols; c++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    for (size_t i = 0; i < fl.nnodes; i++) {
        if (!fl.nodes[i].used)
            continue;
        fprintf(f, "| %s | %lld |", md_text(fl.nodes[i].host), fl.nodes[i].device);
        for (size_t c = 0; c < fl.ncols; c++) {
            bool off = fleet_departs(&fl, i, c);
            const char *v = fleet_cell(&fl, i, c);
            fprintf(f, " %s%s%s |", off ? "**⚠ " : "", md_text(*v ? v : "—"), off ? "**" : "");
        }
        fprintf(f, "\n");
    }
}

static const char *md;
static const ha_opt options[] = {
    {"md", HA_OPT_STRING, 0, 0, &md, "FILE", "the page into FILE (a new file) instead of stdout", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
static const ha_cli cli = {"fleet", "RESULTS_DIR",
                           "one page over a survey's run folders; exit 1 when a host departs", options, 1, 1, NULL};

int main(int argc, char **argv)
{
    const char *dir;
    int done = ha_cli_parse_one(&cli, argc, argv, &dir);
    if (done >= 0)
        return done;
    char *err = NULL;
    if (fleet_load(&fl, dir, &err) != 0) {
        fprintf(stderr, "fleet: %s\n", err ? err : dir);
        free(err);
        return HA_EXIT_USAGE;
    }
    ha_record rec;
    FILE *f = stdout;
    if (md) {
        char e[1200];
        if (ha_record_open(&rec, md, e, sizeof e) != 0) {
            fprintf(stderr, "fleet: %s\n", e);
            fleet_free(&fl);
            return HA_EXIT_OUTPUT;
        }
        rec.derived = true;
        f = rec.f;
    }
    size_t used = 0;
    for (size_t i = 0; i < fl.nnodes; i++)
        used += fl.nodes[i].used;
    fprintf(f, "# hostaccess fleet survey: %s\n\n", md_text(dir));
    fprintf(f, "%zu host/device pair(s) from %ld run folder(s). Each column's majority is the fleet's "
               "configuration; **⚠** marks a cell that departs from it.\n\n", used, fl.nfolders);
    table(f);
    departures(f);
    if (fl.notes) {
        fprintf(f, "\n## Folders not counted, and notes\n\n");
        for (char *line = fl.notes, *end; *line; line = end + 1) {
            end = strchr(line, '\n');
            if (!end)
                break;
            *end = 0;
            fprintf(f, "- %s\n", md_text(line));
        }
    }
    tasks(f, dir);
    size_t judged = fleet_judged(&fl);
    fleet_free(&fl);
    text_pool_free();
    if (md) {
        char e[1200];
        if (ha_record_commit(&rec, e, sizeof e) != 0) {
            fprintf(stderr, "fleet: %s\n", e);
            return HA_EXIT_OUTPUT;
        }
    }
    return judged ? HA_EXIT_FAIL : HA_EXIT_OK;
}
