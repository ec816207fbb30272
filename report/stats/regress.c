#include "regress.h"

#include "rocm_profiles.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>

#include "derive.h"
#include "goals.h"
#include "procjudge.h"
#include "procstats.h"
#include "procwords.h"
#include "readfile.h"
#include "rowest.h"
#include "stats.h"

/* ---- what is compared ---- */

/* A finding's name. Out of memory, what it would name is not compared, and
 * an inconclusive finding says so: a verdict never reads clean over a
 * comparison that did not happen. */
static char *finding_name(findings *f, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static char *finding_name(findings *f, const char *what, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = rf_vprintf(fmt, ap);
    va_end(ap);
    if (!s)
        findings_add(f, INCONCLUSIVE, what, "one of them", "out of memory: not compared");
    return s;
}

/* The facts that tell two machines apart, and those that only describe. */
static void machine_facts(const regress_cfg *cfg, const m_run *a, const m_run *b, findings *f)
{
    const m_env *x = a->env, *y = b->env;
    const struct { const char *name; const char *u, *v; bool machine; } s[] = {
        {"tool", x->tool_version, y->tool_version, false},     {"host", x->host, y->host, true},
        {"machine start (boot id)", x->boot_id, y->boot_id, true}, {"device", x->device_name, y->device_name, true},
        {"PCI bus", x->pci_bus_id, y->pci_bus_id, true},       {"CPU", x->cpu, y->cpu, true},
        {"driver", x->driver_version, y->driver_version, false}, {"runtime", x->runtime_version, y->runtime_version, false},
        {"header", x->header_version, y->header_version, false}, {"backend", x->backend, y->backend, true},
        {"kernel", x->kernel, y->kernel, false},               {"clock source", x->clocksource, y->clocksource, false},
        {"stand-in profile", x->sim_profile, y->sim_profile, false},
    };
    bool same = true;
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        if (strcmp(s[i].u, s[i].v)) {
            findings_differ(f, "%s: %s → %s", s[i].name, *s[i].u ? s[i].u : "(not recorded)",
                            *s[i].v ? s[i].v : "(not recorded)");
            same &= !s[i].machine;
        }
    }
    if (x->cpu_count != y->cpu_count) {
        findings_differ(f, "CPU count: %lld → %lld", x->cpu_count, y->cpu_count);
        same = false;
    }
    if (!*x->boot_id || !*y->boot_id) {
        findings_note(f, "a run without a boot id (records before schema 2): whether both ran on one machine start "
                         "cannot be told, and cloud machines share host names");
        same = false;
    }
    const long long sa = a->bench.head.schema_version, sb = b->bench.head.schema_version;
    if (a->has[RUN_BENCH] && b->has[RUN_BENCH] && sa != sb)
        findings_differ(f, "bench record schema: %lld → %lld", sa, sb);
    f->same_machine = same || cfg->same_machine;
    if (!same && cfg->same_machine)
        findings_note(f, "--same-machine: timings judged although the machine facts differ");
}

/* Each record, as a finding names it. */
static const char *const record_what[RUN_NREC] = {"env", "probe", "memgetaccess probe", "bench", "pool check"};

static void cmp_records(const m_run *a, const m_run *b, findings *f)
{
    for (int i = 0; i < RUN_NREC; i++)
        if (a->has[i] && !b->has[i])
            findings_add(f, REGRESSION, "record", run_files[i], "the new run has no %s record", record_what[i]);
}

/* Runs of two backends (a CUDA run against a simulated or a HIP one):
 * each has kinds and candidates the other cannot have (cuMemHostAlloc is
 * CUDA's), so one present on one side only is listed as such, never a
 * regression; what both have is compared as in any pair. NULL: one backend. */
typedef struct backends {
    const char *old, *new;
} backends;

static void one_side_only(findings *f, const char *what, const char *name, const backends *bk, bool old_side)
{
    findings_add(f, CHANGE, what, name, "on the %s run's backend (%s) only: the %s run's (%s) has no such %s",
                 old_side ? "old" : "new", old_side ? bk->old : bk->new, old_side ? "new" : "old",
                 old_side ? bk->new : bk->old, what);
}

