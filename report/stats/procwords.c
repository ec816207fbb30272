#include "procwords.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"
#include "rowest.h"

/* A row timed in one run of the pair only ("old" or "new"). */
static void say_row_only_in(findings *f, const m_row *r, const char *side)
{
    char *name = regress_row_name(r);
    findings_add(f, CHANGE, "timing", name ? name : "a row (out of memory naming it)", "timed in the %s run only",
                 side);
    free(name);
}

/* list, then sep and the item when list is not empty (list is freed); the
 * first call takes NULL or "". NULL out of memory. */
static char *joined(char *list, const char *sep, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static char *joined(char *list, const char *sep, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *item = rf_vprintf(fmt, ap);
    va_end(ap);
    char *s = item ? rf_printf("%s%s%s", list ? list : "", list && *list ? sep : "", item) : NULL;
    free(item);
    free(list);
    return s;
}

/* The families of the table that are steady_only, ", "-joined (malloc'd;
 * NULL out of memory). */
static char *regress_steady_families(const regress_cfg *cfg)
{
    char *s = rf_printf("%s", "");
    for (int i = 0; s && i < REGRESS_NFAM; i++)
        if (cfg->thr[i].steady_only)
            s = joined(s, ", ", "%s", cfg->thr[i].family);
    return s;
}

void proc_say_notes(const regress_cfg *cfg, const m_bench *a, const m_bench *b, findings *f)
{
    const m_bench *runs[2] = {a, b};
    const char *side[2] = {"old", "new"};
    const m_est_rules *dflt = &m_est_default_rules;
    if (cfg->rules.steady_margin != dflt->steady_margin || cfg->rules.contended_share != dflt->contended_share)
        findings_note(f, "processes were left out by rules other than the gate's own: a steady margin of %g %% and a "
                         "contended share of %g %% (--steady-margin, --contended-share; the defaults are %g and %g)",
                      100 * cfg->rules.steady_margin, 100 * cfg->rules.contended_share, 100 * dflt->steady_margin,
                      100 * dflt->contended_share);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < runs[s]->nprocs; i++)
            if (!runs[s]->procs[i].ok)
                findings_note(f, "the %s run's process %lld of %lld did not finish (%s): its rows use the %lld that did",
                              side[s], runs[s]->procs[i].index, runs[s]->procs_requested, runs[s]->procs[i].detail,
                              runs[s]->procs_finished);
    if (a->procs_finished != b->procs_finished)
        findings_note(f, "the runs have %lld and %lld finished processes: the interval takes each side's own count",
                      a->procs_finished, b->procs_finished);
    char *cpus[2] = {NULL, NULL};
    for (int s = 0; s < 2; s++) {
        cpus[s] = rf_printf("%s", "");
        for (size_t i = 0; cpus[s] && i < runs[s]->nprocs; i++)
            cpus[s] = joined(cpus[s], ",", "%lld", runs[s]->procs[i].start_cpu);
    }
    if (!cpus[0] || !cpus[1])
        findings_note(f, "the processes' CPUs were not compared: out of memory");
    else if (strcmp(cpus[0], cpus[1]))
        findings_note(f, "the processes started on other CPUs (old %s; new %s): CPUs are sampled, not matched, as "
                         "every process takes its own", cpus[0], cpus[1]);
    free(cpus[0]);
    free(cpus[1]);
    for (int s = 0; s < 2; s++) {
        char *list = rf_printf("%s", "");
        size_t n = 0;
        for (size_t i = 0; list && i < runs[s]->nprocs; i++)
            if (m_proc_contended(runs[s], runs[s]->procs[i].index, &cfg->rules)) {
                list = joined(list, ", ", "%lld", runs[s]->procs[i].index);
                n++;
            }
        if (!list)
            findings_note(f, "the %s run's contended processes were not listed: out of memory", side[s]);
        else if (n)
            findings_note(f, "the %s run's rows leave out %zu of %zu processes (%s): each kept an uncontended block "
                             "in fewer than %.0f %% of the rows its run's most complete process did, so its blocks "
                             "and the instruments it is divided by were taken on a contended CPU",
                          side[s], n, runs[s]->nprocs, list, 100.0 * cfg->rules.contended_share);
        free(list);
    }
    char *fams = regress_steady_families(cfg);
    for (int s = 0; s < 2; s++) {
        const m_row *sys = m_bench_row(runs[s], "syscall", "", "", 1);
        double low = m_steadiest(runs[s], sys, &cfg->rules);
        char *list = rf_printf("%s", "");
        size_t n = 0;
        for (size_t i = 0; list && sys && i < sys->nprocs; i++)
            if (!m_proc_contended(runs[s], sys->procs[i].process, &cfg->rules) &&
                m_slow_state(ha_proc_value(sys->procs[i].blocks, sys->procs[i].nblocks), low, &cfg->rules)) {
                list = joined(list, ", ", "%lld", sys->procs[i].process);
                n++;
            }
        if (!list || !fams)
            findings_note(f, "the %s run's slow-state processes were not listed: out of memory", side[s]);
        else if (n)
            findings_note(f, "the %s run's %s rows leave out %zu of %zu processes (%s): their syscall loop ran more "
                             "than %.0f %% above the run's steadiest, a slow state of the host core that dividing by "
                             "the loop does not take out",
                          side[s], fams, n, sys->nprocs, list, 100 * cfg->rules.steady_margin);
        free(list);
    }
    free(fams);
}

