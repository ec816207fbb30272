/* bench_discriminator: what the direct host read (fast path) buys over the
 * runtime copy (slow path), and what each working discriminator costs on
 * top of it (hardened fast path). Which candidates work is decided in this
 * run, on this machine, by the probe's own logic. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "discriminate.h"
#include "gpuhelpers.h"
#include "log.h"
#include "cpupick.h"
#include "measure.h"
#include "pathdefs.h"
#include "paths.h"
#include "rounds.h"
#include "tool.h"

#define MAX_ROWS 512
#define COPY_BUF SWEEP_LIMIT
#define SWEEP_LIMIT (1u << 20) /* the largest --sweep-max */
#define MAX_ITERATIONS 10000000L

typedef struct bench {
    ha_tool t;
    bench_plan plan;
    long repeat;
    long sweep_iterations;
    unsigned long long sweep_max;
    bool sweep;
    const char *sweep_csv;
    const char *only_kinds[HA_MAX_KINDS];
    int nonly_kinds;
    const char *only_paths[32];
    int nonly_paths;
    ha_discrimination d;
    ha_clock_info clock;
    bench_row rows[MAX_ROWS];
    size_t nrows;
    double empty_ns;
    ha_alloc allocs[HA_MAX_KINDS]; /* fresh allocations per kind index */
    bool have_alloc[HA_MAX_KINDS];
    int headline;                  /* kind index of the headline readable kind, -1 none */
    int device_kind;               /* the runtime's own device memory, -1 none */
    int bad_kind;                  /* an unreadable kind, -1 none */
    cpu_choice cpu;                /* the CPU the run was held on, and why */
    long forced_cpu;               /* --cpu, -1 none */
    bench_job jobs[MAX_ROWS];      /* the rows that are timed, one job each */
    size_t njobs;
    struct { const path_def *p; long pct; } slow[8]; /* HOSTACCESS_TEST_SLOWDOWN */
    int nslow;
    double timed_from, timed_until; /* wall-clock seconds: when the rows and the sweep were timed */
    const ha_query *good[HA_MAX_QUERIES];
    size_t ngood;
    char no_readable_reason[200];
    char no_pinned_reason[200];
} bench;

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

static const bench_row *find_row(const bench *b, const char *path, const char *kind,
                                 const char *cand, int rep);

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

/* The rounds, then each row's statistics against the empty loop's cost. */
static void time_rows(bench *b)
{
    ha_log(HA_LOG_INFO, "%zu rows in %ld interleaved rounds", b->njobs,
            b->plan.rounds * b->repeat);
    bench_run_rounds(b->jobs, b->njobs, &b->plan, (int)b->repeat, &b->clock);
    /* The harness first: every other row's overhead is reckoned from it. */
    for (size_t i = 0; i < b->njobs; i++)
        if (!b->jobs[i].row->skipped && !strcmp(b->jobs[i].row->path, "harness"))
            bench_summarise(b->jobs[i].f, b->jobs[i].row, &b->clock, 0);
    const bench_row *h = find_row(b, "harness", NULL, NULL, 1);
    b->empty_ns = h ? h->st.median : 0;
    for (size_t i = 0; i < b->njobs; i++)
        if (!b->jobs[i].row->skipped && strcmp(b->jobs[i].row->path, "harness"))
            bench_summarise(b->jobs[i].f, b->jobs[i].row, &b->clock, b->empty_ns);
}

/* ---- setup: which kinds, which candidates, fresh allocations ---- */

static int setup(bench *b)
{
    const ha_backend *be = &b->t.be;
    ha_discriminate_init(be, &b->d, false);
    for (size_t ki = 0; ki < b->d.nk; ki++)
        ha_discriminate_kind(be, &b->d, ki);
    ha_discriminate_verdicts(&b->d);
    for (size_t qi = 0; qi < b->d.nq; qi++)
        if (b->d.verdicts[qi].v == HA_V_DISTINGUISHES)
            b->good[b->ngood++] = b->d.queries[qi];
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
    return 0;
}

static void teardown(bench *b)
{
    for (size_t ki = 0; ki < b->d.nk; ki++)
        if (b->have_alloc[ki])
            b->d.kinds[ki]->destroy(&b->t.be, &b->allocs[ki]);
}

/* ---- the size sweep ---- */

typedef struct sweep_point {
    size_t size;
    bench_row copy, read, read_nt;
} sweep_point;

static sweep_point sweep_pts[20];
static size_t nsweep;
static long crossover = -1;