static void cmp_kinds(const m_probe *a, const m_probe *b, const backends *bk, findings *f)
{
    for (size_t i = 0; i < a->nkinds; i++) {
        const m_kind *ka = &a->kinds[i], *kb = m_probe_kind(b, ka->name);
        if (!kb && bk) {
            one_side_only(f, "kind", ka->name, bk, true);
            continue;
        }
        if (!kb) {
            findings_add(f, REGRESSION, "kind", ka->name, "no longer probed: its host readability is no longer checked");
            continue;
        }
        if (ka->created != kb->created)
            findings_add(f, ka->created ? REGRESSION : IMPROVEMENT, "kind", ka->name, "%s (%s)",
                         ka->created ? "can no longer be made" : "can now be made", kb->detail);
        if (ka->readable >= 0 && kb->readable >= 0 && ka->readable != kb->readable)
            findings_add(f, ka->readable ? REGRESSION : IMPROVEMENT, "kind", ka->name, "host read: %s → %s",
                         ka->readable ? "readable" : "faults", kb->readable ? "readable" : "faults");
    }
    for (size_t i = 0; i < b->nkinds; i++)
        if (!m_probe_kind(a, b->kinds[i].name)) {
            if (bk)
                one_side_only(f, "kind", b->kinds[i].name, bk, false);
            else
                findings_add(f, CHANGE, "kind", b->kinds[i].name, "new");
        }
}


/* One MemGetAccess cell's answer: its flags, or the error that answered. */
static const char *access_error(const m_access *x) { return *x->status_name ? x->status_name : x->outcome; }

static bool same_access(const m_access *x, const m_access *y)
{
    return x->has_flags == y->has_flags && (x->has_flags ? x->flags == y->flags : !strcmp(access_error(x), access_error(y)));
}

/* The MemGetAccess matrix (probe_memgetaccess): each kind's stages, what a
 * host read did at each and what each location's query answered. Facts,
 * reported as changes: the kinds' readability itself is judged above. */
static void cmp_mga(const m_mga *a, const m_mga *b, findings *f)
{
    for (size_t i = 0; i < a->nshapes; i++) {
        const m_shape *x = &a->shapes[i], *y = NULL;
        for (size_t k = 0; k < b->nshapes && !y; k++)
            y = !strcmp(b->shapes[k].kind, x->kind) ? &b->shapes[k] : NULL;
        if (!y || x->created != y->created) {
            findings_add(f, CHANGE, "memgetaccess", x->kind, "%s", !y ? "no longer in the matrix"
                                                                   : x->created ? "no longer made" : "now made");
            continue;
        }
        for (size_t s = 0; s < x->nstages; s++) {
            const m_stage *u = &x->stages[s], *v = NULL;
            for (size_t k = 0; k < y->nstages && !v; k++)
                v = !strcmp(y->stages[k].stage, u->stage) ? &y->stages[k] : NULL;
            if (!v)
                continue;
            char *name = finding_name(f, "memgetaccess", "%s / %s", x->kind, u->stage);
            if (!name)
                continue;
            if (strcmp(u->host_read, v->host_read))
                findings_add(f, CHANGE, "memgetaccess", name, "host read %s → %s", u->host_read, v->host_read);
            for (size_t l = 0; l < u->naccess; l++)
                for (size_t m = 0; m < v->naccess; m++) {
                    const m_access *was = &u->access[l], *now = &v->access[m];
                    if (strcmp(was->location, now->location) || same_access(was, now))
                        continue;
                    char wf[24], nf[24]; /* "flags N" of a long long fits */
                    snprintf(wf, sizeof wf, "flags %lld", was->flags);
                    snprintf(nf, sizeof nf, "flags %lld", now->flags);
                    findings_add(f, CHANGE, "memgetaccess", name, "MemGetAccess(%s): %s → %s", was->location,
                                 was->has_flags ? wf : access_error(was), now->has_flags ? nf : access_error(now));
                }
            free(name);
        }
    }
}

