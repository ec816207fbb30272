/* The facts every renderer shares, derived once from a loaded run: which
 * kinds the host reads, which candidates distinguish and which would crash
 * a reader or lose its fast path, the headline's rows, the pool's goals,
 * why a simulated run did not use a GPU, and the expectations JUnit
 * judges. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "goals.h"
#include "derive.h"
#include "procstats.h"
#include "rowest.h"

static void probe_facts(m_run *r)
{
    m_derived *d = &r->d;
    m_probe *p = &r->probe;
    d->readable = m_alloc(r, (p->nkinds + 1) * sizeof *d->readable);
    d->unreadable = m_alloc(r, (p->nkinds + 1) * sizeof *d->unreadable);
    d->distinguishing = m_alloc(r, (p->ncands + 1) * sizeof *d->distinguishing);
    d->false_pos = m_alloc(r, (p->ncands + 1) * sizeof *d->false_pos);
    d->false_neg = m_alloc(r, (p->ncands + 1) * sizeof *d->false_neg);
    if (!d->readable || !d->unreadable || !d->distinguishing || !d->false_pos || !d->false_neg)
        return;
    for (size_t k = 0; k < p->nkinds; k++) {
        const m_kind *kd = &p->kinds[k];
        if (!kd->created || kd->control)
            continue;
        if (kd->readable == 1)
            d->readable[d->nreadable++] = kd;
        else if (kd->readable == 0)
            d->unreadable[d->nunreadable++] = kd;
        if (!strcmp(kd->name, "vmm-device+host"))
            d->fixed = kd;
    }
    for (size_t c = 0; c < p->ncands; c++) {
        m_cand *cd = &p->cands[c];
        cd->by_kind = m_alloc(r, (p->nkinds + 1) * sizeof *cd->by_kind);
        for (size_t k = 0; cd->by_kind && k < cd->ncells; k++) {
            long i = m_probe_kind_index(p, cd->cells[k].kind);
            if (i >= 0 && !cd->by_kind[i])
                cd->by_kind[i] = &cd->cells[k];
        }
        if (!strcmp(cd->source, "model"))
            d->torch_rule = cd;
        if (cd->verdict == HA_V_DISTINGUISHES)
            d->distinguishing[d->ndistinguishing++] = cd;
        if (!strcmp(cd->source, "runtime")) {
            d->nruntime++;
            d->nruntime_distinguishing += cd->verdict == HA_V_DISTINGUISHES;
        }
        bool fp = false, fn = false;
        for (size_t w = 0; w < cd->nwrong; w++) {
            fp |= cd->wrong[w].false_positive;
            fn |= !cd->wrong[w].false_positive;
        }
        if (fp)
            d->false_pos[d->nfalse_pos++] = cd;
        if (fn)
            d->false_neg[d->nfalse_neg++] = cd;
    }
}

/* Each row's figure: its raw estimate over its processes (rowest.h); a
 * row of an older record keeps the median the bench pooled. Unlike
 * compare's normalised estimate, nothing is divided by an instrument: the
 * figure is the time a reader pays, in ns. */
static void figures(m_run *r)
{
    m_derived *d = &r->d;
    const m_bench *b = &r->bench;
    d->figs = m_alloc(r, (b->nrows + 1) * sizeof *d->figs);
    if (!d->figs)
        return;
    for (size_t i = 0; i < b->nrows; i++) {
        const m_row *x = &b->rows[i];
        m_figure *g = &d->figs[i];
        *g = (m_figure){x->st.median, NAN, NAN, NAN, 0};
        ha_proc_est e;
        if (!x->nprocs || m_row_estimate(b, x, M_EST_RAW, &m_est_default_rules, &e) != 0)
            continue;
        *g = (m_figure){e.gmean, NAN, NAN, e.sd_log, e.k};
        ha_proc_interval(&e, 0.95, &g->lo, &g->hi);
        d->by_process = true;
    }
}

const m_figure *m_row_figure(const m_run *r, const m_row *x)
{
    static const m_figure none = {NAN, NAN, NAN, NAN, 0};
    const m_bench *b = &r->bench;
    if (!x || !r->d.figs || x < b->rows || x >= b->rows + b->nrows)
        return &none;
    return &r->d.figs[x - b->rows];
}

double m_fast_ns(const m_run *r) { return r->d.fast ? m_row_figure(r, r->d.fast)->ns : r->bench.fast_median; }

