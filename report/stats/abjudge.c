#include "abjudge.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abgate.h"
#include "derive.h"
#include "readfile.h"

/* The round of process id among procs; 0 none. */
static long long round_of(const m_proc *procs, size_t n, long long id)
{
    for (size_t i = 0; i < n; i++)
        if (procs[i].index == id)
            return procs[i].ok ? procs[i].round : 0;
    return 0;
}

static bool side_has(const m_proc *p, size_t n, long long round)
{
    for (size_t i = 0; i < n; i++)
        if (p[i].round == round && p[i].ok)
            return true;
    return false;
}

/* Whether both sides' processes of round rd finished. */
static bool paired(const m_bench *b, long long rd)
{
    return side_has(b->procs, b->nprocs, rd) && side_has(b->ab.procs_b, b->ab.nprocs_b, rd);
}

static int side_usable(const m_proc *p, size_t n, char side, long long rounds, char *why, size_t wn)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i].side != side && !(side == 'a' && p[i].round == 0 && p[i].index == 1)) {
            snprintf(why, wn, "process %lld has no side a or b: not an A/B session's record", p[i].index);
            return -1;
        }
        if (p[i].round < 0 || p[i].round > rounds || (p[i].round == 0 && p[i].index != 1)) {
            snprintf(why, wn, "process %lld's round %lld is outside the session's %lld rounds", p[i].index, p[i].round,
                     rounds);
            return -1;
        }
        for (size_t j = 0; j < i; j++)
            if (p[j].index == p[i].index || (p[i].round && p[j].round == p[i].round)) {
                snprintf(why, wn, "side %c lists %s twice (process %lld): a record that contradicts itself", side,
                         p[j].index == p[i].index ? "a process" : "a round", p[i].index);
                return -1;
            }
    }
    return 0;
}

int abjudge_usable(const m_run *r, char *why, size_t n)
{
    const m_bench *b = &r->bench;
    if (!r->has[RUN_BENCH] || !b->ab.on) {
        snprintf(why, n, "%s holds no A/B session (run_all.sh --ab SPEC makes one): give two run folders", r->path);
        return -1;
    }
    const m_ab *ab = &b->ab;
    if (side_usable(b->procs, b->nprocs, 'a', ab->rounds_started, why, n) ||
        side_usable(ab->procs_b, ab->nprocs_b, 'b', ab->rounds_started, why, n))
        return -1;
    long long pairs = 0;
    for (long long rd = 1; rd <= ab->rounds_started; rd++)
        pairs += paired(b, rd);
    if (pairs != ab->rounds) {
        snprintf(why, n, "the session says %lld paired rounds, its processes hold %lld: a record that contradicts "
                         "itself", ab->rounds, pairs);
        return -1;
    }
    if (ab->rounds < HA_AB_MIN_ROUNDS) {
        snprintf(why, n, "half a session: %lld paired rounds of the %d it needs (%s); nothing is judged on it",
                 ab->rounds, HA_AB_MIN_ROUNDS, ab->stopped ? ab->stopped : "it stopped");
        return -1;
    }
    if (ab->nlooks > HA_AB_MAX_LOOKS) {
        snprintf(why, n, "%zu looks, more than the %d whose alpha the rule spends", ab->nlooks, HA_AB_MAX_LOOKS);
        return -1;
    }
    for (size_t i = 0; i < ab->nlooks; i++)
        if (ab->looks[i] < HA_AB_MIN_ROUNDS || ab->looks[i] > ab->rounds || (i && ab->looks[i] <= ab->looks[i - 1])) {
            snprintf(why, n, "look %zu at %lld rounds does not fit the session's %lld paired rounds", i + 1,
                     ab->looks[i], ab->rounds);
            return -1;
        }
    return 0;
}

/* The look the judgement is made at, and the paired rounds it takes:
 * the session's last look when it saw every round; a look of its own when
 * rounds came after the last and alpha is left; else the last look's
 * rounds alone. */
static void which_look(const m_ab *ab, int *look, long long *take)
{
    size_t L = ab->nlooks;
    *take = ab->rounds;
    if (L && ab->looks[L - 1] == ab->rounds)
        *look = (int)L - 1;
    else if (L < HA_AB_MAX_LOOKS)
        *look = (int)L;
    else {
        *look = (int)L - 1;
        *take = ab->looks[L - 1];
    }
}

/* Side B as a run of its own: its processes, each row's procs_b. */
static int view_b(const m_bench *b, m_bench *v)
{
    *v = *b;
    v->rows = calloc(b->nrows ? b->nrows : 1, sizeof *v->rows);
    if (!v->rows)
        return -1;
    for (size_t i = 0; i < b->nrows; i++) {
        v->rows[i] = b->rows[i];
        v->rows[i].procs = b->rows[i].procs_b;
        v->rows[i].nprocs = b->rows[i].nprocs_b;
    }
    v->procs = b->ab.procs_b;
    v->nprocs = b->ab.nprocs_b;
    v->procs_finished = b->ab.procs_b_finished;
    m_rows_kept(v);
    return 0;
}

