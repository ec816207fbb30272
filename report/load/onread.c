#include "onread.h"

#include <math.h>
#include <string.h>

#include "procstats.h"
#include "stats.h"

static void statistics(m_row *d)
{
    ha_stats st;
    d->n = (long long)d->nsamples;
    if (ha_stats_compute(d->samples, d->nsamples, &st) != 0) {
        d->st = (m_stats){NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
        d->overhead_pct = NAN;
        return;
    }
    d->st = (m_stats){st.min, st.median, st.p90, st.p99, st.max, st.mean, st.mad, st.spread};
    d->outliers = (long long)st.outliers;
    d->slow_first = st.slow_first;
    d->overhead_pct = ha_overhead_share(d->overhead, st.median);
}

/* Process 1's block medians, by the rule its own bench applied to them. */
static void first_process(m_run *r, m_row *d)
{
    double *v = m_alloc(r, (d->nblock_state ? d->nblock_state : 1) * sizeof *v);
    size_t n = v ? ha_block_medians(d->samples, d->nsamples, (size_t)d->block_samples, d->block_state,
                                    d->nblock_state, v)
                 : 0;
    m_rowproc *all = n ? m_alloc(r, (d->nprocs + 1) * sizeof *all) : NULL;
    if (!all)
        return;
    all[0] = (m_rowproc){1, v, n};
    if (d->nprocs)
        memcpy(all + 1, d->procs, d->nprocs * sizeof *all);
    d->procs = all;
    d->nprocs++;
}

void onread_row(m_run *r, m_row *d)
{
    if (d->skipped)
        return;
    statistics(d);
    first_process(r, d);
}
