/* probe_discriminator: for every allocation kind and every candidate query,
 * what the query answers and whether the host can really read the memory;
 * then, per candidate, whether it separates readable from unreadable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "gpuhelpers.h"
#include "log.h"
#include "hostread.h"
#include "recw.h"
#include "tool.h"
#include "discriminate.h"
#include "verdict.h"

typedef struct probe {
    ha_tool t;
    const char *only[HA_MAX_KINDS];
    int nonly;
    bool list;
    ha_discrimination d;
} probe;

/* ---- human output: a table shaped like the upstream PR's ---- */

static const char *truth_cell(ha_truth t)
{
    return t == HA_TRUTH_YES ? "YES" : t == HA_TRUTH_NO ? "no" : "?";
}

static void verdict_text(const ha_verdict *v, char *out, size_t n)
{
    if (v->v == HA_V_DISTINGUISHES) {
        snprintf(out, n, "yes");
        return;
    }
    if (v->v == HA_V_UNDETERMINED) {
        snprintf(out, n, "undetermined: %s", v->why);
        return;
    }
    size_t l = (size_t)snprintf(out, n, "no:");
    for (size_t i = 0; i < v->nwrong && l < n; i++)
        l += (size_t)snprintf(out + l, n - l, " %s %s", v->wrong[i].false_positive ? "FP" : "FN",
                              v->wrong[i].kind);
}

static void print_row(const ha_discrimination *p, const char *label, const char cells[][40], const int *w,
                      int lw, const char *last)
{
    printf("| %-*s |", lw, label);
    for (size_t ki = 0; ki < p->nk; ki++)
        printf(" %-*s |", w[ki], cells[ki]);
    printf(" %s |\n", last);
}

static void print_table(const ha_discrimination *p)
{
    int w[HA_MAX_KINDS], lw = 24;
    char cells[HA_MAX_KINDS][40];
    for (size_t qi = 0; qi < p->nq; qi++)
        if ((int)strlen(p->queries[qi]->name) > lw)
            lw = (int)strlen(p->queries[qi]->name);
    for (size_t ki = 0; ki < p->nk; ki++) {
        w[ki] = (int)strlen(p->kinds[ki]->name);
        for (size_t qi = 0; qi < p->nq; qi++) {
            char c[40];
            ha_result_cell(&p->runs[ki].res[qi], c, sizeof c);
            if ((int)strlen(c) > w[ki])
                w[ki] = (int)strlen(c);
        }
        if (w[ki] > 22)
            w[ki] = 22;
    }
    for (size_t ki = 0; ki < p->nk; ki++)
        snprintf(cells[ki], sizeof cells[ki], "%.22s", p->kinds[ki]->name);
    print_row(p, "candidate", cells, w, lw, "Distinguishes?");
    printf("|%.*s|", lw + 2, "----------------------------------------------------------------");
    for (size_t ki = 0; ki < p->nk; ki++)
        printf("%.*s|", w[ki] + 2, "------------------------");
    printf("---|\n");
    for (size_t ki = 0; ki < p->nk; ki++)
        snprintf(cells[ki], sizeof cells[ki], "%s",
                 p->runs[ki].created ? truth_cell(p->runs[ki].readable) : "not created");
    print_row(p, "TRUTH host read", cells, w, lw, "(ground truth)");
    for (size_t ki = 0; ki < p->nk; ki++)
        snprintf(cells[ki], sizeof cells[ki], "%s",
                 p->runs[ki].created ? truth_cell(p->runs[ki].writable) : "not created");
    print_row(p, "TRUTH host write", cells, w, lw, "(ground truth)");
    for (size_t qi = 0; qi < p->nq; qi++) {
        for (size_t ki = 0; ki < p->nk; ki++) {
            if (p->runs[ki].created)
                ha_result_cell(&p->runs[ki].res[qi], cells[ki], sizeof cells[ki]);
            else
                snprintf(cells[ki], sizeof cells[ki], "-");
            cells[ki][w[ki] < 39 ? w[ki] : 39] = 0;
        }
        char v[256];
        verdict_text(&p->verdicts[qi], v, sizeof v);
        print_row(p, p->queries[qi]->name, cells, w, lw, v);
    }
}

static void print_kinds(const ha_discrimination *p)
{
    printf("\nKinds:\n");
    for (size_t ki = 0; ki < p->nk; ki++) {
        const ha_kind_run *r = &p->runs[ki];
        printf("  %-18s %s\n  %-18s   %s: %s%s%s\n", r->kind->name, r->kind->desc, "",
               r->created ? "created" : "NOT CREATED", r->a.detail,
               r->truth_note[0] ? "; " : "", r->truth_note);
    }
}