/* taken[rd]: round rd is among the first `take` paired rounds, the ones
 * the look judges. */
static void taken_rounds(const m_bench *b, long long rounds, long long take, bool *taken)
{
    long long seen = 0;
    for (long long rd = 1; rd <= rounds; rd++)
        taken[rd] = paired(b, rd) && ++seen <= take;
}

/* The value of process id in row r, its fast state's (NaN: none). */
static double value_of(const m_row *r, long long id)
{
    for (size_t k = 0; r && k < r->nprocs; k++)
        if (r->procs[k].process == id)
            return ha_proc_fast_value(r->procs[k].blocks, r->procs[k].nblocks);
    return NAN;
}

/* One side's processes of the taken rounds for row r, with their
 * instruments, appended to o from o[n] (room for cap); the new count. */
static size_t side_obs(const m_bench *side, const m_row *r, long long rounds, const bool *taken, int is_b,
                       ha_ab_obs *o, size_t n, size_t cap)
{
    const m_row *sys = m_bench_row(side, "syscall", "", "", 1), *can = m_bench_row(side, "canary", "", "", 1);
    for (size_t i = 0; i < r->nprocs; i++) {
        long long id = r->procs[i].process, rd = round_of(side->procs, side->nprocs, id);
        if (rd <= 0 || rd > rounds || !taken[rd] || n == cap)
            continue;
        o[n].v = ha_proc_fast_value(r->procs[i].blocks, r->procs[i].nblocks);
        o[n].sys = value_of(sys, id);
        o[n].can = value_of(can, id);
        o[n++].b = is_b;
    }
    return n;
}

static void tally(ab_tally *t, const ha_ab_row *g)
{
    t->outliers += g->e.outliers;
    switch (g->outcome) {
    case HA_AB_SAME_ROW: t->same++; break;
    case HA_AB_REGRESSION: t->regressions++; break;
    case HA_AB_IMPROVEMENT: t->improvements++; break;
    case HA_AB_UNDECIDED: t->undecided++; break;
    case HA_AB_UNRESOLVABLE: t->unresolvable++; break;
    case HA_AB_TOO_FEW: t->too_few++; break;
    }
}

static void say_row(findings *f, const m_row *r, const ha_ab_row *g)
{
    char *name = regress_row_name(r);
    int cls = g->outcome == HA_AB_REGRESSION ? REGRESSION : g->outcome == HA_AB_IMPROVEMENT ? IMPROVEMENT
                                                                                          : INCONCLUSIVE;
    if (g->outcome == HA_AB_SAME_ROW || g->outcome == HA_AB_UNRESOLVABLE || g->outcome == HA_AB_TOO_FEW) {
        free(name);
        return;
    }
    findings_add(f, cls, "timing", name ? name : "a row",
                 "B/A ×%.3f, interval [%.3f, %.3f] at %.4g %% over %zu of A's and %zu of B's processes (%zu left out "
                 "as outliers), each with its syscall loop and canary as covariates; A's value %.4g ns (geometric mean "
                 "of its processes' fast states); regression beyond +%.0f %%, same within ±%.0f %%",
                 g->e.r.ratio, g->e.r.lo, g->e.r.hi, 100 * g->level, g->e.n, g->e.n_b, g->e.outliers, g->e.mean_a,
                 100 * HA_AB_THRESHOLD, 100 * HA_AB_SAME);
    free(name);
}

