#include "rounds.h"

#include <stdio.h>
#include <stdlib.h>

#include "families.h"
#include "hostread.h"
#include "pathdefs.h"

static void skip(bench_row *r, const char *why)
{
    r->skipped = true;
    snprintf(r->skip_reason, sizeof r->skip_reason, "%s", why);
}

/* One block of a job: warm, take, probe; taken again on a contended CPU.
 * An instrument's block (canary, syscall loop, harness) is taken again
 * even when the run's retake budget is spent: every row of a process is
 * judged with its instruments beside it, so a process whose instrument
 * kept no uncontended block is lost to every row (H200: about a quarter of
 * an A/B session's processes), where a lost block of a path
 * costs that row alone. At most 3 more takes of 3 instruments' blocks. */
static void take_block(bench_job *j, cpu_state *cs)
{
    bench_row *r = j->row;
    bool instrument = ha_family_is_instrument(r->family);
    size_t start = r->nsamples;
    for (int take = 1;; take++) {
        if (j->session && ha_guard_session_begin() != 0) {
            skip(r, "could not install the fault guard");
            return;
        }
        j->f(&j->c, r->batch); /* unrecorded: warm again after the other rows */
        bench_take(j->f, &j->c, r, r->block_samples, j->slowdown);
        if (j->session)
            ha_guard_session_end();
        double probe;
        bool bad = cpustate_check(cs, &probe);
        if (!bad || take == CPUSTATE_TAKES || (cs->retake_budget == 0 && !instrument)) {
            r->block_state[r->nblocks] = bad ? -probe : probe;
            r->block_cpu[r->nblocks++] = cs->cur;
            cs->blocks++;
            cs->kept += bad;
            if (bad)
                cpustate_move(cs, &probe);
            return;
        }
        r->nsamples = start;
        r->retaken++;
        cs->retaken++;
        if (cs->retake_budget)
            cs->retake_budget--;
        cpustate_move(cs, &probe);
    }
}

#define FNV_OFFSET 0xcbf29ce484222325ull
#define FNV_PRIME 0x100000001b3ull

/* One round's order, hashed: into the run's digest and on its own. */
static unsigned long long log_round(bench_order_log *log, const size_t *order, size_t m)
{
    unsigned long long h = FNV_OFFSET;
    for (size_t i = 0; i < m; i++)
        for (int k = 0; k < 4; k++) { /* the index's low 32 bits, a byte at a time */
            unsigned char byte = (unsigned char)(order[i] >> (8 * k));
            h = (h ^ byte) * FNV_PRIME;
            log->digest = (log->digest ^ byte) * FNV_PRIME;
        }
    return h;
}

int bench_run_rounds(bench_job *jobs, size_t n, const bench_plan *plan, int repeats,
                     const ha_clock_info *ci, cpu_state *cs, bench_order_log *log)
{
    int rc = 0;
    size_t *order = malloc((n ? n : 1) * sizeof *order);
    /* each repeat's last round's order, as a hash */
    unsigned long long *last = calloc(repeats > 0 ? (size_t)repeats : 1, sizeof *last);
    if (!order || !last) {
        free(order);
        free(last);
        return -1;
    }
    log->digest = FNV_OFFSET;
    log->unshuffled = 0;
    for (size_t i = 0; i < n; i++) {
        bench_job *j = &jobs[i];
        if (j->session && ha_guard_session_begin() != 0) {
            skip(j->row, "could not install the fault guard");
            continue;
        }
        bench_calibrate(j->f, &j->c, plan->warmup, plan->warm_seconds, ci, j->row);
        if (j->session)
            ha_guard_session_end();
        size_t want = bench_plan_samples(plan, plan->rounds, j->row);
        j->row->samples = malloc(want * sizeof *j->row->samples);
        j->row->block_state = malloc((size_t)plan->rounds * sizeof *j->row->block_state);
        j->row->block_cpu = malloc((size_t)plan->rounds * sizeof *j->row->block_cpu);
        if (!j->row->samples || !j->row->block_state || !j->row->block_cpu) {
            skip(j->row, "out of memory for samples");
            rc = -1;
        }
    }
    size_t planned = 0;
    for (size_t i = 0; i < n; i++)
        planned += !jobs[i].row->skipped ? (size_t)plan->rounds : 0;
    cs->retake_budget = (size_t)(CPUSTATE_RETAKE_SHARE * (double)planned);
    double probe;
    if (cpustate_check(cs, &probe))
        cpustate_move(cs, &probe);
    unsigned long long seed = plan->order_seed ? plan->order_seed : BENCH_ROUND_SEED;
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
        unsigned long long h = log_round(log, order, m);
        if (m > 1 && round >= repeats && h == last[round % repeats])
            log->unshuffled++;
        last[round % repeats] = h;
        for (size_t i = 0; i < m; i++)
            take_block(&jobs[order[i]], cs);
    }
    for (size_t i = 0; i < n; i++) {
        jobs[i].row->status = jobs[i].c.status;
        jobs[i].row->fallbacks = jobs[i].c.fallbacks;
    }
    free(order);
    free(last);
    return rc;
}
