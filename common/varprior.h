/* The spread of a group of rows as a prior for each row's own.
 *
 * A row's spread between processes comes from 8 + 8 processes (14 degrees
 * of freedom), a poor estimate on its own; at the family level of a pair
 * (1 - alpha / 2m, m about 70) t with 14 df is 5.3 where it is 3.8 with
 * many. The rows of one path (the same operation on other allocation
 * kinds) spread alike, so each row's variance is shrunk toward the
 * group's, and its interval gets the group's degrees of freedom as well:
 * empirical Bayes, as limma's moderated t does it (Smyth, "Linear models
 * and empirical Bayes methods for assessing differential expression",
 * Stat. Appl. Genet. Mol. Biol. 3, 2004: the prior is a scaled inverse
 * chi-square with d0 df and scale s0^2, fitted to the rows' variances by
 * the moments of their logs). Where the rows' variances differ more than
 * chance explains, d0 comes out small and each row keeps its own. */
#ifndef HA_VARPRIOR_H
#define HA_VARPRIOR_H

#include <stddef.h>

typedef struct ha_var_prior {
    double df; /* d0; 0 when there is no prior */
    double s2; /* s0^2 */
} ha_var_prior;

/* Fits the prior to n sample variances s2[i], each with df[i] degrees of
 * freedom. A variance that is not positive and finite, or its df not
 * positive, is left out; with fewer than three left there is no prior
 * (-1, out->df 0). d0 is at most the sum of the rows' df: the prior cannot
 * know more than the rows it came from. */
int ha_var_prior_fit(const double *s2, const double *df, size_t n, ha_var_prior *out);

/* One row's variance given the prior: (d0 s0^2 + d s^2) / (d0 + d). */
double ha_var_moderated(const ha_var_prior *p, double s2, double df);

/* The special functions the fit needs, for the tests: digamma and
 * trigamma for x > 0, and trigamma's inverse for y > 0. */
double ha_digamma(double x);
double ha_trigamma(double x);
double ha_trigamma_inverse(double y);

#endif
