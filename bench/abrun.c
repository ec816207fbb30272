/* The A/B session's rounds, looks and stop (ab.h): a step of the bench. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "abgate.h"
#include "families.h"
#include "gpustatus.h"
#include "jsonw.h"
#include "procstats.h"
#include "log.h"
#include "stats.h"

/* The session as a table (abgate.h) at a look: the processes of its
 * paired rounds, every timed row's value in each, their values as the
 * record will hold them (jw_dbl_as_written), so this judgement is the one
 * compare makes from the record. NULL out of memory. */
typedef struct look_table {
    ha_ab_table t;
    double *v, *sys, *can;
    unsigned char *is_b;
    const bench_row **rows;
} look_table;

static bool judged_row(const bench_row *r)
{
    return r->repeat == 1 && !r->skipped && !ha_family_is_instrument(r->family);
}

static bool round_paired(const bench *b, int round)
{
    int sides = 0;
    for (int p = 0; p < b->nprocs; p++)
        if (b->procs[p].ok && b->procs[p].round == round)
            sides |= b->procs[p].side == 'b' ? 2 : 1;
    return sides == 3;
}

static double value_in(const bench_row *r, int p)
{
    if (!r || !r->nproc_med[p])
        return NAN;
    double *v = malloc(r->nproc_med[p] * sizeof *v);
    if (!v)
        return NAN;
    for (size_t k = 0; k < r->nproc_med[p]; k++)
        v[k] = jw_dbl_as_written(r->proc_med[p][k], BENCH_SAMPLE_DIGITS);
    double x = ha_proc_fast_value(v, r->nproc_med[p]);
    free(v);
    return x;
}

static int look_table_make(const bench *b, look_table *lt)
{
    memset(lt, 0, sizeof *lt);
    int *pick = malloc((size_t)(b->nprocs ? b->nprocs : 1) * sizeof *pick);
    size_t np = 0, nr = 0;
    lt->rows = malloc((b->nrows ? b->nrows : 1) * sizeof *lt->rows);
    if (!pick || !lt->rows) {
        free(pick);
        return -1;
    }
    for (int p = 0; p < b->nprocs; p++)
        if (b->procs[p].ok && b->procs[p].round > 0 && round_paired(b, b->procs[p].round))
            pick[np++] = p;
    for (size_t i = 0; i < b->nrows; i++)
        if (judged_row(&b->rows[i]))
            lt->rows[nr++] = &b->rows[i];
    lt->v = malloc((nr ? nr : 1) * (np ? np : 1) * sizeof *lt->v);
    lt->sys = malloc((np ? np : 1) * sizeof *lt->sys);
    lt->can = malloc((np ? np : 1) * sizeof *lt->can);
    lt->is_b = malloc(np ? np : 1);
    if (!lt->v || !lt->sys || !lt->can || !lt->is_b) {
        free(pick);
        return -1;
    }
    const bench_row *sys = bench_find_row(b, "syscall", "", "", 1), *can = bench_find_row(b, "canary", "", "", 1);
    for (size_t k = 0; k < np; k++) {
        lt->is_b[k] = b->procs[pick[k]].side == 'b';
        lt->sys[k] = value_in(sys, pick[k]);
        lt->can[k] = value_in(can, pick[k]);
        for (size_t r = 0; r < nr; r++)
            lt->v[r * np + k] = value_in(lt->rows[r], pick[k]);
    }
    lt->t = (ha_ab_table){nr, np, lt->v, lt->sys, lt->can, lt->is_b};
    free(pick);
    return 0;
}

static void look_table_free(look_table *lt)
{
    free(lt->v);
    free(lt->sys);
    free(lt->can);
    free(lt->is_b);
    free(lt->rows);
}

/* Every row settled at this look (flagged, or the same within the flag
 * threshold)? Out of memory it is not taken (its alpha stays unspent) and
 * settles nothing: a look that could not be made never ends a session. */
static bool look(bench *b)
{
    ab_session *s = &b->ab;
    look_table lt;
    ha_ab_row *g = NULL;
    int settled = -1;
    if (look_table_make(b, &lt) == 0 && (g = calloc(lt.t.nrows ? lt.t.nrows : 1, sizeof *g))) {
        unsigned use;
        ha_ab_instrument inst[2];
        if (ha_ab_judge(&lt.t, s->nlooks, g, &use, inst) >= 0)
            settled = ha_ab_all_settled(g, lt.t.nrows);
    }
    free(g);
    look_table_free(&lt);
    if (settled < 0) {
        ha_log(HA_LOG_WARN, "A/B look after %d rounds: out of memory, not taken", s->rounds);
        return false;
    }
    s->looks[s->nlooks++] = s->rounds;
    ha_log(HA_LOG_INFO, "A/B look %d after %d rounds: %s", s->nlooks, s->rounds,
           settled ? "every row settled" : "rows unsettled, more rounds");
    return settled == 1;
}