void proc_say_missing(const m_bench *a, const m_bench *b, const proc_verdicts *v, findings *f)
{
    for (size_t i = 0; i < v->nmissing; i++)
        say_row_only_in(f, &a->rows[v->missing[i]], "old");
    for (size_t i = 0; i < b->nrows; i++) {
        const m_row *r = &b->rows[i];
        if (r->repeat == 1 && regress_row_judged(r) && !m_bench_row(a, r->path, r->kind, r->candidate, 1))
            say_row_only_in(f, r, "new");
    }
}

static int finding_class(int outcome)
{
    return outcome == HA_GATE_REGRESSION ? REGRESSION : outcome == HA_GATE_IMPROVEMENT ? IMPROVEMENT : INCONCLUSIVE;
}

int proc_say_flagged(const regress_cfg *cfg, const m_bench *a, const proc_verdicts *v, findings *f)
{
    for (size_t j = 0; j < v->n; j++) {
        const ha_gate_row *g = &v->g[j];
        if (g->outcome == HA_GATE_SAME || g->outcome == HA_GATE_TOO_FEW || g->outcome == HA_GATE_MONITOR)
            continue;
        const m_row *ra = &a->rows[v->idx[j]];
        const char *fam = m_row_family(ra);
        family_threshold ft = regress_family(cfg, fam);
        char *name = regress_row_name(ra); /* whole: a record's names have no bound */
        if (!name)
            return -1;
        findings_add(f, finding_class(g->outcome), "timing", name,
                     "%.4g → %.4g (ratios, not ns: each process's ns over its %s; geometric means of %zu and %zu "
                     "processes): ×%.3f, "
                     "interval [%.3f, %.3f] at %.4g %% (family of %zu rows, %ld flagged; %s, %.0f df); %s "
                     "threshold %.0f %%, same within ±%.0f %%; detectable %+.1f %%%s",
                     v->ea[j].gmean, v->eb[j].gmean,
                     ft.state_bound ? "syscall loop's ns" : "canary's ns to its family's clock share", v->ea[j].k,
                     v->eb[j].k, g->r.ratio, g->r.lo, g->r.hi, 100 * g->level, v->m, v->found,
                     g->prior_df > 0 ? "its spread shrunk toward its path's" : "its own spread (Welch)", g->r.df, fam,
                     ft.pct, 100 * GATE_RESOLVE, 100 * g->detectable,
                     g->detectable > GATE_RESOLVE ? " (a monitor-only row: flagged because its interval is "
                                                    "wholly beyond the threshold)"
                                                  : "");
        free(name);
    }
    return 0;
}