/* ---- the record ---- */

static void json_kinds(const ha_backend *be, const ha_discrimination *p, jw *w)
{
    hw_arr(w, HF_KINDS);
    for (size_t ki = 0; ki < p->nk; ki++) {
        const ha_kind_run *r = &p->runs[ki];
        jw_obj(w);
        hw_str(w, HF_KIND_NAME, r->kind->name);
        hw_str(w, HF_KIND_DESC, r->kind->desc);
        hw_bool(w, HF_KIND_CONTROL, r->kind->control);
        hw_bool(w, HF_KIND_TORCH, r->kind->torch_allocator);
        hw_bool(w, HF_KIND_CREATED, r->created);
        hw_int(w, HF_KIND_CREATE_STATUS, r->create_status);
        hw_str(w, HF_KIND_CREATE_STATUS_NAME, ha_status_name(be, r->create_status));
        hw_str(w, HF_KIND_DETAIL, r->a.detail);
        hw_tri(w, HF_KIND_READABLE, r->readable);
        hw_tri(w, HF_KIND_WRITABLE, r->writable);
        bool tried = r->created && r->a.has_pattern;
        hw_str(w, HF_KIND_READ_STATUS, tried && r->readable != HA_TRUTH_UNKNOWN ? ha_hr_name(r->read_st) : NULL);
        hw_str(w, HF_KIND_WRITE_STATUS, tried && r->writable != HA_TRUTH_UNKNOWN ? ha_hr_name(r->write_st) : NULL);
        hw_str(w, HF_KIND_FORK_READ, r->fork_read >= 0 ? ha_hr_name(r->fork_read) : NULL);
        hw_str(w, HF_KIND_FORK_WRITE, r->fork_write >= 0 ? ha_hr_name(r->fork_write) : NULL);
        if (r->fork_read < 0 || r->readable == HA_TRUTH_UNKNOWN)
            hw_null(w, HF_KIND_ISOLATION_AGREES);
        else
            hw_bool(w, HF_KIND_ISOLATION_AGREES, r->fork_read == (int)r->read_st);
        hw_str(w, HF_KIND_TRUTH_NOTE, r->truth_note);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void json_candidates(const ha_discrimination *p, jw *w)
{
    hw_arr(w, HF_CANDS);
    for (size_t qi = 0; qi < p->nq; qi++) {
        const ha_verdict *v = &p->verdicts[qi];
        const ha_query *q = p->queries[qi];
        jw_obj(w);
        hw_str(w, HF_CAND_NAME, q->name);
        hw_str(w, HF_CAND_API, q->api);
        hw_str(w, HF_CAND_SOURCE, q->flags & HA_QF_MODEL ? "model" : q->flags & HA_QF_OS ? "os" : "runtime");
        hw_str(w, HF_CAND_VERDICT, ha_verdict_name(v->v));
        hw_bool(w, HF_CAND_DISTINGUISHES, v->v == HA_V_DISTINGUISHES);
        hw_str(w, HF_CAND_WHY, v->why[0] ? v->why : NULL);
        hw_arr(w, HF_WRONG);
        for (size_t i = 0; i < v->nwrong; i++) {
            jw_obj(w);
            hw_str(w, HF_WRONG_KIND, v->wrong[i].kind);
            hw_str(w, HF_WRONG_ERROR, v->wrong[i].false_positive ? "false_positive" : "false_negative");
            hw_str(w, HF_WRONG_OUTCOME, v->wrong[i].outcome);
            jw_obj_end(w);
        }
        jw_arr_end(w);
        hw_arr(w, HF_RESULTS);
        for (size_t ki = 0; ki < p->nk; ki++) {
            const ha_kind_run *r = &p->runs[ki];
            if (!r->created)
                continue;
            const ha_result *res = &r->res[qi];
            jw_obj(w);
            hw_str(w, HF_RES_KIND, r->kind->name);
            hw_str(w, HF_RES_OUTCOME, ha_outcome_name(res->outcome));
            hw_int(w, HF_RES_STATUS, res->status);
            hw_str(w, HF_RES_STATUS_NAME, res->status_name);
            hw_str(w, HF_RES_VALUE, res->value);
            hw_str(w, HF_RES_CLASS, res->cls);
            jw_obj_end(w);
        }
        jw_arr_end(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void list_tables(probe *p)
{
    printf("kinds (%s backend):\n", p->t.be.ops->name);
    for (size_t i = 0; i < p->d.nk; i++)
        printf("  %-20s %s\n", p->d.kinds[i]->name, p->d.kinds[i]->desc);
    printf("candidates:\n");
    for (size_t i = 0; i < p->d.nq; i++)
        printf("  %-34s %s\n", p->d.queries[i]->name, p->d.queries[i]->api);
}

/* Keeps only the kinds named with --kind; an unknown name is a usage error. */
static int select_kinds(probe *p)
{
    if (p->nonly == 0)
        return 0;
    const ha_kind *keep[HA_MAX_KINDS];
    size_t n = 0;
    for (int i = 0; i < p->nonly; i++) {
        for (int j = 0; j < i; j++)
            if (strcmp(p->only[j], p->only[i]) == 0) {
                char m[128];
                snprintf(m, sizeof m, "--kind %.60s is given twice", p->only[i]);
                return ha_tool_usage(&p->t, m);
            }
        size_t k;
        for (k = 0; k < p->d.nk; k++)
            if (strcmp(p->d.kinds[k]->name, p->only[i]) == 0)
                break;
        if (k == p->d.nk) {
            char m[128];
            snprintf(m, sizeof m, "unknown kind '%s' for the %s backend (see --list)", p->only[i],
                     p->t.be.ops->name);
            return ha_tool_usage(&p->t, m);
        }
        keep[n++] = p->d.kinds[k];
    }
    memcpy(p->d.kinds, keep, n * sizeof keep[0]);
    p->d.nk = n;
    return 0;
}

int main(int argc, char **argv)
{
    static probe p;
    ha_tool_init(&p.t, "probe_discriminator");
    static ha_opt_list kinds;
    const ha_opt own[] = {
        {"kind", HA_OPT_LIST, 0, 0, &kinds, "NAME", "probe only this kind (repeatable; --list names them)", NULL},
        {"list", HA_OPT_FLAG, 0, 0, &p.list, NULL, "list the kinds and candidates of the backend, then exit", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
    };
    ha_cli cli = {"probe_discriminator", "",
                  "which runtime answer tells, at read time, whether the host can dereference a pointer", own, 0, 0,
                  NULL};
    int prc = ha_tool_parse(&p.t, &cli, argc, argv);
    if (prc)
        return prc < 0 ? HA_EXIT_OK : prc;
    for (int i = 0; i < kinds.n && p.nonly < HA_MAX_KINDS; i++)
        p.only[p.nonly++] = kinds.v[i];

    double t0 = ha_now_s();
    int rc = ha_tool_start(&p.t);
    if (rc < 0)
        return HA_EXIT_OK;
    if (rc)
        return rc;
    ha_discriminate_init(&p.t.be, &p.d, p.t.isolate_fork);
    if ((rc = select_kinds(&p))) {
        ha_tool_abort(&p.t);
        return rc;
    }
    if (p.list) {
        list_tables(&p);
        ha_tool_abort(&p.t);
        return HA_EXIT_OK;
    }

    for (size_t ki = 0; ki < p.d.nk; ki++) {
        ha_log(HA_LOG_INFO, "kind %zu/%zu %s", ki + 1, p.d.nk, p.d.kinds[ki]->name);
        ha_discriminate_kind(&p.t.be, &p.d, ki);
    }
    ha_discriminate_verdicts(&p.d);
    double wall = ha_now_s() - t0;

    if (ha_backend_simulated(&p.t.be))
        printf("# SIMULATED run - not evidence\n");
    ha_env_print(&p.t.env);
    printf("isolation    %s\n\n", p.t.isolate_fork ? "fork (child first, then in process)" : "in process");
    print_table(&p.d);
    printf("\nFP = says readable, faults (the crash); FN = says unreadable, reads (a lost fast path)\n");
    print_kinds(&p.d);
    int created = 0;
    for (size_t ki = 0; ki < p.d.nk; ki++)
        created += p.d.runs[ki].created;
    printf("\nwall time %.3f s for %zu kinds x %zu candidates\n", wall, p.d.nk, p.d.nq);

    if (created == 0) {
        ha_log(HA_LOG_ERROR, "no allocation kind could be created");
        rc = HA_EXIT_FAIL;
    }
    jw w = {0};
    if (p.t.have_rec) {
        jw_init(&w, p.t.rec.f, true);
        jw_obj(&w);
        ha_tool_json_head(&p.t, &w);
        hw_str(&w, HF_PROBE_ISOLATION, p.t.isolate_fork ? "fork" : "none");
        hw_num(&w, HF_PROBE_WALL, wall);
        json_kinds(&p.t.be, &p.d, &w);
        json_candidates(&p.d, &w);
    }
    return ha_tool_finish(&p.t, &w, rc);
}
