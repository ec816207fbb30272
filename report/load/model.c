/* The loader: a run folder's records, parsed with jansson and checked
 * against their declarations (parse.c, validate.c), then copied into the
 * typed model. Every key comes from the field table; nothing outside
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

static void fallbacks(m_run *r, const json_t *o, int id, m_fallback **out, size_t *n)
{
    ARR(r, o, id, m_fallback, *out, *n);
    for (size_t i = 0; i < *n; i++) {
        const json_t *e = json_array_get(ld_get(o, id), i);
        (*out)[i].backend = gs(r, e, HF_FALLBACK_BACKEND);
        (*out)[i].status = gi(e, HF_FALLBACK_STATUS, -1);
        (*out)[i].why = gs(r, e, HF_FALLBACK_WHY);
    }
}

static void read_env(m_run *r, const json_t *e, m_env *v)
{
    static const struct { int id; size_t off; } strs[] = {
        {HF_ENV_TOOL_VERSION, offsetof(m_env, tool_version)}, {HF_ENV_BACKEND, offsetof(m_env, backend)},
        {HF_ENV_SIM_PROFILE, offsetof(m_env, sim_profile)}, {HF_ENV_GUARDS, offsetof(m_env, guards)},
        {HF_ENV_HEADER_VERSION, offsetof(m_env, header_version)},
        {HF_ENV_RUNTIME_VERSION, offsetof(m_env, runtime_version)},
        {HF_ENV_DRIVER_VERSION, offsetof(m_env, driver_version)},
        {HF_ENV_KERNEL_DRIVER, offsetof(m_env, kernel_driver)},
        {HF_ENV_VERSION_WARNING, offsetof(m_env, version_warning)},
        {HF_ENV_LAYOUT_SKEW, offsetof(m_env, layout_skew)}, {HF_ENV_DEVICE_NAME, offsetof(m_env, device_name)},
        {HF_ENV_ARCH, offsetof(m_env, arch)}, {HF_ENV_PCI_BUS_ID, offsetof(m_env, pci_bus_id)},
        {HF_ENV_FIRMWARE, offsetof(m_env, firmware)}, {HF_ENV_ROCM_VERSION, offsetof(m_env, rocm_version)},
        {HF_ENV_KERNEL, offsetof(m_env, kernel)}, {HF_ENV_CPU, offsetof(m_env, cpu)},
        {HF_ENV_CPU_GOVERNOR, offsetof(m_env, cpu_governor)}, {HF_ENV_CLOCKSOURCE, offsetof(m_env, clocksource)},
        {HF_ENV_HOST, offsetof(m_env, host)}, {HF_ENV_BOOT_ID, offsetof(m_env, boot_id)},
        {HF_ENV_TIME_UTC, offsetof(m_env, time_utc)},
    };
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        *(const char **)((char *)v + strs[i].off) = gs(r, e, strs[i].id);
    v->simulated = gb(e, HF_ENV_SIMULATED);
    v->device = gi(e, HF_ENV_DEVICE, -1);
    v->device_count = gi(e, HF_ENV_DEVICE_COUNT, -1);
    v->cpu_count = gi(e, HF_ENV_CPU_COUNT, -1);
    v->vram_bytes = gn(e, HF_ENV_VRAM_BYTES);
    v->vmm_supported = gt(e, HF_ENV_VMM_SUPPORTED);
    ARR(r, e, HF_ENV_ATTRS, m_attr, v->attrs, v->nattrs);
    for (size_t i = 0; i < v->nattrs; i++) {
        const json_t *a = json_array_get(ld_get(e, HF_ENV_ATTRS), i);
        v->attrs[i].name = gs(r, a, HF_ENV_ATTR_NAME);
        v->attrs[i].status = gi(a, HF_ENV_ATTR_STATUS, 0);
        v->attrs[i].has_value = json_is_integer(ld_get(a, HF_ENV_ATTR_VALUE));
        v->attrs[i].value = gi(a, HF_ENV_ATTR_VALUE, 0);
    }
    const json_t *lb = ld_get(e, HF_ENV_LARGE_BAR);
    v->lb_runtime = gt(lb, HF_LB_RUNTIME);
    v->lb_sysfs = gt(lb, HF_LB_SYSFS);
    v->lb_runtime_note = gs(r, lb, HF_LB_RUNTIME_NOTE);
    v->lb_sysfs_note = gs(r, lb, HF_LB_SYSFS_NOTE);
    v->lb_vis_vram = gi(lb, HF_LB_VIS_VRAM, -1);
    v->lb_vram = gi(lb, HF_LB_VRAM, -1);
    v->lb_kfd_heap = gi(lb, HF_LB_KFD_HEAP, -1);
    ARR(r, lb, HF_LB_BARS, m_bar, v->bars, v->nbars);
    for (size_t i = 0; i < v->nbars; i++) {
        const json_t *b = json_array_get(ld_get(lb, HF_LB_BARS), i);
        v->bars[i].index = gi(b, HF_BAR_INDEX, 0);
        v->bars[i].size = gn(b, HF_BAR_SIZE);
        v->bars[i].prefetchable = gb(b, HF_BAR_PREFETCH);
    }
    const json_t *io = ld_get(e, HF_ENV_IOMMU);
    v->iommu_sysfs = gs(r, io, HF_IOMMU_SYSFS);
    v->iommu_cmdline = gs(r, io, HF_IOMMU_CMDLINE);
}

static void read_head(m_run *r, const json_t *root, m_head *h)
{
    h->present = true;
    h->schema_version = gi(root, HF_SCHEMA_VERSION, 1);
    h->tool = gs(r, root, HF_TOOL);
    h->backend_choice = gs(r, root, HF_BACKEND_CHOICE);
    h->simulated = gb(root, HF_SIMULATED);
    fallbacks(r, root, HF_BACKEND_FALLBACKS, &h->fallbacks, &h->nfallbacks);
    read_env(r, ld_get(root, HF_ENV), &h->env);
}


static void read_probe(m_run *r, const json_t *root, m_probe *p)
{
    read_head(r, root, &p->head);
    p->wall = gn(root, HF_PROBE_WALL);
    p->isolation = gs(r, root, HF_PROBE_ISOLATION);
    ARR(r, root, HF_KINDS, m_kind, p->kinds, p->nkinds);
    for (size_t i = 0; i < p->nkinds; i++) {
        const json_t *k = json_array_get(ld_get(root, HF_KINDS), i);
        m_kind *d = &p->kinds[i];
        d->name = gs(r, k, HF_KIND_NAME);
        d->description = gs(r, k, HF_KIND_DESC);
        d->detail = gs(r, k, HF_KIND_DETAIL);
        d->truth_note = gs(r, k, HF_KIND_TRUTH_NOTE);
        d->create_status_name = gs(r, k, HF_KIND_CREATE_STATUS_NAME);
        d->read_status = gs(r, k, HF_KIND_READ_STATUS);
        d->write_status = gs(r, k, HF_KIND_WRITE_STATUS);
        d->fork_read = gs(r, k, HF_KIND_FORK_READ);
        d->fork_write = gs(r, k, HF_KIND_FORK_WRITE);
        d->control = gb(k, HF_KIND_CONTROL);
        d->torch_allocator = gb(k, HF_KIND_TORCH);
        d->created = gb(k, HF_KIND_CREATED);
        d->create_status = gi(k, HF_KIND_CREATE_STATUS, 0);
        d->readable = gt(k, HF_KIND_READABLE);
        d->writable = gt(k, HF_KIND_WRITABLE);
        d->isolation_agrees = gt(k, HF_KIND_ISOLATION_AGREES);
    }
    m_index_kinds(r, p);
    ARR(r, root, HF_CANDS, m_cand, p->cands, p->ncands);
    for (size_t i = 0; i < p->ncands; i++) {
        const json_t *c = json_array_get(ld_get(root, HF_CANDS), i);
        m_cand *d = &p->cands[i];
        d->name = gs(r, c, HF_CAND_NAME);
        d->api = gs(r, c, HF_CAND_API);
        d->source = gs(r, c, HF_CAND_SOURCE);
        if (!*d->source) /* older records: the OS candidates are named os_* */
            d->source = !strncmp(d->name, "os_", 3) ? "os" : "runtime";
        d->why = gs(r, c, HF_CAND_WHY);
        d->verdict = ha_verdict_parse(json_string_value(ld_get(c, HF_CAND_VERDICT)));
        d->distinguishes = gb(c, HF_CAND_DISTINGUISHES);
        ARR(r, c, HF_WRONG, m_wrong, d->wrong, d->nwrong);
        for (size_t k = 0; k < d->nwrong; k++) {
            const json_t *w = json_array_get(ld_get(c, HF_WRONG), k);
            d->wrong[k].kind = gs(r, w, HF_WRONG_KIND);
            d->wrong[k].outcome = gs(r, w, HF_WRONG_OUTCOME);
            d->wrong[k].false_positive = !strcmp(json_string_value(ld_get(w, HF_WRONG_ERROR)), "false_positive");
        }
        ARR(r, c, HF_RESULTS, m_cell, d->cells, d->ncells);
        for (size_t k = 0; k < d->ncells; k++) {
            const json_t *x = json_array_get(ld_get(c, HF_RESULTS), k);
            d->cells[k].kind = gs(r, x, HF_RES_KIND);
            d->cells[k].outcome = gs(r, x, HF_RES_OUTCOME);
            d->cells[k].status_name = gs(r, x, HF_RES_STATUS_NAME);
            d->cells[k].value = gs(r, x, HF_RES_VALUE);
            d->cells[k].cls = gs(r, x, HF_RES_CLASS);
            d->cells[k].status = gi(x, HF_RES_STATUS, 0);
        }
    }
}

