#include "abgate.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

const int ha_ab_look_rounds[HA_AB_MAX_LOOKS] = {8, 16, 24, HA_AB_MAX_ROUNDS};

double ha_ab_look_alpha(double alpha, int look)
{
    static const double share[HA_AB_MAX_LOOKS] = {0.05, 0.1, 0.15, 0.7};
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

/* Log values for the usable observations, and a side column; their count. */
static bool positive(double x) { return x > 0 && isfinite(x); }

/* An instrument left out of `use` is a column of zeros: fit drops it. */
static size_t usable(const ha_ab_obs *o, size_t n, unsigned use, double *y, double *cols[HA_AB_COLS], bool *is_a)
{
    bool sys = use & HA_AB_USE_SYSCALL, can = use & HA_AB_USE_CANARY;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const ha_ab_obs *x = &o[i];
        if (!positive(x->v) || (sys && !positive(x->sys)) || (can && !positive(x->can)))
            continue;
        y[k] = log(x->v);
        cols[0][k] = 1;
        cols[1][k] = sys ? log(x->sys) : 0;
        cols[2][k] = can ? log(x->can) : 0;
        cols[3][k] = x->b ? 1 : 0;
        is_a[k++] = !x->b;
    }
    return k;
}

/* Least squares of y on the columns by modified Gram-Schmidt, the side
 * last: a column that adds nothing the earlier ones hold (an instrument
 * that did not move) is dropped. The side's coefficient is then its
 * residual's projection, and its variance sigma^2 / |residual|^2 (the
 * Frisch-Waugh-Lovell form): no matrix to invert. res gets y's residuals.
 * Returns the columns kept, or 0 when the side itself is lost. */
static int fit(double *cols[HA_AB_COLS], const double *y, size_t n, double *res, double *delta, double *side_norm2)
{
    int kept = 0;
    memcpy(res, y, n * sizeof *y);
    double *q[HA_AB_COLS];
    for (int j = 0; j < HA_AB_COLS; j++) {
        double *c = cols[j], before = 0, after = 0;
        for (size_t i = 0; i < n; i++)
            before += c[i] * c[i];
        for (int m = 0; m < kept; m++) {
            double dot = 0;
            for (size_t i = 0; i < n; i++)
                dot += q[m][i] * c[i];
            for (size_t i = 0; i < n; i++)
                c[i] -= dot * q[m][i];
        }
        for (size_t i = 0; i < n; i++)
            after += c[i] * c[i];
        if (!(after > 1e-12 * before)) {
            if (j == HA_AB_COLS - 1)
                return 0;
            continue;
        }
        double norm = sqrt(after), ry = 0;
        for (size_t i = 0; i < n; i++) {
            c[i] /= norm;
            ry += c[i] * res[i];
        }
        for (size_t i = 0; i < n; i++)
            res[i] -= ry * c[i];
        q[kept++] = c;
        if (j == HA_AB_COLS - 1) {
            *delta = ry / norm;
            *side_norm2 = after;
        }
    }
    return kept;
}

int ha_ab_adjusted(const ha_ab_obs *o, size_t n, unsigned use, ha_ab_est *out)
{
    memset(out, 0, sizeof *out);
    size_t nn = n ? n : 1;
    double *y = malloc(nn * sizeof *y), *res = malloc(nn * sizeof *res);
    double *work = malloc((HA_AB_COLS + 1) * nn * sizeof *work); /* the MAD's, then fit's columns */
    double *space = malloc(HA_AB_COLS * nn * sizeof *space), *cols[HA_AB_COLS];
    bool *is_a = malloc(nn * sizeof *is_a);
    int rc = -1;
    if (!y || !res || !work || !space || !is_a)
        goto done;
    for (int j = 0; j < HA_AB_COLS; j++)
        cols[j] = space + (size_t)j * nn;
    size_t k = usable(o, n, use, y, cols, is_a), used = k;
    double delta = 0, norm2 = 0;
    int p = 0;
    for (int pass = 0; pass < 2; pass++) {
        size_t na = 0;
        for (size_t i = 0; i < k; i++)
            na += is_a[i];
        if (na < HA_GATE_MIN_PROCS || k - na < HA_GATE_MIN_PROCS || k < (size_t)HA_AB_COLS + 2)
            goto done;
        double *scratch[HA_AB_COLS]; /* fit orthogonalises what it is given */
        for (int j = 0; j < HA_AB_COLS; j++) {
            scratch[j] = work + (size_t)(j + 1) * nn;
            memcpy(scratch[j], cols[j], k * sizeof *scratch[j]);
        }
        p = fit(scratch, y, k, res, &delta, &norm2);
        if (!p)
            goto done;
        if (pass == 1)
            break;
        /* A process whose residual lies beyond the others' by more than
         * HA_AB_OUTLIER_MADS robust sds is left out, and counted: one
         * process three times slower must not hide a change by widening
         * the interval of every row it touches. */
        memcpy(work, res, k * sizeof *res);
        double med = median_of(work, k);
        for (size_t i = 0; i < k; i++)
            work[i] = fabs(res[i] - med);
        double cut = fmax(HA_AB_OUTLIER_MADS * 1.4826 * median_of(work, k), log(HA_AB_OUTLIER_FLOOR));
        size_t m = 0;
        for (size_t i = 0; i < k; i++)
            if (fabs(res[i] - med) <= cut) {
                y[m] = y[i];
                is_a[m] = is_a[i];
                for (int j = 0; j < HA_AB_COLS; j++)
                    cols[j][m] = cols[j][i];
                m++;
            }
        k = m;
    }
    double rss = 0, sa = 0;
    size_t na = 0;
    for (size_t i = 0; i < k; i++) {
        rss += res[i] * res[i];
        if (is_a[i]) {
            sa += y[i];
            na++;
        }
    }
    out->n = na;
    out->n_b = k - na;
    out->outliers = used - k;
    out->mean_a = exp(sa / (double)na);
    out->r.d = delta;
    out->r.ratio = exp(delta);
    out->r.df = (double)(k - (size_t)p);
    out->r.se = sqrt(rss / out->r.df / norm2);
    rc = 0;
done:
    free(y);
    free(res);
    free(work);
    free(space);
    free(is_a);
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
    double level = 1 - q / (double)nn, same_level = 1 - 2 * ha_ab_look_alpha(HA_AB_SAME_ALPHA, look);
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
        p[i] = ha_proc_p_beyond(&o->e.r, HA_AB_THRESHOLD);
        o->detectable = expm1(ha_proc_detectable(&o->e.r, level, HA_AB_POWER, HA_AB_THRESHOLD));
        interval(&o->e.r, same_level);
        if (o->e.r.lo > 1 / (1 + HA_AB_SAME) && o->e.r.hi < 1 + HA_AB_SAME) {
            o->outcome = HA_AB_SAME_ROW;
            o->level = same_level;
            o->in_zone = !(o->e.r.lo >= 1 / (1 + HA_AB_THRESHOLD) && o->e.r.hi <= 1 + HA_AB_THRESHOLD);
            continue;
        }
        interval(&o->e.r, level);
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
        o->in_zone = 0;
        interval(&o->e.r, flagged_level);
        o->outcome = o->e.r.d > 0 ? HA_AB_REGRESSION : HA_AB_IMPROVEMENT;
    }
    free(p);
    return bh < 0 ? -1 : (long)found;
}

