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
#include "record.h"
#include "text.h"

static fleet fl;

/* The task logs: a task with no status never finished; a status other
 * than 0 is a failure. Prints each with its log's last lines. */
static void tasks(FILE *f, const char *dir)
{
    char tdir[700];
    snprintf(tdir, sizeof tdir, "%.600s/tasks", dir);
    DIR *d = opendir(tdir);
    if (!d)
        return;
    bool head = false;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t l = strlen(e->d_name);
        if (l < 9 || strcmp(e->d_name + l - 8, ".started"))
            continue;
        char base[300], p[1000], status[32] = "";
        if (l - 8 >= sizeof base)
            continue;
        snprintf(base, sizeof base, "%.*s", (int)(l - 8), e->d_name);
        snprintf(p, sizeof p, "%.650s/%.300s.status", tdir, base);
        FILE *s = fopen(p, "r");
        if (s) {
            if (!fgets(status, sizeof status, s))
                status[0] = 0;
            fclose(s);
            status[strcspn(status, "\n")] = 0;
            if (!strcmp(status, "0"))
                continue;
        }
        if (!head)
            fprintf(f, "\n## Tasks that failed or did not finish\n\n");
        head = true;
        fprintf(f, "- `%s`: %s\n", md_text(base), s ? "failed" : "no status: killed, timed out or still running");
        if (s)
            fprintf(f, "  (status %s)\n", md_text(status));
        snprintf(p, sizeof p, "%.650s/%.300s.log", tdir, base);
        FILE *lg = fopen(p, "r");
        char lines[5][200];
        int n = 0;
        while (lg && fgets(lines[n % 5], sizeof lines[0], lg))
            n++;
        if (lg)
            fclose(lg);
        for (int i = n > 5 ? n - 5 : 0; i < n; i++) {
            lines[i % 5][strcspn(lines[i % 5], "\n")] = 0;
            fprintf(f, "  > %s\n", md_text(lines[i % 5]));
        }
    }
    closedir(d);
}

static void departures(FILE *f)
{
    bool head = false;
    for (int i = 0; i < fl.nnodes; i++)
        for (int c = 0; c < fl.ncols; c++) {
            if (!fleet_departs(&fl, i, c))
                continue;
            if (!head)
                fprintf(f, "\n## Departures from the fleet's majority\n\n");
            head = true;
            const char *v = fl.nodes[i].cell[c], *m = fl.majority[c];
            fprintf(f, "- `%s` device %lld, %s: %s (the majority: %s)%s\n", md_text(fl.nodes[i].host),
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
    for (int c = 0; c < fl.ncols; c++)
        fprintf(f, " %s |", md_text(fl.cols[c].name));
    fprintf(f, "\n|---|---|");
    for (int c = 0; c < fl.ncols; c++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    for (int i = 0; i < fl.nnodes; i++) {
        if (!fl.nodes[i].used)
            continue;
        fprintf(f, "| `%s` | %lld |", md_text(fl.nodes[i].host), fl.nodes[i].device);
        for (int c = 0; c < fl.ncols; c++) {
            bool off = fleet_departs(&fl, i, c);
            const char *v = fl.nodes[i].cell[c];
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
    char err[1200];
    if (fleet_load(&fl, dir, err, sizeof err) != 0) {
        fprintf(stderr, "fleet: %s\n", err);
        return HA_EXIT_USAGE;
    }
    ha_record rec;
    FILE *f = stdout;
    if (md) {
        if (ha_record_open(&rec, md, err, sizeof err) != 0) {
            fprintf(stderr, "fleet: %s\n", err);
            fleet_free(&fl);
            return HA_EXIT_OUTPUT;
        }
        rec.derived = true;
        f = rec.f;
    }
    int used = 0;
    for (int i = 0; i < fl.nnodes; i++)
        used += fl.nodes[i].used;
    fprintf(f, "# hostaccess fleet survey: %s\n\n", md_text(dir));
    fprintf(f, "%d host/device pair(s) from %d run folder(s). Each column's majority is the fleet's "
               "configuration; **⚠** marks a cell that departs from it.\n\n", used, fl.nfolders);
    table(f);
    departures(f);
    if (fl.notes[0]) {
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
    int judged = fleet_judged(&fl);
    fleet_free(&fl);
    if (md && ha_record_commit(&rec, err, sizeof err) != 0) {
        fprintf(stderr, "fleet: %s\n", err);
        return HA_EXIT_OUTPUT;
    }
    return judged ? HA_EXIT_FAIL : HA_EXIT_OK;
}
