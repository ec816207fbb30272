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

#include "record.h"
#include "records.h"
#include "rundir.h"
#include "text.h"

#define MAX_NODES 1024
#define MAX_COLS 48
#define CELL 512
#define TIMINGS "fast / slow ns (reported only)"

typedef struct column {
    char name[64];
    bool judged;   /* a departure here fails the survey */
    bool reported; /* timings: shown, never compared (they differ run to run) */
} column;

typedef struct node {
    char folder[256];
    char host[64];
    long long device;
    rundir r;
    bool used;         /* whole, and the newest folder of its host/device */
    char cell[MAX_COLS][CELL];
} node;

static node nodes[MAX_NODES];
static int nnodes;
static column cols[MAX_COLS];
static int ncols;
static char majority[MAX_COLS][CELL];

static int col(const char *name, bool judged)
{
    for (int i = 0; i < ncols; i++)
        if (!strcmp(cols[i].name, name))
            return i;
    if (ncols == MAX_COLS)
        return -1;
    snprintf(cols[ncols].name, sizeof cols[0].name, "%s", name);
    cols[ncols].judged = judged;
    cols[ncols].reported = !strcmp(name, TIMINGS);
    return ncols++;
}

/* Whether a cell departs from its column's majority. */
static bool departs(const node *n, int c)
{
    return !cols[c].reported && strcmp(n->cell[c], majority[c]) != 0;
}

static void set(node *n, const char *name, bool judged, const char *fmt, const char *v)
{
    int c = col(name, judged);
    if (c >= 0)
        snprintf(n->cell[c], CELL, fmt, v);
}

static void fill(node *n)
{
    const json_t *e = n->r.env, *lb = json_object_get(e, "large_bar");
    set(n, "device name", false, "%s", rec_str(e, "device_name"));
    set(n, "backend", false, "%s", rec_str(e, "backend"));
    set(n, "runtime", false, "%s", rec_str(e, "runtime_version"));
    set(n, "driver", false, "%s", rec_str(e, "driver_version"));
    int rt = rec_tri(lb, "runtime"), sy = rec_tri(lb, "sysfs");
    char bar[64];
    snprintf(bar, sizeof bar, "runtime %s, sysfs %s", rt < 0 ? "?" : rt ? "yes" : "no", sy < 0 ? "?" : sy ? "yes" : "no");
    set(n, "large BAR", true, "%s", bar);
    const json_t *probe = n->r.rec[RUN_PROBE];
    size_t i;
    const json_t *k;
    json_array_foreach(json_object_get(probe, "kinds"), i, k) {
        char name[80];
        snprintf(name, sizeof name, "%.70s", rec_str(k, "name"));
        int rd = rec_tri(k, "readable");
        set(n, name, true, "%s", !json_is_true(json_object_get(k, "created")) ? "not made"
                                 : rd < 0 ? "?" : rd ? "readable" : "faults");
    }
    char cands[CELL] = "";
    json_array_foreach(json_object_get(probe, "candidates"), i, k)
        if (!strcmp(rec_str(k, "verdict"), "distinguishes")) {
            size_t l = strlen(cands);
            snprintf(cands + l, sizeof cands - l, "%s%s", l ? " " : "", rec_str(k, "name"));
        }
    if (probe)
        set(n, "distinguishing", true, "%s", *cands ? cands : "none");
    const json_t *pool = n->r.rec[RUN_POOL];
    char pc[CELL] = "";
    long long pass = 0;
    json_array_foreach(json_object_get(pool, "checks"), i, k) {
        if (!strcmp(rec_str(k, "status"), "PASS")) {
            pass++;
            continue;
        }
        size_t l = strlen(pc);
        snprintf(pc + l, sizeof pc - l, "%s%s[%s] %s", l ? "; " : "", rec_str(k, "name"), rec_str(k, "mode"),
                 rec_str(k, "status"));
    }
    if (pool) {
        char all[CELL];
        snprintf(all, sizeof all, "%lld pass%s%.480s", pass, *pc ? "; " : "", pc);
        set(n, "pool checks", true, "%s", all);
    }
    const json_t *h = json_object_get(n->r.rec[RUN_BENCH], "headline");
    if (json_is_object(h)) {
        char t[64];
        snprintf(t, sizeof t, "%.1f / %.0f", rec_num(h, "fast_median_ns"), rec_num(h, "slow_median_ns"));
        set(n, TIMINGS, false, "%s", t);
    }
}

/* Each column's most frequent value over the nodes used (the first seen on a tie). */
static void majorities(void)
{
    for (int c = 0; c < ncols; c++) {
        int best = 0;
        for (int i = 0; i < nnodes; i++) {
            if (!nodes[i].used)
                continue;
            int count = 0;
            for (int j = 0; j < nnodes; j++)
                count += nodes[j].used && !strcmp(nodes[j].cell[c], nodes[i].cell[c]);
            if (count > best) {
                best = count;
                snprintf(majority[c], CELL, "%s", nodes[i].cell[c]);
            }
        }
    }
}

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

static int departures(FILE *f)
{
    int judged = 0;
    bool head = false;
    for (int i = 0; i < nnodes; i++)
        for (int c = 0; nodes[i].used && c < ncols; c++) {
            if (!departs(&nodes[i], c))
                continue;
            if (!head)
                fprintf(f, "\n## Departures from the fleet's majority\n\n");
            head = true;
            judged += cols[c].judged;
            fprintf(f, "- `%s` device %lld, %s: %s (the majority: %s)%s\n", md_text(nodes[i].host), nodes[i].device,
                    md_text(cols[c].name), md_text(*nodes[i].cell[c] ? nodes[i].cell[c] : "absent"),
                    md_text(*majority[c] ? majority[c] : "absent"),
                    cols[c].judged ? ": **a verdict, readability, large-BAR or pool-check departure**" : "");
        }
    if (!head)
        fprintf(f, "\nEvery host agrees with the fleet's majority in every column.\n");
    return judged;
}

