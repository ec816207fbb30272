#include "procstats.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double ha_proc_value(const double *blocks, size_t n) { return ha_median(blocks, n); }

size_t ha_block_medians(const double *samples, size_t nsamples, size_t per, const double *state, size_t nstate,
                        double *out)
{
    size_t n = 0;
    for (size_t k = 0; per && k < nstate && (k + 1) * per <= nsamples; k++)
        if (!(state[k] < 0))
            out[n++] = ha_median(samples + k * per, per);
    return n;
}

double ha_proc_fast_value(const double *blocks, size_t n)
{
    double least = NAN;
    for (size_t i = 0; i < n; i++)
        if (!isnan(blocks[i]) && (isnan(least) || blocks[i] < least))
            least = blocks[i];
    return least;
}

int ha_proc_summary(const double *v, size_t k, ha_proc_est *out)
{
    memset(out, 0, sizeof *out);
    double sum = 0;
    for (size_t i = 0; i < k; i++)
        if (v[i] > 0 && isfinite(v[i])) {
            sum += log(v[i]);
            out->k++;
        }
    if (!out->k)
        return -1;
    out->mean_log = sum / (double)out->k;
    double ss = 0;
    for (size_t i = 0; i < k; i++)
        if (v[i] > 0 && isfinite(v[i]))
            ss += (log(v[i]) - out->mean_log) * (log(v[i]) - out->mean_log);
    out->sd_log = out->k > 1 ? sqrt(ss / (double)(out->k - 1)) : 0;
    out->gmean = exp(out->mean_log);
    return 0;
}

/* The regularised incomplete beta I_x(a, b) by its continued fraction
 * (modified Lentz), on the side where it converges fast. */
static double beta_cf(double a, double b, double x)
{
    const double tiny = 1e-300;
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < tiny ? tiny : d);
    double h = d;
    for (int m = 1; m <= 300; m++) {
        double m2 = 2.0 * m, num = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
        for (int step = 0; step < 2; step++) {
            d = 1 + num * d;
            d = 1 / (fabs(d) < tiny ? tiny : d);
            c = 1 + num / c;
            c = fabs(c) < tiny ? tiny : c;
            h *= d * c;
            num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
        }
        if (fabs(d * c - 1) < 1e-15)
            break;
    }
    return h;
}

static double ibeta(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lf = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lf) * beta_cf(a, b, x) / a;
    return 1 - exp(lf) * beta_cf(b, a, 1 - x) / b;
}

double ha_t_cdf(double t, double df)
{
    if (isnan(t) || !(df > 0))
        return NAN;
    if (isinf(t))
        return t > 0 ? 1 : 0;
    double tail = 0.5 * ibeta(df / 2, 0.5, df / (df + t * t));
    return t > 0 ? 1 - tail : tail;
}

double ha_f_sf(double x, double d1, double d2)
{
    if (isnan(x) || !(d1 > 0) || !(d2 > 0))
        return NAN;
    if (x <= 0)
        return 1;
    if (isinf(x))
        return 0;
    return ibeta(d2 / 2, d1 / 2, d2 / (d2 + d1 * x));
}

