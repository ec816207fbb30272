#include "findings.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "records.h"
#include "text.h"

static const char *const class_names[NCLASS] = {"regressions", "improvements", "changes"};

void findings_add(findings *f, int cls, const char *what, const char *name, const char *fmt, ...)
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        finding *g = realloc(f->v, cap * sizeof *f->v);
        if (!g) {
            fprintf(stderr, "compare: out of memory\n");
            exit(2);
        }
        f->v = g;
        f->cap = cap;
    }
    finding *x = &f->v[f->n++];
    x->cls = cls;
    snprintf(x->what, sizeof x->what, "%s", what);
    snprintf(x->name, sizeof x->name, "%s", name);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(x->detail, sizeof x->detail, fmt, ap);
    va_end(ap);
}

void findings_note(findings *f, const char *fmt, ...)
{
    if (f->nnotes == FINDINGS_MAX_NOTES)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->notes[f->nnotes++], sizeof f->notes[0], fmt, ap);
    va_end(ap);
}

size_t findings_count(const findings *f, int cls)
{
    size_t n = 0;
    for (size_t i = 0; i < f->n; i++)
        n += f->v[i].cls == cls;
    return n;
}

void findings_clear(findings *f)
{
    f->n = 0;
    f->nnotes = 0;
    memset(&f->st, 0, sizeof f->st);
}

void findings_free(findings *f)
{
    free(f->v);
    memset(f, 0, sizeof *f);
}

static void md_run(FILE *out, const char *label, const rundir *r)
{
    fprintf(out, "- %s: `%s` (%s %s, runtime %s)%s\n", label, md_text(r->path),
            md_text(rec_str(r->env, "device_name")), md_text(rec_str(r->env, "backend")),
            md_text(rec_str(r->env, "runtime_version")), rundir_simulated(r) ? " SIMULATED" : "");
}

void findings_markdown(FILE *out, const findings *f, const rundir *a, const rundir *b)
{
    size_t n[NCLASS];
    for (int c = 0; c < NCLASS; c++)
        n[c] = findings_count(f, c);
    fprintf(out, "## hostaccess compare\n\n");
    md_run(out, "old", a);
    md_run(out, "new", b);
    fprintf(out, "\n");
    if (strcmp(rec_str(a->env, "device_name"), rec_str(b->env, "device_name")))
        fprintf(out, "> The two runs are from different devices: differences may be the hardware's.\n\n");
    fprintf(out, "**%zu regression(s)**, %zu improvement(s), %zu other change(s).\n", n[0], n[1], n[2]);
    for (int c = 0; c < NCLASS; c++) {
        if (!n[c])
            continue;
        fprintf(out, "\n### %c%s\n\n", class_names[c][0] - 32, class_names[c] + 1);
        for (size_t i = 0; i < f->n; i++)
            if (f->v[i].cls == c)
                fprintf(out, "- %s `%s`: %s\n", f->v[i].what, md_text(f->v[i].name), md_text(f->v[i].detail));
    }
    if (f->st.have)
        fprintf(out, "\nRun to run: %zu timed figures, |Δ median| median %.1f%%, p90 %.1f%%, max %.1f%% as measured "
                     "(p90 %.1f%%, max %.1f%% after the canary); copies (%zu) p90 %.1f%%, max %.1f%% (after the "
                     "canary p90 %.1f%%, max %.1f%%). Harness overhead at most %.2f%% (old) and %.2f%% (new) of "
                     "a row.\n",
                f->st.rows, f->st.p50, f->st.p90, f->st.max, f->st.np90, f->st.nmax, f->st.copies, f->st.copy_p90,
                f->st.copy_max, f->st.copy_np90, f->st.copy_nmax, f->st.overhead_old, f->st.overhead_new);
    if (f->nnotes) {
        fprintf(out, "\n### How timings were judged\n\n");
        for (int i = 0; i < f->nnotes; i++)
            fprintf(out, "- %s\n", md_text(f->notes[i]));
    }
}

const char *findings_utf8(const char *s)
{
    static char ring[4][1024];
    static int k;
    char *o = ring[k++ & 3];
    utf8_clean(s, o, sizeof ring[0]);
    return o;
}

void findings_json(jw *w, const findings *f, const rundir *a, const rundir *b)
{
    jw_obj(w);
    jw_kint(w, "schema_version", 1);
    jw_kstr(w, "tool", "compare");
    jw_kstr(w, "old", findings_utf8(a->path));
    jw_kstr(w, "new", findings_utf8(b->path));
    for (int c = 0; c < NCLASS; c++) {
        jw_key(w, class_names[c]);
        jw_arr(w);
        for (size_t i = 0; i < f->n; i++) {
            if (f->v[i].cls != c)
                continue;
            jw_obj(w);
            jw_kstr(w, "what", f->v[i].what);
            jw_kstr(w, "name", findings_utf8(f->v[i].name));
            jw_kstr(w, "detail", findings_utf8(f->v[i].detail));
            jw_obj_end(w);
        }
        jw_arr_end(w);
    }
    jw_key(w, "notes");
    jw_arr(w);
    for (int i = 0; i < f->nnotes; i++)
        jw_str(w, findings_utf8(f->notes[i]));
    jw_arr_end(w);
    jw_key(w, "run_to_run");
    if (f->st.have) {
        jw_obj(w);
        jw_kuint(w, "figures", f->st.rows);
        jw_kdbl(w, "abs_delta_median_pct_p50", f->st.p50);
        jw_kdbl(w, "abs_delta_median_pct_p90", f->st.p90);
        jw_kdbl(w, "abs_delta_median_pct_max", f->st.max);
        jw_kdbl(w, "after_canary_pct_p90", f->st.np90);
        jw_kdbl(w, "after_canary_pct_max", f->st.nmax);
        jw_kuint(w, "copy_figures", f->st.copies);
        jw_kdbl(w, "copy_abs_delta_median_pct_p90", f->st.copy_p90);
        jw_kdbl(w, "copy_abs_delta_median_pct_max", f->st.copy_max);
        jw_kdbl(w, "copy_after_canary_pct_p90", f->st.copy_np90);
        jw_kdbl(w, "copy_after_canary_pct_max", f->st.copy_nmax);
        jw_kdbl(w, "harness_overhead_pct_max_old", f->st.overhead_old);
        jw_kdbl(w, "harness_overhead_pct_max_new", f->st.overhead_new);
        jw_obj_end(w);
    } else {
        jw_null(w);
    }
    jw_obj_end(w);
}
