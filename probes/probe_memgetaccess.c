/* probe_memgetaccess: what MemGetAccess says, for each VMM shape and each
 * location type, at each stage of an allocation's life (mapped with no
 * access, after the device grant, after the host grant, after unmap and
 * remap), next to whether the host can really read it at that stage. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "gpuhelpers.h"
#include "log.h"
#include "hostread.h"
#include "recw.h"
#include "tool.h"
#include "vmmkinds.h"
#include "vmmmap.h"

enum { ST_MAPPED, ST_DEVICE, ST_HOST, ST_REMAPPED, NSTAGES };

static const char *const stage_names[NSTAGES] = {"mapped_no_access", "device_granted",
                                                 "host_granted", "unmapped_remapped"};

typedef struct stage_run {
    bool reached;
    int grant_status;   /* the SetAccess/map call that made this stage */
    ha_hr_status read;  /* guarded host read at this stage */
    ha_result access[HA_LOC_COUNT];
} stage_run;

typedef struct shape_run {
    const ha_kind *kind;
    char detail[256];
    bool created;
    stage_run st[NSTAGES];
} shape_run;

/* Shapes: the VMM kinds without a host grant (the stages add the grant). */
static bool is_shape(const ha_kind *k) { return k->is_vmm && !k->vmm.host_grant; }

static void query_stage(const ha_backend *be, const ha_alloc *a, stage_run *s)
{
    for (int l = 0; l < HA_LOC_COUNT; l++) {
        ha_query q = {ha_loc_name((ha_loc_type)l), "MemGetAccess", ha_raw_get_access, l,
                      HA_VT_INT, 8, NULL, 0};
        ha_query_run(be, &q, a, &s->access[l]);
    }
    unsigned char buf[16];
    s->read = ha_guarded_read(a->ptr, buf, sizeof buf, NULL, NULL);
    s->reached = true;
}

static void run_shape(const ha_backend *be, shape_run *r)
{
    const ha_vmm_ops *v = be->ops->vmm;
    const ha_vmm_recipe *rc = &r->kind->vmm;
    ha_loc backing = ha_vmm_backing_loc(be, rc->backing);
    size_t g = 0;
    void *va = NULL;
    ha_vmm_handle h = HA_VMM_NO_HANDLE;
    int st;
    const char *step = "granularity";
    if ((st = ha_vmm_granularity(be, backing, rc->posix_fd, &g)))
        goto fail;
    step = "address reserve";
    if ((st = ha_vmm_reserve(be, &va, g, g, NULL)))
        goto fail;
    step = "create";
    if ((st = ha_vmm_create(be, &h, g, backing, rc->posix_fd)))
        goto fail;
    step = "map";
    if ((st = v->map(be, va, g, h)))
        goto fail;
    r->created = true;
    snprintf(r->detail, sizeof r->detail, "one granule of %zu bytes", g);
    ha_alloc a = {.kind = r->kind, .ptr = va, .size = g};

    r->st[ST_MAPPED].grant_status = st;
    query_stage(be, &a, &r->st[ST_MAPPED]);
    r->st[ST_DEVICE].grant_status = ha_vmm_grant(be, va, g, false);
    query_stage(be, &a, &r->st[ST_DEVICE]);
    r->st[ST_HOST].grant_status = ha_vmm_grant(be, va, g, true);
    query_stage(be, &a, &r->st[ST_HOST]);
    st = v->unmap(be, va, g);
    r->st[ST_REMAPPED].grant_status = st ? st : v->map(be, va, g, h);
    if (r->st[ST_REMAPPED].grant_status == HA_ST_OK)
        query_stage(be, &a, &r->st[ST_REMAPPED]);

    if (r->st[ST_REMAPPED].grant_status == HA_ST_OK && (st = v->unmap(be, va, g)))
        ha_log(HA_LOG_WARN, "%s: unmap: %s", r->kind->name, ha_status_name(be, st));
    goto release;
fail:
    snprintf(r->detail, sizeof r->detail, "%s: %s", step,
             st == HA_ST_UNAVAILABLE ? "unavailable with this header" : ha_status_name(be, st));
release:
    if (h != HA_VMM_NO_HANDLE && (st = v->release(be, h)))
        ha_log(HA_LOG_WARN, "%s: release: %s", r->kind->name, ha_status_name(be, st));
    if (va && (st = v->free_va(be, va, g)))
        ha_log(HA_LOG_WARN, "%s: address free: %s", r->kind->name, ha_status_name(be, st));
}