/* The words: how it was judged, and the verdict's ground. */
static void say_session(findings *f, const m_run *run, const ab_tally *t, const char *first_undecided)
{
    const m_ab *ab = &run->bench.ab;
    size_t decided = t->same + t->regressions + t->improvements;
    findings_note(f, "an A/B session: side A is this run's build and environment, side B %s; %lld rounds (%lld "
                     "paired) in a seeded random order (seed %s), stopped at %s; each process's value in a row is "
                     "the least of its block medians (the host core's fast state, which comes and goes within a "
                     "process)",
                  ab->spec ? ab->spec : "?", ab->rounds_started, ab->rounds, ab->seed ? ab->seed : "?",
                  ab->stopped ? ab->stopped : "?");
    findings_note(f, "judged at look %d of at most %d (its share of alpha %.4g of %.2g; the looks' shares add up to "
                     "it, so whatever look a session stops at, an A/A session flags any row with probability at most "
                     "%.0f %%) on the %zu paired rounds: each row's B/A is a least-squares fit over every process of "
                     "both sides, with each process's syscall loop and canary as covariates (how far the row follows "
                     "the host core's state, learnt from the session), a t interval on its degrees of freedom; the "
                     "rows flagged are the Benjamini-Hochberg discoveries of \"beyond +%.0f %%\"; a row is the same "
                     "when its %.4g %% interval lies within ±%.0f %% (two one-sided tests at %.3g %% each); %zu "
                     "row(s): %zu same, %zu regression(s), %zu improvement(s), %zu undecided, %zu the session cannot "
                     "resolve yet, %zu with fewer than %d processes a side; %zu process value(s) left out as outliers",
                  t->look + 1, HA_AB_MAX_LOOKS, ha_ab_look_alpha(HA_AB_ALPHA, t->look), HA_AB_ALPHA,
                  100 * HA_AB_ALPHA, t->pairs, 100 * HA_AB_THRESHOLD,
                  100 * (1 - 2 * ha_ab_look_alpha(HA_AB_SAME_ALPHA, t->look)), 100 * HA_AB_SAME,
                  100 * ha_ab_look_alpha(HA_AB_SAME_ALPHA, t->look), t->rows, t->same, t->regressions,
                  t->improvements, t->undecided, t->unresolvable, t->too_few, HA_GATE_MIN_PROCS, t->outliers);
    if (run->bench.head.simulated) { /* the bench record says whose timings these are */
        for (size_t i = 0; i < f->n; i++)
            f->v[i].cls = CHANGE;
        f->timings = "the session is SIMULATED: its timings are reported below as changes, never gated.";
        findings_unresolved(f, "a SIMULATED session's timings are the machine's that ran it, not a GPU's: never "
                               "gated, so never clean (%zu of %zu rows decided)", decided, t->rows);
        return;
    }
    /* Clean is a bound a reader can quote, over every timed row: a row
     * left undecided (one without B's processes among them) is evidence of
     * nothing, and a clean headline must not hide it. */
    if (!t->rows)
        findings_unresolved(f, "no timed row to judge");
    else if (decided < t->rows)
        findings_unresolved(f, "%zu of %zu timed rows decided, and clean needs every one (%zu same within ±%.0f %%): "
                               "%zu undecided, %zu the session could not resolve and %zu with fewer than %d processes "
                               "a side, among them %s; more rounds resolve them: a longer --ab-budget (this session "
                               "stopped at %s)",
                            decided, t->rows, t->same, 100 * HA_AB_SAME, t->undecided, t->unresolvable, t->too_few,
                            HA_GATE_MIN_PROCS, first_undecided ? first_undecided : "?", ab->stopped ? ab->stopped : "?");
    else if (!t->regressions && !t->improvements)
        findings_bound(f, "every one of the %zu timed rows within %+.1f %% .. %+.1f %% of side A's (the widest of the "
                          "rows' equivalence intervals, each at its look's level)",
                       t->rows, 100 * (t->lo - 1), 100 * (t->hi - 1));
}

int abjudge(const m_run *run, findings *f, ab_tally *t)
{
    findings_clear(f);
    f->sides = true;
    memset(t, 0, sizeof *t);
    const m_bench *a = &run->bench;
    const m_ab *ab = &a->ab;
    m_bench vb;
    long long take, R = ab->rounds_started > 0 ? ab->rounds_started : 1;
    which_look(ab, &t->look, &take);
    t->pairs = (size_t)take;
    size_t nr = a->nrows ? a->nrows : 1, k = a->nprocs + ab->nprocs_b + 1;
    ha_ab_obs *obs = calloc(k, sizeof *obs);
    bool *taken = calloc((size_t)R + 1, sizeof *taken);
    const m_row **rows = calloc(nr, sizeof *rows);
    ha_ab_est *est = calloc(nr, sizeof *est);
    int *ok = calloc(nr, sizeof *ok);
    ha_ab_row *g = calloc(nr, sizeof *g);
    int rc = -1;
    if (view_b(a, &vb) != 0)
        vb.rows = NULL;
    if (!obs || !taken || !rows || !est || !ok || !g || !vb.rows)
        goto done;
    taken_rounds(a, R, take, taken);
    size_t n = 0;
    for (size_t i = 0; i < a->nrows; i++) {
        const m_row *r = &a->rows[i];
        if (!regress_row_gated(r))
            continue;
        rows[n] = r;
        size_t m = side_obs(a, r, R, taken, 0, obs, 0, k);
        m = side_obs(&vb, &vb.rows[i], R, taken, 1, obs, m, k);
        ok[n] = ha_ab_adjusted(obs, m, &est[n]) == 0;
        n++;
    }
    t->rows = n;
    if (ha_ab_family(est, ok, n, t->look, g) < 0)
        goto done;
    char *first_undecided = NULL;
    t->lo = t->hi = 1;
    for (size_t i = 0; i < n; i++) {
        tally(t, &g[i]);
        say_row(f, rows[i], &g[i]);
        if (g[i].outcome == HA_AB_SAME_ROW) {
            t->lo = fmin(t->lo, g[i].e.r.lo);
            t->hi = fmax(t->hi, g[i].e.r.hi);
        } else if (!ha_ab_decided(g[i].outcome) && !first_undecided) {
            first_undecided = regress_row_name(rows[i]);
        }
    }
    say_session(f, run, t, first_undecided);
    free(first_undecided);
    rc = 0;
done:
    free(obs);
    free(taken);
    free(rows);
    free(est);
    free(ok);
    free(g);
    free(vb.rows);
    return rc;
}
