/* The plan: which kinds and discriminators work here, fresh allocations,
 * and every row, the timed ones as jobs of the rounds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "gpuhelpers.h"
#include "log.h"

static bool path_selected(const bench *b, const char *name)
{
    if (b->nonly_paths == 0)
        return true;
    for (int i = 0; i < b->nonly_paths; i++)
        if (strcmp(b->only_paths[i], name) == 0)
            return true;
    return false;
}

static bool kind_selected(const bench *b, const char *name)
{
    if (b->nonly_kinds == 0)
        return true;
    for (int i = 0; i < b->nonly_kinds; i++)
        if (strcmp(b->only_kinds[i], name) == 0)
            return true;
    return false;
}

static bench_row *new_row(bench *b, const path_def *p, const char *kind, const char *cand, int rep)
{
    if (b->nrows >= MAX_ROWS)
        return NULL;
    bench_row *r = &b->rows[b->nrows++];
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", p->name);
    snprintf(r->kind, sizeof r->kind, "%s", kind ? kind : "");
    snprintf(r->candidate, sizeof r->candidate, "%s", cand ? cand : "");
    snprintf(r->what, sizeof r->what, "%s", p->what);
    r->family = p->family;
    r->repeat = rep;
    return r;
}

/* A host read crosses the PCIe BAR only on the runtime's own device
 * memory, where the backend says such reads do; everything else here reads
 * host DRAM. */
static bool crosses_bar(const bench *b, int ki)
{
    return b->t.be.ops->device_reads_cross_bar && ki == b->device_kind;
}

static void skip_row(bench_row *r, const char *why)
{
    if (!r)
        return;
    r->skipped = true;
    snprintf(r->skip_reason, sizeof r->skip_reason, "%s", why);
}

static double slowdown_of(const bench *b, const path_def *p)
{
    for (int i = 0; i < b->nslow; i++)
        if (b->slow[i].p == p)
            return (double)b->slow[i].pct / 100.0;
    return 0;
}

/* One path's rows, --repeat of them; each becomes a job of the rounds
 * unless skip says why it cannot run. */
static void add_path(bench *b, const bench_ctx *c, const path_def *p, const char *kind, const char *cand,
                     bool bar, const char *skip)
{
    for (int rep = 1; rep <= b->repeat; rep++) {
        bench_row *r = new_row(b, p, kind, cand, rep);
        if (!r)
            return;
        r->comparable_to_bar = bar;
        if (skip) {
            skip_row(r, skip);
            continue;
        }
        bench_job *j = &b->jobs[b->njobs++];
        memset(j, 0, sizeof *j);
        j->row = r;
        j->f = p->fn;
        j->c.be = c->be;
        j->c.a = c->a;
        j->c.bad = c->bad;
        j->c.q = c->q;
        j->c.ref = c->ref;
        j->c.pageable = c->pageable;
        j->c.pinned = c->pinned;
        j->session = p->session;
        j->slowdown = slowdown_of(b, p);
    }
}

static const char *lacks(const bench *b, const bench_ctx *c, const path_def *p)
{
    if (((p->needs & NEED_FLUSH) && !bench_have_flush()) || ((p->needs & NEED_NT) && !bench_have_nt()))
        return "this CPU has no cache-line flush or no SSE4.1 streaming load";
    if ((p->needs & NEED_PINNED) && !c->pinned)
        return b->no_pinned_reason;
    return NULL;
}

/* The reads and the discriminators on one readable kind. */
static void add_read_paths(bench *b, bench_ctx *c, int ki)
{
    const char *kind = b->d.kinds[ki]->name;
    for (const path_def *p = bench_paths; p->name; p++) {
        if (p->target != ON_READABLE || !path_selected(b, p->name))
            continue;
        if (!p->per_candidate) {
            add_path(b, c, p, kind, NULL, p->bar_read && crosses_bar(b, ki), lacks(b, c, p));
            continue;
        }
        for (size_t qi = 0; qi < b->ngood; qi++) {
            c->q = b->good[qi];
            memset(&c->ref, 0, sizeof c->ref);
            ha_sentinel_fill(c->ref.out, sizeof c->ref.out);
            c->ref.status = c->q->raw(&b->t.be, c->q, c->a, c->ref.out);
            add_path(b, c, p, kind, c->q->name, false, NULL);
        }
    }
}

static void add_paths_on(bench *b, bench_ctx *c, bench_target t, const char *kind, const char *skip)
{
    for (const path_def *p = bench_paths; p->name; p++)
        if (p->target == t && path_selected(b, p->name))
            add_path(b, c, p, kind, NULL, false, skip ? skip : lacks(b, c, p));
}

