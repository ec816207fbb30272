#include "changepoint.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "procstats.h"

void ha_cp_defaults(ha_cp_cfg *c)
{
    c->alpha = 0.01;
    c->min_seg = 4;
    c->min_step = 0.01;
    c->perms = 199;
    c->level = 0.95;
}

typedef struct moments {
    double n, mean, var; /* var: n - 1 */
} moments;

/* Mean and variance of y[a, b) from prefix sums of (y - y[0]): shifted, so
 * a long series of log values near ln(3000) keeps its digits. */
static moments seg(const double *c1, const double *c2, size_t a, size_t b)
{
    moments m;
    m.n = (double)(b - a);
    double s = c1[b] - c1[a], ss = c2[b] - c2[a];
    m.mean = s / m.n;
    m.var = m.n > 1 ? (ss - s * m.mean) / (m.n - 1) : 0;
    if (m.var < 0)
        m.var = 0;
    return m;
}

/* Student's t of the two segments, the variance pooled: a short segment
 * whose few runs happen to agree cannot make a split look strong, as it
 * does under Welch's (the search tries every split, so that edge would
 * win on noise). A floor on the variance keeps a flat series finite. */
static double pooled_t(const moments *x, const moments *y)
{
    double var = ((x->n - 1) * x->var + (y->n - 1) * y->var) / (x->n + y->n - 2);
    double se = sqrt(var * (1 / x->n + 1 / y->n));
    return fabs(y->mean - x->mean) / (se > 1e-12 ? se : 1e-12);
}

/* The split of z[0, n) with the largest t, each side at least min_seg
 * long; c1 and c2 hold n + 1 prefix sums each. */
static double best_split(const double *z, size_t n, size_t min_seg, double *c1, double *c2, size_t *at)
{
    c1[0] = c2[0] = 0;
    for (size_t i = 0; i < n; i++) {
        double v = z[i] - z[0];
        c1[i + 1] = c1[i] + v;
        c2[i + 1] = c2[i] + v * v;
    }
    double best = -1;
    for (size_t t = min_seg; t + min_seg <= n; t++) {
        moments a = seg(c1, c2, 0, t), b = seg(c1, c2, t, n);
        double s = pooled_t(&a, &b);
        if (s > best) {
            best = s;
            *at = t;
        }
    }
    return best;
}

static unsigned long long splitmix(unsigned long long *x)
{
    unsigned long long z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* How often a shuffle of the segment gives a split as strong as the one
 * found: the permutation p-value of the maximum, stopping once it cannot
 * fall below alpha. */
static double permutation_p(const double *y, size_t n, double observed, const ha_cp_cfg *cfg,
                            unsigned long long seed, double *z, double *c1, double *c2)
{
    memcpy(z, y, n * sizeof *z);
    unsigned long long state = seed;
    size_t as_strong = 0, give_up = (size_t)ceil(cfg->alpha * (cfg->perms + 1.0));
    unsigned p;
    for (p = 0; p < cfg->perms && as_strong < give_up; p++) {
        for (size_t i = n - 1; i > 0; i--) {
            size_t j = (size_t)(splitmix(&state) % (i + 1));
            double t = z[i];
            z[i] = z[j];
            z[j] = t;
        }
        size_t at;
        as_strong += best_split(z, n, cfg->min_seg, c1, c2, &at) >= observed;
    }
    if (as_strong >= give_up)
        return fmin(1, (1.0 + (double)as_strong) / (1.0 + p));
    return (1.0 + (double)as_strong) / (cfg->perms + 1.0);
}

/* The step at cp between its neighbouring segments, with Welch's interval. */
static void step_of(const double *y, ha_cp *cp, double level)
{
    double s1 = 0, s2 = 0, q1 = 0, q2 = 0;
    double n1 = (double)(cp->at - cp->from), n2 = (double)(cp->to - cp->at);
    for (size_t i = cp->from; i < cp->at; i++)
        s1 += y[i];
    for (size_t i = cp->at; i < cp->to; i++)
        s2 += y[i];
    double m1 = s1 / n1, m2 = s2 / n2;
    for (size_t i = cp->from; i < cp->at; i++)
        q1 += (y[i] - m1) * (y[i] - m1);
    for (size_t i = cp->at; i < cp->to; i++)
        q2 += (y[i] - m2) * (y[i] - m2);
    ha_proc_est a = {(size_t)n1, m1, n1 > 1 ? sqrt(q1 / (n1 - 1)) : 0, exp(m1)};
    ha_proc_est b = {(size_t)n2, m2, n2 > 1 ? sqrt(q2 / (n2 - 1)) : 0, exp(m2)};
    ha_proc_ratio r;
    cp->step = exp(m2 - m1);
    cp->lo = cp->hi = cp->step;
    if ((a.sd_log > 0 || b.sd_log > 0) && ha_proc_compare(&a, &b, level, &r) == 0) {
        cp->lo = r.lo;
        cp->hi = r.hi;
    }
}

static int by_at(const void *x, const void *y)
{
    const ha_cp *a = x, *b = y;
    return (a->at > b->at) - (a->at < b->at);
}

long ha_changepoints(const double *y, size_t n, const ha_cp_cfg *cfg, unsigned long long seed, ha_cp *out,
                     size_t max)
{
    if (n < 2 * cfg->min_seg || !max)
        return 0;
    double *z = malloc(n * sizeof *z), *c1 = malloc((n + 1) * sizeof *c1), *c2 = malloc((n + 1) * sizeof *c2);
    size_t *stack = malloc(2 * (n + 1) * sizeof *stack);
    if (!z || !c1 || !c2 || !stack) {
        free(z), free(c1), free(c2), free(stack);
        return -1;
    }
    size_t found = 0, top = 0;
    stack[top++] = 0;
    stack[top++] = n;
    while (top && found < max) {
        size_t e = stack[--top], s = stack[--top], at;
        if (e - s < 2 * cfg->min_seg)
            continue;
        double t = best_split(y + s, e - s, cfg->min_seg, c1, c2, &at);
        moments a = seg(c1, c2, 0, at), b = seg(c1, c2, at, e - s);
        if (fabs(exp(b.mean - a.mean) - 1) < cfg->min_step)
            continue;
        double p = permutation_p(y + s, e - s, t, cfg, seed ^ (0x9e3779b97f4a7c15ull * (s + 1)) ^ e, z, c1, c2);
        if (p > cfg->alpha)
            continue;
        out[found++] = (ha_cp){.at = s + at, .p = p};
        stack[top++] = s;
        stack[top++] = s + at;
        stack[top++] = s + at;
        stack[top++] = e;
    }
    qsort(out, found, sizeof *out, by_at);
    for (size_t i = 0; i < found; i++) {
        out[i].from = i ? out[i - 1].at : 0;
        out[i].to = i + 1 < found ? out[i + 1].at : n;
        step_of(y, &out[i], cfg->level);
    }
    free(z), free(c1), free(c2), free(stack);
    return (long)found;
}