int ha_ab_decided(ha_ab_outcome o) { return o == HA_AB_SAME_ROW || o == HA_AB_REGRESSION || o == HA_AB_IMPROVEMENT; }

int ha_ab_settled(const ha_ab_row *r) { return ha_ab_decided(r->outcome) && !r->in_zone; }

int ha_ab_instrument_shift(const double *a, size_t na, const double *b, size_t nb, ha_proc_ratio *out, int *moved)
{
    ha_proc_est ea, eb;
    memset(out, 0, sizeof *out);
    *moved = 0;
    if (na < HA_GATE_MIN_PROCS || nb < HA_GATE_MIN_PROCS || ha_proc_summary(a, na, &ea) != 0 ||
        ha_proc_summary(b, nb, &eb) != 0 || ha_proc_compare(&ea, &eb, 1 - HA_AB_INSTRUMENT_ALPHA, out) != 0)
        return -1;
    *moved = !(out->lo <= 1 && out->hi >= 1);
    return 0;
}

int ha_ab_all_settled(const ha_ab_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!ha_ab_settled(&rows[i]))
            return 0;
    return n > 0;
}

/* One instrument's values on each side, then its shift. */
static void instrument(const double *x, const unsigned char *is_b, size_t n, double *a, double *b,
                       ha_ab_instrument *out)
{
    memset(out, 0, sizeof *out);
    for (size_t p = 0; p < n; p++)
        if (x[p] > 0 && isfinite(x[p])) {
            if (is_b[p])
                b[out->n_b++] = x[p];
            else
                a[out->n_a++] = x[p];
        }
    out->judged = ha_ab_instrument_shift(a, out->n_a, b, out->n_b, &out->r, &out->moved) == 0;
}

long ha_ab_judge(const ha_ab_table *t, int look, ha_ab_row *out, unsigned *use, ha_ab_instrument inst[2])
{
    size_t np = t->nprocs ? t->nprocs : 1, nr = t->nrows ? t->nrows : 1;
    double *a = malloc(np * sizeof *a), *b = malloc(np * sizeof *b);
    ha_ab_obs *o = malloc(np * sizeof *o);
    ha_ab_est *est = calloc(nr, sizeof *est);
    int *ok = calloc(nr, sizeof *ok);
    long rc = -1;
    if (!a || !b || !o || !est || !ok)
        goto done;
    instrument(t->sys, t->is_b, t->nprocs, a, b, &inst[0]);
    instrument(t->can, t->is_b, t->nprocs, a, b, &inst[1]);
    *use = (inst[0].moved ? 0 : HA_AB_USE_SYSCALL) | (inst[1].moved ? 0 : HA_AB_USE_CANARY);
    for (size_t r = 0; r < t->nrows; r++) {
        for (size_t p = 0; p < t->nprocs; p++)
            o[p] = (ha_ab_obs){t->v[r * t->nprocs + p], t->sys[p], t->can[p], t->is_b[p]};
        ok[r] = ha_ab_adjusted(o, t->nprocs, *use, &est[r]) == 0;
    }
    rc = ha_ab_family(est, ok, t->nrows, look, out);
done:
    free(a);
    free(b);
    free(o);
    free(est);
    free(ok);
    return rc;
}

#define HA_AB_ROUND_SPARE 1.1 /* a round may run a tenth longer than the longest so far */

int ha_ab_budget_ends(int started, double now_s, double longest_round_s, double budget_s)
{
    return started >= HA_AB_MIN_ROUNDS && now_s + HA_AB_ROUND_SPARE * longest_round_s > budget_s;
}

double ha_ab_budget_for_first_look(double longest_round_s)
{
    return ceil(HA_AB_ROUND_SPARE * longest_round_s * ha_ab_look_rounds[0]);
}
