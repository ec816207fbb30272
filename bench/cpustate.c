#include "cpustate.h"

#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "stats.h"

/* ns per empty-loop iteration on the CPU this thread runs on, now: the
 * least of three ~12 us tries after a short warm-up (shorter probes read
 * high just after a migration). */
static double cpustate_probe(void)
{
    bench_ctx c = {0};
    path_empty(&c, 1u << 14);
    double best = 1e300;
    for (int k = 0; k < 3; k++) {
        double t0 = ha_clock_ns();
        path_empty(&c, 1u << 16);
        double ns = (ha_clock_ns() - t0) / (double)(1u << 16);
        if (ns < best)
            best = ns;
    }
    return best;
}

void cpustate_init(cpu_state *s, const cpu_choice *c)
{
    memset(s, 0, sizeof *s);
    s->cur = c->cpu;
    s->fast_ns = 1e300;
    s->may_move = c->cpu >= 0 && !c->forced;
    const char *t = getenv("HOSTACCESS_TEST_CONTENDED");
    s->test_contended = t && !strcmp(t, "1");
    for (int i = 0; i < c->nscores && s->ncpus < CPUPICK_MAX; i++)
        s->cpus[s->ncpus++] = c->scores[i].cpu;
    if (s->cur < 0) {
        s->fast_ns = cpustate_probe();
        return;
    }
    for (int i = 0; i < s->ncpus && s->may_move; i++) {
        if (cpupick_hold(s->cpus[i]) != 0)
            continue;
        double p = cpustate_probe();
        if (p < s->fast_ns)
            s->fast_ns = p;
    }
    cpupick_hold(s->cur);
    double p = cpustate_probe();
    if (p < s->fast_ns)
        s->fast_ns = p;
}

bool cpustate_check(cpu_state *s, double *probe)
{
    double p = cpustate_probe();
    s->probes++;
    if (p < s->fast_ns)
        s->fast_ns = p;
    *probe = p;
    bool bad = p > s->fast_ns * CPUSTATE_FACTOR || s->test_contended;
    s->contended += bad;
    return bad;
}

bool cpustate_move(cpu_state *s, double *probe)
{
    if (!s->may_move || s->ncpus < 2)
        return false;
    int best = -1;
    double best_ns = 1e300;
    for (int i = 0; i < s->ncpus; i++) {
        /* test only: the CPU a block just ran on is the contended one */
        if ((s->test_contended && s->cpus[i] == s->cur) || cpupick_hold(s->cpus[i]) != 0)
            continue;
        double p = cpustate_probe();
        if (p < best_ns) {
            best_ns = p;
            best = s->cpus[i];
        }
    }
    if (best < 0 || cpupick_hold(best) != 0) {
        cpupick_hold(s->cur);
        return false;
    }
    if (best_ns < s->fast_ns)
        s->fast_ns = best_ns;
    s->moves += best != s->cur;
    s->cur = best;
    *probe = best_ns;
    return true;
}