static void run_sweep(bench *b, bench_ctx *c)
{
    if (!b->sweep || b->headline < 0)
        return;
    if (b->allocs[b->headline].size < b->sweep_max) {
        ha_log(HA_LOG_WARN, "%s holds %zu bytes, less than --sweep-max: no sweep",
                b->d.kinds[b->headline]->name, b->allocs[b->headline].size);
        return;
    }
    c->a = &b->allocs[b->headline];
    bench_plan plan = b->plan;
    plan.iterations = b->sweep_iterations;
    plan.min_samples = 50;
    plan.min_row_seconds = 0.01;
    for (size_t s = 4; s <= b->sweep_max && nsweep < sizeof sweep_pts / sizeof sweep_pts[0]; s *= 2) {
        sweep_point *p = &sweep_pts[nsweep++];
        p->size = s;
        c->n = s;
        ha_log(HA_LOG_INFO, "sweep %zu B", s);
        bench_measure(path_sweep_copy, c, &plan, &b->clock, b->empty_ns, &p->copy);
        bench_measure(path_sweep_read, c, &plan, &b->clock, b->empty_ns, &p->read);
        if (bench_have_nt())
            bench_measure(path_sweep_read_nt, c, &plan, &b->clock, b->empty_ns, &p->read_nt);
        if (crossover < 0 && p->copy.st.median <= p->read.st.median)
            crossover = (long)s;
    }
}

static int write_sweep_csv(bench *b)
{
    if (!b->sweep_csv || nsweep == 0)
        return 0;
    ha_record rec;
    char err[512];
    if (ha_record_open(&rec, b->sweep_csv, err, sizeof err) != 0) {
        ha_log(HA_LOG_ERROR, "%s", err);
        return HA_EXIT_OUTPUT;
    }
    fprintf(rec.f, "# %s, %s, %s%s\n", b->t.env.device_name, b->t.be.ops->name,
            b->d.kinds[b->headline]->name, ha_backend_simulated(&b->t.be) ? " (SIMULATED)" : "");
    fprintf(rec.f, "# ns per read of the whole size: medians and robust spreads (1.4826 MAD)\n");
    fprintf(rec.f, "size_bytes,copy_median_ns,copy_spread_ns,read_median_ns,read_spread_ns,"
                   "read_nt_median_ns,read_nt_spread_ns\n");
    for (size_t i = 0; i < nsweep; i++) {
        const sweep_point *p = &sweep_pts[i];
        fprintf(rec.f, "%zu,%.6g,%.6g,%.6g,%.6g,", p->size, p->copy.st.median, p->copy.st.spread,
                p->read.st.median, p->read.st.spread);
        if (p->read_nt.nsamples)
            fprintf(rec.f, "%.6g,%.6g\n", p->read_nt.st.median, p->read_nt.st.spread);
        else
            fprintf(rec.f, ",\n");
    }
    if (ha_record_commit(&rec, err, sizeof err) != 0) {
        ha_log(HA_LOG_ERROR, "%s", err);
        return HA_EXIT_OUTPUT;
    }
    return 0;
}

/* ---- reporting ---- */

static const bench_row *find_row(const bench *b, const char *path, const char *kind,
                                 const char *cand, int rep)
{
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->repeat == rep && !r->skipped && strcmp(r->path, path) == 0 &&
            (!kind || strcmp(r->kind, kind) == 0) && (!cand || strcmp(r->candidate, cand) == 0))
            return r;
    }
    return NULL;
}

static void print_rows(const bench *b)
{
    printf("| path | kind | candidate | median ns | spread ns | min | p90 | p99 | max | mean | n x batch | overhead |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->repeat != 1)
            continue;
        if (r->skipped) {
            printf("| %s | %s | %s | skipped: %s |\n", r->path, r->kind, r->candidate,
                   r->skip_reason);
            continue;
        }
        printf("| %s | %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %zu x %zu%s | "
               "%.2f ns (%.2f%%) |%s%s%s\n",
               r->path, r->kind, r->candidate, r->st.median, r->st.spread, r->st.min, r->st.p90,
               r->st.p99, r->st.max, r->st.mean, r->nsamples, r->batch, r->capped ? " (capped)" : "",
               r->overhead_ns, r->overhead_pct, r->status ? " LOOP ERRORS" : "",
               r->st.outliers * 100 > r->nsamples ? " outliers>1%" : "",
               r->st.slow_first ? " slow-first" : "");
    }
}

/* Warnings that matter: a row whose outliers exceed 1 % of its samples, a
 * slow first batch, a failing call, a fallback. The JSON has every count. */
