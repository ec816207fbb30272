/* The loader: a run folder's records, parsed with jansson and checked
 * against their declarations (parse.c, validate.c), sealed (seal.c), then
 * copied into the typed model by tables of field ids bound to its members
 * (BIND). Every key comes from the field table; nothing outside
 * report/load/ reads JSON (a test holds it). */
#include "model.h"

#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fields.h"
#include "onread.h"
#include "parse.h"
#include "parsearena.h"
#include "readfile.h"
#include "seal.h"
#include "stats.h"
#include "validate.h"

static const int run_roots[RUN_NREC] = {HF_ROOT_ENV, HF_ROOT_PROBE, HF_ROOT_MGA, HF_ROOT_BENCH, HF_ROOT_POOL};

/* torch_pool.txt is read for the report, never more than this. */
#define TORCH_TEXT_MAX (1 << 20)

/* ---- reading fields by their declaration ---- */

static const char *gs(m_run *r, const json_t *o, int id)
{
    const char *s = json_string_value(ld_get(o, id));
    return s ? m_strdup(r, s) : "";
}

static double gn(const json_t *o, int id)
{
    const json_t *v = ld_get(o, id);
    return json_is_number(v) ? json_number_value(v) : NAN;
}

static long long gi(const json_t *o, int id, long long dflt)
{
    const json_t *v = ld_get(o, id);
    return json_is_integer(v) ? json_integer_value(v) : dflt;
}

static int gt(const json_t *o, int id)
{
    const json_t *v = ld_get(o, id);
    return json_is_true(v) ? 1 : json_is_false(v) ? 0 : -1;
}

static bool gb(const json_t *o, int id) { return json_is_true(ld_get(o, id)); }

/* An array field's elements, with room for them in the arena. */
#define ARR(r, o, id, type, out, n)                                                                              \
    do {                                                                                                         \
        const json_t *a_ = ld_get(o, id);                                                                           \
        (n) = json_array_size(a_);                                                                               \
        (out) = (n) ? m_alloc(r, (n) * sizeof *(out)) : NULL;                                                    \
        if ((n) && !(out))                                                                                       \
            (n) = 0;                                                                                             \
    } while (0)

/* A member filled from field ID of an object, by the member's own type
 * (_Generic: a table row cannot write a type the member is not): const
 * char * a string ("" absent), double a number (NaN absent), long long an
 * integer (DFLT absent), int true 1, false 0, else -1, bool true. */
typedef enum { B_STR, B_NUM, B_INT, B_TRI, B_BOOL } bind_type;
typedef struct bind {
    int id;
    size_t off;
    bind_type type;
    long long dflt;
} bind;
#define BIND(ID, T, M, DFLT)                                                                                        \
    {HF_##ID, offsetof(T, M),                                                                                      \
     _Generic(((T *)0)->M, const char *: B_STR, double: B_NUM, long long: B_INT, int: B_TRI, bool: B_BOOL), DFLT}

static void bind_fields(m_run *r, const json_t *o, const bind *b, size_t n, void *dst)
{
    for (size_t i = 0; i < n; i++) {
        char *at = (char *)dst + b[i].off;
        switch (b[i].type) {
        case B_STR: *(const char **)at = gs(r, o, b[i].id); break;
        case B_NUM: *(double *)at = gn(o, b[i].id); break;
        case B_INT: *(long long *)at = gi(o, b[i].id, b[i].dflt); break;
        case B_TRI: *(int *)at = gt(o, b[i].id); break;
        case B_BOOL: *(bool *)at = gb(o, b[i].id); break;
        }
    }
}
#define BIND_ALL(r, o, table, dst) bind_fields(r, o, table, sizeof table / sizeof table[0], dst)

/* Each element of array field id of o, bound by table into out[i]. */
#define BIND_EACH(r, o, id, table, out, n)                                                                          \
    do {                                                                                                           \
        ARR(r, o, id, *(out), out, n);                                                                            \
        for (size_t i_ = 0; i_ < (n); i_++)                                                                        \
            BIND_ALL(r, json_array_get(ld_get(o, id), i_), table, &(out)[i_]);                                    \
    } while (0)

static void fallbacks(m_run *r, const json_t *o, int id, m_fallback **out, size_t *n)
{
    static const bind t[] = {BIND(FALLBACK_BACKEND, m_fallback, backend, 0),
                             BIND(FALLBACK_STATUS, m_fallback, status, -1), BIND(FALLBACK_WHY, m_fallback, why, 0)};
    BIND_EACH(r, o, id, t, *out, *n);
}

