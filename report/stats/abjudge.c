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

/* The session's fit needs both instruments on both sides: a record
 * without one is not a session's (the bench measures both in every
 * process; a process that lost one is left out of every row instead). */
static int instruments_there(const m_bench *b, char *why, size_t n)
{
    static const char *const inst[] = {"syscall", "canary"};
    for (size_t i = 0; i < sizeof inst / sizeof *inst; i++) {
        const m_row *x = m_bench_row(b, inst[i], "", "", 1);
        size_t a = 0;
        for (size_t k = 0; x && k < x->nprocs; k++)
            a += round_of(b->procs, b->nprocs, x->procs[k].process) > 0;
        if (!a || !x->nprocs_b) {
            snprintf(why, n, "side %c has no %s instrument in its rounds: the session's fit needs both instruments "
                             "on both sides (the bench measures them in every process): not a whole session",
                     a ? 'B' : 'A', inst[i]);
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
    if (instruments_there(b, why, n))
        return -1;
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

/* The session's table (abgate.h): the processes of the taken rounds,
 * side A's then side B's, and each judged row's value in each. */
typedef struct table_space {
    ha_ab_table t;
    double *v, *sys, *can;
    unsigned char *is_b;
} table_space;

static size_t side_ids(const m_bench *side, long long rounds, const bool *taken, long long *ids, size_t n)
{
    for (size_t i = 0; i < side->nprocs; i++) {
        long long rd = side->procs[i].ok ? side->procs[i].round : 0;
        if (rd > 0 && rd <= rounds && taken[rd])
            ids[n++] = side->procs[i].index;
    }
    return n;
}

static int build_table(const m_bench *a, const m_bench *vb, const m_row **rows, const size_t *at, size_t nrows,
                       long long rounds, const bool *taken, table_space *ts)
{
    size_t cap = a->nprocs + vb->nprocs + 1, na;
    long long *ids = malloc(cap * sizeof *ids);
    int rc = -1;
    if (!ids)
        return -1;
    na = side_ids(a, rounds, taken, ids, 0);
    size_t np = side_ids(vb, rounds, taken, ids, na);
    ts->v = malloc((nrows ? nrows : 1) * (np ? np : 1) * sizeof *ts->v);
    ts->sys = malloc((np ? np : 1) * sizeof *ts->sys);
    ts->can = malloc((np ? np : 1) * sizeof *ts->can);
    ts->is_b = malloc(np ? np : 1);
    if (!ts->v || !ts->sys || !ts->can || !ts->is_b)
        goto done;
    for (size_t p = 0; p < np; p++) {
        const m_bench *side = p < na ? a : vb;
        ts->is_b[p] = p >= na;
        ts->sys[p] = value_of(m_bench_row(side, "syscall", "", "", 1), ids[p]);
        ts->can[p] = value_of(m_bench_row(side, "canary", "", "", 1), ids[p]);
        for (size_t r = 0; r < nrows; r++)
            ts->v[r * np + p] = value_of(p < na ? rows[r] : &vb->rows[at[r]], ids[p]);
    }
    ts->t = (ha_ab_table){nrows, np, ts->v, ts->sys, ts->can, ts->is_b};
    rc = 0;
done:
    free(ids);
    return rc;
}

/* An instrument side B moved is a change of B's, said. */
static void say_instruments(findings *f, const ha_ab_instrument inst[2])
{
    static const char *const name[2] = {"syscall", "canary"};
    for (int i = 0; i < 2; i++)
        if (inst[i].moved)
            findings_add(f, CHANGE, "instrument", name[i],
                         "side B moved it: B/A ×%.3f, interval [%.3f, %.3f] at %.0f %% over %zu of A's and %zu of "
                         "B's processes; the fit takes an instrument as what B leaves alone, so every row is judged "
                         "without it as a covariate",
                         inst[i].r.ratio, inst[i].r.lo, inst[i].r.hi, 100 * (1 - HA_AB_INSTRUMENT_ALPHA), inst[i].n_a,
                         inst[i].n_b);
}

static void tally(ab_tally *t, const ha_ab_row *g)
{
    t->outliers += g->e.outliers;
    switch (g->outcome) {
    case HA_AB_SAME_ROW: t->same++; t->zone += g->in_zone != 0; break;
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

/* Up to five rows' names, "a, b and c" or "a, ... e and N more". */
typedef struct name_list {
    char *text;
    size_t n;
} name_list;

static void name_add(name_list *l, const m_row *r)
{
    if (l->n++ >= 5)
        return;
    char *name = regress_row_name(r), *joined = name ? rf_printf("%s%s%s", l->text ? l->text : "", l->text ? "; " : "", name) : NULL;
    free(name);
    if (joined) {
        free(l->text);
        l->text = joined;
    }
}

static const char *name_more(name_list *l)
{
    if (l->n > 5) {
        char *more = rf_printf("%s and %zu more", l->text ? l->text : "", l->n - 5);
        if (more) {
            free(l->text);
            l->text = more;
        }
        l->n = 5;
    }
    return l->text ? l->text : "?";
}

/* The words: how it was judged, and the verdict's ground. */
static void say_session(findings *f, const m_run *run, const ab_tally *t, name_list *open, name_list *zone)
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
                     "both sides, %s, a t interval on its degrees of freedom; the "
                     "rows flagged are the Benjamini-Hochberg discoveries of \"beyond +%.0f %%\"; a row is the same "
                     "when its %.4g %% interval lies within ±%.0f %% (two one-sided tests at %.3g %% each); %zu "
                     "row(s): %zu same, %zu regression(s), %zu improvement(s), %zu undecided, %zu the session cannot "
                     "resolve yet, %zu with fewer than %d processes a side; %zu process value(s) left out as outliers",
                  t->look + 1, HA_AB_MAX_LOOKS, ha_ab_look_alpha(HA_AB_ALPHA, t->look), HA_AB_ALPHA,
                  100 * HA_AB_ALPHA, t->pairs,
                  t->use == HA_AB_USE_BOTH ? "with each process's syscall loop and canary as covariates (how far "
                                             "the row follows the host core's state, learnt from the session)"
                  : t->use == HA_AB_USE_SYSCALL ? "with each process's syscall loop as covariate (not the canary, "
                                                  "which side B moved)"
                  : t->use == HA_AB_USE_CANARY ? "with each process's canary as covariate (not the syscall loop, "
                                                 "which side B moved)"
                                               : "with no covariate (side B moved both instruments: the rows are "
                                                 "judged on their raw values)",
                  100 * HA_AB_THRESHOLD,
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
     * nothing, and a clean headline must not hide it, nor a row whose
     * interval still reaches between the flag threshold and the same
     * margin. */
    if (!t->rows)
        findings_unresolved(f, "no timed row to judge");
    else if (decided < t->rows)
        findings_unresolved(f, "%zu of %zu timed rows decided, and clean needs every one (%zu same within ±%.0f %%): "
                               "%zu undecided, %zu the session could not resolve and %zu with fewer than %d processes "
                               "a side: %s; more rounds resolve them: a longer --ab-budget (this session stopped at "
                               "%s)",
                            decided, t->rows, t->same, 100 * HA_AB_SAME, t->undecided, t->unresolvable, t->too_few,
                            HA_GATE_MIN_PROCS, name_more(open), ab->stopped ? ab->stopped : "?");
    else if (!t->regressions && !t->improvements) {
        char *tail = t->zone ? rf_printf("; %zu of them not yet within the ±%.0f %% a flag needs, so a change "
                                              "between %.0f %% and their bound is neither excluded nor flagged there "
                                              "(the session stopped at %s before resolving them): %s",
                                              t->zone, 100 * HA_AB_THRESHOLD, 100 * HA_AB_THRESHOLD,
                                              ab->stopped ? ab->stopped : "?", name_more(zone))
                                  : rf_printf(", each within the ±%.0f %% a flag needs", 100 * HA_AB_THRESHOLD);
        findings_bound(f, "every one of the %zu timed rows within %+.1f %% .. %+.1f %% of side A's (the widest of the "
                          "rows' equivalence intervals, each at its look's level)%s",
                       t->rows, 100 * (t->lo - 1), 100 * (t->hi - 1),
                       tail ? tail : "; out of memory saying more");
        free(tail);
    }
}

int abjudge(const m_run *run, findings *f, ab_tally *t)
{
    findings_clear(f);
    f->sides = true;
    f->session = t;
    memset(t, 0, sizeof *t);
    const m_bench *a = &run->bench;
    const m_ab *ab = &a->ab;
    m_bench vb;
    long long take, R = ab->rounds_started > 0 ? ab->rounds_started : 1;
    which_look(ab, &t->look, &take);
    t->pairs = (size_t)take;
    size_t nr = a->nrows ? a->nrows : 1;
    bool *taken = calloc((size_t)R + 1, sizeof *taken);
    const m_row **rows = calloc(nr, sizeof *rows);
    size_t *at = calloc(nr, sizeof *at);
    ha_ab_row *g = calloc(nr, sizeof *g);
    table_space ts = {0};
    name_list open = {0}, zone = {0};
    ha_ab_instrument inst[2];
    int rc = -1;
    if (view_b(a, &vb) != 0)
        vb.rows = NULL;
    if (!taken || !rows || !at || !g || !vb.rows)
        goto done;
    taken_rounds(a, R, take, taken);
    size_t n = 0;
    for (size_t i = 0; i < a->nrows; i++)
        if (regress_row_session_judged(&a->rows[i])) {
            at[n] = i;
            rows[n++] = &a->rows[i];
        }
    t->rows = n;
    if (build_table(a, &vb, rows, at, n, R, taken, &ts) != 0 || ha_ab_judge(&ts.t, t->look, g, &t->use, inst) < 0)
        goto done;
    say_instruments(f, inst);
    t->lo = t->hi = 1;
    for (size_t i = 0; i < n; i++) {
        tally(t, &g[i]);
        say_row(f, rows[i], &g[i]);
        if (g[i].outcome == HA_AB_SAME_ROW) {
            t->lo = fmin(t->lo, g[i].e.r.lo);
            t->hi = fmax(t->hi, g[i].e.r.hi);
        }
        if (!ha_ab_decided(g[i].outcome))
            name_add(&open, rows[i]);
        else if (g[i].in_zone)
            name_add(&zone, rows[i]);
    }
    t->settled = ha_ab_all_settled(g, n);
    say_session(f, run, t, &open, &zone);
    rc = 0;
done:
    free(open.text);
    free(zone.text);
    free(ts.v);
    free(ts.sys);
    free(ts.can);
    free(ts.is_b);
    free(taken);
    free(rows);
    free(at);
    free(g);
    free(vb.rows);
    return rc;
}