static void read_mga(m_run *r, const json_t *root, m_mga *m)
{
    read_head(r, root, &m->head);
    m->wall = gn(root, HF_MGA_WALL);
    ARR(r, root, HF_SHAPES, m_shape, m->shapes, m->nshapes);
    for (size_t i = 0; i < m->nshapes; i++) {
        const json_t *s = json_array_get(ld_get(root, HF_SHAPES), i);
        m_shape *d = &m->shapes[i];
        d->kind = gs(r, s, HF_SHAPE_KIND);
        d->detail = gs(r, s, HF_SHAPE_DETAIL);
        d->created = gb(s, HF_SHAPE_CREATED);
        ARR(r, s, HF_STAGES, m_stage, d->stages, d->nstages);
        for (size_t k = 0; k < d->nstages; k++) {
            const json_t *st = json_array_get(ld_get(s, HF_STAGES), k);
            m_stage *g = &d->stages[k];
            g->stage = gs(r, st, HF_STAGE_NAME);
            g->status_name = gs(r, st, HF_STAGE_STATUS_NAME);
            g->host_read = gs(r, st, HF_STAGE_HOST_READ);
            g->status = gi(st, HF_STAGE_STATUS, 0);
            g->reached = gt(st, HF_STAGE_REACHED);
            ARR(r, st, HF_ACCESS, m_access, g->access, g->naccess);
            for (size_t a = 0; a < g->naccess; a++) {
                const json_t *x = json_array_get(ld_get(st, HF_ACCESS), a);
                g->access[a].location = gs(r, x, HF_ACC_LOCATION);
                g->access[a].outcome = gs(r, x, HF_ACC_OUTCOME);
                g->access[a].status_name = gs(r, x, HF_ACC_STATUS_NAME);
                g->access[a].status = gi(x, HF_ACC_STATUS, 0);
                g->access[a].has_flags = json_is_integer(ld_get(x, HF_ACC_FLAGS));
                g->access[a].flags = gi(x, HF_ACC_FLAGS, 0);
            }
        }
    }
}