static void read_env(m_run *r, const json_t *e, m_env *v)
{
    static const bind env[] = {
        BIND(ENV_TOOL_VERSION, m_env, tool_version, 0), BIND(ENV_BACKEND, m_env, backend, 0),
        BIND(ENV_SIM_PROFILE, m_env, sim_profile, 0), BIND(ENV_GUARDS, m_env, guards, 0),
        BIND(ENV_HEADER_VERSION, m_env, header_version, 0), BIND(ENV_RUNTIME_VERSION, m_env, runtime_version, 0),
        BIND(ENV_DRIVER_VERSION, m_env, driver_version, 0), BIND(ENV_KERNEL_DRIVER, m_env, kernel_driver, 0),
        BIND(ENV_VERSION_WARNING, m_env, version_warning, 0), BIND(ENV_LAYOUT_SKEW, m_env, layout_skew, 0),
        BIND(ENV_DEVICE_NAME, m_env, device_name, 0), BIND(ENV_ARCH, m_env, arch, 0),
        BIND(ENV_PCI_BUS_ID, m_env, pci_bus_id, 0), BIND(ENV_FIRMWARE, m_env, firmware, 0),
        BIND(ENV_ROCM_VERSION, m_env, rocm_version, 0), BIND(ENV_KERNEL, m_env, kernel, 0),
        BIND(ENV_CPU, m_env, cpu, 0), BIND(ENV_CPU_GOVERNOR, m_env, cpu_governor, 0),
        BIND(ENV_CLOCKSOURCE, m_env, clocksource, 0), BIND(ENV_HOST, m_env, host, 0),
        BIND(ENV_BOOT_ID, m_env, boot_id, 0), BIND(ENV_TIME_UTC, m_env, time_utc, 0),
        BIND(ENV_SIMULATED, m_env, simulated, 0), BIND(ENV_DEVICE, m_env, device, -1),
        BIND(ENV_DEVICE_COUNT, m_env, device_count, -1), BIND(ENV_CPU_COUNT, m_env, cpu_count, -1),
        BIND(ENV_VRAM_BYTES, m_env, vram_bytes, 0), BIND(ENV_VMM_SUPPORTED, m_env, vmm_supported, 0),
    };
    static const bind lb[] = {
        BIND(LB_RUNTIME, m_env, lb_runtime, 0), BIND(LB_SYSFS, m_env, lb_sysfs, 0),
        BIND(LB_RUNTIME_NOTE, m_env, lb_runtime_note, 0), BIND(LB_SYSFS_NOTE, m_env, lb_sysfs_note, 0),
        BIND(LB_VIS_VRAM, m_env, lb_vis_vram, -1), BIND(LB_VRAM, m_env, lb_vram, -1),
        BIND(LB_KFD_HEAP, m_env, lb_kfd_heap, -1),
    };
    static const bind io[] = {BIND(IOMMU_SYSFS, m_env, iommu_sysfs, 0), BIND(IOMMU_CMDLINE, m_env, iommu_cmdline, 0)};
    static const bind attr[] = {BIND(ENV_ATTR_NAME, m_attr, name, 0), BIND(ENV_ATTR_STATUS, m_attr, status, 0),
                                BIND(ENV_ATTR_VALUE, m_attr, value, 0)};
    static const bind bar[] = {BIND(BAR_INDEX, m_bar, index, 0), BIND(BAR_SIZE, m_bar, size, 0),
                               BIND(BAR_PREFETCH, m_bar, prefetchable, 0)};
    BIND_ALL(r, e, env, v);
    BIND_EACH(r, e, HF_ENV_ATTRS, attr, v->attrs, v->nattrs);
    for (size_t i = 0; i < v->nattrs; i++)
        v->attrs[i].has_value = json_is_integer(ld_get(json_array_get(ld_get(e, HF_ENV_ATTRS), i), HF_ENV_ATTR_VALUE));
    const json_t *l = ld_get(e, HF_ENV_LARGE_BAR);
    BIND_ALL(r, l, lb, v);
    BIND_EACH(r, l, HF_LB_BARS, bar, v->bars, v->nbars);
    BIND_ALL(r, ld_get(e, HF_ENV_IOMMU), io, v);
}

static void read_head(m_run *r, const json_t *root, m_head *h)
{
    static const bind t[] = {BIND(SCHEMA_VERSION, m_head, schema_version, 1), BIND(TOOL, m_head, tool, 0),
                             BIND(BACKEND_CHOICE, m_head, backend_choice, 0), BIND(SIMULATED, m_head, simulated, 0)};
    h->present = true;
    BIND_ALL(r, root, t, h);
    fallbacks(r, root, HF_BACKEND_FALLBACKS, &h->fallbacks, &h->nfallbacks);
    read_env(r, ld_get(root, HF_ENV), &h->env);
}

static void read_cand(m_run *r, const json_t *c, m_cand *d)
{
    static const bind t[] = {BIND(CAND_NAME, m_cand, name, 0), BIND(CAND_API, m_cand, api, 0),
                             BIND(CAND_SOURCE, m_cand, source, 0), BIND(CAND_WHY, m_cand, why, 0),
                             BIND(CAND_DISTINGUISHES, m_cand, distinguishes, 0)};
    static const bind wrong[] = {BIND(WRONG_KIND, m_wrong, kind, 0), BIND(WRONG_OUTCOME, m_wrong, outcome, 0)};
    static const bind cell[] = {BIND(RES_KIND, m_cell, kind, 0), BIND(RES_OUTCOME, m_cell, outcome, 0),
                                BIND(RES_STATUS_NAME, m_cell, status_name, 0), BIND(RES_VALUE, m_cell, value, 0),
                                BIND(RES_CLASS, m_cell, cls, 0), BIND(RES_STATUS, m_cell, status, 0)};
    BIND_ALL(r, c, t, d);
    if (!*d->source) /* older records: the OS candidates are named os_* */
        d->source = !strncmp(d->name, "os_", 3) ? "os" : "runtime";
    d->verdict = ha_verdict_parse(json_string_value(ld_get(c, HF_CAND_VERDICT)));
    BIND_EACH(r, c, HF_WRONG, wrong, d->wrong, d->nwrong);
    for (size_t k = 0; k < d->nwrong; k++)
        d->wrong[k].false_positive =
            !strcmp(json_string_value(ld_get(json_array_get(ld_get(c, HF_WRONG), k), HF_WRONG_ERROR)), "false_positive");
    BIND_EACH(r, c, HF_RESULTS, cell, d->cells, d->ncells);
}