static void table(FILE *f)
{
    fprintf(f, "| host | device |");
    for (int c = 0; c < ncols; c++)
        fprintf(f, " %s |", md_text(cols[c].name));
    fprintf(f, "\n|---|---|");
    for (int c = 0; c < ncols; c++)
        fprintf(f, "---|");
    fprintf(f, "\n");
    for (int i = 0; i < nnodes; i++) {
        if (!nodes[i].used)
            continue;
        fprintf(f, "| `%s` | %lld |", md_text(nodes[i].host), nodes[i].device);
        for (int c = 0; c < ncols; c++) {
            bool off = departs(&nodes[i], c);
            fprintf(f, " %s%s%s |", off ? "**⚠ " : "", md_text(*nodes[i].cell[c] ? nodes[i].cell[c] : "—"),
                    off ? "**" : "");
        }
        fprintf(f, "\n");
    }
}

static const char usage[] = "usage: fleet RESULTS_DIR [--md FILE]   (one page over a survey's run folders)\n";

int main(int argc, char **argv)
{
    const char *dir = NULL, *md = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(argv[i], "--md") && i + 1 < argc) {
            md = argv[++i];
        } else if (argv[i][0] != '-' && !dir) {
            dir = argv[i];
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (!dir) {
        fputs(usage, stderr);
        return 2;
    }
    static char names[MAX_NODES][256];
    int n = rundir_list(dir, names, MAX_NODES);
    if (n <= 0) {
        fprintf(stderr, "fleet: %s: %s\n", dir, n < 0 ? "expected a survey's results folder" : "no run folders in it");
        return 2;
    }
    ha_record rec;
    char err[900];
    FILE *f = stdout;
    if (md) {
        if (ha_record_open(&rec, md, err, sizeof err) != 0) {
            fprintf(stderr, "fleet: %s\n", err);
            return 5;
        }
        rec.derived = true;
        f = rec.f;
    }
    fprintf(f, "# hostaccess fleet survey: %s\n\n", md_text(dir));
    char notes[8192] = "";
    size_t nl = 0;
    for (int i = 0; i < n; i++) {
        node *x = &nodes[nnodes];
        char p[800];
        snprintf(p, sizeof p, "%.500s/%.255s", dir, names[i]);
        if (rundir_load(&x->r, p, true, false, err, sizeof err) != 0) {
            nl += (size_t)snprintf(notes + nl, nl < sizeof notes ? sizeof notes - nl : 0,
                                   "- `%s`: unreadable: %s\n", md_text(names[i]), md_text(err));
            continue;
        }
        snprintf(x->folder, sizeof x->folder, "%.255s", names[i]);
        snprintf(x->host, sizeof x->host, "%s", rec_str(x->r.env, "host"));
        x->device = rec_int(x->r.env, "device");
        long long sv = rec_int(x->r.rec[RUN_ENV] ? x->r.rec[RUN_ENV] : x->r.rec[RUN_PROBE], "schema_version");
        if (sv != 1 && nl < sizeof notes)
            nl += (size_t)snprintf(notes + nl, sizeof notes - nl, "- `%s`: records of schema version %lld, read as "
                                   "version 1\n", md_text(names[i]), sv);
        if (!x->r.complete) {
            if (nl < sizeof notes)
                nl += (size_t)snprintf(notes + nl, sizeof notes - nl, "- `%s` (%s, device %lld): **not a whole run**: "
                                       "%s; not counted\n", md_text(names[i]), md_text(x->host), x->device,
                                       md_text(x->r.incomplete));
            rundir_free(&x->r);
            continue;
        }
        /* Folder names are UTC times: a later folder of the same host and device replaces an earlier one. */
        for (int j = 0; j < nnodes; j++)
            if (nodes[j].used && !strcmp(nodes[j].host, x->host) && nodes[j].device == x->device) {
                nodes[j].used = false;
                if (nl < sizeof notes)
                    nl += (size_t)snprintf(notes + nl, sizeof notes - nl, "- `%s` device %lld appears twice: `%s` "
                                           "and `%s`; the later is shown, the two are not merged\n",
                                           md_text(x->host), x->device, md_text(nodes[j].folder), md_text(names[i]));
            }
        x->used = true;
        fill(x);
        nnodes++;
    }
    majorities();
    int used = 0;
    for (int i = 0; i < nnodes; i++)
        used += nodes[i].used;
    fprintf(f, "%d host/device pair(s) from %d run folder(s). Each column's majority is the fleet's "
               "configuration; **⚠** marks a cell that departs from it.\n\n", used, n);
    table(f);
    int judged = departures(f);
    if (nl) {
        fprintf(f, "\n## Folders not counted, and notes\n\n");
        fputs(notes, f);
    }
    tasks(f, dir);
    for (int i = 0; i < nnodes; i++)
        rundir_free(&nodes[i].r);
    if (md && ha_record_commit(&rec, err, sizeof err) != 0) {
        fprintf(stderr, "fleet: %s\n", err);
        return 5;
    }
    return judged ? 1 : 0;
}
