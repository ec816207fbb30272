#include "procjudge.h"

#include <stdlib.h>
#include <string.h>

#include "rowest.h"

/* A row's group for the spread prior (procstats.h): its path, numbered
 * by the path's first row in the old run. The rows of a path are one
 * operation on other allocation kinds, and spread alike between processes. */
static size_t path_group(const m_bench *a, const m_row *r)
{
    for (size_t i = 0; i < a->nrows; i++)
        if (!strcmp(a->rows[i].path, r->path))
            return i + 1;
    return 0;
}

void proc_verdicts_free(proc_verdicts *v)
{
    free(v->missing);
    free(v->gated);
    free(v->idx);
    free(v->rule);
    free(v->ea);
    free(v->eb);
    free(v->g);
}

static int proc_verdicts_alloc(proc_verdicts *v, size_t rows)
{
    size_t k = rows ? rows : 1;
    *v = (proc_verdicts){0};
    v->gated = calloc(k, sizeof *v->gated);
    v->idx = malloc(k * sizeof *v->idx);
    v->rule = malloc(k * sizeof *v->rule);
    v->ea = calloc(k, sizeof *v->ea);
    v->eb = calloc(k, sizeof *v->eb);
    v->g = calloc(k, sizeof *v->g);
    v->missing = malloc(k * sizeof *v->missing);
    return v->gated && v->idx && v->rule && v->ea && v->eb && v->g && v->missing ? 0 : -1;
}

/* The rows judged and their estimates, then the family at once. -1: out
 * of memory. */
static int judge_rows(const regress_cfg *cfg, const m_bench *a, const m_bench *b, bool clock_off, proc_verdicts *v)
{
    for (size_t i = 0; i < a->nrows; i++) {
        const m_row *r = &a->rows[i];
        v->m += regress_row_gated(r) && m_bench_row(b, r->path, r->kind, r->candidate, 1);
    }
    for (size_t i = 0; i < a->nrows; i++) {
        const m_row *ra = &a->rows[i];
        if (ra->repeat != 1 || !regress_row_judged(ra))
            continue;
        const m_row *rb = m_bench_row(b, ra->path, ra->kind, ra->candidate, 1);
        if (!rb) {
            v->missing[v->nmissing++] = i;
            continue;
        }
        if (regress_row_run_bound(ra)) {
            v->ungated++;
            continue;
        }
        family_threshold ft = regress_family(cfg, m_row_family(ra));
        if (clock_off) {
            v->held++;
            continue;
        }
        size_t n = v->n;
        v->rule[n] = (ha_gate_rule){GATE_ALPHA, v->m, ft.pct / 100, GATE_RESOLVE, GATE_POWER, path_group(a, ra)};
        if (m_row_estimate(a, ra, M_EST_NORMALISED, &cfg->rules, &v->ea[n]) != 0 ||
            m_row_estimate(b, rb, M_EST_NORMALISED, &cfg->rules, &v->eb[n]) != 0)
            v->ea[n].k = v->eb[n].k = 0; /* too few: judged so */
        v->idx[v->n++] = i;
    }
    v->found = ha_gate_family(v->rule, v->n, v->ea, v->eb, v->g);
    return v->found < 0 ? -1 : 0;
}

/* The outcomes counted; which rows the pair resolves (the slowdown check's
 * power is over those). */
static void tally_rows(const m_bench *a, proc_verdicts *v)
{
    for (size_t j = 0; j < v->n; j++) {
        const ha_gate_row *g = &v->g[j];
        const m_row *ra = &a->rows[v->idx[j]];
        v->gated[v->idx[j]] =
            g->outcome != HA_GATE_MONITOR && g->outcome != HA_GATE_TOO_FEW && g->detectable <= GATE_RESOLVE;
        switch (g->outcome) {
        case HA_GATE_SAME: v->same++; break;
        case HA_GATE_TOO_FEW:
            if (!v->few++)
                v->few_row = ra;
            break;
        case HA_GATE_MONITOR:
            v->monitor++;
            if (g->detectable > v->worst_det) {
                v->worst_det = g->detectable;
                v->worst = ra;
            }
            break;
        default: v->flagged += g->outcome == HA_GATE_REGRESSION || g->outcome == HA_GATE_IMPROVEMENT;
        }
    }
}

int proc_judge(const regress_cfg *cfg, const m_bench *a, const m_bench *b, bool clock_off, proc_verdicts *v)
{
    if (proc_verdicts_alloc(v, a->nrows) != 0 || judge_rows(cfg, a, b, clock_off, v) != 0)
        return -1;
    tally_rows(a, v);
    return 0;
}