static void cmp_candidates(const m_probe *a, const m_probe *b, const backends *bk, findings *f)
{
    for (size_t i = 0; i < a->ncands; i++) {
        const m_cand *ca = &a->cands[i], *cb = m_probe_cand(b, ca->name);
        if (!cb && bk) {
            one_side_only(f, "candidate", ca->name, bk, true);
            continue;
        }
        if (!cb) {
            findings_add(f, REGRESSION, "candidate", ca->name, "no longer probed: its verdict (%s) is no longer checked",
                         ha_verdict_name(ca->verdict));
            continue;
        }
        bool da = ca->verdict == HA_V_DISTINGUISHES, db = cb->verdict == HA_V_DISTINGUISHES;
        if (da != db)
            findings_add(f, da ? REGRESSION : IMPROVEMENT, "candidate", ca->name, "%s distinguishing (%s → %s)",
                         da ? "stopped" : "started", ha_verdict_name(ca->verdict), ha_verdict_name(cb->verdict));
        else if (ca->verdict != cb->verdict)
            findings_add(f, CHANGE, "candidate", ca->name, "verdict %s → %s", ha_verdict_name(ca->verdict), ha_verdict_name(cb->verdict));
        for (size_t k = 0; k < ca->ncells; k++) {
            const m_cell *x = &ca->cells[k];
            long ki = m_probe_kind_index(b, x->kind);
            const m_cell *y = ki >= 0 && cb->by_kind ? cb->by_kind[ki] : NULL;
            if (!y || (!strcmp(x->status_name, y->status_name) && !strcmp(x->cls, y->cls)))
                continue;
            char *name = finding_name(f, "status", "%s on %s", ca->name, x->kind);
            if (!name)
                continue;
            findings_add(f, CHANGE, "status", name, "%s %s → %s %s", x->status_name, x->cls, y->status_name, y->cls);
            free(name);
        }
    }
    for (size_t i = 0; i < b->ncands; i++)
        if (!m_probe_cand(a, b->cands[i].name)) {
            if (bk)
                one_side_only(f, "candidate", b->cands[i].name, bk, false);
            else
                findings_add(f, CHANGE, "candidate", b->cands[i].name, "new (%s)", ha_verdict_name(b->cands[i].verdict));
        }
}

static bool ranges_overlap(const double *a, size_t na, const double *b, size_t nb)
{
    double alo, ahi, blo, bhi;
    ha_cycles_range(a, na, &alo, &ahi);
    ha_cycles_range(b, nb, &blo, &bhi);
    return alo <= bhi && blo <= ahi;
}

static int check_cmp(const void *x, const void *y)
{
    const m_check *a = *(const m_check *const *)x, *b = *(const m_check *const *)y;
    int c = strcmp(a->name, b->name);
    return c ? c : strcmp(a->mode, b->mode);
}

/* The checks sorted by (name, mode), looked up by bsearch: a record of a
 * few hundred thousand checks is compared in n log n, not n². */
static const m_check **sorted_checks(const m_pool *p)
{
    const m_check **v = malloc((p->nchecks ? p->nchecks : 1) * sizeof *v);
    if (!v)
        return NULL;
    for (size_t i = 0; i < p->nchecks; i++)
        v[i] = &p->checks[i];
    qsort(v, p->nchecks, sizeof *v, check_cmp);
    return v;
}

static const m_check *pool_check(const m_check **sorted, size_t n, const m_check *like)
{
    const m_check **hit = sorted ? bsearch(&like, sorted, n, sizeof *sorted, check_cmp) : NULL;
    return hit ? *hit : NULL;
}

static const m_tput *tput_of(const m_pool *p, double bytes, const char *mode)
{
    for (size_t k = 0; k < p->ntputs; k++)
        if (p->tputs[k].bytes == bytes && !strcmp(p->tputs[k].mode, mode))
            return &p->tputs[k];
    return NULL;
}

/* b's throughput for a's size and mode; else b's for that size in a mode a
 * did not time (an A/B session's B with HOSTACCESS_POOL_HOST_ACCESS=0:
 * the fix against no fix). */
static const m_tput *tput_like(const m_pool *a, const m_pool *b, const m_tput *ta)
{
    const m_tput *tb = tput_of(b, ta->bytes, ta->mode);
    if (tb)
        return tb;
    for (size_t k = 0; k < b->ntputs; k++)
        if (b->tputs[k].bytes == ta->bytes && !tput_of(a, ta->bytes, b->tputs[k].mode))
            return &b->tputs[k];
    return NULL;
}