static void print_warnings(const bench *b)
{
    int shown = 0, more = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->skipped)
            continue;
        char what[256] = "";
        size_t l = 0;
        if (r->st.outliers * 100 > r->nsamples)
            l += (size_t)snprintf(what + l, sizeof what - l, " %zu of %zu samples are outliers;",
                                  r->st.outliers, r->nsamples);
        if (r->st.slow_first)
            l += (size_t)snprintf(what + l, sizeof what - l, " first batch %.1f ns vs median %.1f;",
                                  r->first_batch_ns, r->st.median);
        if (r->status)
            l += (size_t)snprintf(what + l, sizeof what - l, " a call in the loop failed (%s);",
                                  ha_status_name(&b->t.be, r->status));
        if (r->fallbacks)
            l += (size_t)snprintf(what + l, sizeof what - l, " %u reads fell back to the copy;",
                                  r->fallbacks);
        if (!l)
            continue;
        if (shown++ >= 12) {
            more++;
            continue;
        }
        printf("warning: %s/%s%s%s repeat %d:%s\n", r->path, r->kind, r->candidate[0] ? "/" : "",
               r->candidate, r->repeat, what);
    }
    if (more)
        printf("warning: ... and %d more rows (every count is in the JSON)\n", more);
}

/* The headline, found once in the rows and then printed and recorded. */
typedef struct headline {
    const char *kind;            /* the fast path's kind; NULL: no readable kind */
    const bench_row *fast, *cold, *slow, *fault;
    const bench_row *slows[3];   /* copy_pageable, copy_pinned, copy_async from the slow kind */
    struct { const char *q; const bench_row *h, *d; } hard[HA_MAX_QUERIES];
    size_t nhard;
} headline;

/* The slow path the headline compares against: a copy from the runtime's
 * own device memory where that is not host-readable (CUDA), else from the
 * headline memory itself (a large-BAR hipMalloc is both). */
static headline find_headline(const bench *b)
{
    headline h = {0};
    if (b->headline < 0)
        return h;
    h.kind = b->d.kinds[b->headline]->name;
    h.fast = find_row(b, "fast", h.kind, NULL, 1);
    h.cold = find_row(b, "fast_cold", h.kind, NULL, 1);
    if (b->device_kind >= 0)
        h.slow = find_row(b, "copy_pageable", b->d.kinds[b->device_kind]->name, NULL, 1);
    if (!h.slow)
        h.slow = find_row(b, "copy_pageable", h.kind, NULL, 1);
    const char *slows[] = {"copy_pageable", "copy_pinned", "copy_async"};
    for (int i = 0; i < 3; i++)
        h.slows[i] = find_row(b, slows[i], h.slow ? h.slow->kind : h.kind, NULL, 1);
    for (size_t qi = 0; qi < b->ngood && h.fast; qi++) {
        const bench_row *hr = find_row(b, "hardened", h.kind, b->good[qi]->name, 1);
        if (!hr)
            continue;
        h.hard[h.nhard].q = b->good[qi]->name;
        h.hard[h.nhard].h = hr;
        h.hard[h.nhard++].d = find_row(b, "disc", h.kind, b->good[qi]->name, 1);
    }
    h.fault = find_row(b, "fault_fallback", NULL, NULL, 1);
    return h;
}

static void print_headline(const bench *b, const headline *h)
{
    if (!h->kind) {
        printf("\nheadline: %s\n", b->no_readable_reason);
        return;
    }
    const bench_row *fast = h->fast;
    printf("\n## Headline (%s%s; fast path on %s, slow path from %s)\n\n", b->t.env.device_name,
           ha_backend_simulated(&b->t.be) ? ", SIMULATED" : "", h->kind, h->slow ? h->slow->kind : "-");
    printf("| path | median ns | spread ns | vs fast path |\n|---|---|---|---|\n");
    if (fast)
        printf("| host deref (fast path)%s | %.1f | %.1f | 1.00x |\n",
               fast->comparable_to_bar ? "" : " [host DRAM, warm: not a BAR read]",
               fast->st.median, fast->st.spread);
    if (h->cold && fast)
        printf("| host deref, line flushed first | %.1f | %.1f | %.2fx |\n", h->cold->st.median,
               h->cold->st.spread, h->cold->st.median / fast->st.median);
    for (size_t i = 0; i < h->nhard; i++) {
        double over = h->hard[i].h->st.median - fast->st.median;
        printf("| %s + deref (hardened) | %.1f | %.1f | +%.1f ns (+%.1f%%) |\n", h->hard[i].q,
               h->hard[i].h->st.median, h->hard[i].h->st.spread, over, 100 * over / fast->st.median);
        if (h->hard[i].d)
            printf("| %s alone | %.1f | %.1f | |\n", h->hard[i].q, h->hard[i].d->st.median, h->hard[i].d->st.spread);
    }
    for (int i = 0; i < 3; i++)
        if (h->slows[i] && fast)
            printf("| %s (slow path) | %.1f | %.1f | fast path %.2fx faster |\n", h->slows[i]->path,
                   h->slows[i]->st.median, h->slows[i]->st.spread, h->slows[i]->st.median / fast->st.median);
    if (h->fault)
        printf("| contained fault + copy (%s) | %.1f | %.1f | |\n", h->fault->kind, h->fault->st.median,
               h->fault->st.spread);
}

