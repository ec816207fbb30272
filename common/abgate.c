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

int ha_ab_paired(const double *a, const double *b, size_t rounds, double level, ha_ab_pairs *out)
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
    out->n = n;
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
    double t = ha_t_quantile(1 - (1 - level) / 2, out->r.df);
    out->r.lo = exp(mean - t * out->r.se);
    out->r.hi = exp(mean + t * out->r.se);
    rc = 0;
done:
    free(d);
    free(la);
    free(work);
    return rc;
}

static int by_p(const void *x, const void *y)
{
    double a = **(const double *const *)x, b = **(const double *const *)y;
    return (a > b) - (a < b);
}

long ha_ab_family(const double *a, const double *b, size_t n, size_t rounds, int look, ha_ab_row *out)
{
    double q = ha_ab_look_alpha(HA_AB_ALPHA, look);
    size_t nn = n ? n : 1;
    double *p = malloc(nn * sizeof *p);
    const double **order = malloc(nn * sizeof *order);
    if (!p || !order) {
        free(p);
        free(order);
        return -1;
    }
    double level = 1 - q / (double)nn;
    for (size_t i = 0; i < n; i++) {
        ha_ab_row *o = &out[i];
        memset(o, 0, sizeof *o);
        o->level = level;
        o->detectable = NAN;
        p[i] = 1;
        order[i] = &p[i];
        if (ha_ab_paired(a + i * rounds, b + i * rounds, rounds, level, &o->p) != 0) {
            o->outcome = HA_AB_TOO_FEW;
            continue;
        }
        p[i] = ha_proc_p_beyond(&o->p.r, HA_AB_THRESHOLD);
        o->detectable = expm1(ha_proc_detectable(&o->p.r, level, HA_AB_POWER, HA_AB_THRESHOLD));
        if (o->p.r.lo > 1 / (1 + HA_AB_SAME) && o->p.r.hi < 1 + HA_AB_SAME)
            o->outcome = HA_AB_SAME_ROW;
        else
            o->outcome = o->detectable <= HA_AB_SAME ? HA_AB_UNDECIDED : HA_AB_UNRESOLVABLE;
    }
    qsort(order, n, sizeof *order, by_p);
    size_t found = 0;
    for (size_t k = n; k > 0 && !found; k--)
        if (*order[k - 1] <= q * (double)k / (double)nn)
            found = k;
    double cut = found ? *order[found - 1] : -1, flagged_level = 1 - q * (double)found / (double)nn;
    for (size_t i = 0; i < n && found; i++) {
        ha_ab_row *o = &out[i];
        if (o->outcome == HA_AB_TOO_FEW || p[i] > cut)
            continue;
        o->level = flagged_level;
        ha_ab_paired(a + i * rounds, b + i * rounds, rounds, flagged_level, &o->p);
        o->outcome = o->p.r.d > 0 ? HA_AB_REGRESSION : HA_AB_IMPROVEMENT;
    }
    free(p);
    free(order);
    return (long)found;
}

int ha_ab_decided(ha_ab_outcome o) { return o == HA_AB_SAME_ROW || o == HA_AB_REGRESSION || o == HA_AB_IMPROVEMENT; }

const char *ha_ab_outcome_name(ha_ab_outcome o)
{
    static const char *const n[] = {"same", "regression", "improvement", "undecided", "unresolvable", "too few pairs"};
    return o <= HA_AB_TOO_FEW ? n[o] : "?";
}