static void cmp_pool(const m_pool *a, const m_pool *b, bool same, findings *f)
{
    const m_check **sa = sorted_checks(a), **sb = sorted_checks(b);
    if (!sa || !sb) {
        free(sa);
        free(sb);
        findings_add(f, INCONCLUSIVE, "pool_check", "all checks", "out of memory: the checks were not compared");
        return;
    }
    for (size_t i = 0; i < a->nchecks; i++) {
        const m_check *ca = &a->checks[i], *cb = pool_check(sb, b->nchecks, ca);
        char *name = finding_name(f, "pool_check", "%s [%s]", ca->name, ca->mode);
        if (!name)
            continue;
        if (!cb)
            findings_add(f, REGRESSION, "pool_check", name, "no longer run (was %s)", ca->status);
        else if (strcmp(ca->status, cb->status)) {
            bool pa = !strcmp(ca->status, "PASS"), pb = !strcmp(cb->status, "PASS");
            int cls = !strcmp(cb->status, "FAIL") || (pa && !pb) ? REGRESSION
                      : !strcmp(ca->status, "FAIL") || pb         ? IMPROVEMENT
                                                                  : CHANGE;
            findings_add(f, cls, "pool_check", name, "%s → %s: %s", ca->status, cb->status, cb->detail);
        }
        free(name);
    }
    for (size_t i = 0; i < b->nchecks; i++)
        if (!pool_check(sa, a->nchecks, &b->checks[i])) {
            char *name = finding_name(f, "pool_check", "%s [%s]", b->checks[i].name, b->checks[i].mode);
            if (!name)
                continue;
            findings_add(f, CHANGE, "pool_check", name, "new (%s)", b->checks[i].status);
            free(name);
        }
    free(sa);
    free(sb);
    /* Throughput is judged by its goal: a run's outcome is taken over its
     * steady cycles (met, within noise, missed). */
    for (size_t i = 0; i < a->ntputs; i++) {
        const m_tput *ta = &a->tputs[i], *tb = tput_like(a, b, ta);
        if (!tb || !ta->measured || !tb->measured)
            continue;
        const char *what[] = {"sleep", "wake"};
        const double fa[] = {ta->sleep_frac, ta->wake_frac}, fb[] = {tb->sleep_frac, tb->wake_frac};
        const int ga[] = {ta->sleep_goal, ta->wake_goal}, gb[] = {tb->sleep_goal, tb->wake_goal};
        const double *ca[] = {ta->sleep_cyc, ta->wake_cyc}, *cb[] = {tb->sleep_cyc, tb->wake_cyc};
        const size_t na[] = {ta->nsleep_cyc, ta->nwake_cyc}, nb[] = {tb->nsleep_cyc, tb->nwake_cyc};
        for (int w = 0; w < 2; w++) {
            /* A move counts when the goal's outcome changed, the medians
             * moved by more than the margin and, where both runs kept their
             * cycles, the cycles do not overlap: on one H200 the 4 GiB sleep
             * of A/A runs moved 96.9 % -> 94.9 % with cycles apart
             * (met -> within noise), which is not a change to report. */
            bool cycles = na[w] >= 2 && nb[w] >= 2;
            if (ga[w] == gb[w] || fabs(fb[w] - fa[w]) <= HA_THROUGHPUT_MARGIN ||
                (cycles && ranges_overlap(ca[w], na[w], cb[w], nb[w])))
                continue;
            bool modes = strcmp(ta->mode, tb->mode) != 0;
            char *name = modes ? finding_name(f, "throughput", "pool %.0f bytes %s (%s → %s)", ta->bytes, what[w],
                                              ta->mode, tb->mode)
                               : finding_name(f, "throughput", "pool %.0f bytes %s", ta->bytes, what[w]);
            if (!name)
                continue;
            findings_add(f, !same ? INCONCLUSIVE : gb[w] < ga[w] ? IMPROVEMENT : REGRESSION, "throughput", name,
                         "%.1f %% → %.1f %% of the pinned-copy ceiling (goal %.0f %%: %s → %s; %s)%s", 100 * fa[w],
                         100 * fb[w], 100 * HA_POOL_THROUGHPUT_GOAL, ha_goal_name(ga[w]), ha_goal_name(gb[w]),
                         cycles ? "more than the margin, and the runs' steady cycles do not overlap"
                                : "one figure per run: more than the margin",
                         same ? "" : "; on another machine, so not judged");
            free(name);
        }
    }
}

/* ---- timings ---- */

static double pct_of(double *v, size_t n, double p)
{
    if (!n)
        return NAN;
    ha_sort_doubles(v, n);
    return v[(size_t)ceil(p / 100 * (double)n) - (p > 0)];
}

static double max_overhead(const m_bench *b)
{
    double m = 0;
    for (size_t i = 0; i < b->nrows; i++)
        if (regress_row_judged(&b->rows[i]) && isfinite(b->rows[i].overhead_pct))
            m = fmax(m, b->rows[i].overhead_pct);
    return m;
}