/* Two runs in one invocation: how far apart their medians are. */
static double repeat_drift(const bench *b, const bench_row *r)
{
    const bench_row *o = find_row(b, r->path, r->kind, r->candidate, 2);
    if (!o || r->st.median <= 0)
        return NAN;
    return 100.0 * fabs(o->st.median - r->st.median) / fmin(o->st.median, r->st.median);
}

/* The empty loop and the canary measure the harness and the machine, not a path. */
static bool is_instrument(const bench_row *r)
{
    return !strcmp(r->family, "harness") || !strcmp(r->family, "canary");
}

static void print_checks(const bench *b)
{
    const bench_row *worst = NULL;
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->skipped || is_instrument(r))
            continue;
        if (!worst || r->overhead_pct > worst->overhead_pct)
            worst = r;
    }
    printf("\n## Checks (printed, not asserted)\n\n");
    printf("clock: resolution %.0f ns, one read %.1f ns, smallest step %.0f ns\n",
           b->clock.resolution_ns, b->clock.read_ns, b->clock.min_step_ns);
    if (worst)
        printf("harness overhead: at most %.2f%% of a row's median, on every row (largest: %s/%s%s%s, "
               "%.3f ns of %.2f ns): %s (target <= 1%%)\n",
               worst->overhead_pct, worst->path, worst->kind, worst->candidate[0] ? "/" : "",
               worst->candidate, worst->overhead_ns, worst->st.median,
               worst->overhead_pct <= 1.0 ? "met" : "MISSED");
    if (b->repeat < 2)
        return;
    int copy_bad = 0, copy_n = 0, ns_bad = 0, ns_n = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->skipped || r->repeat != 1 || is_instrument(r))
            continue;
        double dr = repeat_drift(b, r);
        if (isnan(dr))
            continue;
        bool copy = strcmp(r->family, "copy") == 0;
        if (copy) {
            copy_n++;
            copy_bad += dr > 3.0;
        } else if (r->st.median < 1000) {
            ns_n++;
            ns_bad += dr > 5.0;
        }
        if ((copy && dr > 3.0) || (!copy && r->st.median < 1000 && dr > 5.0))
            printf("repeat drift: %s/%s%s%s %.1f%% (%.1f vs %.1f ns)\n", r->path, r->kind,
                   r->candidate[0] ? "/" : "", r->candidate, dr, r->st.median,
                   find_row(b, r->path, r->kind, r->candidate, 2)->st.median);
    }
    printf("repeat 1 vs 2 (interleaved rounds, odd vs even): copy paths within 3%%: %d of %d; ns-scale paths within 5%%: "
           "%d of %d\n", copy_n - copy_bad, copy_n, ns_n - ns_bad, ns_n);
    const bench_row *h1 = find_row(b, "canary", NULL, NULL, 1);
    const bench_row *h2 = find_row(b, "canary", NULL, NULL, 2);
    if (h1 && h2)
        printf("canary: the multiply-add chain moved %.1f%% between its repeats (%.3f vs %.3f ns)%s\n",
               repeat_drift(b, h1), h1->st.median, h2->st.median,
               repeat_drift(b, h1) > 5 ? ": the machine itself changed speed" : "");
}

/* ---- the record ---- */

static void json_stats(jw *w, const bench_row *r)
{
    jw_kdbl(w, "min_ns", r->st.min);
    jw_kdbl(w, "median_ns", r->st.median);
    jw_kdbl(w, "p90_ns", r->st.p90);
    jw_kdbl(w, "p99_ns", r->st.p99);
    jw_kdbl(w, "max_ns", r->st.max);
    jw_kdbl(w, "mean_ns", r->st.mean);
    jw_kdbl(w, "mad_ns", r->st.mad);
    jw_kdbl(w, "spread_ns", r->st.spread);
}

