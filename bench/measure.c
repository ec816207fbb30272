#include "measure.h"

#include <math.h>
#include <stdlib.h>

static double time_batch(bench_fn f, bench_ctx *c, size_t n)
{
    double t0 = ha_clock_ns();
    f(c, n);
    return (ha_clock_ns() - t0) / (double)n;
}

int bench_measure(bench_fn f, bench_ctx *c, const bench_plan *plan, const ha_clock_info *ci,
                  double empty_ns, bench_row *r)
{
    c->status = 0;
    c->fallbacks = 0;
    /* Warm-up: the operation count asked for, and at least 10 ms of it, so
     * caches, TLBs and the clock rate settle; at most 0.2 s. */
    double start = ha_clock_ns(), deadline = start + 0.2e9, least = start + 10e6;
    for (long i = 0; ha_clock_ns() < deadline && (i < plan->warmup || ha_clock_ns() < least); i += 16)
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
    /* The clock is read twice per batch: keep that within 0.5 % of a batch,
     * leaving the rest of the 1 % budget to the loop itself; and let each
     * sample cover at least 200 us of work, so a row is hundreds of steady
     * samples rather than tens of thousands of jittery ones. */
    double b = fmax(ceil(200.0 * 2 * ci->read_ns / est), ceil(200e3 / est));
    r->batch = b < 1 ? 1 : b > (double)(1u << 24) ? (1u << 24) : (size_t)b;
    size_t u = bench_unroll(f);
    r->batch = (r->batch + u - 1) / u * u; /* whole unrolled loop iterations */
    size_t want = (size_t)((plan->iterations + (long)r->batch - 1) / (long)r->batch);
    if (want < (size_t)plan->min_samples)
        want = (size_t)plan->min_samples;
    size_t cap = want;
    r->samples = malloc(cap * sizeof *r->samples);
    if (!r->samples)
        return -1;
    double t0 = ha_clock_ns(), stop = t0 + plan->row_seconds * 1e9,
           enough = t0 + plan->min_row_seconds * 1e9;
    size_t n = 0;
    for (;;) {
        if (n == cap) {
            double *grown = realloc(r->samples, 2 * cap * sizeof *r->samples);
            if (!grown)
                break;
            r->samples = grown;
            cap *= 2;
        }
        r->samples[n++] = time_batch(f, c, r->batch);
        double now = ha_clock_ns();
        if (n >= want && now >= enough)
            break;
        if (n >= 50 && now > stop) {
            r->capped = n < want;
            break;
        }
    }
    r->nsamples = n;
    r->first_batch_ns = r->samples[0];
    ha_stats_compute(r->samples, n, &r->st);
    r->status = c->status;
    r->fallbacks = c->fallbacks;
    r->overhead_ns = 2 * ci->read_ns / (double)r->batch + empty_ns / (double)bench_unroll(f);
    r->overhead_pct = r->st.median > 0 ? 100.0 * r->overhead_ns / r->st.median : NAN;
    return 0;
}

void bench_row_free(bench_row *r)
{
    free(r->samples);
    r->samples = NULL;
}