double m_slow_ns(const m_run *r) { return r->d.slow ? m_row_figure(r, r->d.slow)->ns : r->bench.slow_median; }

/* How many rows each process kept an uncontended block in: compare leaves
 * out a process that kept far fewer than the run's most complete one. */
void m_rows_kept(m_bench *b)
{
    for (size_t j = 0; j < b->nprocs; j++)
        b->procs[j].rows_kept = 0;
    for (size_t i = 0; i < b->nrows; i++)
        for (size_t k = 0; k < b->rows[i].nprocs; k++)
            for (size_t j = 0; b->rows[i].procs[k].nblocks && j < b->nprocs; j++)
                b->procs[j].rows_kept += b->procs[j].index == b->rows[i].procs[k].process;
}

static void bench_facts(m_run *r)
{
    m_derived *d = &r->d;
    const m_bench *b = &r->bench;
    d->slowed = b->nslowdowns > 0;
    m_rows_kept(&r->bench);
    figures(r);
    if (!b->has_headline)
        return;
    d->fast = m_bench_row(b, ha_headline.fast, b->fast_kind, NULL, 1);
    d->cold = m_bench_row(b, ha_headline.cold, b->fast_kind, NULL, 1);
    d->fault_fallback = m_bench_row(b, ha_headline.fault, NULL, NULL, 1);
    for (int i = 0; i < HA_HEADLINE_NCOPIES; i++)
        d->copies[i] = m_bench_row(b, ha_headline.copies[i], *b->slow_kind ? b->slow_kind : b->fast_kind, NULL, 1);
    d->slow = *b->slow_kind ? d->copies[0] : NULL;
    /* older records say it in their headline; later ones leave it to the row */
    d->fast_crosses_bar = b->head.schema_version >= HA_SCHEMA_DERIVED_ON_READ ? d->fast && d->fast->comparable_to_bar
                                                                               : b->fast_crosses_bar;
    d->hardened = m_alloc(r, (b->nrows + 1) * sizeof *d->hardened);
    d->alone = m_alloc(r, (b->nrows + 1) * sizeof *d->alone);
    if (!d->hardened || !d->alone)
        return;
    for (size_t i = 0; i < b->nrows; i++) {
        const m_row *x = &b->rows[i];
        if (x->repeat != 1 || x->skipped || strcmp(x->path, ha_headline.hardened) || strcmp(x->kind, b->fast_kind))
            continue;
        d->hardened[d->nhardened] = x;
        d->alone[d->nhardened++] = m_bench_row(b, ha_headline.alone, b->fast_kind, x->candidate, 1);
    }
}

static void pool_facts(m_run *r)
{
    m_derived *d = &r->d;
    const m_pool *p = &r->pool;
    for (size_t i = 0; i < p->nchecks; i++)
        d->pool_failed += !strcmp(p->checks[i].status, "FAIL");
    d->pool_goal = HA_GOAL_MET;
    for (size_t i = 0; i < p->ntputs; i++) {
        m_tput *t = &r->pool.tputs[i];
        if (!t->measured)
            continue;
        d->pool_goal_known = true;
        if (d->simulated) { /* a simulation's copies are the CI machine's memcpy: never judged */
            t->sleep_goal = t->wake_goal = d->pool_goal = HA_GOAL_NOT_JUDGED;
            continue;
        }
        t->sleep_goal = ha_pool_goal_judge(t->sleep_cyc, t->nsleep_cyc, t->sleep_frac);
        t->wake_goal = ha_pool_goal_judge(t->wake_cyc, t->nwake_cyc, t->wake_frac);
        /* the enum runs from met to missed: the worst of all is the larger */
        d->pool_goal = t->sleep_goal > d->pool_goal ? t->sleep_goal : d->pool_goal;
        d->pool_goal = t->wake_goal > d->pool_goal ? t->wake_goal : d->pool_goal;
    }
}

/* Why the run fell back to a simulation: the reasons auto recorded. */
static void fallback_reason(m_run *r)
{
    const m_head *heads[] = {&r->envrec, &r->probe.head, &r->bench.head, &r->pool.head, &r->mga.head};
    r->d.fallback_reason = "";
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        const m_head *h = heads[i];
        if (!h->present || !h->nfallbacks)
            continue;
        char *s = "";
        for (size_t k = 0; k < h->nfallbacks; k++)
            s = m_printf(r, "%s%s%s", s, k ? "; " : "", h->fallbacks[k].why);
        r->d.fallback_reason = s;
        return;
    }
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        if (heads[i]->present && strstr(heads[i]->backend_choice, " because ")) {
            r->d.fallback_reason = strstr(heads[i]->backend_choice, " because ") + 9;
            return;
        }
}