static void json_row(jw *w, const bench_row *r, bool samples)
{
    jw_obj(w);
    jw_kstr(w, "path", r->path);
    jw_kstr(w, "kind", r->kind[0] ? r->kind : NULL);
    jw_kstr(w, "candidate", r->candidate[0] ? r->candidate : NULL);
    jw_kstr(w, "what", r->what);
    jw_kstr(w, "family", r->family);
    jw_kbool(w, "comparable_to_bar_read", r->comparable_to_bar);
    jw_kint(w, "repeat", r->repeat);
    jw_kbool(w, "skipped", r->skipped);
    jw_kstr(w, "skip_reason", r->skipped ? r->skip_reason : NULL);
    if (!r->skipped) {
        jw_kint(w, "loop_status", r->status);
        jw_kuint(w, "fallbacks", r->fallbacks);
        jw_kuint(w, "batch", r->batch);
        jw_kuint(w, "n", r->nsamples);
        jw_kuint(w, "block_samples", r->block_samples);
        jw_kbool(w, "capped", r->capped);
        json_stats(w, r);
        jw_kuint(w, "outliers", r->st.outliers);
        jw_kbool(w, "slow_first_batch", r->st.slow_first);
        jw_kdbl(w, "first_batch_ns", r->first_batch_ns);
        jw_kdbl(w, "overhead_ns", r->overhead_ns);
        jw_kdbl(w, "overhead_pct", r->overhead_pct);
        if (samples) {
            jw_key(w, "samples_ns");
            jw_arr_flat(w);
            for (size_t i = 0; i < r->nsamples; i++)
                jw_dbl_prec(w, r->samples[i], 5);
            jw_arr_end(w);
        }
    }
    jw_obj_end(w);
}