static void print_matrix(const ha_backend *be, const shape_run *runs, size_t n)
{
    printf("| %-14s | %-17s | %-22s | %-9s |", "kind", "stage", "stage call", "host read");
    for (int l = 0; l < HA_LOC_COUNT; l++)
        printf(" get(%s) |", ha_loc_name((ha_loc_type)l));
    printf("\n|---|---|---|---|");
    for (int l = 0; l < HA_LOC_COUNT; l++)
        printf("---|");
    printf("\n");
    for (size_t i = 0; i < n; i++) {
        if (!runs[i].created) {
            printf("| %-14s | not created: %s |\n", runs[i].kind->name, runs[i].detail);
            continue;
        }
        for (int s = 0; s < NSTAGES; s++) {
            const stage_run *sr = &runs[i].st[s];
            printf("| %-14s | %-17s | %-22.22s | %-9s |", runs[i].kind->name, stage_names[s],
                   ha_status_name(be, sr->grant_status), sr->reached ? ha_hr_name(sr->read) : "-");
            for (int l = 0; l < HA_LOC_COUNT; l++) {
                char cell[40] = "-";
                if (sr->reached)
                    ha_result_cell(&sr->access[l], cell, sizeof cell);
                printf(" %s |", cell);
            }
            printf("\n");
        }
    }
}

static void json_shapes(const ha_backend *be, jw *w, const shape_run *runs, size_t n)
{
    hw_arr(w, HF_SHAPES);
    for (size_t i = 0; i < n; i++) {
        jw_obj(w);
        hw_str(w, HF_SHAPE_KIND, runs[i].kind->name);
        hw_bool(w, HF_SHAPE_CREATED, runs[i].created);
        hw_str(w, HF_SHAPE_DETAIL, runs[i].detail);
        hw_arr(w, HF_STAGES);
        for (int s = 0; runs[i].created && s < NSTAGES; s++) {
            const stage_run *sr = &runs[i].st[s];
            jw_obj(w);
            hw_str(w, HF_STAGE_NAME, stage_names[s]);
            hw_int(w, HF_STAGE_STATUS, sr->grant_status);
            hw_str(w, HF_STAGE_STATUS_NAME, ha_status_name(be, sr->grant_status));
            hw_bool(w, HF_STAGE_REACHED, sr->reached);
            hw_str(w, HF_STAGE_HOST_READ, sr->reached ? ha_hr_name(sr->read) : NULL);
            hw_arr(w, HF_ACCESS);
            for (int l = 0; sr->reached && l < HA_LOC_COUNT; l++) {
                const ha_result *r = &sr->access[l];
                jw_obj(w);
                hw_str(w, HF_ACC_LOCATION, ha_loc_name((ha_loc_type)l));
                hw_str(w, HF_ACC_OUTCOME, ha_outcome_name(r->outcome));
                hw_int(w, HF_ACC_STATUS, r->status);
                hw_str(w, HF_ACC_STATUS_NAME, r->status_name);
                hw_key(w, HF_ACC_FLAGS);
                if (r->outcome == HA_OUT_OK)
                    jw_int(w, atoll(r->cls));
                else
                    jw_null(w);
                jw_obj_end(w);
            }
            jw_arr_end(w);
            jw_obj_end(w);
        }
        jw_arr_end(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

int main(int argc, char **argv)
{
    ha_tool t;
    ha_tool_init(&t, "probe_memgetaccess");
    static const ha_opt own[] = {{NULL, 0, 0, 0, NULL, NULL, NULL, NULL}};
    ha_cli cli = {"probe_memgetaccess", "",
                  "what hipMemGetAccess/cuMemGetAccess answer for each VMM shape and location", own, 0, 0, NULL};
    int prc = ha_tool_parse(&t, &cli, argc, argv);
    if (prc)
        return prc < 0 ? HA_EXIT_OK : prc;
    double t0 = ha_now_s();
    int rc = ha_tool_start(&t);
    if (rc < 0)
        return HA_EXIT_OK;
    if (rc)
        return rc;
    if (!t.be.ops->vmm) {
        ha_log(HA_LOG_ERROR, "the %s backend has no VMM calls", t.be.ops->name);
        ha_tool_abort(&t);
        return HA_EXIT_NO_RUNTIME;
    }
    const ha_kind *kinds[HA_MAX_KINDS];
    size_t nk = ha_kinds(&t.be, kinds, HA_MAX_KINDS), n = 0;
    static shape_run runs[HA_MAX_KINDS];
    for (size_t i = 0; i < nk; i++) {
        if (!is_shape(kinds[i]))
            continue;
        runs[n].kind = kinds[i];
        ha_log(HA_LOG_INFO, "%s", kinds[i]->name);
        run_shape(&t.be, &runs[n++]);
    }
    double wall = ha_now_s() - t0;
    if (ha_backend_simulated(&t.be))
        printf("# SIMULATED run - not evidence\n");
    ha_env_print(&t.env);
    printf("\n");
    print_matrix(&t.be, runs, n);
    printf("\nflags: 0 none, 1 read, 3 read-write; a status means the query failed\n");
    printf("wall time %.3f s\n", wall);
    jw w = {0};
    if (t.have_rec) {
        jw_init(&w, t.rec.f, true);
        jw_obj(&w);
        ha_tool_json_head(&t, &w);
        hw_num(&w, HF_MGA_WALL, wall);
        hw_arr(&w, HF_MGA_STAGES);
        for (int s = 0; s < NSTAGES; s++)
            jw_str(&w, stage_names[s]);
        jw_arr_end(&w);
        json_shapes(&t.be, &w, runs, n);
    }
    return ha_tool_finish(&t, &w, rc);
}