/* Every row, in table order; the timed ones become jobs. */
static void plan_rows(bench *b, bench_ctx *c)
{
    /* The canary always runs: every row's overhead is reckoned from it. */
    for (const path_def *p = bench_paths; p->name; p++)
        if (p->target == ON_NOTHING)
            add_path(b, c, p, NULL, NULL, false, NULL);
    bool any = false;
    for (size_t ki = 0; ki < b->d.nk; ki++) {
        if (!b->have_alloc[ki] || b->d.runs[ki].readable != HA_TRUTH_YES)
            continue;
        any = true;
        c->a = &b->allocs[ki];
        add_read_paths(b, c, (int)ki);
        if ((int)ki == b->headline)
            add_paths_on(b, c, ON_SLOW_KIND, b->d.kinds[ki]->name, NULL);
    }
    if (!any)
        add_paths_on(b, c, ON_READABLE, NULL, b->no_readable_reason);
    if (b->device_kind >= 0 && b->device_kind != b->headline && b->have_alloc[b->device_kind]) {
        c->a = &b->allocs[b->device_kind];
        add_paths_on(b, c, ON_SLOW_KIND, b->d.kinds[b->device_kind]->name, NULL);
    }
    bool bad = b->bad_kind >= 0 && b->have_alloc[b->bad_kind];
    if (bad)
        c->bad = &b->allocs[b->bad_kind];
    add_paths_on(b, c, ON_UNREADABLE, bad ? b->d.kinds[b->bad_kind]->name : NULL,
                 bad ? NULL : "no unreadable kind on this platform");
}

/* ---- setup: which kinds, which candidates, fresh allocations ---- */

static void setup(bench *b)
{
    const ha_backend *be = &b->t.be;
    ha_discriminate_init(be, &b->d, false);
    for (size_t ki = 0; ki < b->d.nk; ki++)
        ha_discriminate_kind(be, &b->d, ki);
    ha_discriminate_verdicts(&b->d);
    for (size_t qi = 0; qi < b->d.nq; qi++)
        if (b->d.verdicts[qi].v == HA_V_DISTINGUISHES && !(b->d.queries[qi]->flags & HA_QF_MODEL))
            b->good[b->ngood++] = b->d.queries[qi]; /* a model is not a call: nothing to time */
    b->headline = b->device_kind = b->bad_kind = -1;
    if (b->d.nk > 0 && b->d.runs[0].created && !b->d.kinds[0]->is_vmm)
        b->device_kind = 0; /* hipMalloc, cuMemAlloc, plain-readable: each table's first row */
    snprintf(b->no_readable_reason, sizeof b->no_readable_reason,
             "no readable kind on this platform: every created kind faulted on a host read");
    for (size_t ki = 0; ki < b->d.nk; ki++) {
        const ha_kind_run *r = &b->d.runs[ki];
        if (!r->created || r->kind->control) /* not GPU memory: nothing to time */
            continue;
        bool want = (int)ki == b->device_kind;
        if (r->readable == HA_TRUTH_YES && kind_selected(b, r->kind->name)) {
            want = true;
            if (b->headline < 0)
                b->headline = (int)ki;
        }
        if (r->readable == HA_TRUTH_NO && b->bad_kind < 0) {
            want = true;
            b->bad_kind = (int)ki;
        }
        if (!want)
            continue;
        ha_alloc *a = &b->allocs[ki];
        memset(a, 0, sizeof *a);
        a->kind = r->kind;
        int st = r->kind->create(be, a);
        if (st != HA_ST_OK) {
            ha_log(HA_LOG_WARN, "%s: %s", r->kind->name, a->detail);
            continue;
        }
        size_t n = a->size < HA_PATTERN_LEN ? a->size : HA_PATTERN_LEN;
        ha_make_pattern(a->pattern, n, (unsigned)ki);
        if (be->ops->copy_h2d(be, a->ptr, a->pattern, n) == HA_ST_OK)
            a->has_pattern = true;
        b->have_alloc[ki] = true;
    }
    if (b->headline >= 0 && !b->have_alloc[b->headline])
        b->headline = -1;
}

int bench_prepare(bench *b, bench_ctx *c)
{
    ha_log(HA_LOG_INFO, "finding the working discriminators on this machine");
    setup(b);
    ha_clock_measure(&b->clock);
    c->be = &b->t.be;
    c->pageable = aligned_alloc(4096, COPY_BUF);
    if (!c->pageable) {
        ha_log(HA_LOG_ERROR, "cannot allocate a %u-byte copy buffer", COPY_BUF);
        bench_release(b, c);
        return HA_EXIT_FAIL;
    }
    /* Without pinned memory the pinned-copy rows say why; the rest runs. */
    int pst = b->t.be.ops->host_alloc_pinned(&b->t.be, &c->pinned, COPY_BUF);
    if (pst != HA_ST_OK) {
        c->pinned = NULL;
        snprintf(b->no_pinned_reason, sizeof b->no_pinned_reason, "no pinned host memory: %s",
                 ha_status_name(&b->t.be, pst));
    }
    plan_rows(b, c);
    return HA_EXIT_OK;
}

void bench_release_memory(bench *b, bench_ctx *c)
{
    if (c->pinned)
        b->t.be.ops->host_free_pinned(&b->t.be, c->pinned);
    c->pinned = NULL;
    free(c->pageable);
    c->pageable = NULL;
    for (size_t ki = 0; ki < b->d.nk; ki++)
        if (b->have_alloc[ki])
            b->d.kinds[ki]->destroy(&b->t.be, &b->allocs[ki]);
    memset(b->have_alloc, 0, sizeof b->have_alloc);
}

void bench_release(bench *b, bench_ctx *c)
{
    bench_release_memory(b, c);
    for (size_t i = 0; i < b->nrows; i++)
        bench_row_free(&b->rows[i]);
    for (size_t i = 0; i < b->nsweep; i++) {
        bench_row_free(&b->sweep_pts[i].copy);
        bench_row_free(&b->sweep_pts[i].read);
        bench_row_free(&b->sweep_pts[i].read_nt);
    }
}

