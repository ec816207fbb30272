#include "fleetmodel.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "fields.h"
#include "readfile.h"

static bool oom;

static void *grow(void *p, size_t n, size_t size)
{
    void *q = realloc(p, (n ? n : 1) * size);
    if (!q)
        oom = true;
    return q ? q : p;
}

static size_t col(fleet *fl, const char *name, bool judged)
{
    for (size_t i = 0; i < fl->ncols; i++)
        if (!strcmp(fl->cols[i].name, name))
            return i;
    fleet_column *c = grow(fl->cols, fl->ncols + 1, sizeof *c);
    if (oom)
        return (size_t)-1;
    fl->cols = c;
    c[fl->ncols] = (fleet_column){strdup(name), judged, !strcmp(name, FLEET_TIMINGS)};
    return fl->ncols++;
}

static void set(fleet *fl, fleet_node *n, const char *name, bool judged, const char *v)
{
    size_t c = col(fl, name, judged);
    if (c == (size_t)-1)
        return;
    if (n->ncell <= c) {
        char **cells = grow(n->cell, c + 1, sizeof *cells);
        if (oom)
            return;
        memset(cells + n->ncell, 0, (c + 1 - n->ncell) * sizeof *cells);
        n->cell = cells;
        n->ncell = c + 1;
    }
    free(n->cell[c]);
    n->cell[c] = strdup(v);
}

bool fleet_timings(const m_run *r, char *t, size_t n)
{
    if (!r->has[RUN_BENCH] || !r->d.fast || !r->d.slow)
        return false;
    snprintf(t, n, "%.1f / %.0f", m_row_figure(r, r->d.fast)->ns, m_row_figure(r, r->d.slow)->ns);
    return true;
}

static void fill(fleet *fl, fleet_node *n, const m_run *r)
{
    const m_env *e = r->env;
    set(fl, n, "device name", false, e->device_name);
    set(fl, n, "backend", false, e->backend);
    set(fl, n, "runtime", false, e->runtime_version);
    set(fl, n, "driver", false, e->driver_version);
    char bar[64];
    snprintf(bar, sizeof bar, "runtime %s, sysfs %s", e->lb_runtime < 0 ? "?" : e->lb_runtime ? "yes" : "no",
             e->lb_sysfs < 0 ? "?" : e->lb_sysfs ? "yes" : "no");
    set(fl, n, "large BAR", true, bar);
    if (r->has[RUN_PROBE]) {
        for (size_t i = 0; i < r->probe.nkinds; i++) {
            const m_kind *k = &r->probe.kinds[i];
            set(fl, n, k->name, true, !k->created ? "not made" : k->readable < 0 ? "?" : k->readable ? "readable" : "faults");
        }
        char *s = strdup("");
        for (size_t i = 0; s && i < r->d.ndistinguishing; i++) {
            char *t = rf_printf("%s%s%s", s, *s ? " " : "", r->d.distinguishing[i]->name);
            free(s);
            s = t;
        }
        set(fl, n, "distinguishing", true, s && *s ? s : "none");
        free(s);
    }
    if (r->has[RUN_POOL]) {
        long long pass = 0;
        char *s = strdup("");
        for (size_t i = 0; s && i < r->pool.nchecks; i++) {
            const m_check *c = &r->pool.checks[i];
            if (!strcmp(c->status, "PASS")) {
                pass++;
                continue;
            }
            char *t = rf_printf("%s%s%s[%s] %s", s, *s ? "; " : "", c->name, c->mode, c->status);
            free(s);
            s = t;
        }
        char *cell = rf_printf("%lld pass%s%s", pass, s && *s ? "; " : "", s ? s : "");
        if (cell)
            set(fl, n, "pool checks", true, cell);
        free(cell);
        free(s);
    }
    char t[96];
    if (fleet_timings(r, t, sizeof t))
        set(fl, n, FLEET_TIMINGS, false, t);
}

const char *fleet_cell(const fleet *fl, size_t i, size_t c)
{
    const fleet_node *n = &fl->nodes[i];
    return c < n->ncell && n->cell[c] ? n->cell[c] : "";
}

/* Each column's most frequent value over the nodes used (the first seen on
 * a tie); values are sorted per column, so a large survey stays quick. */
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void majorities(fleet *fl)
{
    fl->majority = calloc(fl->ncols ? fl->ncols : 1, sizeof *fl->majority);
    const char **v = malloc((fl->nnodes ? fl->nnodes : 1) * sizeof *v);
    if (!fl->majority || !v) {
        oom = true;
        free(v);
        return;
    }
    for (size_t c = 0; c < fl->ncols; c++) {
        size_t m = 0;
        for (size_t i = 0; i < fl->nnodes; i++)
            if (fl->nodes[i].used)
                v[m++] = fleet_cell(fl, i, c);
        qsort(v, m, sizeof *v, cmp_str);
        size_t best = 0;
        const char *val = "";
        for (size_t i = 0; i < m;) {
            size_t k = i;
            while (k < m && !strcmp(v[k], v[i]))
                k++;
            if (k - i > best) {
                best = k - i;
                val = v[i];
            }
            i = k;
        }
        fl->majority[c] = strdup(val);
    }
    free(v);
}