static void read_stats(const json_t *o, m_stats *s)
{
    s->min = gn(o, HF_ST_MIN);
    s->median = gn(o, HF_ST_MEDIAN);
    s->p90 = gn(o, HF_ST_P90);
    s->p99 = gn(o, HF_ST_P99);
    s->max = gn(o, HF_ST_MAX);
    s->mean = gn(o, HF_ST_MEAN);
    s->mad = gn(o, HF_ST_MAD);
    s->spread = gn(o, HF_ST_SPREAD);
}

static void numbers(m_run *r, const json_t *o, int id, double **out, size_t *n)
{
    ARR(r, o, id, double, *out, *n);
    for (size_t i = 0; i < *n; i++)
        (*out)[i] = json_number_value(json_array_get(ld_get(o, id), i));
}


static void read_ab(m_run *r, const json_t *o, m_ab *ab)
{
    ab->on = json_is_object(o);
    if (!ab->on)
        return;
    ab->spec = gs(r, o, HF_AB_SPEC);
    ab->b_bench = gs(r, o, HF_AB_B_BENCH);
    ab->stopped = gs(r, o, HF_AB_STOPPED);
    ab->seed = gs(r, o, HF_AB_SEED);
    ab->budget_s = gn(o, HF_AB_BUDGET);
    ab->rounds = gi(o, HF_AB_ROUNDS, 0);
    ab->rounds_started = gi(o, HF_AB_STARTED, 0);
    ab->decided = gb(o, HF_AB_DECIDED);
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
    b->has_procs = json_is_object(ps);
    b->procs_requested = gi(ps, HF_PROCS_REQUESTED, 1);
    b->procs_finished = gi(ps, HF_PROCS_FINISHED, 1);
    ARR(r, ps, HF_PROCS_LIST, m_proc, b->procs, b->nprocs);
    for (size_t i = 0; i < b->nprocs; i++) {
        const json_t *x = json_array_get(ld_get(ps, HF_PROCS_LIST), i);
        m_proc *p = &b->procs[i];
        p->index = gi(x, HF_PROC_INDEX, 0);
        p->start_cpu = gi(x, HF_PROC_START_CPU, -1);
        p->ok = gb(x, HF_PROC_OK);
        p->detail = gs(r, x, HF_PROC_DETAIL);
        p->wall = gn(x, HF_PROC_WALL);
        p->open = gn(x, HF_PROC_OPEN);
        p->prepare = gn(x, HF_PROC_PREPARE);
        p->measure = gn(x, HF_PROC_MEASURE);
        const char *side = gs(r, x, HF_PROC_SIDE);
        p->side = side && (!strcmp(side, "a") || !strcmp(side, "b")) ? side[0] : 0;
        p->round = gi(x, HF_PROC_ROUND, 0);
        p->slot = gi(x, HF_PROC_SLOT, 0);
    }
}