typedef struct instruments {
    double canary, harness, sys; /* new/old; NaN where absent */
    bool clock_off;              /* moved more than normalisation corrects */
} instruments;

/* An instrument's new/old: the ratio of its figures, the rows' own unit. */
static double instrument(const m_run *ra, const m_run *rb, const char *path)
{
    return m_row_figure(rb, m_bench_row(&rb->bench, path, "", "", 1))->ns /
           m_row_figure(ra, m_bench_row(&ra->bench, path, "", "", 1))->ns;
}

static void read_instruments(const m_run *ra, const m_run *rb, instruments *in, findings *f)
{
    in->canary = instrument(ra, rb, "canary");
    in->harness = instrument(ra, rb, "harness");
    in->sys = instrument(ra, rb, "syscall");
    if (!isfinite(in->canary)) {
        findings_note(f, "no machine-speed canary figure in both runs: timings are not normalised");
        in->canary = 1;
        return;
    }
    in->clock_off = fabs(in->canary - 1) > INSTR_CANARY_LIMIT;
    double h = in->harness / in->canary, s = in->sys / in->canary;
    char shares[200];
    findings_note(f, "instruments, new/old: canary (a multiply-add chain: the core clock) ×%.3f; empty loop ×%.3f and "
                     "syscall loop ×%.3f against it (the host core's state); each timing is divided by the canary "
                     "raised to its family's clock share (1; %s)",
                  in->canary, h, s, ha_family_shares(shares, sizeof shares) == 0 ? shares : "common/families.def");
}

static void run_to_run(const regress_cfg *cfg, const m_run *ra, const m_run *rb, double canary, stability *st)
{
    const m_bench *a = &ra->bench, *b = &rb->bench;
    size_t n = a->nrows + 1;
    double *v[4];
    for (int i = 0; i < 4; i++)
        v[i] = calloc(n, sizeof *v[i]);
    if (v[0] && v[1] && v[2] && v[3]) {
        for (size_t i = 0; i < a->nrows; i++) {
            const m_row *x = &a->rows[i];
            if (x->repeat != 1 || !regress_row_judged(x))
                continue;
            const m_row *xb = m_bench_row(b, x->path, x->kind, x->candidate, 1);
            double fa = m_row_figure(ra, x)->ns, fb = xb ? m_row_figure(rb, xb)->ns : NAN;
            if (!xb || !(fa > 0) || !(fb > 0))
                continue;
            family_threshold ft = regress_family(cfg, m_row_family(x));
            double raw = 100 * fabs(fb / fa - 1), norm = 100 * fabs(fb / fa / pow(canary, ft.clock_share) - 1);
            v[0][st->rows] = raw;
            v[1][st->rows++] = norm;
            if (!strcmp(ft.family, "copy")) {
                v[2][st->copies] = raw;
                v[3][st->copies++] = norm;
            }
        }
        st->have = st->rows > 0;
        st->p50 = pct_of(v[0], st->rows, 50);
        st->p90 = pct_of(v[0], st->rows, 90);
        st->max = pct_of(v[0], st->rows, 100);
        st->np90 = pct_of(v[1], st->rows, 90);
        st->nmax = pct_of(v[1], st->rows, 100);
        st->copy_p90 = pct_of(v[2], st->copies, 90);
        st->copy_np90 = pct_of(v[3], st->copies, 90);
        st->overhead_old = max_overhead(a);
        st->overhead_new = max_overhead(b);
    }
    for (int i = 0; i < 4; i++)
        free(v[i]);
}

/* A path the new run slowed on purpose: how many of its rows the pair
 * flagged, and of the gated ones (the power goal is about those;
 * monitor-only rows are reported, never gated). The A/A check reads this
 * line to prove the gate sees a known change. */
static void slowdown_caught(const m_bench *a, const m_bench *b, const m_slowdown *s, const bool *gated, findings *f)
{
    size_t rows = 0, caught = 0, ngated = 0, caught_gated = 0;
    for (size_t i = 0; i < a->nrows; i++) {
        const m_row *r = &a->rows[i];
        if (r->repeat != 1 || !regress_row_judged(r) || regress_row_run_bound(r) || strcmp(r->path, s->path) ||
            !m_bench_row(b, s->path, r->kind, r->candidate, 1))
            continue;
        rows++;
        char *name = regress_row_name(r);
        bool hit = false;
        for (size_t k = 0; name && k < f->n; k++)
            hit |= f->v[k].cls == REGRESSION && !strcmp(f->v[k].name, name);
        free(name);
        caught += hit;
        ngated += gated[i];
        caught_gated += hit && gated[i];
    }
    findings_note(f, "the new run was slowed on purpose (HOSTACCESS_TEST_SLOWDOWN: %s +%lld%%): %zu of %zu rows "
                     "flagged; of the %zu gated (the rest monitor-only), %zu flagged",
                  s->path, s->percent, caught, rows, ngated, caught_gated);
}