static double t_quantile_bisect(double p, double df)
{
    /* Bisection on the monotone cdf: 200 halvings of a bracket that
     * doubles until it holds p reach the double's precision. */
    double lo = 0, hi = 1;
    while (ha_t_cdf(hi, df) < p && hi < 1e300)
        hi *= 2;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
        double mid = (lo + hi) / 2;
        if (ha_t_cdf(mid, df) < p)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

double ha_t_quantile(double p, double df)
{
    if (!(p > 0 && p < 1) || !(df > 0))
        return NAN;
    if (p < 0.5)
        return -ha_t_quantile(1 - p, df);
    /* The same few (level, df) pairs come back for every row of every run
     * a report tool reads (a bisection each was a twentieth of trend's
     * time over a results folder): the last ones are kept, per thread. */
    enum { KEPT = 8 };
    struct quantile { double p, df, q; }; /* df 0 (never asked for) marks an empty slot */
    static _Thread_local struct quantile kept[KEPT];
    static _Thread_local unsigned next;
    for (unsigned i = 0; i < KEPT; i++)
        if (kept[i].df == df && kept[i].p == p)
            return kept[i].q;
    double q = t_quantile_bisect(p, df);
    kept[next] = (struct quantile){p, df, q};
    next = (next + 1) % KEPT;
    return q;
}

int ha_proc_interval(const ha_proc_est *e, double level, double *lo, double *hi)
{
    *lo = *hi = NAN;
    if (e->k < 2 || !(level >= 0.5 && level < 1))
        return -1;
    double h = ha_t_quantile(0.5 + level / 2, (double)(e->k - 1)) * e->sd_log / sqrt((double)e->k);
    *lo = exp(e->mean_log - h);
    *hi = exp(e->mean_log + h);
    return 0;
}

int ha_proc_compare(const ha_proc_est *a, const ha_proc_est *b, double level, ha_proc_ratio *out)
{
    memset(out, 0, sizeof *out);
    out->lo = out->hi = out->ratio = NAN;
    if (a->k < 2 || b->k < 2 || !(level >= 0.5 && level < 1))
        return -1;
    double va = a->sd_log * a->sd_log / (double)a->k, vb = b->sd_log * b->sd_log / (double)b->k;
    out->d = b->mean_log - a->mean_log;
    out->ratio = exp(out->d);
    out->se = sqrt(va + vb);
    double den = va * va / (double)(a->k - 1) + vb * vb / (double)(b->k - 1);
    /* Both runs without spread: the interval is the point, with the pooled df. */
    out->df = den > 0 ? (va + vb) * (va + vb) / den : (double)(a->k + b->k - 2);
    double t = ha_t_quantile(1 - (1 - level) / 2, out->df);
    out->lo = exp(out->d - t * out->se);
    out->hi = exp(out->d + t * out->se);
    return 0;
}

/* Both runs' variance of logs pooled, with a->k + b->k - 2 df. */
static double pooled_var(const ha_proc_est *a, const ha_proc_est *b)
{
    return ((double)(a->k - 1) * a->sd_log * a->sd_log + (double)(b->k - 1) * b->sd_log * b->sd_log) /
           (double)(a->k + b->k - 2);
}

/* b/a with the pooled variance of both runs shrunk by a prior
 * (varprior.h): se = sqrt(s~^2 (1/ka + 1/kb)), df = d0 + ka + kb - 2.
 * Without a prior (p NULL or p->df 0) it is ha_proc_compare. */
static int ha_proc_compare_prior(const ha_proc_est *a, const ha_proc_est *b, const ha_var_prior *p, double level,
                                 ha_proc_ratio *out)
{
    if (!p || !(p->df > 0))
        return ha_proc_compare(a, b, level, out);
    memset(out, 0, sizeof *out);
    out->lo = out->hi = out->ratio = NAN;
    if (a->k < 2 || b->k < 2 || !(level >= 0.5 && level < 1))
        return -1;
    double d = (double)(a->k + b->k - 2), pooled = pooled_var(a, b);
    out->d = b->mean_log - a->mean_log;
    out->ratio = exp(out->d);
    out->se = sqrt(ha_var_moderated(p, pooled, d) * (1 / (double)a->k + 1 / (double)b->k));
    out->df = p->df + d;
    double t = ha_t_quantile(1 - (1 - level) / 2, out->df);
    out->lo = exp(out->d - t * out->se);
    out->hi = exp(out->d + t * out->se);
    return 0;
}

double ha_proc_detectable(const ha_proc_ratio *r, double level, double power, double threshold)
{
    double t = ha_t_quantile(1 - (1 - level) / 2, r->df), tp = ha_t_quantile(power, r->df);
    return log1p(threshold) + (t + tp) * r->se;
}

static void judge_with(const ha_gate_rule *g, const ha_proc_est *a, const ha_proc_est *b, const ha_var_prior *p,
                       ha_gate_row *out)
{
    memset(out, 0, sizeof *out);
    out->level = 1 - g->alpha / (double)(g->m ? g->m : 1);
    out->detectable = NAN;
    out->prior_df = p ? p->df : 0;
    if (a->k < HA_GATE_MIN_PROCS || b->k < HA_GATE_MIN_PROCS ||
        ha_proc_compare_prior(a, b, p, out->level, &out->r) != 0) {
        out->outcome = HA_GATE_TOO_FEW;
        return;
    }
    out->detectable = expm1(ha_proc_detectable(&out->r, out->level, g->power, g->threshold));
    double up = 1 + g->threshold, band = 1 + g->resolve;
    /* Monitor-only first: a row the pair cannot resolve is not gated,
     * whatever its interval says. */
    if (!(out->detectable <= g->resolve))
        out->outcome = HA_GATE_MONITOR;
    else if (out->r.lo > up)
        out->outcome = HA_GATE_REGRESSION;
    else if (out->r.hi < 1 / up)
        out->outcome = HA_GATE_IMPROVEMENT;
    else if (out->r.lo > 1 / band && out->r.hi < band)
        out->outcome = HA_GATE_SAME;
    else
        out->outcome = HA_GATE_INCONCLUSIVE;
}

void ha_gate_judge(const ha_gate_rule *g, const ha_proc_est *a, const ha_proc_est *b, ha_gate_row *out)
{
    judge_with(g, a, b, NULL, out);
}

double ha_proc_p_beyond(const ha_proc_ratio *r, double threshold)
{
    double t = log1p(threshold);
    if (!(r->se > 0))
        return fabs(r->d) > t ? 0 : 1;
    double up = 1 - ha_t_cdf((r->d - t) / r->se, r->df), down = ha_t_cdf((r->d + t) / r->se, r->df);
    double p = 2 * fmin(up, down);
    return p < 1 ? p : 1;
}

static int by_p(const void *x, const void *y)
{
    double a = **(const double *const *)x, b = **(const double *const *)y;
    return (a > b) - (a < b);
}

static bool shrinkable(const ha_gate_rule *r, const ha_proc_est *a, const ha_proc_est *b)
{
    return r->group && a->k >= HA_GATE_MIN_PROCS && b->k >= HA_GATE_MIN_PROCS;
}

static bool group_seen(const ha_gate_rule *rule, size_t i, const ha_proc_est *a, const ha_proc_est *b)
{
    for (size_t j = 0; j < i; j++)
        if (rule[j].group == rule[i].group && shrinkable(&rule[j], &a[j], &b[j]))
            return true;
    return false;
}

/* Each row's prior: the one fitted to the pooled variances of its group's
 * shrinkable rows (df 0 for a row that is not, or a group without one).
 * s2 and df are scratch of n. */
static void group_priors(const ha_gate_rule *rule, size_t n, const ha_proc_est *a, const ha_proc_est *b,
                         ha_var_prior *prior, double *s2, double *df)
{
    for (size_t i = 0; i < n; i++)
        prior[i] = (ha_var_prior){0, NAN};
    for (size_t i = 0; i < n; i++) {
        if (!shrinkable(&rule[i], &a[i], &b[i]) || group_seen(rule, i, a, b))
            continue;
        size_t k = 0;
        for (size_t j = i; j < n; j++)
            if (rule[j].group == rule[i].group && shrinkable(&rule[j], &a[j], &b[j])) {
                df[k] = (double)(a[j].k + b[j].k - 2);
                s2[k] = pooled_var(&a[j], &b[j]);
                k++;
            }
        ha_var_prior g;
        ha_var_prior_fit(s2, df, k, &g); /* df 0 when it cannot: Welch */
        /* A row that spreads far more than the prior allows is not one of
         * the rows the prior describes (its s^2 / s0^2 is F(d, d0) if it
         * were): shrinking it would narrow its interval below what its own
         * processes show, so it keeps its own spread. */
        k = 0;
        for (size_t j = i; j < n; j++)
            if (rule[j].group == rule[i].group && shrinkable(&rule[j], &a[j], &b[j])) {
                bool unlike = g.df > 0 && ha_f_sf(s2[k] / g.s2, df[k], g.df) < HA_PRIOR_UNLIKE_P;
                prior[j] = unlike ? (ha_var_prior){0, NAN} : g;
                k++;
            }
    }
}

long ha_gate_family(const ha_gate_rule *rule, size_t n, const ha_proc_est *a, const ha_proc_est *b, ha_gate_row *out)
{
    size_t nn = n ? n : 1;
    double *p = calloc(nn, sizeof *p), *s2 = malloc(nn * sizeof *s2), *df = malloc(nn * sizeof *df);
    ha_var_prior *prior = malloc(nn * sizeof *prior);
    if (!p || !s2 || !df || !prior) {
        free(p);
        free(s2);
        free(df);
        free(prior);
        return -1;
    }
    size_t m = n && rule[0].m > n ? rule[0].m : n;
    double alpha = n ? rule[0].alpha : 0;
    group_priors(rule, n, a, b, prior, s2, df);
    for (size_t i = 0; i < n; i++) {
        judge_with(&rule[i], &a[i], &b[i], &prior[i], &out[i]);
        p[i] = out[i].outcome == HA_GATE_TOO_FEW ? 1 : ha_proc_p_beyond(&out[i].r, rule[i].threshold);
    }
    double cut;
    long bh = ha_bh_step_up(p, n, m, alpha, &cut);
    size_t found = bh > 0 ? (size_t)bh : 0;
    double level = 1 - alpha * (double)found / (double)(m ? m : 1);
    for (size_t i = 0; i < n; i++) {
        ha_gate_row *o = &out[i];
        if (o->outcome == HA_GATE_TOO_FEW)
            continue;
        if (found && p[i] <= cut) {
            o->level = level;
            ha_proc_compare_prior(&a[i], &b[i], &prior[i], level, &o->r);
            o->outcome = o->r.d > 0 ? HA_GATE_REGRESSION : HA_GATE_IMPROVEMENT;
        } else if (o->outcome == HA_GATE_REGRESSION || o->outcome == HA_GATE_IMPROVEMENT) {
            o->outcome = HA_GATE_INCONCLUSIVE; /* BH finds all that Bonferroni finds: never reached */
        }
    }
    free(p);
    free(s2);
    free(df);
    free(prior);
    return bh < 0 ? -1 : (long)found;
}

long ha_bh_step_up(const double *p, size_t n, size_t m, double q, double *cut)
{
    *cut = -1;
    const double **order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return -1;
    for (size_t i = 0; i < n; i++)
        order[i] = &p[i];
    qsort(order, n, sizeof *order, by_p);
    size_t found = 0;
    for (size_t k = n; k > 0 && !found; k--)
        if (*order[k - 1] <= q * (double)k / (double)m)
            found = k;
    if (found)
        *cut = *order[found - 1];
    free(order);
    return (long)found;
}
