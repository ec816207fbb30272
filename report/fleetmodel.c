#include "fleetmodel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"

static int col(fleet *fl, const char *name, bool judged)
{
    for (int i = 0; i < fl->ncols; i++)
        if (!strcmp(fl->cols[i].name, name))
            return i;
    if (fl->ncols == FLEET_MAX_COLS)
        return -1;
    fleet_column *c = &fl->cols[fl->ncols];
    snprintf(c->name, sizeof c->name, "%s", name);
    c->judged = judged;
    c->reported = !strcmp(name, FLEET_TIMINGS);
    return fl->ncols++;
}

static void set(fleet *fl, fleet_node *n, const char *name, bool judged, const char *v)
{
    int c = col(fl, name, judged);
    if (c >= 0)
        snprintf(n->cell[c], FLEET_CELL, "%s", v);
}

static void fill(fleet *fl, fleet_node *n, const rundir *r)
{
    const json_t *e = r->env, *lb = json_object_get(e, "large_bar");
    set(fl, n, "device name", false, rec_str(e, "device_name"));
    set(fl, n, "backend", false, rec_str(e, "backend"));
    set(fl, n, "runtime", false, rec_str(e, "runtime_version"));
    set(fl, n, "driver", false, rec_str(e, "driver_version"));
    int rt = rec_tri(lb, "runtime"), sy = rec_tri(lb, "sysfs");
    char bar[64];
    snprintf(bar, sizeof bar, "runtime %s, sysfs %s", rt < 0 ? "?" : rt ? "yes" : "no", sy < 0 ? "?" : sy ? "yes" : "no");
    set(fl, n, "large BAR", true, bar);
    const json_t *probe = r->rec[RUN_PROBE];
    size_t i;
    const json_t *k;
    json_array_foreach(json_object_get(probe, "kinds"), i, k) {
        char name[64];
        snprintf(name, sizeof name, "%.63s", rec_str(k, "name"));
        int rd = rec_tri(k, "readable");
        set(fl, n, name, true, !json_is_true(json_object_get(k, "created")) ? "not made"
                               : rd < 0 ? "?" : rd ? "readable" : "faults");
    }
    char buf[FLEET_CELL] = "";
    json_array_foreach(json_object_get(probe, "candidates"), i, k)
        if (!strcmp(rec_str(k, "verdict"), "distinguishes")) {
            size_t l = strlen(buf);
            snprintf(buf + l, sizeof buf - l, "%s%s", l ? " " : "", rec_str(k, "name"));
        }
    if (probe)
        set(fl, n, "distinguishing", true, *buf ? buf : "none");
    const json_t *pool = r->rec[RUN_POOL];
    char pc[FLEET_CELL] = "";
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
        snprintf(buf, sizeof buf, "%lld pass%s%.480s", pass, *pc ? "; " : "", pc);
        set(fl, n, "pool checks", true, buf);
    }
    const json_t *h = json_object_get(r->rec[RUN_BENCH], "headline");
    if (json_is_object(h)) {
        snprintf(buf, sizeof buf, "%.1f / %.0f", rec_num(h, "fast_median_ns"), rec_num(h, "slow_median_ns"));
        set(fl, n, FLEET_TIMINGS, false, buf);
    }
}

/* Each column's most frequent value over the nodes used (the first seen on a tie). */
static void majorities(fleet *fl)
{
    for (int c = 0; c < fl->ncols; c++) {
        int best = 0;
        for (int i = 0; i < fl->nnodes; i++) {
            if (!fl->nodes[i].used)
                continue;
            int count = 0;
            for (int j = 0; j < fl->nnodes; j++)
                count += fl->nodes[j].used && !strcmp(fl->nodes[j].cell[c], fl->nodes[i].cell[c]);
            if (count > best) {
                best = count;
                snprintf(fl->majority[c], FLEET_CELL, "%s", fl->nodes[i].cell[c]);
            }
        }
    }
}

static void note(fleet *fl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(fleet *fl, const char *fmt, ...)
{
    size_t l = strlen(fl->notes);
    if (l + 1 >= sizeof fl->notes)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(fl->notes + l, sizeof fl->notes - l, fmt, ap);
    va_end(ap);
}

int fleet_load(fleet *fl, const char *dir, char *err, size_t n)
{
    memset(fl, 0, sizeof *fl);
    static char names[FLEET_MAX_NODES][256];
    int nf = rundir_list(dir, names, FLEET_MAX_NODES);
    if (nf <= 0) {
        snprintf(err, n, "%s: %s", dir, nf < 0 ? "expected a survey's results folder" : "no run folders in it");
        return -1;
    }
    fl->nfolders = nf;
    fl->nodes = calloc((size_t)nf, sizeof *fl->nodes);
    if (!fl->nodes) {
        snprintf(err, n, "out of memory for %d folders", nf);
        return -1;
    }
    for (int i = 0; i < nf; i++) {
        fleet_node *x = &fl->nodes[fl->nnodes];
        char p[800], why[1200];
        rundir r;
        snprintf(p, sizeof p, "%.500s/%.255s", dir, names[i]);
        if (rundir_load(&r, p, true, false, why, sizeof why) != 0) {
            note(fl, "%s: unreadable: %s\n", names[i], why);
            continue;
        }
        snprintf(x->folder, sizeof x->folder, "%.255s", names[i]);
        snprintf(x->host, sizeof x->host, "%s", rec_str(r.env, "host"));
        x->device = rec_int(r.env, "device");
        long long sv = rec_int(r.rec[RUN_ENV] ? r.rec[RUN_ENV] : r.rec[RUN_PROBE], "schema_version");
        if (sv != 1)
            note(fl, "%s: records of schema version %lld, read as version 1\n", names[i], sv);
        if (!r.complete) {
            note(fl, "%s (%s, device %lld): not a whole run: %s; not counted\n", names[i], x->host, x->device,
                 r.incomplete);
            rundir_free(&r);
            continue;
        }
        /* Folder names are UTC times: a later folder of the same host and device replaces an earlier one. */
        for (int j = 0; j < fl->nnodes; j++)
            if (fl->nodes[j].used && !strcmp(fl->nodes[j].host, x->host) && fl->nodes[j].device == x->device) {
                fl->nodes[j].used = false;
                note(fl, "%s device %lld appears twice: %s and %s; the later is shown, the two are not merged\n",
                     x->host, x->device, fl->nodes[j].folder, names[i]);
            }
        x->used = true;
        fill(fl, x, &r);
        rundir_free(&r);
        fl->nnodes++;
    }
    majorities(fl);
    return 0;
}

void fleet_free(fleet *fl)
{
    free(fl->nodes);
    fl->nodes = NULL;
}

bool fleet_departs(const fleet *fl, int i, int c)
{
    return fl->nodes[i].used && !fl->cols[c].reported && strcmp(fl->nodes[i].cell[c], fl->majority[c]) != 0;
}

int fleet_judged(const fleet *fl)
{
    int n = 0;
    for (int i = 0; i < fl->nnodes; i++)
        for (int c = 0; c < fl->ncols; c++)
            n += fl->cols[c].judged && fleet_departs(fl, i, c);
    return n;
}
