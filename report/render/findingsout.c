/* compare's findings in words and records (findingsout.h). */
#include "findingsout.h"

#include <stdlib.h>
#include <string.h>

#include "abgate.h"
#include "abjudge.h"
#include "exports.h"
#include "readfile.h"
#include "recw.h"
#include "text.h"

static const char *const class_names[NCLASS] = {"regressions", "improvements", "inconclusive", "changes"};
static const int class_fields[NCLASS] = {HF_CMP_REGRESSIONS, HF_CMP_IMPROVEMENTS, HF_CMP_INCONCLUSIVE, HF_CMP_CHANGES};

static void md_run(FILE *out, const char *label, const m_run *r)
{
    const m_env *e = r->env;
    fprintf(out, "| %s | %s | %s | %s | %s | %s (%lld CPUs) | %s | %s |\n", label, md_text(r->path),
            md_text(e->tool_version), md_text(e->host), md_text(e->device_name), md_text(e->cpu), e->cpu_count,
            md_text(e->driver_version), md_text(e->runtime_version));
}

void findings_markdown(FILE *out, const findings *f, const m_run *a, const m_run *b)
{
    size_t n[NCLASS];
    for (int c = 0; c < NCLASS; c++)
        n[c] = findings_count(f, c);
    fprintf(out, "## hostaccess compare: %s\n\n", findings_verdict(f));
    fprintf(out, "| run | folder | tool | host | device | CPU | driver | runtime |\n|---|---|---|---|---|---|---|---|\n");
    md_run(out, f->sides ? "A" : "old", a);
    md_run(out, f->sides ? "B" : "new", b);
    fprintf(out, "\n");
    if (a->d.simulated || b->d.simulated)
        fprintf(out, "> %s run is SIMULATED: not evidence.\n\n", a->d.simulated && b->d.simulated ? "Each" : "One");
    if (f->ndiffer) {
        fprintf(out, "They differ in:");
        for (size_t i = 0; i < f->ndiffer; i++)
            fprintf(out, "%s %s", i ? ";" : "", md_text(f->differ[i]));
        fprintf(out, ".%s\n\n", f->same_machine ? "" : " Not the same machine: timings are not judged.");
    } else {
        fprintf(out, "They agree in tool, host, device, CPU, driver and runtime.\n\n");
    }
    if (f->timings)
        fprintf(out, "**Timings:** %s\n\n", f->timings);
    if (f->unresolved)
        fprintf(out, "**Unresolved:** %s\n\n", md_text(f->unresolved));
    if (f->bound && !findings_status(f))
        fprintf(out, "**Clean, bounded:** %s.\n\n", md_text(f->bound));
    fprintf(out, "**%zu regression(s)**, %zu improvement(s), %zu inconclusive, %zu other change(s).\n", n[REGRESSION],
            n[IMPROVEMENT], n[INCONCLUSIVE], n[CHANGE]);
    /* In each class what the runtime answered first (kinds, candidates,
     * the MemGetAccess matrix, the pool), then the timings. */
    for (int c = 0; c < NCLASS; c++) {
        if (!n[c])
            continue;
        fprintf(out, "\n### %c%s\n\n", class_names[c][0] - 32, class_names[c] + 1);
        for (int timed = 0; timed < 2; timed++)
            for (size_t i = 0; i < f->n; i++)
                if (f->v[i].cls == c && timed == (!strcmp(f->v[i].what, "timing") || !strcmp(f->v[i].what, "instrument")))
                    fprintf(out, "- %s %s: %s\n", md_text(f->v[i].what), md_text(f->v[i].name),
                            md_text(f->v[i].detail));
    }
    if (f->st.have)
        fprintf(out, "\nRun to run: %zu timed figures, |Δ median| median %.1f %%, p90 %.1f %%, max %.1f %% as "
                     "measured (p90 %.1f %%, max %.1f %% normalised); copies (%zu) p90 %.1f %% (normalised %.1f %%). "
                     "Harness share at most %.2f %% (old) and %.2f %% (new) of a row.\n",
                f->st.rows, f->st.p50, f->st.p90, f->st.max, f->st.np90, f->st.nmax, f->st.copies, f->st.copy_p90,
                f->st.copy_np90, f->st.overhead_old, f->st.overhead_new);
    if (f->nnotes) {
        fprintf(out, "\n### How it was judged\n\n");
        for (size_t i = 0; i < f->nnotes; i++)
            fprintf(out, "- %s\n", md_text(f->notes[i]));
    }
}

char *findings_utf8(const char *s) { return utf8_fix(s); }

static void kstr_utf8(jw *w, int id, const char *s)
{
    char *u = findings_utf8(s);
    hw_str(w, id, u ? u : "");
    free(u);
}

static void kstr_or_null(jw *w, int id, const char *s)
{
    if (s)
        kstr_utf8(w, id, s);
    else
        hw_null(w, id);
}

static void num_or_null(jw *w, int id, bool have, double v)
{
    if (have)
        hw_num(w, id, v);
    else
        hw_null(w, id);
}