void proc_say_family(const proc_verdicts *v, findings *f)
{
    /* A few processes with a wide spread give a figure no reader can use
     * (+4e81 %): past 10x it is said as such. */
    char *worst_name = v->worst ? regress_row_name(v->worst) : NULL;
    char *worst_text = !worst_name ? NULL
                       : v->worst_det > 9
                           ? rf_printf("; the least resolved, %s, cannot resolve even a tenfold change", worst_name)
                           : rf_printf("; the least resolved, %s, detects %+.0f %%", worst_name, 100 * v->worst_det);
    findings_note(f, "process-level judgement: %zu row(s) in the family; each row's new/old is a t interval on the "
                     "logs of the per-process medians, its spread shrunk toward its path's (the path's rows' spreads "
                     "as a prior, limma's moderated t; Welch's on its own spread where the path has fewer than three "
                     "rows to judge or the row spreads far beyond its path's), and the rows flagged are the Benjamini-Hochberg discoveries at "
                     "%.2f among the p-values of \"beyond the threshold\", so an A/A pair flags any row with "
                     "probability at most %.0f %%; %ld flagged; %zu same (within ±%.0f %% at 1 − %.2f/%zu), %zu "
                     "monitor-only (the pair cannot resolve ±%.0f %% at %.0f %% power%s)",
                  v->m, GATE_ALPHA, 100 * GATE_ALPHA, v->found, v->same, 100 * GATE_RESOLVE, GATE_ALPHA, v->m,
                  v->monitor, 100 * GATE_RESOLVE, 100 * GATE_POWER, worst_text ? worst_text : "");
    free(worst_name);
    free(worst_text);
}

void proc_say_unjudged(const proc_verdicts *v, findings *f)
{
    /* A row without HA_GATE_MIN_PROCS processes' values on a side is not
     * judged, so it is not gated: said, never exit 6 (on a fresh H200 one
     * hardened row kept one process of eight, its others' blocks all on a
     * contended CPU). Every row too few is a comparison that did not
     * happen: never a pass. */
    if (v->few && v->few == v->n)
        findings_add(f, INCONCLUSIVE, "timing", "all rows",
                     "no row kept %d processes' values on both sides (a run whose processes sat on contended CPUs): "
                     "timings not judged; run the bench again",
                     HA_GATE_MIN_PROCS);
    if (v->few) {
        char *few_name = regress_row_name(v->few_row);
        findings_note(f, "%zu row(s) not judged: fewer than %d processes kept a value for it on a side (a process "
                         "drops blocks taken on a contended CPU; compare leaves out processes in a slow state or "
                         "contended throughout), e.g. %s",
                      v->few, HA_GATE_MIN_PROCS, few_name ? few_name : "one");
        free(few_name);
    }
    if (v->held)
        findings_note(f, "%zu row(s) not judged: their family follows an instrument that moved (above)", v->held);
    if (v->ungated)
        findings_note(f, "%zu os_proc_maps and fast_cold row(s) not gated: their cost follows where a mapping lands "
                         "(in /proc/self/maps; the pages the cold read touches), which moves between runs beyond what "
                         "the processes sample", v->ungated);
}

/* No clean without evidence: a pair that showed too few of
 * its rows the same or changed has not shown that nothing changed. */
void proc_say_resolved(const proc_verdicts *v, findings *f)
{
    size_t decided = v->same + v->flagged, total = v->n + v->held;
    if (total && (double)decided < GATE_DECIDED_SHARE * (double)total)
        findings_unresolved(f, "%zu of %zu timed rows decided (%zu same within ±%.0f %%, %zu flagged): %zu "
                               "monitor-only, %zu with too few processes, %zu held by an instrument that moved. Two "
                               "runs made apart differ by more than their processes say; an A/B session "
                               "(run_all.sh --ab SPEC) measures both sides in one session and resolves them",
                            decided, total, v->same, 100 * GATE_RESOLVE, v->flagged, v->monitor, v->few, v->held);
}