static void read_probe(m_run *r, const json_t *root, m_probe *p)
{
    static const bind t[] = {BIND(PROBE_WALL, m_probe, wall, 0), BIND(PROBE_ISOLATION, m_probe, isolation, 0)};
    static const bind kind[] = {
        BIND(KIND_NAME, m_kind, name, 0), BIND(KIND_DESC, m_kind, description, 0),
        BIND(KIND_DETAIL, m_kind, detail, 0), BIND(KIND_TRUTH_NOTE, m_kind, truth_note, 0),
        BIND(KIND_CREATE_STATUS_NAME, m_kind, create_status_name, 0), BIND(KIND_READ_STATUS, m_kind, read_status, 0),
        BIND(KIND_WRITE_STATUS, m_kind, write_status, 0), BIND(KIND_FORK_READ, m_kind, fork_read, 0),
        BIND(KIND_FORK_WRITE, m_kind, fork_write, 0), BIND(KIND_CONTROL, m_kind, control, 0),
        BIND(KIND_TORCH, m_kind, torch_allocator, 0), BIND(KIND_CREATED, m_kind, created, 0),
        BIND(KIND_CREATE_STATUS, m_kind, create_status, 0), BIND(KIND_READABLE, m_kind, readable, 0),
        BIND(KIND_WRITABLE, m_kind, writable, 0), BIND(KIND_ISOLATION_AGREES, m_kind, isolation_agrees, 0),
    };
    read_head(r, root, &p->head);
    BIND_ALL(r, root, t, p);
    BIND_EACH(r, root, HF_KINDS, kind, p->kinds, p->nkinds);
    m_index_kinds(r, p);
    ARR(r, root, HF_CANDS, m_cand, p->cands, p->ncands);
    for (size_t i = 0; i < p->ncands; i++)
        read_cand(r, json_array_get(ld_get(root, HF_CANDS), i), &p->cands[i]);
}

static void read_mga(m_run *r, const json_t *root, m_mga *m)
{
    static const bind shape[] = {BIND(SHAPE_KIND, m_shape, kind, 0), BIND(SHAPE_DETAIL, m_shape, detail, 0),
                                 BIND(SHAPE_CREATED, m_shape, created, 0)};
    static const bind stage[] = {BIND(STAGE_NAME, m_stage, stage, 0), BIND(STAGE_STATUS_NAME, m_stage, status_name, 0),
                                 BIND(STAGE_HOST_READ, m_stage, host_read, 0), BIND(STAGE_STATUS, m_stage, status, 0),
                                 BIND(STAGE_REACHED, m_stage, reached, 0)};
    static const bind acc[] = {BIND(ACC_LOCATION, m_access, location, 0), BIND(ACC_OUTCOME, m_access, outcome, 0),
                               BIND(ACC_STATUS_NAME, m_access, status_name, 0), BIND(ACC_STATUS, m_access, status, 0),
                               BIND(ACC_FLAGS, m_access, flags, 0)};
    read_head(r, root, &m->head);
    m->wall = gn(root, HF_MGA_WALL);
    BIND_EACH(r, root, HF_SHAPES, shape, m->shapes, m->nshapes);
    for (size_t i = 0; i < m->nshapes; i++) {
        const json_t *s = json_array_get(ld_get(root, HF_SHAPES), i);
        m_shape *d = &m->shapes[i];
        BIND_EACH(r, s, HF_STAGES, stage, d->stages, d->nstages);
        for (size_t k = 0; k < d->nstages; k++) {
            const json_t *st = json_array_get(ld_get(s, HF_STAGES), k);
            m_stage *g = &d->stages[k];
            BIND_EACH(r, st, HF_ACCESS, acc, g->access, g->naccess);
            for (size_t a = 0; a < g->naccess; a++)
                g->access[a].has_flags = json_is_integer(ld_get(json_array_get(ld_get(st, HF_ACCESS), a), HF_ACC_FLAGS));
        }
    }
}

static void read_stats(const json_t *o, m_stats *s)
{
    static const bind t[] = {BIND(ST_MIN, m_stats, min, 0),       BIND(ST_MEDIAN, m_stats, median, 0),
                             BIND(ST_P90, m_stats, p90, 0),       BIND(ST_P99, m_stats, p99, 0),
                             BIND(ST_MAX, m_stats, max, 0),       BIND(ST_MEAN, m_stats, mean, 0),
                             BIND(ST_MAD, m_stats, mad, 0),       BIND(ST_SPREAD, m_stats, spread, 0)};
    BIND_ALL(NULL, o, t, s);
}

static void numbers(m_run *r, const json_t *o, int id, double **out, size_t *n)
{
    ARR(r, o, id, double, *out, *n);
    for (size_t i = 0; i < *n; i++)
        (*out)[i] = json_number_value(json_array_get(ld_get(o, id), i));
}