static void note(fleet *fl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(fleet *fl, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    int n = rf_vasprintf(&s, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    char *g = realloc(fl->notes, fl->notes_len + (size_t)n + 1);
    if (g) {
        memcpy(g + fl->notes_len, s, (size_t)n + 1);
        fl->notes = g;
        fl->notes_len += (size_t)n;
    }
    free(s);
}

int fleet_load(fleet *fl, const char *dir, char **err)
{
    memset(fl, 0, sizeof *fl);
    oom = false;
    char **names = NULL;
    long nf = m_list_runs(dir, &names);
    if (nf <= 0) {
        *err = rf_printf("%s: %s", dir, nf < 0 ? "expected a survey's results folder" : "no run folders in it");
        return -1;
    }
    fl->nfolders = nf;
    fl->nodes = calloc((size_t)nf, sizeof *fl->nodes);
    if (!fl->nodes) {
        m_free_names(names, nf);
        *err = rf_printf("out of memory for %ld folders", nf);
        return -1;
    }
    for (long i = 0; i < nf && !oom; i++) {
        fleet_node *x = &fl->nodes[fl->nnodes];
        char *p = rf_join(dir, names[i]), *why = NULL;
        m_run r;
        if (!p || m_load_run(&r, p, M_ALLOW_INCOMPLETE, &why) != 0) {
            note(fl, "%s: not understood: %s; not counted\n", names[i], why ? why : "out of memory");
            free(p);
            free(why);
            continue;
        }
        free(p);
        long long sv = r.has[RUN_ENV] ? r.envrec.schema_version : r.probe.head.schema_version;
        /* only a version that added a field leaves one empty (4 moved figures to the reader) */
        if (sv < ha_schema_last_added())
            note(fl, "%s: records of schema version %lld, older than this reader's %d: a field added since is "
                     "empty in its row, and marked if the others have it\n", names[i], sv, HA_SCHEMA_VERSION);
        if (!r.complete) {
            note(fl, "%s (%s, device %lld): not a whole run: %s; not counted\n", names[i], r.env->host, r.env->device,
                 r.incomplete);
            m_free_run(&r);
            continue;
        }
        x->folder = strdup(names[i]);
        x->host = strdup(r.env->host);
        x->device = r.env->device;
        /* Folder names are UTC times: a later folder of the same host and device replaces an earlier one. */
        for (size_t j = 0; j < fl->nnodes; j++)
            if (fl->nodes[j].used && !strcmp(fl->nodes[j].host, x->host) && fl->nodes[j].device == x->device) {
                fl->nodes[j].used = false;
                note(fl, "%s device %lld appears twice: %s and %s; the later is shown, the two are not merged\n",
                     x->host, x->device, fl->nodes[j].folder, names[i]);
            }
        x->used = true;
        fill(fl, x, &r);
        m_free_run(&r);
        fl->nnodes++;
    }
    m_free_names(names, nf);
    if (!oom)
        majorities(fl);
    if (oom) {
        fleet_free(fl);
        *err = rf_printf("out of memory reading the survey");
        return -1;
    }
    return 0;
}

void fleet_free(fleet *fl)
{
    for (size_t i = 0; i < fl->nnodes; i++) {
        for (size_t c = 0; c < fl->nodes[i].ncell; c++)
            free(fl->nodes[i].cell[c]);
        free(fl->nodes[i].cell);
        free(fl->nodes[i].folder);
        free(fl->nodes[i].host);
    }
    for (size_t c = 0; c < fl->ncols; c++) {
        free(fl->cols[c].name);
        if (fl->majority)
            free(fl->majority[c]);
    }
    free(fl->nodes);
    free(fl->cols);
    free(fl->majority);
    free(fl->notes);
    memset(fl, 0, sizeof *fl);
}

bool fleet_departs(const fleet *fl, size_t i, size_t c)
{
    return fl->nodes[i].used && !fl->cols[c].reported && fl->majority && strcmp(fleet_cell(fl, i, c), fl->majority[c]);
}

size_t fleet_judged(const fleet *fl)
{
    size_t n = 0;
    for (size_t i = 0; i < fl->nnodes; i++)
        for (size_t c = 0; c < fl->ncols; c++)
            n += fl->cols[c].judged && fleet_departs(fl, i, c);
    return n;
}

size_t fleet_hosts(const fleet *fl)
{
    size_t hosts = 0;
    for (size_t i = 0; i < fl->nnodes; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = fl->nodes[j].used && !strcmp(fl->nodes[j].host, fl->nodes[i].host);
        hosts += fl->nodes[i].used && !seen;
    }
    return hosts;
}
