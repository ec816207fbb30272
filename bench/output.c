/* The human output: rows, headline, sweep, checks and warnings. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "families.h"
#include "gpuhelpers.h"
#include "backend.h"

static void print_rows(const bench *b)
{
    printf("| path | kind | candidate | median ns | spread ns | min | p90 | p99 | max | mean | n x batch | overhead |\n");
    printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->repeat != 1)
            continue;
        if (r->skipped) {
            printf("| %s | %s | %s | skipped: %s |\n", r->path, r->kind, r->candidate,
                   r->skip_reason);
            continue;
        }
        printf("| %s | %s | %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %zu x %zu%s | "
               "%.2f ns (%.2f%%) |%s%s%s\n",
               r->path, r->kind, r->candidate, r->st.median, r->st.spread, r->st.min, r->st.p90,
               r->st.p99, r->st.max, r->st.mean, r->nsamples, r->batch, r->capped ? " (capped)" : "",
               r->overhead_ns, r->overhead_pct, r->status ? " LOOP ERRORS" : "",
               r->st.outliers * 100 > r->nsamples ? " outliers>1%" : "",
               r->st.slow_first ? " slow-first" : "");
    }
}

/* Warnings that matter: a row whose outliers exceed 1 % of its samples, a
 * slow first batch, a failing call, a fallback. The JSON has every count. */
static void print_warnings(const bench *b)
{
    int shown = 0, more = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->skipped)
            continue;
        char what[256] = "";
        size_t l = 0;
        if (r->st.outliers * 100 > r->nsamples)
            l += (size_t)snprintf(what + l, sizeof what - l, " %zu of %zu samples are outliers;",
                                  r->st.outliers, r->nsamples);
        if (r->st.slow_first)
            l += (size_t)snprintf(what + l, sizeof what - l, " first batch %.1f ns vs median %.1f;",
                                  r->first_batch_ns, r->st.median);
        if (r->status)
            l += (size_t)snprintf(what + l, sizeof what - l, " a call in the loop failed (%s);",
                                  ha_status_name(&b->t.be, r->status));
        if (r->fallbacks)
            l += (size_t)snprintf(what + l, sizeof what - l, " %u reads fell back to the copy;",
                                  r->fallbacks);
        if (!l)
            continue;
        if (shown++ >= 12) {
            more++;
            continue;
        }
        printf("warning: %s/%s%s%s repeat %d:%s\n", r->path, r->kind, r->candidate[0] ? "/" : "",
               r->candidate, r->repeat, what);
    }
    if (more)
        printf("warning: ... and %d more rows (every count is in the JSON)\n", more);
}

static void print_headline(const bench *b, const headline *h)
{
    if (!h->kind) {
        printf("\nheadline: %s\n", b->no_readable_reason);
        return;
    }
    const bench_row *fast = h->fast;
    printf("\n## Headline (%s%s; %s read from the host and copied by the runtime)\n\n", b->t.env.device_name,
           ha_backend_simulated(&b->t.be) ? ", SIMULATED" : "", h->kind);
    printf("| path | median ns | spread ns | vs fast path |\n|---|---|---|---|\n");
    if (fast)
        printf("| host deref (fast path)%s | %.1f | %.1f | 1.00x |\n",
               fast->comparable_to_bar ? "" : " [host DRAM, warm: not a BAR read]",
               fast->st.median, fast->st.spread);
    if (h->cold && fast)
        printf("| host deref, line flushed first | %.1f | %.1f | %.2fx |\n", h->cold->st.median,
               h->cold->st.spread, h->cold->st.median / fast->st.median);
    for (size_t i = 0; i < h->nhard; i++) {
        double over = h->hard[i].h->st.median - fast->st.median;
        printf("| %s + deref (hardened) | %.1f | %.1f | +%.1f ns (+%.1f%%) |\n", h->hard[i].q,
               h->hard[i].h->st.median, h->hard[i].h->st.spread, over, 100 * over / fast->st.median);
        if (h->hard[i].d)
            printf("| %s alone | %.1f | %.1f | |\n", h->hard[i].q, h->hard[i].d->st.median, h->hard[i].d->st.spread);
    }
    for (int i = 0; i < 3; i++)
        if (h->slows[i] && fast)
            printf("| %s (slow path) | %.1f | %.1f | fast path %.2fx faster |\n", h->slows[i]->path,
                   h->slows[i]->st.median, h->slows[i]->st.spread, h->slows[i]->st.median / fast->st.median);
    if (h->fault)
        printf("| contained fault + copy (%s) | %.1f | %.1f | |\n", h->fault->kind, h->fault->st.median,
               h->fault->st.spread);
}

/* Two runs in one invocation: how far apart their medians are. */
static double repeat_drift(const bench *b, const bench_row *r)
{
    const bench_row *o = bench_find_row(b, r->path, r->kind, r->candidate, 2);
    if (!o || r->st.median <= 0)
        return NAN;
    return 100.0 * fabs(o->st.median - r->st.median) / fmin(o->st.median, r->st.median);
}

static bool is_instrument(const bench_row *r) { return ha_family_is_instrument(r->family); }