static void read_ab(m_run *r, const json_t *o, m_ab *ab)
{
    static const bind t[] = {BIND(AB_SPEC, m_ab, spec, 0),       BIND(AB_B_BENCH, m_ab, b_bench, 0),
                             BIND(AB_STOPPED, m_ab, stopped, 0), BIND(AB_SEED, m_ab, seed, 0),
                             BIND(AB_BUDGET, m_ab, budget_s, 0), BIND(AB_ROUNDS, m_ab, rounds, 0),
                             BIND(AB_STARTED, m_ab, rounds_started, 0), BIND(AB_DECIDED, m_ab, decided, 0)};
    ab->on = json_is_object(o);
    if (!ab->on)
        return;
    BIND_ALL(r, o, t, ab);
    ARR(r, o, HF_AB_VARS, const char *, ab->vars, ab->nvars);
    for (size_t i = 0; i < ab->nvars; i++)
        ab->vars[i] = m_strdup(r, json_string_value(json_array_get(ld_get(o, HF_AB_VARS), i)));
    ARR(r, o, HF_AB_LOOKS, long long, ab->looks, ab->nlooks);
    for (size_t i = 0; i < ab->nlooks; i++)
        ab->looks[i] = json_integer_value(json_array_get(ld_get(o, HF_AB_LOOKS), i));
}

/* An A/B session's side B out of the run's processes and rows (m_ab). */
static void split_sides(m_run *r, m_bench *b)
{
    if (!b->ab.on)
        return;
    m_proc *pb = b->nprocs ? m_alloc(r, b->nprocs * sizeof *pb) : NULL;
    size_t na = 0, nb = 0;
    long long fa = 0, fb = 0;
    for (size_t i = 0; i < b->nprocs && (pb || !b->nprocs); i++) {
        m_proc p = b->procs[i];
        if (p.side == 'b') {
            pb[nb++] = p;
            fb += p.ok;
        } else {
            b->procs[na++] = p;
            fa += p.ok;
        }
    }
    b->nprocs = na;
    b->procs_finished = fa;
    b->ab.procs_b = pb;
    b->ab.nprocs_b = nb;
    b->ab.procs_b_finished = fb;
    for (size_t i = 0; i < b->nrows; i++) {
        m_row *d = &b->rows[i];
        m_rowproc *rb = d->nprocs ? m_alloc(r, d->nprocs * sizeof *rb) : NULL;
        size_t ka = 0, kb = 0;
        for (size_t k = 0; k < d->nprocs && rb; k++) {
            bool in_b = false;
            for (size_t j = 0; j < nb && !in_b; j++)
                in_b = pb[j].index == d->procs[k].process;
            if (in_b)
                rb[kb++] = d->procs[k];
            else
                d->procs[ka++] = d->procs[k];
        }
        d->nprocs = ka;
        d->procs_b = rb;
        d->nprocs_b = kb;
    }
}

/* The bench's processes (schema 3): each one sample of the run. */
static void read_procs(m_run *r, const json_t *ps, m_bench *b)
{
    static const bind t[] = {BIND(PROCS_REQUESTED, m_bench, procs_requested, 1),
                             BIND(PROCS_FINISHED, m_bench, procs_finished, 1)};
    static const bind proc[] = {
        BIND(PROC_INDEX, m_proc, index, 0),       BIND(PROC_START_CPU, m_proc, start_cpu, -1),
        BIND(PROC_OK, m_proc, ok, 0),             BIND(PROC_DETAIL, m_proc, detail, 0),
        BIND(PROC_WALL, m_proc, wall, 0),         BIND(PROC_OPEN, m_proc, open, 0),
        BIND(PROC_PREPARE, m_proc, prepare, 0),   BIND(PROC_MEASURE, m_proc, measure, 0),
        BIND(PROC_ROUND, m_proc, round, 0),       BIND(PROC_SLOT, m_proc, slot, 0),
    };
    b->has_procs = json_is_object(ps);
    BIND_ALL(r, ps, t, b);
    BIND_EACH(r, ps, HF_PROCS_LIST, proc, b->procs, b->nprocs);
    for (size_t i = 0; i < b->nprocs; i++) {
        const char *side = json_string_value(ld_get(json_array_get(ld_get(ps, HF_PROCS_LIST), i), HF_PROC_SIDE));
        b->procs[i].side = side && (!strcmp(side, "a") || !strcmp(side, "b")) ? side[0] : 0;
    }
}

/* The timed rows, each with its samples and every process's block medians. */
static void read_rows(m_run *r, const json_t *root, m_bench *b)
{
    static const bind row[] = {
        BIND(ROW_PATH, m_row, path, 0),           BIND(ROW_KIND, m_row, kind, 0),
        BIND(ROW_CANDIDATE, m_row, candidate, 0), BIND(ROW_WHAT, m_row, what, 0),
        BIND(ROW_FAMILY, m_row, family, 0),       BIND(ROW_SKIP_REASON, m_row, skip_reason, 0),
        BIND(ROW_BAR, m_row, comparable_to_bar, 0), BIND(ROW_SKIPPED, m_row, skipped, 0),
        BIND(ROW_CAPPED, m_row, capped, 0),       BIND(ROW_SLOW_FIRST, m_row, slow_first, 0),
        BIND(ROW_REPEAT, m_row, repeat, 1),       BIND(ROW_LOOP_STATUS, m_row, loop_status, 0),
        BIND(ROW_FALLBACKS, m_row, fallbacks, 0), BIND(ROW_BATCH, m_row, batch, 0),
        BIND(ROW_N, m_row, n, 0),                 BIND(ROW_BLOCK_SAMPLES, m_row, block_samples, 0),
        BIND(ROW_OUTLIERS, m_row, outliers, 0),   BIND(ROW_RETAKEN, m_row, retaken, 0),
        BIND(ROW_FIRST_BATCH, m_row, first_batch, 0), BIND(ROW_OVERHEAD, m_row, overhead, 0),
        BIND(ROW_OVERHEAD_PCT, m_row, overhead_pct, 0),
    };
    static const bind proc[] = {BIND(RBP_PROCESS, m_rowproc, process, 0)};
    BIND_EACH(r, root, HF_ROWS, row, b->rows, b->nrows);
    for (size_t i = 0; i < b->nrows; i++) {
        const json_t *x = json_array_get(ld_get(root, HF_ROWS), i);
        m_row *d = &b->rows[i];
        read_stats(x, &d->st);
        numbers(r, x, HF_ROW_SAMPLES, &d->samples, &d->nsamples);
        numbers(r, x, HF_ROW_BLOCK_STATE, &d->block_state, &d->nblock_state);
        BIND_EACH(r, x, HF_ROW_BY_PROCESS, proc, d->procs, d->nprocs);
        for (size_t k = 0; k < d->nprocs; k++)
            numbers(r, json_array_get(ld_get(x, HF_ROW_BY_PROCESS), k), HF_RBP_BLOCKS, &d->procs[k].blocks,
                    &d->procs[k].nblocks);
        if (b->head.schema_version >= HA_SCHEMA_DERIVED_ON_READ)
            onread_row(r, d);
        if (!r->keep_samples) {
            d->samples = NULL;
            d->nsamples = 0;
        }
    }
}

