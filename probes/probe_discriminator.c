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
    jw_key(w, "kinds");
    jw_arr(w);
    for (size_t ki = 0; ki < p->nk; ki++) {
        const ha_kind_run *r = &p->runs[ki];
        jw_obj(w);
        jw_kstr(w, "name", r->kind->name);
        jw_kstr(w, "description", r->kind->desc);
        jw_kbool(w, "control", r->kind->control);
        jw_kbool(w, "created", r->created);
        jw_kint(w, "create_status", r->create_status);
        jw_kstr(w, "create_status_name", ha_status_name(be, r->create_status));
        jw_kstr(w, "detail", r->a.detail);
        jw_ktri(w, "readable", r->readable);
        jw_ktri(w, "writable", r->writable);
        bool tried = r->created && r->a.has_pattern;
        jw_kstr(w, "read_status", tried && r->readable != HA_TRUTH_UNKNOWN ? ha_hr_name(r->read_st) : NULL);
        jw_kstr(w, "write_status", tried && r->writable != HA_TRUTH_UNKNOWN ? ha_hr_name(r->write_st) : NULL);
        jw_kstr(w, "fork_read_status", r->fork_read >= 0 ? ha_hr_name(r->fork_read) : NULL);
        jw_kstr(w, "fork_write_status", r->fork_write >= 0 ? ha_hr_name(r->fork_write) : NULL);
        jw_key(w, "isolation_agrees");
        if (r->fork_read < 0 || r->readable == HA_TRUTH_UNKNOWN)
            jw_null(w);
        else
            jw_bool(w, r->fork_read == (int)r->read_st);
        jw_kstr(w, "truth_note", r->truth_note);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void json_candidates(const ha_discrimination *p, jw *w)
{
    jw_key(w, "candidates");
    jw_arr(w);
    for (size_t qi = 0; qi < p->nq; qi++) {
        const ha_verdict *v = &p->verdicts[qi];
        jw_obj(w);
        jw_kstr(w, "name", p->queries[qi]->name);
        jw_kstr(w, "api", p->queries[qi]->api);
        jw_kstr(w, "verdict", ha_verdict_name(v->v));
        jw_kbool(w, "distinguishes", v->v == HA_V_DISTINGUISHES);
        jw_kstr(w, "why", v->why[0] ? v->why : NULL);
        jw_key(w, "wrong_on");
        jw_arr(w);
        for (size_t i = 0; i < v->nwrong; i++) {
            jw_obj(w);
            jw_kstr(w, "kind", v->wrong[i].kind);
            jw_kstr(w, "error", v->wrong[i].false_positive ? "false_positive" : "false_negative");
            jw_kstr(w, "outcome", v->wrong[i].outcome);
            jw_obj_end(w);
        }
        jw_arr_end(w);
        jw_key(w, "results");
        jw_arr(w);
        for (size_t ki = 0; ki < p->nk; ki++) {
            const ha_kind_run *r = &p->runs[ki];
            if (!r->created)
                continue;
            const ha_result *res = &r->res[qi];
            jw_obj(w);
            jw_kstr(w, "kind", r->kind->name);
            jw_kstr(w, "outcome", ha_outcome_name(res->outcome));
            jw_kint(w, "status", res->status);
            jw_kstr(w, "status_name", res->status_name);
            jw_kstr(w, "value", res->value);
            jw_kstr(w, "class", res->cls);
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
        jw_kstr(&w, "isolation", p.t.isolate_fork ? "fork" : "none");
        jw_kdbl(&w, "wall_time_s", wall);
        json_kinds(&p.t.be, &p.d, &w);
        json_candidates(&p.d, &w);
    }
    return ha_tool_finish(&p.t, &w, rc);
}