/* ---- the rounds ---- */

/* Why the session ended, whole (a build folder's path has no bound). */
static void stop(ab_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void stop(ab_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(s->stopped);
    if (vasprintf(&s->stopped, fmt, ap) < 0)
        s->stopped = NULL;
    va_end(ap);
}

static const char *stopped(const ab_session *s) { return s->stopped ? s->stopped : "out of memory saying why"; }

static bool one_process(bench *b, int argc, char **argv, char side, int round, int slot)
{
    int pi = b->nprocs;
    bench_proc *p = &b->procs[pi];
    memset(p, 0, sizeof *p);
    p->index = pi + 1;
    p->seed = bench_proc_seed(pi + 1);
    p->side = side;
    p->round = round;
    p->slot = slot;
    bench_procs_view pv = bench_procs_of(b);
    bench_procs_place(&pv, p);
    b->nprocs = pi + 1;
    ha_log(HA_LOG_INFO, "round %d, process %d: side %c (CPU %d)", round, p->index, side, p->start_cpu);
    bench_procs_run_one(&pv, argc, argv, pi);
    return p->ok;
}

int bench_ab_run(bench *b, int argc, char **argv)
{
    ab_session *s = &b->ab;
    b->procs[0].side = 'a';
    unsigned long long order = s->seed;
    double t0 = ha_now_s(), round_s = 0;
    int next_look = 0;
    while (s->rounds_started < HA_AB_MAX_ROUNDS) {
        double now = ha_now_s() - t0;
        /* A round that would end past the budget is not started. */
        if (ha_ab_budget_ends(s->rounds_started, now, round_s, s->budget_s)) {
            if (s->rounds < ha_ab_look_rounds[0])
                stop(s, "its budget of %.0f s before its first look: %d rounds in %.0f s, and the first look needs "
                        "%d (give --ab-budget %.0f or more)",
                     s->budget_s, s->rounds, now, ha_ab_look_rounds[0], ha_ab_budget_for_first_look(round_s));
            else
                stop(s, "its budget of %.0f s: %d rounds in %.0f s", s->budget_s, s->rounds, now);
            break;
        }
        int round = ++s->rounds_started;
        bool b_first = ha_xorshift64(&order) & 1, ok[2];
        double r0 = ha_now_s();
        for (int slot = 1; slot <= 2; slot++) {
            char side = (slot == 1) == b_first ? 'b' : 'a';
            ok[slot - 1] = one_process(b, argc, argv, side, round, slot);
            /* Another build that cannot run here is said at once, not after the budget. */
            if (!ok[slot - 1] && side == 'b' && round == 1 && s->b_exe) {
                stop(s, "side B's bench (%s) did not finish its first process: %s", s->b_exe,
                     b->procs[b->nprocs - 1].detail);
                goto ended;
            }
        }
        s->rounds += ok[0] && ok[1];
        if (ha_now_s() - r0 > round_s)
            round_s = ha_now_s() - r0;
        /* A simulated session's timings are the machine's that ran it and
         * never judged: rounds past the fewest buy nothing. */
        if (ha_backend_simulated(&b->t.be) && s->rounds >= HA_AB_MIN_ROUNDS) {
            stop(s, "its fewest rounds, %d: a SIMULATED session's timings are never judged", s->rounds);
            break;
        }
        if (next_look < HA_AB_MAX_LOOKS && s->rounds >= ha_ab_look_rounds[next_look]) {
            next_look++;
            if (look(b)) {
                s->decided = true;
                stop(s, "every row settled at look %d, after %d rounds", s->nlooks, s->rounds);
                break;
            }
        }
    }
ended:
    if (!s->stopped)
        stop(s, "its most rounds, %d", HA_AB_MAX_ROUNDS);
    /* A last look at what the session holds, if the budget came between two. */
    if (!s->decided && s->rounds >= HA_AB_MIN_ROUNDS &&
        (s->nlooks == 0 || s->looks[s->nlooks - 1] != s->rounds) && s->nlooks < HA_AB_MAX_LOOKS)
        s->decided = look(b);
    ha_log(HA_LOG_INFO, "A/B session: %d rounds paired, stopped at %s", s->rounds, stopped(s));
    if (s->rounds < HA_AB_MIN_ROUNDS) {
        ha_log(HA_LOG_ERROR, "A/B session: %d of the %d rounds it needs paired (%s): not a whole session", s->rounds,
               HA_AB_MIN_ROUNDS, stopped(s));
        return HA_EXIT_FAIL;
    }
    return 0;
}