/* The copy-against-read size sweep. */
static void read_sweep(m_run *r, const json_t *sw, m_bench *b)
{
    static const bind t[] = {BIND(SWEEP_KIND, m_bench, sweep_kind, 0), BIND(SWEEP_TIMING, m_bench, sweep_timing, 0),
                             BIND(SWEEP_CROSSOVER, m_bench, crossover, -1)};
    static const bind point[] = {BIND(SP_SIZE, m_point, size, 0)};
    b->has_sweep = json_is_object(sw);
    BIND_ALL(r, sw, t, b);
    BIND_EACH(r, sw, HF_SWEEP_POINTS, point, b->points, b->npoints);
    for (size_t i = 0; i < b->npoints; i++) {
        const json_t *x = json_array_get(ld_get(sw, HF_SWEEP_POINTS), i);
        read_stats(ld_get(x, HF_SP_COPY), &b->points[i].copy);
        read_stats(ld_get(x, HF_SP_READ), &b->points[i].read);
        b->points[i].has_read_nt = json_is_object(ld_get(x, HF_SP_READ_NT));
        read_stats(ld_get(x, HF_SP_READ_NT), &b->points[i].read_nt);
    }
}

static void read_bench(m_run *r, const json_t *root, m_bench *b)
{
    static const bind top[] = {BIND(BENCH_WALL, m_bench, wall, 0), BIND(PINNED_CPU, m_bench, pinned_cpu, -1)};
    static const bind plan[] = {BIND(PLAN_ROUNDS, m_bench, rounds, 0), BIND(PLAN_ITERATIONS, m_bench, iterations, 0),
                                BIND(PLAN_REPEAT, m_bench, repeat, 0)};
    static const bind state[] = {
        BIND(STATE_FAST_NS, m_bench, state_fast_ns, 0),       BIND(STATE_FACTOR, m_bench, state_factor, 0),
        BIND(STATE_CONTENDED_SHARE, m_bench, state_share, 0), BIND(STATE_BLOCKS, m_bench, state_blocks, 0),
        BIND(STATE_RETAKEN, m_bench, state_retaken, 0),       BIND(STATE_KEPT_CONTENDED, m_bench, state_kept, 0),
        BIND(STATE_MOVES, m_bench, state_moves, 0),
    };
    static const bind window[] = {BIND(WINDOW_FROM, m_bench, window_from, 0),
                                  BIND(WINDOW_UNTIL, m_bench, window_until, 0)};
    static const bind slowdown[] = {BIND(SLOW_PATH, m_slowdown, path, 0), BIND(SLOW_PERCENT, m_slowdown, percent, 0)};
    static const bind headline[] = {
        BIND(HL_FAST_KIND, m_bench, fast_kind, 0),     BIND(HL_SLOW_KIND, m_bench, slow_kind, 0),
        BIND(HL_FAST_MEDIAN, m_bench, fast_median, 0), BIND(HL_SLOW_MEDIAN, m_bench, slow_median, 0),
        BIND(HL_SLOW_OVER_FAST, m_bench, slow_over_fast, 0), BIND(HL_BAR, m_bench, fast_crosses_bar, 0),
    };
    read_head(r, root, &b->head);
    BIND_ALL(r, root, top, b);
    const json_t *pl = ld_get(root, HF_PLAN), *st = ld_get(root, HF_STATE), *win = ld_get(root, HF_WINDOW),
                 *h = ld_get(root, HF_HEADLINE);
    b->has_rounds = json_is_integer(ld_get(pl, HF_PLAN_ROUNDS));
    BIND_ALL(r, pl, plan, b);
    b->cpu_how = gs(r, ld_get(root, HF_CPU_CHOICE), HF_CPU_HOW);
    b->has_state = json_is_object(st);
    BIND_ALL(r, st, state, b);
    b->has_window = json_is_object(win);
    BIND_ALL(r, win, window, b);
    BIND_EACH(r, root, HF_SLOWDOWN, slowdown, b->slowdowns, b->nslowdowns);
    read_procs(r, ld_get(root, HF_PROCS), b);
    read_ab(r, ld_get(root, HF_AB), &b->ab);
    b->clock_read_ns = gn(ld_get(root, HF_CLOCK), HF_CLOCK_READ);
    ARR(r, root, HF_BENCH_DISTINGUISHING, const char *, b->distinguishing, b->ndistinguishing);
    for (size_t i = 0; i < b->ndistinguishing; i++)
        b->distinguishing[i] = m_strdup(r, json_string_value(json_array_get(ld_get(root, HF_BENCH_DISTINGUISHING), i)));
    b->has_headline = json_is_object(h);
    BIND_ALL(r, h, headline, b);
    read_rows(r, root, b);
    read_sweep(r, ld_get(root, HF_SWEEP), b);
    split_sides(r, b);
    m_index_rows(r, b);
}

