#include "rounds.h"

#include <stdio.h>
#include <stdlib.h>

#include "hostread.h"

static void skip(bench_row *r, const char *why)
{
    r->skipped = true;
    snprintf(r->skip_reason, sizeof r->skip_reason, "%s", why);
}

int bench_run_rounds(bench_job *jobs, size_t n, const bench_plan *plan, int repeats,
                     const ha_clock_info *ci)
{
    int rc = 0;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++) {
        bench_job *j = &jobs[i];
        if (j->session && ha_guard_session_begin() != 0) {
            skip(j->row, "could not install the fault guard");
            continue;
        }
        bench_calibrate(j->f, &j->c, plan->warmup, ci, j->row);
        if (j->session)
            ha_guard_session_end();
        size_t want = bench_plan_samples(plan, plan->rounds, j->row);
        j->row->samples = malloc(want * sizeof *j->row->samples);
        if (!j->row->samples) {
            skip(j->row, "out of memory for samples");
            rc = -1;
        }
    }
    unsigned long long seed = BENCH_ROUND_SEED;
    long total = plan->rounds * repeats;
    for (long round = 0; round < total; round++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            if (!jobs[i].row->skipped && (jobs[i].row->repeat - 1) == round % repeats)
                order[m++] = i;
        for (size_t i = m; i > 1; i--) {
            size_t k = (size_t)(ha_xorshift64(&seed) % i), t = order[i - 1];
            order[i - 1] = order[k];
            order[k] = t;
        }
        for (size_t i = 0; i < m; i++) {
            bench_job *j = &jobs[order[i]];
            if (j->session && ha_guard_session_begin() != 0) {
                skip(j->row, "could not install the fault guard");
                continue;
            }
            j->f(&j->c, j->row->batch); /* unrecorded: warm again after the other rows */
            bench_take(j->f, &j->c, j->row, j->row->block_samples, j->slowdown);
            if (j->session)
                ha_guard_session_end();
        }
    }
    for (size_t i = 0; i < n; i++) {
        jobs[i].row->status = jobs[i].c.status;
        jobs[i].row->fallbacks = jobs[i].c.fallbacks;
    }
    free(order);
    return rc;
}