/* ---- process-level timings ---- */

/* The process-level path: judged in numbers (procjudge.h), then said
 * (procwords.h). */
static void cmp_proc_rows(const regress_cfg *cfg, const m_bench *a, const m_bench *b, const instruments *in,
                          findings *f)
{
    proc_say_notes(cfg, a, b, f);
    proc_verdicts v;
    int rc = proc_judge(cfg, a, b, in->clock_off, &v);
    if (rc == 0) {
        proc_say_missing(a, b, &v, f);
        rc = proc_say_flagged(cfg, a, &v, f);
    }
    if (rc != 0) {
        findings_add(f, INCONCLUSIVE, "timing", "all rows", "out of memory: timings not judged");
        proc_verdicts_free(&v);
        return;
    }
    proc_say_family(&v, f);
    proc_say_unjudged(&v, f);
    for (size_t i = 0; i < b->nslowdowns; i++)
        slowdown_caught(a, b, &b->slowdowns[i], v.gated, f);
    proc_say_resolved(&v, f);
    proc_verdicts_free(&v);
}

/* Whether two runs hold the same sealed records: each manifest lists the
 * same records with the same SHA-256 (a boot and a timed window alone do
 * not make one run: a copy edited after the fact shares them). */
static bool same_sealed_records(const m_run *a, const m_run *b)
{
    const m_manifest *x = &a->manifest, *y = &b->manifest;
    if (!x->present || !y->present || x->nsteps != y->nsteps)
        return false;
    size_t sealed = 0;
    for (size_t i = 0; i < x->nsteps; i++) {
        const m_step *s = &x->steps[i];
        if (!s->record || !*s->record)
            continue;
        bool found = false;
        for (size_t k = 0; k < y->nsteps && !found; k++)
            found = y->steps[k].record && !strcmp(y->steps[k].record, s->record) && s->sha256 && y->steps[k].sha256 &&
                    !strcmp(s->sha256, y->steps[k].sha256);
        if (!found)
            return false;
        sealed++;
    }
    return sealed > 0;
}

/* Two devices of one machine start (run_all.sh --parallel: dev0 and dev1,
 * one boot): another device index or PCI bus there is another GPU, never
 * the same one later, so its timings are not comparable, --same-machine
 * or not. Across machine starts a PCI bus is a machine fact like any
 * other (machine_facts): timings then wait for --same-machine. */
static bool two_devices_of_one_machine(const m_env *x, const m_env *y)
{
    if (!*x->boot_id || strcmp(x->boot_id, y->boot_id) || strcmp(x->host, y->host))
        return false;
    return (x->device >= 0 && y->device >= 0 && x->device != y->device) ||
           (*x->pci_bus_id && *y->pci_bus_id && strcmp(x->pci_bus_id, y->pci_bus_id));
}

