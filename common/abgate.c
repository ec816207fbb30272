#include "abgate.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

const int ha_ab_look_rounds[HA_AB_MAX_LOOKS] = {4, 8, 16, HA_AB_MAX_ROUNDS};

double ha_ab_look_alpha(double alpha, int look)
{
    static const double share[HA_AB_MAX_LOOKS] = {0.1, 0.2, 0.3, 0.4};
    return look >= 0 && look < HA_AB_MAX_LOOKS ? alpha * share[look] : 0;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median_of(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int ha_ab_paired(const double *a, const double *b, size_t rounds, ha_ab_est *out)
{
    memset(out, 0, sizeof *out);
    double *d = malloc((rounds ? rounds : 1) * sizeof *d), *la = malloc((rounds ? rounds : 1) * sizeof *la);
    double *work = malloc((rounds ? rounds : 1) * sizeof *work);
    int rc = -1;
    if (!d || !la || !work)
        goto done;
    size_t n = 0;
    for (size_t i = 0; i < rounds; i++)
        if (a[i] > 0 && b[i] > 0 && isfinite(a[i]) && isfinite(b[i])) {
            la[n] = log(a[i]);
            d[n] = log(b[i]) - la[n];
            n++;
        }
    if (n >= 3) {
        memcpy(work, d, n * sizeof *d);
        double med = median_of(work, n);
        for (size_t i = 0; i < n; i++)
            work[i] = fabs(d[i] - med);
        double cut = fmax(HA_AB_OUTLIER_MADS * 1.4826 * median_of(work, n), log(HA_AB_OUTLIER_FLOOR));
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (fabs(d[i] - med) <= cut) {
                d[k] = d[i];
                la[k++] = la[i];
            }
        out->outliers = n - k;
        n = k;
    }
    out->n = out->n_b = n;
    if (n < HA_GATE_MIN_PROCS)
        goto done;
    double sd = 0, sa = 0, ss = 0;
    for (size_t i = 0; i < n; i++) {
        sd += d[i];
        sa += la[i];
    }
    double mean = sd / (double)n;
    for (size_t i = 0; i < n; i++)
        ss += (d[i] - mean) * (d[i] - mean);
    out->mean_a = exp(sa / (double)n);
    out->r.d = mean;
    out->r.ratio = exp(mean);
    out->r.se = sqrt(ss / (double)(n - 1) / (double)n);
    out->r.df = (double)(n - 1);
    rc = 0;
done:
    free(d);
    free(la);
    free(work);
    return rc;
}

/* The steady values of one side (v over its instrument) into out; their count. */
static size_t steady_values(const double *v, const double *iv, size_t n, double low, double *out)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (v[i] > 0 && iv[i] > 0 && isfinite(v[i]) && iv[i] <= (1 + HA_AB_STEADY_MARGIN) * low)
            out[k++] = v[i] / iv[i];
    return k;
}

int ha_ab_steady(const double *a, const double *ia, size_t na, const double *b, const double *ib, size_t nb,
                 ha_ab_est *out)
{
    memset(out, 0, sizeof *out);
    double low = INFINITY;
    size_t usable = 0;
    for (size_t i = 0; i < na + nb; i++) {
        double v = i < na ? a[i] : b[i - na], iv = i < na ? ia[i] : ib[i - na];
        if (v > 0 && iv > 0 && isfinite(v) && isfinite(iv)) {
            low = fmin(low, iv);
            usable++;
        }
    }
    double *va = malloc((na ? na : 1) * sizeof *va), *vb = malloc((nb ? nb : 1) * sizeof *vb);
    int rc = -1;
    if (!va || !vb)
        goto done;
    size_t ka = steady_values(a, ia, na, low, va), kb = steady_values(b, ib, nb, low, vb);
    out->n = ka;
    out->n_b = kb;
    out->outliers = usable - ka - kb;
    ha_proc_est ea, eb;
    if (ka < HA_GATE_MIN_PROCS || kb < HA_GATE_MIN_PROCS || ha_proc_summary(va, ka, &ea) != 0 ||
        ha_proc_summary(vb, kb, &eb) != 0 || ha_proc_compare(&ea, &eb, 0.95, &out->r) != 0)
        goto done;
    out->mean_a = ea.gmean;
    rc = 0;
done:
    free(va);
    free(vb);
    return rc;
}

static void interval(ha_proc_ratio *r, double level)
{
    double t = ha_t_quantile(1 - (1 - level) / 2, r->df);
    r->lo = exp(r->d - t * r->se);
    r->hi = exp(r->d + t * r->se);
}

long ha_ab_family(const ha_ab_est *est, const int *ok, size_t n, int look, ha_ab_row *out)
{
    double q = ha_ab_look_alpha(HA_AB_ALPHA, look);
    size_t nn = n ? n : 1;
    double *p = calloc(nn, sizeof *p);
    if (!p)
        return -1;
    double level = 1 - q / (double)nn;
    for (size_t i = 0; i < n; i++) {
        ha_ab_row *o = &out[i];
        memset(o, 0, sizeof *o);
        o->e = est[i];
        o->level = level;
        o->detectable = NAN;
        p[i] = 1;
        if (!ok[i]) {
            o->outcome = HA_AB_TOO_FEW;
            continue;
        }
        interval(&o->e.r, level);
        p[i] = ha_proc_p_beyond(&o->e.r, HA_AB_THRESHOLD);
        o->detectable = expm1(ha_proc_detectable(&o->e.r, level, HA_AB_POWER, HA_AB_THRESHOLD));
        if (o->e.r.lo > 1 / (1 + HA_AB_SAME) && o->e.r.hi < 1 + HA_AB_SAME)
            o->outcome = HA_AB_SAME_ROW;
        else
            o->outcome = o->detectable <= HA_AB_SAME ? HA_AB_UNDECIDED : HA_AB_UNRESOLVABLE;
    }
    double cut;
    long bh = ha_bh_step_up(p, n, nn, q, &cut);
    size_t found = bh > 0 ? (size_t)bh : 0;
    double flagged_level = 1 - q * (double)found / (double)nn;
    for (size_t i = 0; i < n && found; i++) {
        ha_ab_row *o = &out[i];
        if (o->outcome == HA_AB_TOO_FEW || p[i] > cut)
            continue;
        o->level = flagged_level;
        interval(&o->e.r, flagged_level);
        o->outcome = o->e.r.d > 0 ? HA_AB_REGRESSION : HA_AB_IMPROVEMENT;
    }
    free(p);
    return bh < 0 ? -1 : (long)found;
}

int ha_ab_decided(ha_ab_outcome o) { return o == HA_AB_SAME_ROW || o == HA_AB_REGRESSION || o == HA_AB_IMPROVEMENT; }