static void print_checks(const bench *b)
{
    const bench_row *worst = NULL;
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->skipped || is_instrument(r))
            continue;
        if (!worst || r->overhead_pct > worst->overhead_pct)
            worst = r;
    }
    printf("\n## Checks (printed, not asserted)\n\n");
    printf("clock: resolution %.0f ns, one read %.1f ns, smallest step %.0f ns\n",
           b->clock.resolution_ns, b->clock.read_ns, b->clock.min_step_ns);
    if (worst)
        printf("harness overhead: at most %.2f%% of a row's median, on every row (largest: %s/%s%s%s, "
               "%.3f ns of %.2f ns): %s (target <= 1%%)\n",
               worst->overhead_pct, worst->path, worst->kind, worst->candidate[0] ? "/" : "",
               worst->candidate, worst->overhead_ns, worst->st.median,
               worst->overhead_pct <= 1.0 ? "met" : "MISSED");
    if (b->repeat < 2)
        return;
    int copy_bad = 0, copy_n = 0, ns_bad = 0, ns_n = 0;
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        if (r->skipped || r->repeat != 1 || is_instrument(r))
            continue;
        double dr = repeat_drift(b, r);
        if (isnan(dr))
            continue;
        bool copy = strcmp(r->family, "copy") == 0;
        if (copy) {
            copy_n++;
            copy_bad += dr > 3.0;
        } else if (r->st.median < 1000) {
            ns_n++;
            ns_bad += dr > 5.0;
        }
        if ((copy && dr > 3.0) || (!copy && r->st.median < 1000 && dr > 5.0))
            printf("repeat drift: %s/%s%s%s %.1f%% (%.1f vs %.1f ns)\n", r->path, r->kind,
                   r->candidate[0] ? "/" : "", r->candidate, dr, r->st.median,
                   bench_find_row(b, r->path, r->kind, r->candidate, 2)->st.median);
    }
    printf("repeat 1 vs 2 (interleaved rounds, odd vs even): copy paths within 3%%: %d of %d; ns-scale paths within 5%%: "
           "%d of %d\n", copy_n - copy_bad, copy_n, ns_n - ns_bad, ns_n);
    const bench_row *h1 = bench_find_row(b, "canary", NULL, NULL, 1);
    const bench_row *h2 = bench_find_row(b, "canary", NULL, NULL, 2);
    if (h1 && h2)
        printf("canary: the multiply-add chain moved %.1f%% between its repeats (%.3f vs %.3f ns)%s\n",
               repeat_drift(b, h1), h1->st.median, h2->st.median,
               repeat_drift(b, h1) > 5 ? ": the machine itself changed speed" : "");
}


static void print_state(const bench *b)
{
    const cpu_state *s = &b->state;
    printf("cpu state: %zu blocks; the probe found the CPU contended %zu of %zu times (uncontended level %.3f ns "
           "per empty-loop iteration, contended above %.2fx that); %zu block(s) taken again, %zu move(s), %zu kept "
           "contended\n",
           s->blocks, s->contended, s->probes, s->fast_ns, CPUSTATE_FACTOR, s->retaken, s->moves, s->kept);
}

static int procs_finished(const bench *b)
{
    int n = 0;
    for (int i = 0; i < b->nprocs; i++)
        n += b->procs[i].ok;
    return n;
}

void bench_print(const bench *b, const headline *hl, double wall)
{
    if (ha_backend_simulated(&b->t.be))
        printf("# SIMULATED run - not evidence\n");
    for (int i = 0; i < b->nslow; i++)
        printf("# TEST SLOWDOWN: every %s batch stretched by %ld%% (HOSTACCESS_TEST_SLOWDOWN) - not evidence\n",
               b->slow[i].p->name, b->slow[i].pct);
    printf("started on CPU %d: %s\n", b->cpu.cpu, b->cpu.how);
    ha_env_print(&b->t.env);
    printf("discriminators that distinguish here:");
    for (size_t qi = 0; qi < b->ngood; qi++)
        printf(" %s", b->good[qi]->name);
    printf("%s\n\n", b->ngood ? "" : " none");
    print_rows(b);
    print_headline(b, hl);
    if (b->nsweep) {
        printf("\n## Size sweep (%s): runtime copy vs host read, median ns\n\n| bytes | copy | read | read NT |\n"
               "|---|---|---|---|\n", b->d.kinds[b->headline]->name);
        for (size_t i = 0; i < b->nsweep; i++)
            printf("| %zu | %.1f | %.1f | %.1f |\n", b->sweep_pts[i].size, b->sweep_pts[i].copy.st.median,
                   b->sweep_pts[i].read.st.median, b->sweep_pts[i].read_nt.st.median);
        if (b->crossover >= 0)
            printf("crossover: the copy is as fast as the host read from %ld bytes\n", b->crossover);
        else
            printf("crossover: none up to %llu bytes (the host read stays faster)\n", b->sweep_max);
    }
    print_checks(b);
    print_state(b);
    print_warnings(b);
    printf("\nprocesses: %d of %ld finished (the process is the unit: compare judges their medians)\n",
           procs_finished(b), b->nprocs_requested);
    for (int i = 0; i < b->nprocs; i++) {
        const bench_proc *p = &b->procs[i];
        if (p->ok)
            printf("  %2d  CPU %-3d %5.2f s: open %.2f, prepare %.2f, measure %.2f\n", p->index, p->start_cpu,
                   p->wall_s, p->open_s, p->prepare_s, p->measure_s);
        else
            printf("  %2d  %s\n", p->index, p->detail);
    }
    printf("\nwall time %.1f s\n", wall);
}