static void expect(m_run *r, const char *suite, const char *name, m_expect_status st, const char *msg)
{
    m_derived *d = &r->d;
    /* Doubling: a pool record of many checks stays linear in the arena. */
    if (d->nexpects == d->expects_cap) {
        size_t cap = d->expects_cap ? 2 * d->expects_cap : 64;
        m_expect *e = m_alloc(r, cap * sizeof *e);
        if (!e)
            return;
        if (d->nexpects)
            memcpy(e, d->expects, d->nexpects * sizeof *e);
        d->expects = e;
        d->expects_cap = cap;
    }
    d->expects[d->nexpects++] = (m_expect){suite, name, msg, st};
}

/* What JUnit judges: broken expectations fail, results and performance
 * goals never do. */
static void expectations(m_run *r)
{
    m_derived *d = &r->d;
    if (r->has[RUN_PROBE]) {
        const m_kind *f = d->fixed;
        if (!f)
            expect(r, "expectations", "the fixed kind vmm-device+host is host-readable", EXP_SKIP,
                   "the probe has no kind vmm-device+host");
        else if (!f->created)
            expect(r, "expectations", "the fixed kind vmm-device+host is host-readable", EXP_SKIP,
                   m_printf(r, "not created here: %s", f->detail));
        else
            expect(r, "expectations", "the fixed kind vmm-device+host is host-readable",
                   f->readable == 1 ? EXP_PASS : EXP_FAIL,
                   f->readable == 1 ? "" : m_printf(r, "its host read: %s", *f->read_status ? f->read_status : "unknown"));
        expect(r, "expectations", "some kind could be created", d->nreadable + d->nunreadable ? EXP_PASS : EXP_FAIL,
               "no GPU kind was created");
    }
    for (size_t i = 0; r->has[RUN_POOL] && i < r->pool.nchecks; i++) {
        const m_check *c = &r->pool.checks[i];
        bool pass = !strcmp(c->status, "PASS"), fail = !strcmp(c->status, "FAIL");
        expect(r, "pool_check", m_printf(r, "%s [%s]", c->name, c->mode), pass ? EXP_PASS : fail ? EXP_FAIL : EXP_SKIP,
               c->detail);
    }
    /* The throughput goal is a performance figure, not a check: REPORT.md
     * and the benchmark exports judge it over its cycles; JUnit is for what
     * is broken. */
}

void m_derive(m_run *r)
{
    m_derived *d = &r->d;
    memset(d, 0, sizeof *d);
    const m_head *heads[] = {&r->envrec, &r->probe.head, &r->mga.head, &r->bench.head, &r->pool.head};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++)
        d->simulated |= heads[i]->present && heads[i]->simulated;
    d->sim_profile = r->env ? r->env->sim_profile : "";
    if (r->has[RUN_PROBE])
        probe_facts(r);
    if (r->has[RUN_BENCH])
        bench_facts(r);
    if (r->has[RUN_POOL])
        pool_facts(r);
    fallback_reason(r);
    d->group = m_printf(r, "%s / %s%s%s%s", r->env->device_name, r->env->backend, d->simulated ? " (SIMULATED" : "",
                        d->simulated && *d->sim_profile ? ", profile " : "",
                        d->simulated ? m_printf(r, "%s)", d->sim_profile) : "");
    d->series = m_printf(r, "%s dev%lld", d->group, r->env->device);
    d->machine_class = m_printf(r, "%s device %lld, CPU %s%s", d->group, r->env->device, r->env->cpu,
                                r->env->cpu_count > 0 ? m_printf(r, " x %lld", r->env->cpu_count) : "");
    expectations(r);
}

int m_load_run(m_run *r, const char *path, unsigned flags, char **err)
{
    int rc = m_read_run(r, path, flags, err);
    if (rc == 0)
        m_derive(r);
    if (rc == 0 && r->side_b)
        m_derive(r->side_b);
    return rc;
}

int m_load_buffer(m_run *r, const char *buf, size_t len, char **err)
{
    int rc = m_read_buffer(r, buf, len, err);
    if (rc == 0)
        m_derive(r);
    return rc;
}
