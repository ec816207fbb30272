/* The record, through the field table (fields.def), and the sweep CSV. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bench.h"
#include "gpuhelpers.h"
#include "log.h"
#include "recw.h"

int bench_write_sweep_csv(const bench *b)
{
    if (!b->sweep_csv || b->nsweep == 0)
        return 0;
    ha_record rec;
    char err[512];
    if (ha_record_open(&rec, b->sweep_csv, err, sizeof err) != 0) {
        ha_log(HA_LOG_ERROR, "%s", err);
        return HA_EXIT_OUTPUT;
    }
    fprintf(rec.f, "# %s, %s, %s%s\n", b->t.env.device_name, b->t.be.ops->name,
            b->d.kinds[b->headline]->name, ha_backend_simulated(&b->t.be) ? " (SIMULATED)" : "");
    fprintf(rec.f, "# ns per read of the whole size: medians and robust spreads (1.4826 MAD)\n");
    fprintf(rec.f, "size_bytes,copy_median_ns,copy_spread_ns,read_median_ns,read_spread_ns,"
                   "read_nt_median_ns,read_nt_spread_ns\n");
    for (size_t i = 0; i < b->nsweep; i++) {
        const sweep_point *p = &b->sweep_pts[i];
        fprintf(rec.f, "%zu,%.6g,%.6g,%.6g,%.6g,", p->size, p->copy.st.median, p->copy.st.spread,
                p->read.st.median, p->read.st.spread);
        if (p->read_nt.nsamples)
            fprintf(rec.f, "%.6g,%.6g\n", p->read_nt.st.median, p->read_nt.st.spread);
        else
            fprintf(rec.f, ",\n");
    }
    if (ha_record_commit(&rec, err, sizeof err) != 0) {
        ha_log(HA_LOG_ERROR, "%s", err);
        return HA_EXIT_OUTPUT;
    }
    return 0;
}

static void json_stats(jw *w, const bench_row *r)
{
    hw_num(w, HF_ST_MIN, r->st.min);
    hw_num(w, HF_ST_MEDIAN, r->st.median);
    hw_num(w, HF_ST_P90, r->st.p90);
    hw_num(w, HF_ST_P99, r->st.p99);
    hw_num(w, HF_ST_MAX, r->st.max);
    hw_num(w, HF_ST_MEAN, r->st.mean);
    hw_num(w, HF_ST_MAD, r->st.mad);
    hw_num(w, HF_ST_SPREAD, r->st.spread);
}

/* A row holds what was measured and how, never a figure that follows from
 * it (F_DERIVED in fields.def): the reader derives the statistics, the
 * share of the harness and process 1's block medians from samples_ns and
 * block_state_ns (report/load/onread.c), as pyperf derives from a run's
 * values. The other processes' block medians are their measurements here:
 * a worker sends nothing finer. */
static void json_row(jw *w, const bench_row *r)
{
    jw_obj(w);
    hw_str(w, HF_ROW_PATH, r->path);
    hw_str(w, HF_ROW_KIND, r->kind[0] ? r->kind : NULL);
    hw_str(w, HF_ROW_CANDIDATE, r->candidate[0] ? r->candidate : NULL);
    hw_str(w, HF_ROW_WHAT, r->what);
    hw_str(w, HF_ROW_FAMILY, r->family);
    hw_bool(w, HF_ROW_BAR, r->comparable_to_bar);
    hw_int(w, HF_ROW_REPEAT, r->repeat);
    hw_bool(w, HF_ROW_SKIPPED, r->skipped);
    hw_str(w, HF_ROW_SKIP_REASON, r->skipped ? r->skip_reason : NULL);
    if (!r->skipped) {
        hw_int(w, HF_ROW_LOOP_STATUS, r->status);
        hw_uint(w, HF_ROW_FALLBACKS, r->fallbacks);
        hw_uint(w, HF_ROW_BATCH, r->batch);
        hw_uint(w, HF_ROW_BLOCK_SAMPLES, r->block_samples);
        hw_bool(w, HF_ROW_CAPPED, r->capped);
        hw_num(w, HF_ROW_FIRST_BATCH, r->first_batch_ns);
        hw_num(w, HF_ROW_OVERHEAD, r->overhead_ns);
        hw_uint(w, HF_ROW_RETAKEN, r->retaken);
        hw_arr_flat(w, HF_ROW_SAMPLES);
        for (size_t i = 0; i < r->nsamples; i++)
            jw_dbl_prec(w, r->samples[i], BENCH_SAMPLE_DIGITS);
        jw_arr_end(w);
        hw_arr_flat(w, HF_ROW_BLOCK_STATE);
        for (size_t i = 0; i < r->nblocks; i++)
            jw_dbl_prec(w, r->block_state[i], 4);
        jw_arr_end(w);
        hw_arr_flat(w, HF_ROW_BLOCK_CPUS);
        for (size_t i = 0; i < r->nblocks; i++)
            jw_int(w, r->block_cpu[i]);
        jw_arr_end(w);
        hw_arr(w, HF_ROW_BY_PROCESS);
        for (int p = 1; p < BENCH_MAX_PROCS; p++) {
            if (!r->nproc_med[p])
                continue;
            jw_obj(w);
            hw_int(w, HF_RBP_PROCESS, p + 1);
            hw_arr_flat(w, HF_RBP_BLOCKS);
            for (size_t k = 0; k < r->nproc_med[p]; k++)
                jw_dbl_prec(w, r->proc_med[p][k], 5);
            jw_arr_end(w);
            jw_obj_end(w);
        }
        jw_arr_end(w);
    }
    jw_obj_end(w);
}