static void read_pool(m_run *r, const json_t *root, m_pool *p)
{
    static const bind top[] = {BIND(POOL_WALL, m_pool, wall, 0), BIND(POOL_CYCLES, m_pool, cycles, 0)};
    static const bind sum[] = {BIND(SUM_PASSED, m_pool, passed, 0), BIND(SUM_FAILED, m_pool, failed, 0),
                               BIND(SUM_UNSUPPORTED, m_pool, unsupported, 0)};
    static const bind check[] = {BIND(CHECK_NAME, m_check, name, 0),     BIND(CHECK_MODE, m_check, mode, 0),
                                 BIND(CHECK_STATUS, m_check, status, 0), BIND(CHECK_DETAIL, m_check, detail, 0),
                                 BIND(CHECK_PASSED, m_check, passed, 0)};
    static const bind tput[] = {
        BIND(TP_BYTES, m_tput, bytes, 0),           BIND(TP_MODE, m_tput, mode, 0),
        BIND(TP_NOTE, m_tput, note, 0),             BIND(TP_MEASURED, m_tput, measured, 0),
        BIND(TP_SLEEP, m_tput, sleep, 0),           BIND(TP_WAKE, m_tput, wake, 0),
        BIND(TP_D2H, m_tput, d2h, 0),               BIND(TP_H2D, m_tput, h2d, 0),
        BIND(TP_SLEEP_FRAC, m_tput, sleep_frac, 0), BIND(TP_WAKE_FRAC, m_tput, wake_frac, 0),
        BIND(TP_WAKE_NOW, m_tput, wake_now, 0),     BIND(TP_WAKE_NOW_FRAC, m_tput, wake_now_frac, 0),
        BIND(TP_PAUSE, m_tput, pause_ms, -1),
    };
    read_head(r, root, &p->head);
    BIND_ALL(r, root, top, p);
    BIND_ALL(r, ld_get(root, HF_SUMMARY), sum, p);
    BIND_EACH(r, root, HF_CHECKS, check, p->checks, p->nchecks);
    BIND_EACH(r, root, HF_TPUT, tput, p->tputs, p->ntputs);
    for (size_t i = 0; i < p->ntputs; i++) {
        const json_t *t = json_array_get(ld_get(root, HF_TPUT), i);
        numbers(r, t, HF_TP_SLEEP_BY_CYCLE, &p->tputs[i].sleep_cyc, &p->tputs[i].nsleep_cyc);
        numbers(r, t, HF_TP_WAKE_BY_CYCLE, &p->tputs[i].wake_cyc, &p->tputs[i].nwake_cyc);
    }
}

static void read_manifest(m_run *r, const json_t *root, m_manifest *m)
{
    static const bind top[] = {
        BIND(MAN_COMPLETE, m_manifest, complete, 0),         BIND(MAN_INTERRUPTED, m_manifest, interrupted, 0),
        BIND(MAN_BACKEND, m_manifest, backend, 0),           BIND(MAN_TOOL_VERSION, m_manifest, tool_version, 0),
        BIND(MAN_CHOICE, m_manifest, backend_choice, 0),     BIND(MAN_DEVICE, m_manifest, device, -1),
    };
    static const bind step[] = {BIND(STEP_NAME, m_step, name, 0),     BIND(STEP_RECORD, m_step, record, 0),
                                BIND(STEP_SHA256, m_step, sha256, 0), BIND(STEP_EXIT, m_step, exit_status, -1),
                                BIND(STEP_BYTES, m_step, bytes, -1)};
    static const bind att[] = {BIND(ATT_NAME, m_attach, name, 0), BIND(ATT_SHA256, m_attach, sha256, 0),
                               BIND(ATT_BYTES, m_attach, bytes, -1)};
    m->present = true;
    BIND_ALL(r, root, top, m);
    fallbacks(r, root, HF_MAN_FALLBACKS, &m->fallbacks, &m->nfallbacks);
    BIND_EACH(r, root, HF_STEPS, step, m->steps, m->nsteps);
    BIND_EACH(r, root, HF_MAN_ATTACH, att, m->attach, m->nattach);
}

static void put(m_run *r, const json_t *j, int root)
{
    switch (root) {
    case HF_ROOT_ENV: r->has[RUN_ENV] = true; read_head(r, j, &r->envrec); break;
    case HF_ROOT_PROBE: r->has[RUN_PROBE] = true; read_probe(r, j, &r->probe); break;
    case HF_ROOT_MGA: r->has[RUN_MGA] = true; read_mga(r, j, &r->mga); break;
    case HF_ROOT_BENCH: r->has[RUN_BENCH] = true; read_bench(r, j, &r->bench); break;
    case HF_ROOT_POOL: r->has[RUN_POOL] = true; read_pool(r, j, &r->pool); break;
    case HF_ROOT_MANIFEST: read_manifest(r, j, &r->manifest); break;
    }
}