/* Returns whether timings were looked at (false: not comparable, or one run twice). */
static bool cmp_bench(const regress_cfg *cfg, const m_run *ra, const m_run *rb, findings *f)
{
    const m_bench *a = &ra->bench, *b = &rb->bench;
    const m_env *x = ra->env, *y = rb->env;
    /* Timings that are not judged never read as clean: inconclusive, said. */
    if (strcmp(x->backend, y->backend) || strcmp(x->device_name, y->device_name) ||
        strcmp(x->sim_profile, y->sim_profile) || (two_devices_of_one_machine(x, y) && !cfg->same_machine)) {
        f->timings = "the runs are of different backends, devices or stand-in releases: kinds, verdicts and pool "
                     "checks are compared, timings never.";
        const char *why = two_devices_of_one_machine(x, y) && !strcmp(x->device_name, y->device_name)
                              ? "the runs are of two devices of one machine (another device index or PCI bus): "
                                "timings are not judged (--same-machine judges them)"
                              : "the runs are of different backends, devices or stand-in releases: timings are never "
                                "judged";
        findings_add(f, INCONCLUSIVE, "timing", "all rows", "%s", why);
        return false;
    }
    if (*x->boot_id && !strcmp(x->boot_id, y->boot_id) && a->has_window && b->has_window &&
        a->window_from == b->window_from && a->window_until == b->window_until) {
        if (same_sealed_records(ra, rb)) {
            f->timings = "the same run given twice (one boot, one timed window, the same sealed records): there is "
                         "nothing to compare.";
            findings_add(f, INCONCLUSIVE, "timing", "all rows",
                         "the same run given twice (a copy of one folder): nothing was compared");
            return false;
        }
        findings_note(f, ra->manifest.present && rb->manifest.present
                             ? "the runs share a boot and a timed window but not their sealed records (MANIFEST.json's "
                               "SHA-256s): one was changed or copied after it ran; judged as two runs"
                             : "the runs share a boot and a timed window, and a run without MANIFEST.json has no "
                               "seals to show they are one: judged as two runs");
    }
    instruments in = {0};
    read_instruments(ra, rb, &in, f);
    run_to_run(cfg, ra, rb, in.canary, &f->st);
    if (!f->same_machine) {
        findings_add(f, INCONCLUSIVE, "timing", "all rows",
                     "the runs are from different machines or machine starts: timings are not judged "
                     "(--same-machine judges them)");
        return true;
    }
    if (!a->has_state || !b->has_state) {
        findings_add(f, INCONCLUSIVE, "timing", "all rows",
                     "a record from before the CPU-state hold (schema 1): its blocks may mix a contended and an "
                     "uncontended CPU, which no instrument corrects: timings cannot be normalised, not judged");
        return true;
    }
    /* One process is one sample: two or three cannot carry a row's
     * judgement (procstats.h), whatever its blocks say. */
    if (regress_usable_procs(a) < HA_GATE_MIN_PROCS || regress_usable_procs(b) < HA_GATE_MIN_PROCS) {
        f->timings = "not judged: a run of fewer than 4 processes (or a record before schema 3) has too few samples.";
        findings_add(f, INCONCLUSIVE, "timing", "all rows",
                     "%zu and %zu processes finished, fewer than %d a run: timings are not judged (run the bench with "
                     "--processes 8, or an A/B session: run_all.sh --ab)",
                     regress_usable_procs(a), regress_usable_procs(b), HA_GATE_MIN_PROCS);
        return true;
    }
    if (in.clock_off)
        findings_add(f, INCONCLUSIVE, "instrument", "canary",
                     "the machine's clock moved %+.1f %% between the runs, more than the %.0f %% normalisation is "
                     "trusted for: no timing judged", 100 * (in.canary - 1), 100 * INSTR_CANARY_LIMIT);
    f->timings = "judged per process: each run's processes are its samples, the interval's degrees of freedom "
                 "come from them, and the family of rows is controlled (docs/gate.md).";
    cmp_proc_rows(cfg, a, b, &in, f);
    if (a->nslowdowns)
        findings_note(f, "the old run was slowed on purpose (HOSTACCESS_TEST_SLOWDOWN): not evidence");
    return true;
}

static bool run_simulated(const m_run *r);
static void never_clean_simulated(const m_run *a, const m_run *b, findings *f);
static void same_runtime_swapped(const m_run *run, const m_run *b, findings *f);

void regress_analyse(const regress_cfg *c, const m_run *a, const m_run *b, findings *f)
{
    findings_clear(f);
    machine_facts(c, a, b, f);
    cmp_records(a, b, f);
    backends two = {a->env ? a->env->backend : "", b->env ? b->env->backend : ""};
    const backends *bk = strcmp(two.old, two.new) ? &two : NULL;
    if (a->has[RUN_PROBE] && b->has[RUN_PROBE]) {
        cmp_kinds(&a->probe, &b->probe, bk, f);
        cmp_candidates(&a->probe, &b->probe, bk, f);
    }
    if (a->has[RUN_BENCH] && b->has[RUN_BENCH]) {
        size_t before = f->n;
        bool looked = cmp_bench(c, a, b, f);
        if (looked && (a->bench.head.simulated || b->bench.head.simulated)) {
            /* A simulation's timings are the CI machine's: reported, never
             * gated, whatever the other side's record says of itself. */
            for (size_t i = before; i < f->n; i++)
                if (f->v[i].cls != CHANGE && (!strcmp(f->v[i].what, "timing") || !strcmp(f->v[i].what, "instrument")))
                    f->v[i].cls = CHANGE;
            f->timings = a->bench.head.simulated && b->bench.head.simulated
                             ? "both runs are SIMULATED: their timings are reported below as changes, never gated."
                             : "a run is SIMULATED: the timings are reported below as changes, never gated.";
        }
    }
    if (a->has[RUN_MGA] && b->has[RUN_MGA])
        cmp_mga(&a->mga, &b->mga, f);
    if (a->has[RUN_POOL] && b->has[RUN_POOL])
        cmp_pool(&a->pool, &b->pool, f->same_machine, f);
    if (run_simulated(a) || run_simulated(b))
        never_clean_simulated(a, b, f);
}