static void json_headline(const headline *h, jw *w)
{
    jw_key(w, "headline");
    if (!h->kind) {
        jw_null(w);
        return;
    }
    const bench_row *fast = h->fast, *slow = h->slow;
    jw_obj(w);
    jw_kstr(w, "fast_kind", h->kind);
    jw_kstr(w, "slow_kind", slow ? slow->kind : NULL);
    jw_key(w, "fast_median_ns");
    fast ? jw_dbl(w, fast->st.median) : jw_null(w);
    jw_key(w, "slow_median_ns");
    slow ? jw_dbl(w, slow->st.median) : jw_null(w);
    jw_key(w, "slow_over_fast");
    fast && slow ? jw_dbl(w, slow->st.median / fast->st.median) : jw_null(w);
    jw_kbool(w, "fast_comparable_to_bar_read", fast && fast->comparable_to_bar);
    jw_key(w, "hardened");
    jw_arr(w);
    for (size_t i = 0; i < h->nhard; i++) {
        jw_obj(w);
        jw_kstr(w, "candidate", h->hard[i].q);
        jw_kdbl(w, "hardened_median_ns", h->hard[i].h->st.median);
        jw_kdbl(w, "overhead_ns", h->hard[i].h->st.median - fast->st.median);
        jw_kdbl(w, "overhead_pct", 100 * (h->hard[i].h->st.median - fast->st.median) / fast->st.median);
        jw_key(w, "discriminator_alone_ns");
        h->hard[i].d ? jw_dbl(w, h->hard[i].d->st.median) : jw_null(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

static void json_sweep(const bench *b, jw *w)
{
    jw_key(w, "sweep");
    if (nsweep == 0) {
        jw_null(w);
        return;
    }
    jw_obj(w);
    jw_kstr(w, "kind", b->d.kinds[b->headline]->name);
    jw_kstr(w, "read_timing", "chained: each read of the whole size waits for the previous read's data, "
                              "as the fast row is timed, so the 4-byte point and the fast row are one figure");
    jw_key(w, "crossover_bytes");
    crossover >= 0 ? jw_int(w, crossover) : jw_null(w);
    jw_key(w, "points");
    jw_arr(w);
    for (size_t i = 0; i < nsweep; i++) {
        const sweep_point *p = &sweep_pts[i];
        jw_obj(w);
        jw_kuint(w, "size_bytes", p->size);
        jw_key(w, "copy");
        json_row(w, &p->copy, false);
        jw_key(w, "read");
        json_row(w, &p->read, false);
        jw_key(w, "read_nt");
        if (p->read_nt.nsamples)
            json_row(w, &p->read_nt, false);
        else
            jw_null(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

static void write_json(bench *b, const headline *h, jw *w, double wall)
{
    jw_kdbl(w, "wall_time_s", wall);
    jw_key(w, "plan");
    jw_obj(w);
    jw_kint(w, "iterations", b->plan.iterations);
    jw_kint(w, "warmup", b->plan.warmup);
    jw_kint(w, "min_samples", b->plan.min_samples);
    jw_kdbl(w, "row_seconds", b->plan.row_seconds);
    jw_kdbl(w, "min_row_seconds", b->plan.min_row_seconds);
    jw_kint(w, "repeat", b->repeat);
    jw_kint(w, "rounds", b->plan.rounds);
    jw_kstr(w, "order", "every row takes one block of its samples in each round it is in (the rounds of "
                        "repeat r are those where round % repeat == r - 1), rows shuffled per round with a "
                        "fixed seed; one unrecorded batch before each block");
    jw_kint(w, "sweep_iterations", b->sweep_iterations);
    jw_obj_end(w);
    jw_key(w, "pinned_cpu");
    b->cpu.cpu >= 0 ? jw_int(w, b->cpu.cpu) : jw_null(w);
    jw_key(w, "cpu_choice");
    jw_obj(w);
    jw_kstr(w, "how", b->cpu.how);
    jw_key(w, "survey");
    jw_arr(w);
    for (int i = 0; i < b->cpu.nscores; i++) {
        jw_obj(w);
        jw_kint(w, "cpu", b->cpu.scores[i].cpu);
        jw_kdbl(w, "empty_loop_p50_ns", b->cpu.scores[i].p50_ns);
        jw_kdbl(w, "empty_loop_p90_ns", b->cpu.scores[i].p90_ns);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    /* run_all --parallel: the windows of two devices' benches never overlap */
    jw_key(w, "timed_window");
    jw_obj(w);
    jw_kdbl(w, "from_unix_s", b->timed_from);
    jw_kdbl(w, "until_unix_s", b->timed_until);
    jw_obj_end(w);
    jw_key(w, "test_slowdown");
    if (b->nslow) {
        jw_arr(w);
        for (int i = 0; i < b->nslow; i++) {
            jw_obj(w);
            jw_kstr(w, "path", b->slow[i].p->name);
            jw_kint(w, "percent", b->slow[i].pct);
            jw_obj_end(w);
        }
        jw_arr_end(w);
    } else {
        jw_null(w);
    }
    jw_key(w, "clock");
    jw_obj(w);
    jw_kstr(w, "source", "CLOCK_MONOTONIC");
    jw_kdbl(w, "resolution_ns", b->clock.resolution_ns);
    jw_kdbl(w, "read_ns", b->clock.read_ns);
    jw_kdbl(w, "min_step_ns", b->clock.min_step_ns);
    jw_obj_end(w);
    jw_key(w, "distinguishing_candidates");
    jw_arr(w);
    for (size_t qi = 0; qi < b->ngood; qi++)
        jw_str(w, b->good[qi]->name);
    jw_arr_end(w);
    json_headline(h, w);
    jw_key(w, "rows");
    jw_arr(w);
    for (size_t i = 0; i < b->nrows; i++)
        json_row(w, &b->rows[i], true);
    jw_arr_end(w);
    json_sweep(b, w);
}

/* ---- command line ---- */

static int known_path(const char *v, char *why, size_t n)
{
    if (bench_path_find(v))
        return 0;
    snprintf(why, n, "a path of --list-paths");
    return -1;
}

static int power_of_two(const char *v, char *why, size_t n)
{
    unsigned long long z;
    if (ha_parse_size(v, 8, SWEEP_LIMIT, &z) == 0 && (z & (z - 1)) == 0)
        return 0;
    snprintf(why, n, "a power of two from 8 B to 1 MiB (e.g. 64KiB)");
    return -1;
}

static int parse(bench *b, int argc, char **argv)
{
    static ha_opt_list kinds, paths;
    static bool nosweep, listpaths;
    static long iterations = -1, warmup = -1, sweep_iterations = -1;
    const ha_opt own[] = {
        {"iterations", HA_OPT_LONG, 1, MAX_ITERATIONS, &iterations, "N", "operations per row, as upstream counts them (20000)", NULL},
        {"warmup", HA_OPT_LONG, 0, MAX_ITERATIONS, &warmup, "N", "operations before a row is timed (1000)", NULL},
        {"repeat", HA_OPT_LONG, 1, 10, &b->repeat, "N", "rows per path, each in its own share of the rounds (2)", NULL},
        {"rounds", HA_OPT_LONG, 1, 100, &b->plan.rounds, "N", "interleaved rounds each row takes part in (12)", NULL},
        {"row-seconds", HA_OPT_REAL, 0.01, 600, &b->plan.row_seconds, "S", "a row takes no more samples than fill S (1)", NULL},
        {"kind", HA_OPT_LIST, 0, 0, &kinds, "NAME", "time only this kind (repeatable)", NULL},
        {"path", HA_OPT_LIST, 0, 0, &paths, "NAME", "time only this path (repeatable; --list-paths)", known_path},
        {"cpu", HA_OPT_LONG, 0, CPUPICK_MAX - 1, &b->forced_cpu, "N", "hold the run on CPU N instead of the surveyed one", NULL},
        {"sweep-csv", HA_OPT_STRING, 0, 0, &b->sweep_csv, "FILE", "the size sweep as CSV into FILE (a new file)", NULL},
        {"sweep-max", HA_OPT_SIZE, 8, SWEEP_LIMIT, &b->sweep_max, "SIZE", "the sweep's largest size, a power of two (64KiB)", power_of_two},
        {"sweep-iterations", HA_OPT_LONG, 1, MAX_ITERATIONS, &sweep_iterations, "N", "operations per sweep point (2000)", NULL},
        {"no-sweep", HA_OPT_FLAG, 0, 0, &nosweep, NULL, "no size sweep", NULL},
        {"list-paths", HA_OPT_FLAG, 0, 0, &listpaths, NULL, "list the paths with their families, then exit", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
    };
    ha_cli cli = {"bench_discriminator", "",
                  "what the host read buys over the runtime copy, and what each working discriminator costs on it; "
                  "test only: HOSTACCESS_TEST_SLOWDOWN=PATH=PERCENT[,...] stretches every batch of PATH by PERCENT "
                  "of its own time (the record says so)",
                  own, 0, 0, NULL};
    int rc = ha_tool_parse(&b->t, &cli, argc, argv);
    if (rc)
        return rc;
    if (listpaths) {
        for (const path_def *p = bench_paths; p->name; p++)
            printf("%-16s %-9s %s\n", p->name, p->family, p->what);
        return -1;
    }
    if (iterations > 0)
        b->plan.iterations = iterations;
    if (warmup >= 0)
        b->plan.warmup = warmup;
    if (sweep_iterations > 0)
        b->sweep_iterations = sweep_iterations;
    b->sweep = !nosweep;
    for (int i = 0; i < kinds.n && b->nonly_kinds < HA_MAX_KINDS; i++)
        b->only_kinds[b->nonly_kinds++] = kinds.v[i];
    for (int i = 0; i < paths.n && b->nonly_paths < 32; i++)
        b->only_paths[b->nonly_paths++] = paths.v[i];
    return 0;
}

static double unix_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* HOSTACCESS_TEST_SLOWDOWN: "PATH=PERCENT[,PATH=PERCENT]". */
static int parse_slowdown(bench *b, const char *spec, char *msg, size_t n)
{
    if (!spec || !*spec)
        return 0;
    char buf[256];
    snprintf(buf, sizeof buf, "%s", spec);
    char *save = NULL;
    for (char *item = strtok_r(buf, ",", &save); item; item = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(item, '=');
        const path_def *p = NULL;
        long pct;
        if (eq)
            *eq = 0;
        if (!eq || !(p = bench_path_find(item)) || ha_parse_long(eq + 1, 1, 1000, &pct) ||
            b->nslow == (int)(sizeof b->slow / sizeof b->slow[0])) {
            snprintf(msg, n, "HOSTACCESS_TEST_SLOWDOWN takes PATH=PERCENT[,...] (a path of --list-paths, "
                             "1 to 1000 %%), not '%.100s'", spec);
            return -1;
        }
        b->slow[b->nslow].p = p;
        b->slow[b->nslow++].pct = pct;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static bench b;
    ha_tool_init(&b.t, "bench_discriminator");
    b.plan = (bench_plan){20000, 1000, 200, 1.0, 0.05, 12};
    b.forced_cpu = -1;
    b.repeat = 2;
    b.sweep = true;
    b.sweep_iterations = 2000;
    b.sweep_max = 64 * 1024;
    int rc = parse(&b, argc, argv);
    if (rc)
        return rc < 0 ? HA_EXIT_OK : rc;
    char msg[200];
    if (parse_slowdown(&b, getenv("HOSTACCESS_TEST_SLOWDOWN"), msg, sizeof msg) != 0)
        return ha_tool_usage(&b.t, msg);
    double t0 = ha_now_s();
    rc = ha_tool_start(&b.t);
    if (rc < 0)
        return HA_EXIT_OK;
    if (rc)
        return rc;
    for (int i = 0; i < b.nonly_kinds; i++) {
        bool found = false;
        const ha_kind *ks[HA_MAX_KINDS];
        size_t nk = ha_kinds(&b.t.be, ks, HA_MAX_KINDS);
        for (size_t k = 0; k < nk; k++)
            found |= strcmp(ks[k]->name, b.only_kinds[i]) == 0;
        if (!found) {
            char m[128];
            snprintf(m, sizeof m, "unknown kind '%s' for the %s backend", b.only_kinds[i],
                     b.t.be.ops->name);
            ha_tool_abort(&b.t);
            return ha_tool_usage(&b.t, m);
        }
    }
    for (int i = 0; i < b.nonly_kinds; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(b.only_kinds[i], b.only_kinds[j]) == 0) {
                ha_tool_abort(&b.t);
                return ha_tool_usage(&b.t, "a --kind is given twice");
            }
    if (b.sweep_csv && b.t.json && ha_same_file(b.sweep_csv, b.t.json)) {
        ha_tool_abort(&b.t);
        return ha_tool_usage(&b.t, "--json and --sweep-csv name the same file: choose two");
    }
    ha_record csv_check;
    char err[512];
    if (b.sweep_csv) { /* refuse a bad CSV path before any work, like --json */
        if (ha_record_open(&csv_check, b.sweep_csv, err, sizeof err) != 0) {
            ha_log(HA_LOG_ERROR, "%s", err);
            ha_tool_abort(&b.t);
            return HA_EXIT_OUTPUT;
        }
        ha_record_abort(&csv_check);
    }
    if (cpupick_choose("", b.t.env.pci_bus_id, (int)b.forced_cpu, &b.cpu) != 0) {
        snprintf(msg, sizeof msg, "--cpu %ld is not a CPU this process may run on", b.forced_cpu);
        ha_tool_abort(&b.t);
        return ha_tool_usage(&b.t, msg);
    }
    ha_log(HA_LOG_INFO, "held on CPU %d: %s", b.cpu.cpu, b.cpu.how);
    ha_log(HA_LOG_INFO, "finding the working discriminators on this machine");
    setup(&b);
    ha_clock_measure(&b.clock);
    bench_ctx c = {.be = &b.t.be};
    c.pageable = aligned_alloc(4096, COPY_BUF);
    if (!c.pageable) {
        ha_log(HA_LOG_ERROR, "cannot allocate a %u-byte copy buffer", COPY_BUF);
        teardown(&b);
        ha_tool_abort(&b.t);
        return HA_EXIT_FAIL;
    }
    /* Without pinned memory the pinned-copy rows say why; the rest runs. */
    int pst = b.t.be.ops->host_alloc_pinned(&b.t.be, &c.pinned, COPY_BUF);
    if (pst != HA_ST_OK) {
        c.pinned = NULL;
        snprintf(b.no_pinned_reason, sizeof b.no_pinned_reason, "no pinned host memory: %s",
                 ha_status_name(&b.t.be, pst));
    }
    /* Half a second of work first: the clock rate ramps before repeat 1. */
    for (double until = ha_clock_ns() + 0.5e9; ha_clock_ns() < until;)
        path_empty(&c, 1u << 16);
    plan_rows(&b, &c);
    b.timed_from = unix_now_s();
    time_rows(&b);
    run_sweep(&b, &c);
    b.timed_until = unix_now_s();
    double wall = ha_now_s() - t0;

    if (ha_backend_simulated(&b.t.be))
        printf("# SIMULATED run - not evidence\n");
    for (int i = 0; i < b.nslow; i++)
        printf("# TEST SLOWDOWN: every %s batch stretched by %ld%% (HOSTACCESS_TEST_SLOWDOWN) - not evidence\n",
               b.slow[i].p->name, b.slow[i].pct);
    printf("held on CPU %d: %s\n", b.cpu.cpu, b.cpu.how);
    ha_env_print(&b.t.env);
    printf("discriminators that distinguish here:");
    for (size_t qi = 0; qi < b.ngood; qi++)
        printf(" %s", b.good[qi]->name);
    printf("%s\n\n", b.ngood ? "" : " none");
    print_rows(&b);
    headline hl = find_headline(&b);
    print_headline(&b, &hl);
    if (nsweep) {
        printf("\n## Size sweep (%s): runtime copy vs host read, median ns\n\n| bytes | copy | read | read NT |\n|---|---|---|---|\n",
               b.d.kinds[b.headline]->name);
        for (size_t i = 0; i < nsweep; i++)
            printf("| %zu | %.1f | %.1f | %.1f |\n", sweep_pts[i].size, sweep_pts[i].copy.st.median,
                   sweep_pts[i].read.st.median, sweep_pts[i].read_nt.st.median);
        if (crossover >= 0)
            printf("crossover: the copy is as fast as the host read from %ld bytes\n", crossover);
        else
            printf("crossover: none up to %llu bytes (the host read stays faster)\n", b.sweep_max);
    }
    print_checks(&b);
    print_warnings(&b);
    printf("\nwall time %.1f s\n", wall);

    rc = write_sweep_csv(&b);
    jw w = {0};
    if (b.t.have_rec) {
        jw_init(&w, b.t.rec.f, true);
        jw_obj(&w);
        ha_tool_json_head(&b.t, &w);
        write_json(&b, &hl, &w, wall);
    }
    if (c.pinned)
        b.t.be.ops->host_free_pinned(&b.t.be, c.pinned);
    free(c.pageable);
    teardown(&b);
    rc = ha_tool_finish(&b.t, &w, rc);
    for (size_t i = 0; i < b.nrows; i++)
        bench_row_free(&b.rows[i]);
    for (size_t i = 0; i < nsweep; i++) {
        bench_row_free(&sweep_pts[i].copy);
        bench_row_free(&sweep_pts[i].read);
        bench_row_free(&sweep_pts[i].read_nt);
    }
    return rc;
}
