/* Measuring: the rounds, each row's statistics, the size sweep. */
#include <string.h>
#include <time.h>

#include "bench.h"
#include "log.h"

/* The rounds, then each row's statistics against the empty loop's cost. */
static void time_rows(bench *b)
{
    ha_log(HA_LOG_INFO, "%zu rows in %ld interleaved rounds", b->njobs,
            b->plan.rounds * b->repeat);
    bench_run_rounds(b->jobs, b->njobs, &b->plan, (int)b->repeat, &b->clock, &b->state, &b->order_log);
    /* The harness first: every other row's overhead is reckoned from it. */
    for (size_t i = 0; i < b->njobs; i++)
        if (!b->jobs[i].row->skipped && !strcmp(b->jobs[i].row->path, "harness"))
            bench_summarise(b->jobs[i].f, b->jobs[i].row, &b->clock, 0);
    const bench_row *h = bench_find_row(b, "harness", NULL, NULL, 1);
    b->empty_ns = h ? h->st.median : 0;
    for (size_t i = 0; i < b->njobs; i++)
        if (!b->jobs[i].row->skipped && strcmp(b->jobs[i].row->path, "harness"))
            bench_summarise(b->jobs[i].f, b->jobs[i].row, &b->clock, b->empty_ns);
}

static void run_sweep(bench *b, bench_ctx *c)
{
    b->crossover = -1;
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
    for (size_t s = 4; s <= b->sweep_max && b->nsweep < MAX_SWEEP; s *= 2) {
        sweep_point *p = &b->sweep_pts[b->nsweep++];
        p->size = s;
        c->n = s;
        ha_log(HA_LOG_INFO, "sweep %zu B", s);
        bench_measure(path_sweep_copy, c, &plan, &b->clock, b->empty_ns, &p->copy);
        bench_measure(path_sweep_read, c, &plan, &b->clock, b->empty_ns, &p->read);
        if (bench_have_nt())
            bench_measure(path_sweep_read_nt, c, &plan, &b->clock, b->empty_ns, &p->read_nt);
        if (b->crossover < 0 && p->copy.st.median <= p->read.st.median)
            b->crossover = (long)s;
    }
}


static double unix_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void bench_measure_all(bench *b, bench_ctx *c)
{
    cpustate_init(&b->state, &b->cpu);
    /* Work first: the clock rate ramps before the first round. Every
     * process of a run takes the same, so none is measured colder. */
    for (double until = ha_clock_ns() + (b->nprocs_requested > 1 ? 0.2e9 : 0.5e9); ha_clock_ns() < until;)
        path_empty(c, 1u << 16);
    b->timed_from = unix_now_s();
    time_rows(b);
    run_sweep(b, c);
    b->timed_until = unix_now_s();
}