static const m_head *head_of(const m_run *r, int i)
{
    const m_head *h[RUN_NREC] = {&r->envrec, &r->probe.head, &r->mga.head, &r->bench.head, &r->pool.head};
    return h[i];
}

/* The run's environment, copied into its arena: a run points at nothing
 * inside its own struct, so a copy of the struct (compare --series keeps
 * each group's last run by value) still describes its own run. Its strings
 * and arrays already live in the arena. */
static void own_env(m_run *r)
{
    static const m_env none = {0};
    const m_env *src = NULL;
    for (int i = 0; i < RUN_NREC && !src; i++)
        if (r->has[i])
            src = &head_of(r, i)->env;
    m_env *e = m_alloc(r, sizeof *e);
    if (e)
        *e = src ? *src : none;
    r->env = e ? e : &none;
}

int m_read_buffer(m_run *r, const char *buf, size_t len, char **err)
{
    memset(r, 0, sizeof *r);
    r->path = strdup("(buffer)");
    r->name = strdup("(buffer)");
    r->keep_samples = true;
    if (!r->path || !r->name)
        rf_out_of_memory("naming a record");
    json_t *j;
    int root;
    if (ld_parse_checked("(buffer)", buf, len, HF_NONE, &j, &root, err) != 0) {
        m_free_run(r); /* a refused record leaves nothing to free */
        return -1;
    }
    put(r, j, root);
    json_decref(j);
    r->complete = true;
    r->incomplete = strdup("");
    r->torch_text = "";
    own_env(r);
    return 0;
}

/* ---- whole runs ---- */

/* Reads and parses MANIFEST.json into r->manifest; the reason a run is not
 * whole as far as the manifest and the folder's temporary files tell. */
static int whole(m_run *tmp, const char *path, char **why)
{
    char *buf = NULL, *which = NULL, *err = NULL;
    size_t len = 0;
    bool found;
    *why = NULL;
    if (rf_read_either(path, "MANIFEST.json", 1 << 20, &buf, &len, &found, &which, &err) != 0) {
        *why = err;
        free(which);
        return -1;
    }
    free(which);
    if (!found) {
        *why = rf_printf("no MANIFEST.json (run_all.sh writes it last: the run was cut short, or it is older "
                         "than the manifest)");
        return -1;
    }
    json_t *j = NULL;
    int root = HF_NONE;
    int rc = ld_parse_checked("MANIFEST.json", buf, len, HF_ROOT_MANIFEST, &j, &root, &err);
    free(buf);
    if (rc) {
        *why = err;
        return -1;
    }
    read_manifest(tmp, j, &tmp->manifest);
    json_decref(j);
    *why = ld_manifest_seals(&tmp->manifest);
    if (!*why)
        *why = ld_leftover(path);
    return *why ? -1 : 0;
}

/* Whether any record files[] names (NULL: none of that tool) is in the
 * folder, plain or compressed. */
static bool any_record(const char *path, const char *const files[RUN_NREC])
{
    bool there = false;
    for (int i = 0; i < RUN_NREC && !there; i++) {
        if (!files[i])
            continue;
        char *p = rf_printf("%s/%s", path, files[i]), *g = rf_printf("%s/%s.gz", path, files[i]);
        struct stat st;
        there = (p && lstat(p, &st) == 0) || (g && lstat(g, &st) == 0);
        free(p);
        free(g);
    }
    return there;
}

int m_check_whole(const char *path, char **why)
{
    m_run tmp;
    char *err = NULL;
    *why = NULL;
    if (m_read_run(&tmp, path, M_ALLOW_INCOMPLETE, &err) != 0) {
        *why = err;
        return -1;
    }
    int rc = tmp.complete ? 0 : -1;
    if (rc)
        *why = strdup(tmp.incomplete);
    m_free_run(&tmp);
    return rc;
}

/* torch_pool.txt is quoted only as the run sealed it (run_all.sh lists it
 * in the manifest): never through a link, never a file put in afterwards.
 * make compact-results may have stored it gzip-compressed, as it does the
 * records; the seal is the uncompressed text's. */
static void torch_text(m_run *r)
{
    char *buf = NULL, *err = NULL, *which = NULL;
    size_t len;
    bool found = false;
    r->torch_text = "";
    r->torch_file = "torch_pool.txt";
    const m_attach *a = NULL;
    for (size_t i = 0; i < r->manifest.nattach; i++)
        if (!strcmp(r->manifest.attach[i].name, "torch_pool.txt"))
            a = &r->manifest.attach[i];
    int rc = rf_read_either(r->path, "torch_pool.txt", TORCH_TEXT_MAX, &buf, &len, &found, &which, &err);
    if (which && strlen(which) > 3 && !strcmp(which + strlen(which) - 3, ".gz"))
        r->torch_file = "torch_pool.txt.gz";
    if (found) {
        r->has_torch = true;
        char *why = NULL;
        if (!a)
            r->torch_text = m_printf(r, "(%s is not sealed by MANIFEST.json: not shown)", r->torch_file);
        else if (rc != 0)
            r->torch_text = m_printf(r, "(torch_pool.txt could not be read: %s)", err);
        else if ((why = ld_seal_check("torch_pool.txt", "file", a->bytes, a->sha256, buf, len)))
            r->torch_text = m_printf(r, "(not shown: %s)", why);
        else
            r->torch_text = m_strdup(r, buf);
        free(why);
    } else if (a) {
        r->has_torch = true;
        r->torch_text = "(torch_pool.txt is missing, though MANIFEST.json lists it)";
    }
    free(which);
    free(buf);
    free(err);
}