static void session_json(jw *w, const findings *f)
{
    const ab_tally *t = f->session;
    kstr_or_null(w, HF_CMP_UNRESOLVED, f->unresolved);
    kstr_or_null(w, HF_CMP_BOUND, findings_status(f) ? NULL : f->bound);
    if (!t) {
        hw_null(w, HF_CMP_SESSION);
        return;
    }
    hw_obj(w, HF_CMP_SESSION);
    hw_uint(w, HF_SES_ROWS, t->rows);
    hw_uint(w, HF_SES_SAME, t->same);
    hw_uint(w, HF_SES_ZONE, t->zone);
    hw_bool(w, HF_SES_SETTLED, t->settled);
    hw_uint(w, HF_SES_REG, t->regressions);
    hw_uint(w, HF_SES_IMP, t->improvements);
    hw_uint(w, HF_SES_UNDECIDED, t->undecided);
    hw_uint(w, HF_SES_UNRESOLVABLE, t->unresolvable);
    hw_uint(w, HF_SES_TOO_FEW, t->too_few);
    hw_uint(w, HF_SES_ROUNDS, t->pairs);
    hw_uint(w, HF_SES_LOOK, (size_t)t->look + 1);
    num_or_null(w, HF_SES_LO, t->same > 0, t->lo);
    num_or_null(w, HF_SES_HI, t->same > 0, t->hi);
    hw_arr(w, HF_SES_INSTRUMENTS);
    if (t->use & HA_AB_USE_SYSCALL)
        jw_str(w, "syscall");
    if (t->use & HA_AB_USE_CANARY)
        jw_str(w, "canary");
    jw_arr_end(w);
    jw_obj_end(w);
}

void findings_json(jw *w, const findings *f, const m_run *a, const m_run *b)
{
    jw_obj(w);
    hw_ident(w, "compare");
    kstr_utf8(w, HF_CMP_OLD, a->path);
    kstr_utf8(w, HF_CMP_NEW, b->path);
    hw_str(w, HF_CMP_VERDICT, findings_verdict(f));
    hw_bool(w, HF_CMP_SAME_MACHINE, f->same_machine);
    hw_arr(w, HF_CMP_DIFFER);
    for (size_t i = 0; i < f->ndiffer; i++) {
        char *u = findings_utf8(f->differ[i]);
        jw_str(w, u ? u : "");
        free(u);
    }
    jw_arr_end(w);
    for (int c = 0; c < NCLASS; c++) {
        hw_arr(w, class_fields[c]);
        for (size_t i = 0; i < f->n; i++) {
            if (f->v[i].cls != c)
                continue;
            jw_obj(w);
            hw_str(w, HF_FIND_WHAT, f->v[i].what);
            kstr_utf8(w, HF_FIND_NAME, f->v[i].name);
            kstr_utf8(w, HF_FIND_DETAIL, f->v[i].detail);
            jw_obj_end(w);
        }
        jw_arr_end(w);
    }
    hw_arr(w, HF_CMP_NOTES);
    for (size_t i = 0; i < f->nnotes; i++) {
        char *u = findings_utf8(f->notes[i]);
        jw_str(w, u ? u : "");
        free(u);
    }
    jw_arr_end(w);
    session_json(w, f);
    if (!f->st.have) {
        hw_null(w, HF_CMP_R2R);
    } else {
        hw_obj(w, HF_CMP_R2R);
        hw_uint(w, HF_R2R_FIGURES, f->st.rows);
        hw_num(w, HF_R2R_P50, f->st.p50);
        hw_num(w, HF_R2R_P90, f->st.p90);
        hw_num(w, HF_R2R_MAX, f->st.max);
        hw_num(w, HF_R2R_NP90, f->st.np90);
        hw_num(w, HF_R2R_NMAX, f->st.nmax);
        hw_uint(w, HF_R2R_COPIES, f->st.copies);
        hw_num(w, HF_R2R_COPY_P90, f->st.copy_p90);
        hw_num(w, HF_R2R_COPY_NP90, f->st.copy_np90);
        hw_num(w, HF_R2R_OVER_OLD, f->st.overhead_old);
        hw_num(w, HF_R2R_OVER_NEW, f->st.overhead_new);
        jw_obj_end(w);
    }
    jw_obj_end(w);
}

void findings_junit(FILE *out, const findings *f, const m_run *a, const m_run *b)
{
    (void)a;
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hostaccess compare\">\n");
    fprintf(out, "  <testsuite name=\"compare\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n", f->n + 1,
            findings_count(f, REGRESSION), findings_count(f, INCONCLUSIVE));
    const char *props[] = {"verdict", findings_verdict(f), "new", b->path, NULL};
    junit_case(out, "hostaccess.compare", "compare", NULL, NULL, props);
    for (size_t i = 0; i < f->n; i++) {
        char *name = NULL;
        if (asprintf(&name, "%s %s", f->v[i].what, f->v[i].name) < 0)
            continue;
        int c = f->v[i].cls;
        const char *cprops[] = {"class", class_names[c], NULL};
        junit_case(out, "hostaccess.compare", name, c == REGRESSION ? "failure" : c == INCONCLUSIVE ? "skipped" : NULL,
                   f->v[i].detail, cprops);
        free(name);
    }
    fprintf(out, "  </testsuite>\n</testsuites>\n");
}