static bool run_simulated(const m_run *r) { return r->d.simulated; }

static void never_clean_simulated(const m_run *a, const m_run *b, findings *f)
{
    /* A simulation against a GPU: what differs is the model against the
     * hardware, in either order: changes, and not comparable. */
    if (run_simulated(a) != run_simulated(b)) {
        for (size_t i = 0; i < f->n; i++)
            f->v[i].cls = CHANGE;
        findings_add(f, INCONCLUSIVE, "runs", "simulated against real",
                     "one run is SIMULATED and the other is not: what differs is the model against the hardware; "
                     "nothing is judged, every difference is listed as a change");
        return;
    }
    /* Two simulations: their exact facts are the model's (a stand-in
     * release against another is judged on them); their timings are the
     * machine's that ran them, so the pair is never clean. */
    if (!f->unresolved)
        findings_unresolved(f, "both runs are SIMULATED: their timings are the machine's that ran them, not a GPU's: "
                               "never gated, so never clean (their kinds, candidates and pool checks are judged)");
}

void regress_side_b(const regress_cfg *c, const m_run *run, findings *f)
{
    const m_run *b = run->side_b;
    if (!b) {
        findings_note(f, "side B ran the bench only (a run_all.sh before side B's probes and pool): its kinds, "
                         "candidates and pool checks were not run in this session");
        return;
    }
    machine_facts(c, run, b, f);
    /* One session on one device: whatever B's records say differs is what
     * SPEC changed (a runtime, a variable), never another machine. */
    f->same_machine = true;
    for (int i = 0; i < RUN_NREC; i++)
        if (run_files_b[i] && run->has[i] && !b->has[i])
            findings_add(f, REGRESSION, "record", run_files_b[i], "side B has no %s record", record_what[i]);
    if (run->has[RUN_PROBE] && b->has[RUN_PROBE]) {
        cmp_kinds(&run->probe, &b->probe, NULL, f);
        cmp_candidates(&run->probe, &b->probe, NULL, f);
    }
    if (run->has[RUN_MGA] && b->has[RUN_MGA])
        cmp_mga(&run->mga, &b->mga, f);
    if (run->has[RUN_POOL] && b->has[RUN_POOL])
        cmp_pool(&run->pool, &b->pool, f->same_machine, f);
    if (run_simulated(run) != run_simulated(b))
        never_clean_simulated(run, b, f);
    same_runtime_swapped(run, b, f);
}

/* A session that asked for another runtime (rocm:, sim-profile:, or the
 * variables that choose one) and whose side B loaded the one side A did:
 * an A/A session, whatever its SPEC says, and never a release comparison. */
static void same_runtime_swapped(const m_run *run, const m_run *b, findings *f)
{
    const m_ab *ab = &run->bench.ab;
    bool asked = ab->spec && (!strncmp(ab->spec, "rocm:", 5) || !strncmp(ab->spec, "sim-profile:", 12));
    for (size_t i = 0; i < ab->nvars && !asked; i++)
        asked = (!strncmp(ab->vars[i], HA_HIP_LIBRARY_ENV, strlen(HA_HIP_LIBRARY_ENV)) &&
                 ab->vars[i][strlen(HA_HIP_LIBRARY_ENV)] == '=') || !strncmp(ab->vars[i], "LD_LIBRARY_PATH=", 16);
    const m_env *x = run->env, *y = b->env;
    if (asked && x && y && !strcmp(x->runtime_version, y->runtime_version) && !strcmp(x->sim_profile, y->sim_profile))
        findings_add(f, INCONCLUSIVE, "session", "side B's runtime",
                     "side B loaded the runtime side A did (%s%s%s): an A/A session, not a release comparison",
                     *x->runtime_version ? x->runtime_version : "version not recorded", *x->sim_profile ? ", stand-in "
                     "profile " : "", x->sim_profile);
}
