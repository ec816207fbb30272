/* probe_discriminator: for every allocation kind and every candidate query,
 * what the query answers and whether the host can really read the memory;
 * then, per candidate, whether it separates readable from unreadable. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "hostread.h"
#include "tool.h"
#include "verdict.h"

#define PATTERN_LEN HA_PATTERN_LEN
#define FORK_TIMEOUT_S 5

typedef struct kind_run {
    const ha_kind *kind;
    ha_alloc a;
    int create_status;
    bool created;
    ha_truth readable, writable;
    ha_hr_status read_st, write_st;
    int fork_read, fork_write; /* ha_hr_status, or -1 when not run */
    char truth_note[200];
    ha_result res[HA_MAX_QUERIES];
} kind_run;

typedef struct probe {
    ha_tool t;
    const char *only[HA_MAX_KINDS];
    int nonly;
    bool list;
    const ha_kind *kinds[HA_MAX_KINDS];
    size_t nk;
    const ha_query *queries[HA_MAX_QUERIES];
    size_t nq;
    kind_run runs[HA_MAX_KINDS];
    ha_verdict verdicts[HA_MAX_QUERIES];
    char keys[HA_MAX_QUERIES][HA_MAX_KINDS][96];
} probe;

static void make_pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(0x5a ^ (i * 37 + seed * 11));
}

static void note(kind_run *r, const char *msg)
{
    size_t l = strlen(r->truth_note);
    snprintf(r->truth_note + l, sizeof r->truth_note - l, "%s%s", l ? "; " : "", msg);
}

/* The host read, in process (contained) and, with --isolate=fork, first in a
 * child. The in-process answer is the truth: it is the process that would
 * take the fast path. */
static void read_truth(probe *p, kind_run *r)
{
    const ha_alloc *a = &r->a;
    size_t n = a->size < PATTERN_LEN ? a->size : PATTERN_LEN;
    if (p->t.isolate_fork) {
        r->fork_read = ha_fork_read(a->ptr, n, a->pattern, FORK_TIMEOUT_S, NULL);
        if (r->fork_read != HA_HR_OK && r->fork_read != HA_HR_MISMATCH &&
            r->fork_read != HA_HR_SIGSEGV && r->fork_read != HA_HR_SIGBUS) {
            char m[96];
            snprintf(m, sizeof m, "fork read ended with %s: in-process read not attempted",
                     ha_hr_name(r->fork_read));
            note(r, m);
            r->readable = HA_TRUTH_UNKNOWN;
            return;
        }
    }
    unsigned char got[PATTERN_LEN];
    r->read_st = ha_guarded_read(a->ptr, got, n, a->pattern, NULL);
    r->readable = r->read_st == HA_HR_OK ? HA_TRUTH_YES : HA_TRUTH_NO;
    if (p->t.isolate_fork && r->fork_read != (int)r->read_st) {
        char m[128];
        snprintf(m, sizeof m, "fork isolation disagrees: child %s, in process %s",
                 ha_hr_name(r->fork_read), ha_hr_name(r->read_st));
        note(r, m);
    }
}

/* The host writes the inverse pattern; the device reads it back. */
static void write_truth(probe *p, kind_run *r)
{
    const ha_backend *be = &p->t.be;
    ha_alloc *a = &r->a;
    size_t n = a->size < PATTERN_LEN ? a->size : PATTERN_LEN;
    unsigned char inv[PATTERN_LEN], back[PATTERN_LEN];
    for (size_t i = 0; i < n; i++)
        inv[i] = (unsigned char)~a->pattern[i];
    if (p->t.isolate_fork) {
        r->fork_write = ha_fork_write(a->ptr, inv, n, FORK_TIMEOUT_S, NULL);
        if (r->fork_write == HA_HR_TIMEOUT || r->fork_write == HA_HR_CHILD_DIED ||
            r->fork_write == HA_HR_ERROR) {
            note(r, "fork write did not finish: in-process write not attempted");
            r->writable = HA_TRUTH_UNKNOWN;
            return;
        }
    }
    r->write_st = ha_guarded_write(a->ptr, inv, n, NULL);
    if (r->write_st != HA_HR_OK) {
        r->writable = HA_TRUTH_NO;
        return;
    }
    memset(back, 0, sizeof back);
    int st = be->ops->copy_d2h(be, back, a->ptr, n);
    if (st != HA_ST_OK) {
        char m[128];
        snprintf(m, sizeof m, "device read-back failed: %s", ha_status_name(be, st));
        note(r, m);
        r->writable = HA_TRUTH_UNKNOWN;
        return;
    }
    if (memcmp(back, inv, n) != 0) {
        note(r, "host write completed but the device did not see it");
        r->write_st = HA_HR_MISMATCH;
    }
    r->writable = r->write_st == HA_HR_OK ? HA_TRUTH_YES : HA_TRUTH_NO;
}