/* A sweep point's figure: the statistics alone. */
static void json_point(jw *w, int id, const bench_row *r)
{
    if (!r->nsamples) {
        hw_null(w, id);
        return;
    }
    hw_obj(w, id);
    json_stats(w, r);
    jw_obj_end(w);
}

/* The bench's choice of kinds; the figures are the rows', read from them. */
static void json_headline(const headline *h, jw *w)
{
    if (!h->kind) {
        hw_null(w, HF_HEADLINE);
        return;
    }
    hw_obj(w, HF_HEADLINE);
    hw_str(w, HF_HL_FAST_KIND, h->kind);
    hw_str(w, HF_HL_SLOW_KIND, h->slow ? h->slow->kind : NULL);
    jw_obj_end(w);
}

static void json_sweep(const bench *b, jw *w)
{
    if (b->nsweep == 0) {
        hw_null(w, HF_SWEEP);
        return;
    }
    hw_obj(w, HF_SWEEP);
    hw_str(w, HF_SWEEP_KIND, b->d.kinds[b->headline]->name);
    hw_str(w, HF_SWEEP_TIMING, "chained: each read of the whole size waits for the previous read's data, "
                               "as the fast row is timed, so the 4-byte point and the fast row are one figure");
    if (b->crossover >= 0)
        hw_int(w, HF_SWEEP_CROSSOVER, b->crossover);
    else
        hw_null(w, HF_SWEEP_CROSSOVER);
    hw_arr(w, HF_SWEEP_POINTS);
    for (size_t i = 0; i < b->nsweep; i++) {
        const sweep_point *p = &b->sweep_pts[i];
        jw_obj(w);
        hw_uint(w, HF_SP_SIZE, p->size);
        json_point(w, HF_SP_COPY, &p->copy);
        json_point(w, HF_SP_READ, &p->read);
        json_point(w, HF_SP_READ_NT, &p->read_nt);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

static void json_plan(const bench *b, jw *w)
{
    hw_obj(w, HF_PLAN);
    hw_int(w, HF_PLAN_ITERATIONS, b->plan.iterations);
    hw_int(w, HF_PLAN_WARMUP, b->plan.warmup);
    hw_int(w, HF_PLAN_MIN_SAMPLES, b->plan.min_samples);
    hw_num(w, HF_PLAN_ROW_SECONDS, b->plan.row_seconds);
    hw_num(w, HF_PLAN_MIN_ROW_SECONDS, b->plan.min_row_seconds);
    hw_int(w, HF_PLAN_REPEAT, b->repeat);
    hw_int(w, HF_PLAN_ROUNDS, b->plan.rounds);
    hw_str(w, HF_PLAN_ORDER, "every row takes one block of its samples in each round it is in (the rounds of "
                             "repeat r are those where round % repeat == r - 1), rows shuffled per round with a "
                             "fixed seed; one unrecorded batch before each block");
    hw_int(w, HF_PLAN_SWEEP_ITERATIONS, b->sweep_iterations);
    jw_obj_end(w);
}

static void json_cpu(const bench *b, jw *w)
{
    if (b->cpu.cpu >= 0)
        hw_int(w, HF_PINNED_CPU, b->cpu.cpu);
    else
        hw_null(w, HF_PINNED_CPU);
    hw_obj(w, HF_CPU_CHOICE);
    hw_str(w, HF_CPU_HOW, b->cpu.how);
    hw_arr(w, HF_CPU_SURVEY);
    for (int i = 0; i < b->cpu.nscores; i++) {
        jw_obj(w);
        hw_int(w, HF_SURVEY_CPU, b->cpu.scores[i].cpu);
        hw_num(w, HF_SURVEY_P50, b->cpu.scores[i].p50_ns);
        hw_num(w, HF_SURVEY_P90, b->cpu.scores[i].p90_ns);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    const cpu_state *s = &b->state;
    hw_obj(w, HF_STATE);
    hw_str(w, HF_STATE_PROBE, "after every block: the empty loop, 2^16 iterations, the least of three tries "
                              "after 2^14 to warm up, on the CPU the block ran on");
    hw_num(w, HF_STATE_FAST_NS, s->fast_ns);
    hw_num(w, HF_STATE_FACTOR, CPUSTATE_FACTOR);
    hw_uint(w, HF_STATE_BLOCKS, s->blocks);
    hw_uint(w, HF_STATE_RETAKEN, s->retaken);
    hw_uint(w, HF_STATE_KEPT_CONTENDED, s->kept);
    hw_uint(w, HF_STATE_MOVES, s->moves);
    hw_num(w, HF_STATE_CONTENDED_SHARE, s->probes ? (double)s->contended / (double)s->probes : 0);
    jw_obj_end(w);
}

static void json_num_or_null(jw *w, int id, bool have, double v)
{
    if (have)
        hw_num(w, id, v);
    else
        hw_null(w, id);
}

static void json_processes(const bench *b, jw *w)
{
    int finished = 0;
    for (int i = 0; i < b->nprocs; i++)
        finished += b->procs[i].ok;
    hw_obj(w, HF_PROCS);
    hw_int(w, HF_PROCS_REQUESTED, b->nprocs_requested);
    hw_int(w, HF_PROCS_FINISHED, finished);
    hw_str(w, HF_PROCS_HOW, b->ab.on ? "an A/B session, one after another, never two at once: process 1 is the bench "
                                       "itself (side A, in no round), then rounds of one A and one B process in a "
                                       "seeded random order, each with its own row order, its own starting CPU and an "
                                       "environment of another size, drawn by process index whatever its side"
                                     : "one after another, never two at once: process 1 is the bench itself, the others the same "
                            "binary executed again (a new address-space layout), each with its own row order, its own "
                            "starting CPU (the next of process 1's survey, steadiest first) and an environment of "
                            "another size");
    hw_arr(w, HF_PROCS_LIST);
    for (int i = 0; i < b->nprocs; i++) {
        const bench_proc *p = &b->procs[i];
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", p->seed);
        jw_obj(w);
        hw_int(w, HF_PROC_INDEX, p->index);
        hw_str(w, HF_PROC_SEED, seed);
        if (p->start_cpu >= 0)
            hw_int(w, HF_PROC_START_CPU, p->start_cpu);
        else
            hw_null(w, HF_PROC_START_CPU);
        hw_uint(w, HF_PROC_ENV_PAD, p->env_pad);
        hw_bool(w, HF_PROC_OK, p->ok);
        hw_str(w, HF_PROC_DETAIL, p->ok ? NULL : p->detail);
        json_num_or_null(w, HF_PROC_WALL, p->ok, p->wall_s);
        json_num_or_null(w, HF_PROC_OPEN, p->ok, p->open_s);
        json_num_or_null(w, HF_PROC_PREPARE, p->ok, p->prepare_s);
        json_num_or_null(w, HF_PROC_MEASURE, p->ok, p->measure_s);
        const int cpu_ids[] = {HF_PROC_BLOCKS, HF_PROC_RETAKEN, HF_PROC_KEPT, HF_PROC_MOVES, HF_PROC_UNSHUFFLED};
        const size_t cpu_counts[] = {p->blocks, p->retaken, p->kept, p->moves, p->order.unshuffled};
        for (size_t k = 0; k < sizeof cpu_ids / sizeof cpu_ids[0]; k++) {
            if (p->ok)
                hw_uint(w, cpu_ids[k], cpu_counts[k]);
            else
                hw_null(w, cpu_ids[k]);
        }
        char digest[24];
        snprintf(digest, sizeof digest, "%016llx", p->order.digest);
        hw_str(w, HF_PROC_ORDER_DIGEST, p->ok ? digest : NULL);
        if (b->ab.on) {
            hw_str(w, HF_PROC_SIDE, p->side == 'b' ? "b" : "a");
            hw_int(w, HF_PROC_ROUND, p->round);
            hw_int(w, HF_PROC_SLOT, p->slot);
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
}

static void json_ab(const bench *b, jw *w)
{
    const ab_session *s = &b->ab;
    if (!s->on)
        return;
    char seed[32];
    snprintf(seed, sizeof seed, "%llu", s->seed);
    hw_obj(w, HF_AB);
    hw_str(w, HF_AB_SPEC, s->spec);
    hw_str(w, HF_AB_B_BENCH, s->b_exe);
    hw_arr_flat(w, HF_AB_VARS);
    for (int i = 0; i < s->nvars; i++)
        jw_str(w, s->vars[i]);
    jw_arr_end(w);
    hw_str(w, HF_AB_SEED, seed);
    hw_num(w, HF_AB_BUDGET, s->budget_s);
    hw_int(w, HF_AB_ROUNDS, s->rounds);
    hw_int(w, HF_AB_STARTED, s->rounds_started);
    hw_arr_flat(w, HF_AB_LOOKS);
    for (int i = 0; i < s->nlooks; i++)
        jw_int(w, s->looks[i]);
    jw_arr_end(w);
    hw_bool(w, HF_AB_DECIDED, s->decided);
    hw_str(w, HF_AB_STOPPED, s->stopped ? s->stopped : "in progress");
    jw_obj_end(w);
}

static void write_json(const bench *b, const headline *h, jw *w, double wall)
{
    hw_num(w, HF_BENCH_WALL, wall);
    json_plan(b, w);
    json_cpu(b, w);
    /* run_all --parallel: the windows of two devices' benches never overlap */
    hw_obj(w, HF_WINDOW);
    hw_num(w, HF_WINDOW_FROM, b->timed_from);
    hw_num(w, HF_WINDOW_UNTIL, b->timed_until);
    jw_obj_end(w);
    if (b->nslow) {
        hw_arr(w, HF_SLOWDOWN);
        for (int i = 0; i < b->nslow; i++) {
            jw_obj(w);
            hw_str(w, HF_SLOW_PATH, b->slow[i].p->name);
            hw_int(w, HF_SLOW_PERCENT, b->slow[i].pct);
            jw_obj_end(w);
        }
        jw_arr_end(w);
    } else {
        hw_null(w, HF_SLOWDOWN);
    }
    json_processes(b, w);
    json_ab(b, w);
    hw_obj(w, HF_CLOCK);
    hw_str(w, HF_CLOCK_SOURCE, "CLOCK_MONOTONIC");
    hw_num(w, HF_CLOCK_RESOLUTION, b->clock.resolution_ns);
    hw_num(w, HF_CLOCK_READ, b->clock.read_ns);
    hw_num(w, HF_CLOCK_STEP, b->clock.min_step_ns);
    jw_obj_end(w);
    hw_arr(w, HF_BENCH_DISTINGUISHING);
    for (size_t qi = 0; qi < b->ngood; qi++)
        jw_str(w, b->good[qi]->name);
    jw_arr_end(w);
    json_headline(h, w);
    hw_arr(w, HF_ROWS);
    for (size_t i = 0; i < b->nrows; i++)
        json_row(w, &b->rows[i]);
    jw_arr_end(w);
    json_sweep(b, w);
}

void bench_record(bench *b, const headline *h, double wall, jw *w)
{
    memset(w, 0, sizeof *w);
    if (!b->t.have_rec)
        return;
    jw_init(w, b->t.rec.f, true);
    jw_obj(w);
    ha_tool_json_head(&b->t, w);
    write_json(b, h, w, wall);
}
