#include "varprior.h"

#include <math.h>

/* The asymptotic series past 6, reached by the recurrences
 * psi(x) = psi(x + 1) - 1/x and psi'(x) = psi'(x + 1) + 1/x^2. */
double ha_digamma(double x)
{
    if (!(x > 0))
        return NAN;
    double r = 0;
    for (; x < 6; x++)
        r -= 1 / x;
    double f = 1 / (x * x);
    return r + log(x) - 0.5 / x - f * (1.0 / 12 - f * (1.0 / 120 - f * (1.0 / 252 - f * (1.0 / 240 - f / 132))));
}

double ha_trigamma(double x)
{
    if (!(x > 0))
        return NAN;
    double r = 0;
    for (; x < 6; x++)
        r += 1 / (x * x);
    double f = 1 / (x * x);
    return r + 1 / x + f / 2 + f / x * (1.0 / 6 - f * (1.0 / 30 - f * (1.0 / 42 - f / 30)));
}

double ha_trigamma_inverse(double y)
{
    if (!(y > 0))
        return NAN;
    /* trigamma(x) is 1/x^2 near 0 and 1/x far out, to well within the
     * fit's own noise at these ends (limma's trigammaInverse takes them so). */
    if (y > 1e7)
        return 1 / sqrt(y);
    if (y < 1e-6)
        return 1 / y;
    double lo = log(1e-4), hi = log(1e7); /* trigamma falls as x grows */
    for (int i = 0; i < 200 && hi - lo > 1e-13; i++) {
        double mid = (lo + hi) / 2;
        if (ha_trigamma(exp(mid)) > y)
            lo = mid;
        else
            hi = mid;
    }
    return exp((lo + hi) / 2);
}

int ha_var_prior_fit(const double *s2, const double *df, size_t n, ha_var_prior *out)
{
    out->df = 0;
    out->s2 = NAN;
    /* e = log s^2 - psi(d/2) + log(d/2) has mean log s0^2 - psi(d0/2) +
     * log(d0/2) and variance psi'(d0/2) + psi'(d/2) under the prior. */
    double sum = 0, sumsq = 0, tri = 0, dsum = 0;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (!(s2[i] > 0 && isfinite(s2[i]) && df[i] > 0 && isfinite(df[i])))
            continue;
        double e = log(s2[i]) - ha_digamma(df[i] / 2) + log(df[i] / 2);
        sum += e;
        sumsq += e * e;
        tri += ha_trigamma(df[i] / 2);
        dsum += df[i];
        k++;
    }
    if (k < 3)
        return -1;
    double mean = sum / (double)k, var = (sumsq - sum * mean) / (double)(k - 1) - tri / (double)k;
    if (var > 0) {
        double d0 = 2 * ha_trigamma_inverse(var);
        out->s2 = exp(mean + ha_digamma(d0 / 2) - log(d0 / 2));
        out->df = d0 < dsum ? d0 : dsum;
    } else { /* no more spread than chance: the rows share one variance */
        out->s2 = exp(mean);
        out->df = dsum;
    }
    return 0;
}

double ha_var_moderated(const ha_var_prior *p, double s2, double df)
{
    if (!(p->df > 0))
        return s2;
    return (p->df * p->s2 + df * s2) / (p->df + df);
}