static void run_kind(probe *p, size_t ki)
{
    const ha_backend *be = &p->t.be;
    kind_run *r = &p->runs[ki];
    r->kind = p->kinds[ki];
    r->a.kind = r->kind;
    r->readable = r->writable = HA_TRUTH_UNKNOWN;
    r->fork_read = r->fork_write = -1;
    r->create_status = r->kind->create(be, &r->a);
    r->created = r->create_status == HA_ST_OK;
    if (!r->created)
        return;
    size_t n = r->a.size < PATTERN_LEN ? r->a.size : PATTERN_LEN;
    make_pattern(r->a.pattern, n, (unsigned)ki);
    int st = be->ops->copy_h2d(be, r->a.ptr, r->a.pattern, n);
    if (st != HA_ST_OK) {
        char m[128];
        snprintf(m, sizeof m, "the device could not write the pattern: %s",
                 ha_status_name(be, st));
        note(r, m);
    } else {
        r->a.has_pattern = true;
    }
    /* Candidates first: a discriminator is asked before the read it guards. */
    for (size_t qi = 0; qi < p->nq; qi++)
        p->queries[qi]->run(be, p->queries[qi], &r->a, &r->res[qi]);
    if (r->a.has_pattern) {
        read_truth(p, r);
        write_truth(p, r);
    }
    r->kind->destroy(be, &r->a);
}

static void compute_verdicts(probe *p)
{
    for (size_t qi = 0; qi < p->nq; qi++) {
        ha_vcell cells[HA_MAX_KINDS];
        size_t n = 0;
        for (size_t ki = 0; ki < p->nk; ki++) {
            kind_run *r = &p->runs[ki];
            if (!r->created)
                continue;
            ha_result *res = &r->res[qi];
            ha_outcome_key(res, p->keys[qi][ki], sizeof p->keys[qi][ki]);
            cells[n].kind = r->kind->name;
            cells[n].truth = r->readable;
            cells[n].answered = res->outcome == HA_OUT_OK || res->outcome == HA_OUT_ERROR ||
                                res->outcome == HA_OUT_NOT_WRITTEN;
            cells[n].outcome = p->keys[qi][ki];
            n++;
        }
        ha_verdict_compute(cells, n, &p->verdicts[qi]);
    }
}

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

static void print_row(const probe *p, const char *label, const char cells[][40], const int *w,
                      int lw, const char *last)
{
    printf("| %-*s |", lw, label);
    for (size_t ki = 0; ki < p->nk; ki++)
        printf(" %-*s |", w[ki], cells[ki]);
    printf(" %s |\n", last);
}

static void print_table(const probe *p)
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

static void print_kinds(const probe *p)
{
    printf("\nKinds:\n");
    for (size_t ki = 0; ki < p->nk; ki++) {
        const kind_run *r = &p->runs[ki];
        printf("  %-18s %s\n  %-18s   %s: %s%s%s\n", r->kind->name, r->kind->desc, "",
               r->created ? "created" : "NOT CREATED", r->a.detail,
               r->truth_note[0] ? "; " : "", r->truth_note);
    }
}

/* ---- the record ---- */