/* The records files[] names (NULL: none of that tool) into r, each sealed
 * against r->manifest as it is read: how many were there, or -1 with *err
 * (a record that does not parse or check, or, without M_ALLOW_INCOMPLETE,
 * a run that is not whole). */
static int read_records(m_run *r, const char *path, const char *const files[RUN_NREC], unsigned flags, char **err)
{
    int found = 0;
    for (int i = 0; i < RUN_NREC; i++) {
        char *buf = NULL, *which = NULL, *e = NULL;
        size_t len = 0;
        bool there;
        if (!files[i])
            continue;
        if (rf_read_either(path, files[i], REC_MAX_BYTES, &buf, &len, &there, &which, &e) != 0) {
            *err = e;
            free(which);
            return -1;
        }
        ld_seal_record(r, files[i], there, buf, len);
        if (!r->complete && !(flags & M_ALLOW_INCOMPLETE)) {
            *err = rf_printf("%s: not a whole run: %s; --allow-incomplete reports what is there, marked", path,
                             r->incomplete);
            free(buf);
            free(which);
            return -1;
        }
        if (!there)
            continue;
        json_t *j = NULL;
        int root;
        pa_begin();
        r->keep_samples = flags & M_WITH_SAMPLES;
        int rc = ld_parse_checked(which, buf, len, run_roots[i], &j, &root, &e);
        free(buf);
        free(which);
        if (rc) {
            pa_end();
            *err = e;
            return -1;
        }
        put(r, j, i == RUN_ENV ? HF_ROOT_ENV : root);
        json_decref(j);
        pa_end();
        found++;
        if (!r->env)
            r->env = &head_of(r, i)->env;
    }
    return found;
}

/* Whether the folder holds any of side B's records, or its manifest lists one. */
static bool has_side_b(const m_run *r, const char *path)
{
    for (size_t i = 0; i < r->manifest.nsteps; i++)
        if (!strncmp(r->manifest.steps[i].name, "b_", 2))
            return true;
    return any_record(path, run_files_b);
}

/* An A/B session's side B into r->side_b, sealed by the run's one
 * manifest: the folder is whole only when both sides are. 0 (also when
 * there is no side B), or -1 with *err. */
static int read_side_b(m_run *r, const char *path, unsigned flags, char **err)
{
    if (!has_side_b(r, path))
        return 0;
    m_run *b = m_alloc(r, sizeof *b);
    if (!(b->path = strdup(r->path)) || !(b->name = strdup(r->name)))
        rf_out_of_memory("naming side B");
    r->side_b = b;
    b->manifest = r->manifest; /* its strings live in r's arena, which outlives b */
    b->complete = r->complete;
    if (read_records(b, path, run_files_b, flags, err) < 0)
        return -1;
    /* A side B is whole only with a record for each of side A's: one gone
     * with its manifest step too is still missing, never a regression. */
    for (int i = 0; i < RUN_NREC && b->complete; i++)
        if (run_files_b[i] && r->has[i] && !b->has[i]) {
            b->complete = false;
            free(b->incomplete);
            b->incomplete = rf_printf("side B has no %s, which side A has: a session is whole only with both sides",
                                      run_files_b[i]);
            if (!(flags & M_ALLOW_INCOMPLETE)) {
                *err = rf_printf("%s: not a whole run: %s; --allow-incomplete reports what is there, marked", path,
                                 b->incomplete ? b->incomplete : "side B is not whole");
                return -1;
            }
        }
    own_env(b);
    if (r->complete && !b->complete) {
        r->complete = false;
        free(r->incomplete);
        r->incomplete = strdup(b->incomplete ? b->incomplete : "side B is not whole");
    }
    return 0;
}

int m_read_run(m_run *r, const char *path, unsigned flags, char **err)
{
    memset(r, 0, sizeof *r);
    r->path = strdup(path);
    *err = NULL;
    char *real = realpath(path, NULL);
    const char *base = real ? strrchr(real, '/') : NULL;
    r->name = strdup(base && base[1] ? base + 1 : real ? real : path);
    free(real);
    struct stat st;
    if (!r->path || !r->name)
        rf_out_of_memory("naming a run");
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        *err = rf_printf("%s: expected a run folder (results/<run>/)", path);
        m_free_run(r);
        return -1;
    }
    char *why = NULL;
    r->complete = whole(r, path, &why) == 0;
    r->incomplete = why ? why : strdup("");
    if (!r->complete && !r->manifest.present && !any_record(path, run_files)) {
        /* not a run cut short: not a run at all; --allow-incomplete would not help */
        *err = rf_printf("%s: not a run folder: no MANIFEST.json and no records in it (run_all.sh makes one per "
                         "device under results/)", path);
        m_free_run(r);
        return -1;
    }
    int found = read_records(r, path, run_files, flags, err);
    if (found == 0)
        *err = rf_printf("%s: no records: expected env.json, probe_discriminator.json, ...", path);
    if (found <= 0 || read_side_b(r, path, flags, err) != 0) {
        m_free_run(r);
        return -1;
    }
    torch_text(r);
    own_env(r);
    return 0;
}

void m_free_run(m_run *r)
{
    if (r->side_b) /* in r's arena: its own parts first */
        m_free_run(r->side_b);
    m_arena_free(r);
    free(r->path);
    free(r->name);
    free(r->incomplete);
    memset(r, 0, sizeof *r);
}
