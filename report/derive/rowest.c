#include "rowest.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "families.h"

const m_est_rules m_est_default_rules = {0.10, 0.7};

m_family_traits m_family_traits_of(const char *family)
{
    const ha_family *f = ha_family_find(family);
    if (!f || f->instrument)
        return (m_family_traits){family, 1, true, false};
    return (m_family_traits){f->name, f->clock_share, f->state_bound, f->steady_only};
}

static const m_rowproc *row_proc(const m_row *r, long long process)
{
    for (size_t i = 0; i < r->nprocs; i++)
        if (r->procs[i].process == process)
            return &r->procs[i];
    return NULL;
}

/* Whether a process spent most of its blocks on a contended CPU: it kept
 * an uncontended block in fewer than rules->contended_share of the rows its
 * run's most complete process kept, the retake budget having run out. Its
 * instruments were read on that CPU too, so dividing by them is wrong for
 * what it kept: on m22 of results/gate-proc-h200 such processes' canary
 * ran 17-28 % above the run's median, and their read rows, divided by it,
 * came out 11-27 % below the other processes'. */
bool m_proc_contended(const m_bench *b, long long process, const m_est_rules *rules)
{
    size_t top = 0, mine = SIZE_MAX;
    for (size_t i = 0; i < b->nprocs; i++) {
        if (b->procs[i].rows_kept > top)
            top = b->procs[i].rows_kept;
        if (b->procs[i].index == process && b->procs[i].ok) /* one that died is said as such */
            mine = b->procs[i].rows_kept;
    }
    return mine != SIZE_MAX && (double)mine < rules->contended_share * (double)top;
}

/* The syscall loop of the run's steadiest process (its smallest value),
 * of those not contended; NaN without one. */
double m_steadiest(const m_bench *b, const m_row *syscall, const m_est_rules *rules)
{
    double low = NAN;
    for (size_t i = 0; syscall && i < syscall->nprocs; i++) {
        if (m_proc_contended(b, syscall->procs[i].process, rules))
            continue;
        double v = ha_proc_value(syscall->procs[i].blocks, syscall->procs[i].nblocks);
        if (v > 0 && !(v >= low))
            low = v;
    }
    return low;
}

/* Whether a process sat in a slow state of its host core: its syscall loop
 * more than rules->steady_margin above the run's steadiest. */
bool m_slow_state(double syscall_value, double low, const m_est_rules *rules)
{
    return syscall_value > (1 + rules->steady_margin) * low;
}

/* Normalised: each process's value over the same process's instrument.
 * For families that follow the host core's state (the two speed levels of
 * a shared vCPU, which the canary cannot see) the syscall loop, which shows
 * the same levels; for the others the canary (the core clock) raised to
 * the family's clock share. On the H200's committed runs this halves the
 * between-process spread of queries, hardened and guarded rows (0.127 ->
 * 0.074, 0.130 -> 0.077, 0.100 -> 0.057 sd of log; results/gate-proc-h200).
 * The division does not take a slow state out of every family: query and
 * hardened rows slow by more than the loop (log slope 1.44 and 1.43 over
 * m5-m24, tools/diag/slow_state.py; a loop 20-25 % above the run's
 * steadiest came with rows 33-34 % above), guarded rows by a little more
 * (1.17), fault rows by as much (0.98). So the steady_only families' rows
 * leave out the processes in a slow state. The choice reads the instrument
 * alone, never the row, so the two sides of an A/A pair stay alike.
 * A process without that instrument's value is left out. */
static size_t normalised_values(const m_bench *b, const m_row *r, const m_est_rules *rules, long long *ids, double *v)
{
    m_family_traits t = m_family_traits_of(m_row_family(r));
    const char *instr = t.state_bound ? "syscall" : "canary";
    double share = t.state_bound ? 1 : t.clock_share;
    const m_row *canary = m_bench_row(b, instr, "", "", 1);
    double low = t.steady_only ? m_steadiest(b, canary, rules) : NAN;
    size_t n = 0;
    for (size_t i = 0; i < r->nprocs; i++) {
        if (m_proc_contended(b, r->procs[i].process, rules))
            continue;
        double x = ha_proc_value(r->procs[i].blocks, r->procs[i].nblocks);
        const m_rowproc *c = canary ? row_proc(canary, r->procs[i].process) : NULL;
        double cv = c ? ha_proc_value(c->blocks, c->nblocks) : NAN;
        if (canary && !(cv > 0 && !m_slow_state(cv, low, rules)))
            continue;
        ids[n] = r->procs[i].process;
        v[n++] = canary ? x / pow(cv, share) : x;
    }
    return n;
}

/* Row r's value in each of bench b's processes, of the kind asked, with
 * the processes' indices (ids and v hold r->nprocs each). Their count. */
static size_t row_values(const m_bench *b, const m_row *r, m_est_kind kind, const m_est_rules *rules, long long *ids,
                         double *v)
{
    if (kind == M_EST_NORMALISED)
        return normalised_values(b, r, rules, ids, v);
    for (size_t i = 0; i < r->nprocs; i++) {
        ids[i] = r->procs[i].process;
        v[i] = ha_proc_value(r->procs[i].blocks, r->procs[i].nblocks);
    }
    return r->nprocs;
}

int m_row_estimate(const m_bench *b, const m_row *r, m_est_kind kind, const m_est_rules *rules, ha_proc_est *out)
{
    double *v = calloc(r->nprocs ? r->nprocs : 1, sizeof *v);
    long long *ids = calloc(r->nprocs ? r->nprocs : 1, sizeof *ids);
    int rc = v && ids ? ha_proc_summary(v, row_values(b, r, kind, rules, ids, v), out) : -1;
    free(v);
    free(ids);
    return rc;
}