static void json_kinds(probe *p, jw *w)
{
    const ha_backend *be = &p->t.be;
    jw_key(w, "kinds");
    jw_arr(w);
    for (size_t ki = 0; ki < p->nk; ki++) {
        kind_run *r = &p->runs[ki];
        jw_obj(w);
        jw_kstr(w, "name", r->kind->name);
        jw_kstr(w, "description", r->kind->desc);
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

static void json_candidates(probe *p, jw *w)
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
            const kind_run *r = &p->runs[ki];
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
    for (size_t i = 0; i < p->nk; i++)
        printf("  %-20s %s\n", p->kinds[i]->name, p->kinds[i]->desc);
    printf("candidates:\n");
    for (size_t i = 0; i < p->nq; i++)
        printf("  %-34s %s\n", p->queries[i]->name, p->queries[i]->api);
}

/* Keeps only the kinds named with --kind; an unknown name is a usage error. */
static int select_kinds(probe *p)
{
    if (p->nonly == 0)
        return 0;
    const ha_kind *keep[HA_MAX_KINDS];
    size_t n = 0;
    for (int i = 0; i < p->nonly; i++) {
        size_t k;
        for (k = 0; k < p->nk; k++)
            if (strcmp(p->kinds[k]->name, p->only[i]) == 0)
                break;
        if (k == p->nk) {
            char m[128];
            snprintf(m, sizeof m, "unknown kind '%s' for the %s backend (see --list)", p->only[i],
                     p->t.be.ops->name);
            return ha_tool_usage(&p->t, m);
        }
        keep[n++] = p->kinds[k];
    }
    memcpy(p->kinds, keep, n * sizeof keep[0]);
    p->nk = n;
    return 0;
}

int main(int argc, char **argv)
{
    static probe p;
    ha_tool_init(&p.t, "probe_discriminator", "[--kind NAME]... [--list]");
    static const struct option longopts[] = {
        HA_COMMON_LONGOPTS,
        {"kind", required_argument, 0, HA_OPT_TOOL_BASE},
        {"list", no_argument, 0, HA_OPT_TOOL_BASE + 1},
        {0, 0, 0, 0},
    };
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        int h = ha_tool_option(&p.t, c, optarg);
        if (h == HA_EXIT_USAGE)
            return h;
        if (h == 1)
            continue;
        if (c == HA_OPT_TOOL_BASE && p.nonly < HA_MAX_KINDS)
            p.only[p.nonly++] = optarg;
        else if (c == HA_OPT_TOOL_BASE + 1)
            p.list = true;
        else if (c == 'h') {
            ha_tool_usage(&p.t, NULL);
            return HA_EXIT_OK;
        } else
            return ha_tool_usage(&p.t, "unknown option or missing value");
    }
    if (optind < argc)
        return ha_tool_usage(&p.t, "unexpected argument");

    double t0 = ha_now_s();
    int rc = ha_tool_start(&p.t);
    if (rc < 0)
        return HA_EXIT_OK;
    if (rc)
        return rc;
    p.nk = ha_kinds(&p.t.be, p.kinds, HA_MAX_KINDS);
    p.nq = ha_queries(&p.t.be, p.queries, HA_MAX_QUERIES);
    if ((rc = select_kinds(&p))) {
        ha_tool_abort(&p.t);
        return rc;
    }
    if (p.list) {
        list_tables(&p);
        ha_tool_abort(&p.t);
        return HA_EXIT_OK;
    }

    for (size_t ki = 0; ki < p.nk; ki++) {
        fprintf(stderr, "probe_discriminator: kind %zu/%zu %s\n", ki + 1, p.nk, p.kinds[ki]->name);
        run_kind(&p, ki);
    }
    compute_verdicts(&p);
    double wall = ha_now_s() - t0;

    if (p.t.be.ops->simulated)
        printf("# SIMULATED run - not evidence\n");
    ha_env_print(&p.t.env);
    printf("isolation    %s\n\n", p.t.isolate_fork ? "fork (child first, then in process)" : "in process");
    print_table(&p);
    printf("\nFP = says readable, faults (the crash); FN = says unreadable, reads (a lost fast path)\n");
    print_kinds(&p);
    int created = 0;
    for (size_t ki = 0; ki < p.nk; ki++)
        created += p.runs[ki].created;
    printf("\nwall time %.3f s for %zu kinds x %zu candidates\n", wall, p.nk, p.nq);

    if (created == 0) {
        fprintf(stderr, "probe_discriminator: no allocation kind could be created\n");
        rc = HA_EXIT_FAIL;
    }
    jw w = {0};
    if (p.t.have_rec) {
        jw_init(&w, p.t.rec.f, true);
        jw_obj(&w);
        ha_tool_json_head(&p.t, &w);
        jw_kstr(&w, "isolation", p.t.isolate_fork ? "fork" : "none");
        jw_kdbl(&w, "wall_time_s", wall);
        json_kinds(&p, &w);
        json_candidates(&p, &w);
    }
    return ha_tool_finish(&p.t, &w, rc);
}