/* The timed rows, each with its samples and every process's block medians. */
static void read_rows(m_run *r, const json_t *root, m_bench *b)
{
    ARR(r, root, HF_ROWS, m_row, b->rows, b->nrows);
    for (size_t i = 0; i < b->nrows; i++) {
        const json_t *x = json_array_get(ld_get(root, HF_ROWS), i);
        m_row *d = &b->rows[i];
        d->path = gs(r, x, HF_ROW_PATH);
        d->kind = gs(r, x, HF_ROW_KIND);
        d->candidate = gs(r, x, HF_ROW_CANDIDATE);
        d->what = gs(r, x, HF_ROW_WHAT);
        d->family = gs(r, x, HF_ROW_FAMILY);
        d->skip_reason = gs(r, x, HF_ROW_SKIP_REASON);
        d->comparable_to_bar = gb(x, HF_ROW_BAR);
        d->skipped = gb(x, HF_ROW_SKIPPED);
        d->capped = gb(x, HF_ROW_CAPPED);
        d->slow_first = gb(x, HF_ROW_SLOW_FIRST);
        d->repeat = gi(x, HF_ROW_REPEAT, 1);
        d->loop_status = gi(x, HF_ROW_LOOP_STATUS, 0);
        d->fallbacks = gi(x, HF_ROW_FALLBACKS, 0);
        d->batch = gi(x, HF_ROW_BATCH, 0);
        d->n = gi(x, HF_ROW_N, 0);
        d->block_samples = gi(x, HF_ROW_BLOCK_SAMPLES, 0);
        d->outliers = gi(x, HF_ROW_OUTLIERS, 0);
        d->retaken = gi(x, HF_ROW_RETAKEN, 0);
        read_stats(x, &d->st);
        d->first_batch = gn(x, HF_ROW_FIRST_BATCH);
        d->overhead = gn(x, HF_ROW_OVERHEAD);
        d->overhead_pct = gn(x, HF_ROW_OVERHEAD_PCT);
        numbers(r, x, HF_ROW_SAMPLES, &d->samples, &d->nsamples);
        numbers(r, x, HF_ROW_BLOCK_STATE, &d->block_state, &d->nblock_state);
        ARR(r, x, HF_ROW_BY_PROCESS, m_rowproc, d->procs, d->nprocs);
        for (size_t k = 0; k < d->nprocs; k++) {
            const json_t *p = json_array_get(ld_get(x, HF_ROW_BY_PROCESS), k);
            d->procs[k].process = gi(p, HF_RBP_PROCESS, 0);
            numbers(r, p, HF_RBP_BLOCKS, &d->procs[k].blocks, &d->procs[k].nblocks);
        }
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
    b->has_sweep = json_is_object(sw);
    b->sweep_kind = gs(r, sw, HF_SWEEP_KIND);
    b->sweep_timing = gs(r, sw, HF_SWEEP_TIMING);
    b->crossover = gi(sw, HF_SWEEP_CROSSOVER, -1);
    ARR(r, sw, HF_SWEEP_POINTS, m_point, b->points, b->npoints);
    for (size_t i = 0; i < b->npoints; i++) {
        const json_t *x = json_array_get(ld_get(sw, HF_SWEEP_POINTS), i);
        b->points[i].size = gi(x, HF_SP_SIZE, 0);
        read_stats(ld_get(x, HF_SP_COPY), &b->points[i].copy);
        read_stats(ld_get(x, HF_SP_READ), &b->points[i].read);
        b->points[i].has_read_nt = json_is_object(ld_get(x, HF_SP_READ_NT));
        read_stats(ld_get(x, HF_SP_READ_NT), &b->points[i].read_nt);
    }
}

static void read_bench(m_run *r, const json_t *root, m_bench *b)
{
    read_head(r, root, &b->head);
    b->wall = gn(root, HF_BENCH_WALL);
    const json_t *plan = ld_get(root, HF_PLAN);
    b->has_rounds = json_is_integer(ld_get(plan, HF_PLAN_ROUNDS));
    b->rounds = gi(plan, HF_PLAN_ROUNDS, 0);
    b->iterations = gi(plan, HF_PLAN_ITERATIONS, 0);
    b->repeat = gi(plan, HF_PLAN_REPEAT, 0);
    b->pinned_cpu = gi(root, HF_PINNED_CPU, -1);
    b->cpu_how = gs(r, ld_get(root, HF_CPU_CHOICE), HF_CPU_HOW);
    const json_t *st = ld_get(root, HF_STATE);
    b->has_state = json_is_object(st);
    b->state_fast_ns = gn(st, HF_STATE_FAST_NS);
    b->state_factor = gn(st, HF_STATE_FACTOR);
    b->state_share = gn(st, HF_STATE_CONTENDED_SHARE);
    b->state_blocks = gi(st, HF_STATE_BLOCKS, 0);
    b->state_retaken = gi(st, HF_STATE_RETAKEN, 0);
    b->state_kept = gi(st, HF_STATE_KEPT_CONTENDED, 0);
    b->state_moves = gi(st, HF_STATE_MOVES, 0);
    const json_t *win = ld_get(root, HF_WINDOW);
    b->has_window = json_is_object(win);
    b->window_from = gn(win, HF_WINDOW_FROM);
    b->window_until = gn(win, HF_WINDOW_UNTIL);
    ARR(r, root, HF_SLOWDOWN, m_slowdown, b->slowdowns, b->nslowdowns);
    for (size_t i = 0; i < b->nslowdowns; i++) {
        const json_t *x = json_array_get(ld_get(root, HF_SLOWDOWN), i);
        b->slowdowns[i].path = gs(r, x, HF_SLOW_PATH);
        b->slowdowns[i].percent = gi(x, HF_SLOW_PERCENT, 0);
    }
    read_procs(r, ld_get(root, HF_PROCS), b);
    read_ab(r, ld_get(root, HF_AB), &b->ab);
    b->clock_read_ns = gn(ld_get(root, HF_CLOCK), HF_CLOCK_READ);
    ARR(r, root, HF_BENCH_DISTINGUISHING, const char *, b->distinguishing, b->ndistinguishing);
    for (size_t i = 0; i < b->ndistinguishing; i++)
        b->distinguishing[i] = m_strdup(r, json_string_value(json_array_get(ld_get(root, HF_BENCH_DISTINGUISHING), i)));
    const json_t *h = ld_get(root, HF_HEADLINE);
    b->has_headline = json_is_object(h);
    b->fast_kind = gs(r, h, HF_HL_FAST_KIND);
    b->slow_kind = gs(r, h, HF_HL_SLOW_KIND);
    b->fast_median = gn(h, HF_HL_FAST_MEDIAN);
    b->slow_median = gn(h, HF_HL_SLOW_MEDIAN);
    b->slow_over_fast = gn(h, HF_HL_SLOW_OVER_FAST);
    b->fast_crosses_bar = gb(h, HF_HL_BAR);
    read_rows(r, root, b);
    read_sweep(r, ld_get(root, HF_SWEEP), b);
    split_sides(r, b);
    m_index_rows(r, b);
}

static void read_pool(m_run *r, const json_t *root, m_pool *p)
{
    read_head(r, root, &p->head);
    p->wall = gn(root, HF_POOL_WALL);
    p->cycles = gi(root, HF_POOL_CYCLES, 0);
    const json_t *s = ld_get(root, HF_SUMMARY);
    p->passed = gi(s, HF_SUM_PASSED, 0);
    p->failed = gi(s, HF_SUM_FAILED, 0);
    p->unsupported = gi(s, HF_SUM_UNSUPPORTED, 0);
    ARR(r, root, HF_CHECKS, m_check, p->checks, p->nchecks);
    for (size_t i = 0; i < p->nchecks; i++) {
        const json_t *c = json_array_get(ld_get(root, HF_CHECKS), i);
        p->checks[i].name = gs(r, c, HF_CHECK_NAME);
        p->checks[i].mode = gs(r, c, HF_CHECK_MODE);
        p->checks[i].status = gs(r, c, HF_CHECK_STATUS);
        p->checks[i].detail = gs(r, c, HF_CHECK_DETAIL);
        p->checks[i].passed = gt(c, HF_CHECK_PASSED);
    }
    ARR(r, root, HF_TPUT, m_tput, p->tputs, p->ntputs);
    for (size_t i = 0; i < p->ntputs; i++) {
        const json_t *t = json_array_get(ld_get(root, HF_TPUT), i);
        m_tput *d = &p->tputs[i];
        d->bytes = gn(t, HF_TP_BYTES);
        d->mode = gs(r, t, HF_TP_MODE);
        d->note = gs(r, t, HF_TP_NOTE);
        d->measured = gb(t, HF_TP_MEASURED);
        d->sleep = gn(t, HF_TP_SLEEP);
        d->wake = gn(t, HF_TP_WAKE);
        d->d2h = gn(t, HF_TP_D2H);
        d->h2d = gn(t, HF_TP_H2D);
        d->sleep_frac = gn(t, HF_TP_SLEEP_FRAC);
        d->wake_frac = gn(t, HF_TP_WAKE_FRAC);
        d->wake_now = gn(t, HF_TP_WAKE_NOW);
        d->wake_now_frac = gn(t, HF_TP_WAKE_NOW_FRAC);
        d->pause_ms = gi(t, HF_TP_PAUSE, -1);
        numbers(r, t, HF_TP_SLEEP_BY_CYCLE, &d->sleep_cyc, &d->nsleep_cyc);
        numbers(r, t, HF_TP_WAKE_BY_CYCLE, &d->wake_cyc, &d->nwake_cyc);
    }
}

static void read_manifest(m_run *r, const json_t *root, m_manifest *m)
{
    m->present = true;
    m->complete = gb(root, HF_MAN_COMPLETE);
    m->interrupted = gs(r, root, HF_MAN_INTERRUPTED);
    m->backend = gs(r, root, HF_MAN_BACKEND);
    m->tool_version = gs(r, root, HF_MAN_TOOL_VERSION);
    m->backend_choice = gs(r, root, HF_MAN_CHOICE);
    m->device = gi(root, HF_MAN_DEVICE, -1);
    fallbacks(r, root, HF_MAN_FALLBACKS, &m->fallbacks, &m->nfallbacks);
    ARR(r, root, HF_STEPS, m_step, m->steps, m->nsteps);
    for (size_t i = 0; i < m->nsteps; i++) {
        const json_t *s = json_array_get(ld_get(root, HF_STEPS), i);
        m->steps[i].name = gs(r, s, HF_STEP_NAME);
        m->steps[i].record = gs(r, s, HF_STEP_RECORD);
        m->steps[i].sha256 = gs(r, s, HF_STEP_SHA256);
        m->steps[i].exit_status = gi(s, HF_STEP_EXIT, -1);
        m->steps[i].bytes = gi(s, HF_STEP_BYTES, -1);
    }
    ARR(r, root, HF_MAN_ATTACH, m_attach, m->attach, m->nattach);
    for (size_t i = 0; i < m->nattach; i++) {
        const json_t *a = json_array_get(ld_get(root, HF_MAN_ATTACH), i);
        m->attach[i].name = gs(r, a, HF_ATT_NAME);
        m->attach[i].sha256 = gs(r, a, HF_ATT_SHA256);
        m->attach[i].bytes = gi(a, HF_ATT_BYTES, -1);
    }
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
