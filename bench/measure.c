#include "measure.h"

#include <math.h>
#include <stdlib.h>

#include "jsonw.h"

static double time_batch(bench_fn f, bench_ctx *c, size_t n)
{
    double t0 = ha_clock_ns();
    f(c, n);
    return (ha_clock_ns() - t0) / (double)n;
}

void bench_calibrate(bench_fn f, bench_ctx *c, long warmup, double warm_s, const ha_clock_info *ci, bench_row *r)
{
    c->status = 0;
    c->fallbacks = 0;
    /* Warm-up: the operation count asked for, and at least warm_s of it, so
     * caches, TLBs and the clock rate settle; at most 0.2 s. */
    double start = ha_clock_ns(), deadline = start + 0.2e9, least = start + warm_s * 1e9;
    for (long i = 0; ha_clock_ns() < deadline && (i < warmup || ha_clock_ns() < least); i += 16)
        f(c, 16);
    /* Estimate the cost of one operation from a batch of at least 20 us. */
    size_t k = 1;
    double est = time_batch(f, c, k);
    while (est * (double)k < 20e3 && k < (1u << 24)) {
        k *= 4;
        est = time_batch(f, c, k);
    }
    if (est <= 0)
        est = ci->min_step_ns > 0 ? ci->min_step_ns : 1;
    r->est_ns = est;
    /* The clock is read twice per batch: keep that within 0.5 % of a batch,
     * leaving the rest of the 1 % budget to the loop itself; and let each
     * sample cover at least 200 us of work, so a row is hundreds of steady
     * samples rather than tens of thousands of jittery ones. */
    double b = fmax(ceil(200.0 * 2 * ci->read_ns / est), ceil(200e3 / est));
    r->batch = b < 1 ? 1 : b > (double)(1u << 24) ? (1u << 24) : (size_t)b;
    size_t u = bench_unroll(f);
    r->batch = (r->batch + u - 1) / u * u; /* whole unrolled loop iterations */
}

size_t bench_plan_samples(const bench_plan *plan, long rounds, bench_row *r)
{
    double batch_ns = fmax((double)r->batch * r->est_ns, 1);
    double want = ceil((double)plan->iterations / (double)r->batch);
    want = fmax(want, (double)plan->min_samples);
    want = fmax(want, ceil(plan->min_row_seconds * 1e9 / batch_ns));
    /* Two samples a round at the least, so a block has a middle. */
    double cap = fmax(floor(plan->row_seconds * 1e9 / batch_ns), 2.0 * (double)rounds);
    r->capped = want > cap;
    if (r->capped)
        want = cap;
    r->block_samples = (size_t)ceil(want / (double)rounds);
    return r->block_samples * (size_t)rounds;
}

static double stretched_batch(bench_fn f, bench_ctx *c, size_t n, double slowdown)
{
    double t0 = ha_clock_ns();
    f(c, n);
    double t1 = ha_clock_ns();
    if (slowdown > 0)
        for (double until = t1 + slowdown * (t1 - t0); ha_clock_ns() < until;)
            ;
    return (ha_clock_ns() - t0) / (double)n;
}

void bench_take(bench_fn f, bench_ctx *c, bench_row *r, size_t n, double slowdown)
{
    size_t first = r->nsamples;
    for (size_t i = 0; i < n; i++)
        r->samples[r->nsamples++] = slowdown > 0 ? stretched_batch(f, c, r->batch, slowdown)
                                                 : time_batch(f, c, r->batch);
    /* after the block, so no rounding runs between its timed batches */
    for (size_t i = first; i < r->nsamples; i++)
        r->samples[i] = jw_dbl_as_written(r->samples[i], BENCH_SAMPLE_DIGITS);
}

void bench_summarise(bench_fn f, bench_row *r, const ha_clock_info *ci, double empty_ns)
{
    if (r->nsamples == 0)
        return;
    r->first_batch_ns = r->samples[0];
    ha_stats_compute(r->samples, r->nsamples, &r->st);
    r->overhead_ns = 2 * ci->read_ns / (double)r->batch + empty_ns / (double)bench_unroll(f);
    r->overhead_pct = ha_overhead_share(r->overhead_ns, r->st.median);
}

int bench_measure(bench_fn f, bench_ctx *c, const bench_plan *plan, const ha_clock_info *ci,
                  double empty_ns, bench_row *r)
{
    bench_calibrate(f, c, plan->warmup, plan->warm_seconds, ci, r);
    size_t n = bench_plan_samples(plan, 1, r);
    r->samples = malloc(n * sizeof *r->samples);
    if (!r->samples)
        return -1;
    bench_take(f, c, r, n, 0);
    r->status = c->status;
    r->fallbacks = c->fallbacks;
    bench_summarise(f, r, ci, empty_ns);
    return 0;
}

void bench_row_free(bench_row *r)
{
    free(r->samples);
    free(r->block_state);
    free(r->block_cpu);
    r->samples = NULL;
    r->block_state = NULL;
    r->block_cpu = NULL;
    for (int p = 0; p < BENCH_MAX_PROCS; p++) {
        free(r->proc_med[p]);
        r->proc_med[p] = NULL;
        r->nproc_med[p] = 0;
    }
}
