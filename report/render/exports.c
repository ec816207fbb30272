#include "exports.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "derive.h"
#include "fields.h"
#include "goals.h"
#include "jsonw.h"
#include "readfile.h"
#include "text.h"


void junit_case(FILE *f, const char *cls, const char *name, const char *kind, const char *msg,
                const char *const *props)
{
    fputs("    <testcase classname=\"", f);
    xml_text(f, cls);
    fputs("\" name=\"", f);
    xml_text(f, name);
    fputs("\">", f);
    if (props && props[0]) {
        fputs("<properties>", f);
        for (size_t i = 0; props[i] && props[i + 1]; i += 2) {
            fputs("<property name=\"", f);
            xml_text(f, props[i]);
            fputs("\" value=\"", f);
            xml_text(f, props[i + 1]);
            fputs("\"/>", f);
        }
        fputs("</properties>", f);
    }
    if (kind) {
        fprintf(f, "<%s message=\"", kind);
        xml_text(f, msg);
        fputs("\"/>", f);
    }
    fputs("</testcase>\n", f);
}

static char *wrong_text(const m_cand *c)
{
    char *s = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&s, &n);
    if (!m)
        return NULL;
    for (size_t w = 0; w < c->nwrong; w++)
        fprintf(m, "%s%s on %s", w ? "; " : "", c->wrong[w].false_positive ? "false_positive" : "false_negative",
                c->wrong[w].kind);
    fclose(m);
    return s;
}

/* Every suite says whether the run was simulated, where a dashboard
 * reads it (a simulated run's green is the model's, not a GPU's). */
static void junit_suite_props(FILE *f, const m_run *r)
{
    fprintf(f, "    <properties><property name=\"simulated\" value=\"%s\"/><property name=\"backend\" value=\"",
            r->d.simulated ? "true" : "false");
    xml_text(f, r->env->backend);
    fputs("\"/><property name=\"sim_profile\" value=\"", f);
    xml_text(f, r->d.sim_profile ? r->d.sim_profile : "");
    fputs("\"/></properties>\n", f);
}

/* A suite's time: the wall time of the tool whose record it reads (a
 * dashboard sums them); none where the record has none. */
static void junit_time(FILE *f, double seconds)
{
    if (isfinite(seconds) && seconds >= 0)
        fprintf(f, " time=\"%.3f\"", seconds);
}

int export_junit(FILE *f, const m_run *r)
{
    char *cls = rf_printf("hostaccess.%s.%s", r->env->backend, r->env->device_name);
    if (!cls)
        return -1;
    /* the run's time: each tool's whole wall time, as its record says */
    double run_s = 0;
    const double walls[] = {r->has[RUN_PROBE] ? r->probe.wall : 0, r->has[RUN_MGA] ? r->mga.wall : 0,
                            r->has[RUN_BENCH] ? r->bench.wall : 0, r->has[RUN_POOL] ? r->pool.wall : 0};
    for (size_t i = 0; i < sizeof walls / sizeof *walls; i++)
        run_s += isfinite(walls[i]) && walls[i] > 0 ? walls[i] : 0;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hostaccess\"");
    junit_time(f, run_s);
    fprintf(f, ">\n");
    if (r->has[RUN_PROBE]) {
        const m_probe *p = &r->probe;
        fprintf(f, "  <testsuite name=\"verdicts\" tests=\"%zu\" failures=\"0\" skipped=\"0\"", p->ncands);
        junit_time(f, p->wall);
        fprintf(f, ">\n");
        junit_suite_props(f, r);
        for (size_t i = 0; i < p->ncands; i++) {
            const m_cand *c = &p->cands[i];
            char *wrong = wrong_text(c);
            if (!wrong) {
                free(cls);
                return -1;
            }
            const char *v = ha_verdict_name(c->verdict);
            const char *props[] = {ha_fkey(HF_CAND_VERDICT), v, ha_fkey(HF_WRONG), wrong,
                                   ha_fkey(HF_CAND_WHY), c->why, ha_fkey(HF_CAND_SOURCE), c->source, NULL};
            junit_case(f, cls, c->name, NULL, NULL, props);
            free(wrong);
        }
        fprintf(f, "  </testsuite>\n");
    }
    static const char *const suites[] = {"expectations", "pool_check"};
    for (int s = 0; s < 2; s++) {
        size_t n = 0, fails = 0, skips = 0;
        for (size_t i = 0; i < r->d.nexpects; i++)
            if (!strcmp(r->d.expects[i].suite, suites[s])) {
                n++;
                fails += r->d.expects[i].status == EXP_FAIL;
                skips += r->d.expects[i].status == EXP_SKIP;
            }
        if (!n)
            continue;
        fprintf(f, "  <testsuite name=\"%s\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\"", suites[s], n, fails,
                skips);
        /* the pool's checks ran in pool_check; the expectations are read
         * off the records, in no time of their own */
        junit_time(f, s == 1 && r->has[RUN_POOL] ? r->pool.wall : 0);
        fprintf(f, ">\n");
        junit_suite_props(f, r);
        for (size_t i = 0; i < r->d.nexpects; i++) {
            const m_expect *e = &r->d.expects[i];
            if (strcmp(e->suite, suites[s]))
                continue;
            junit_case(f, cls, e->name,
                       e->status == EXP_PASS ? NULL : e->status == EXP_FAIL ? "failure" : "skipped", e->message, NULL);
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
    free(cls);
    return 0;
}

/* A pool size's figures, one table for every export: the record's keys
 * for the rates, percent of the ceiling for the goals, which carry their
 * steady cycles and outcome. */
typedef struct tput_metric {
    const char *what, *unit;
    double v;
    bool goal_row;
    const double *cyc;
    size_t ncyc;
    int goal;
} tput_metric;
#define NTPUT 7

static void tput_metrics(const m_tput *t, tput_metric m[NTPUT])
{
    const tput_metric all[NTPUT] = {
        {ha_fkey(HF_TP_SLEEP), "GB/s", t->sleep, false, NULL, 0, 0},
        {ha_fkey(HF_TP_WAKE), "GB/s", t->wake, false, NULL, 0, 0},
        {ha_fkey(HF_TP_D2H), "GB/s", t->d2h, false, NULL, 0, 0},
        {ha_fkey(HF_TP_H2D), "GB/s", t->h2d, false, NULL, 0, 0},
        {"sleep_pct_of_ceiling", "%", 100 * t->sleep_frac, true, t->sleep_cyc, t->nsleep_cyc, t->sleep_goal},
        {"wake_pct_of_ceiling", "%", 100 * t->wake_frac, true, t->wake_cyc, t->nwake_cyc, t->wake_goal},
        {"wake_right_after_sleep_pct_of_ceiling", "%", 100 * t->wake_now_frac, false, NULL, 0, 0},
    };
    memcpy(m, all, sizeof all);
}

/* github-action-benchmark's own keys: another tool's schema, not ours. */
static void bench_entry(jw *w, const char *name, const char *unit, double value, const char *range,
                        const char *extra)
{
    jw_obj(w);
    jw_kstr(w, "name", name);
    jw_kstr(w, "unit", unit);
    jw_kdbl(w, "value", value);
    if (range)
        jw_kstr(w, "range", range);
    if (extra)
        jw_kstr(w, "extra", extra);
    jw_obj_end(w);
}

/* A value's range as the dashboard shows it: its interval over the
 * processes, or an older record's robust spread (malloc'd; NULL out of
 * memory). */
static char *range_text(const m_run *r, const m_row *x)
{
    const m_figure *g = m_row_figure(r, x);
    if (!g->k)
        return rf_printf("± %.3g", x->st.spread);
    if (g->k < 2)
        return rf_printf("one process: no interval");
    return rf_printf("95 %% [%.4g, %.4g] over %zu processes", g->lo, g->hi, g->k);
}

/* A timed row's series name. Dashboards key a series by its name alone
 * (github-action-benchmark, Bencher): the run's series (m_derived.series:
 * the device, its index and the backend, SIMULATED when so) goes in
 * front, so a fallback to the simulation or another GPU never joins a
 * real series; then path / kind / candidate. */
static char *row_series(const char *machine, const m_row *x)
{
    return rf_printf("%s: %s%s%s%s%s", machine, x->path, *x->kind ? " / " : "", x->kind, *x->candidate ? " / " : "",
                     x->candidate);
}

int export_benchmark(FILE *f, const m_run *r, int bigger)
{
    const char *machine = r->d.series; /* NULL: out of memory deriving it */
    if (!machine)
        return -1;
    int rc = 0;
    jw w;
    jw_init(&w, f, true);
    jw_arr(&w);
    const m_bench *b = &r->bench;
    for (size_t i = 0; !rc && r->has[RUN_BENCH] && !bigger && i < b->nrows; i++) {
        const m_row *x = &b->rows[i];
        if (x->repeat != 1 || x->skipped)
            continue;
        char *name = row_series(machine, x);
        char *extra = rf_printf("family=%s n=%lld batch=%lld p99=%.4g ns%s", m_row_family(x), x->n, x->batch,
                                x->st.p99, r->d.simulated ? " SIMULATED" : "");
        char *range = range_text(r, x);
        if (name && extra && range)
            bench_entry(&w, name, "ns", m_row_figure(r, x)->ns, range, extra);
        else
            rc = -1;
        free(name);
        free(extra);
        free(range);
    }
    for (size_t i = 0; !rc && r->has[RUN_POOL] && bigger && i < r->pool.ntputs; i++) {
        const m_tput *t = &r->pool.tputs[i];
        if (!t->measured)
            continue;
        tput_metric m[NTPUT];
        tput_metrics(t, m);
        for (size_t k = 0; !rc && k < NTPUT; k++) {
            if (!isfinite(m[k].v))
                continue;
            double lo = NAN, hi = NAN;
            if (m[k].ncyc)
                ha_cycles_range(m[k].cyc, m[k].ncyc, &lo, &hi);
            bool goal_row = m[k].goal_row, ranged = m[k].ncyc >= 2;
            char *name = rf_printf("%s: pool %.0f bytes %s", machine, t->bytes, m[k].what);
            char *range = ranged ? rf_printf("%zu cycles %.1f–%.1f", m[k].ncyc, 100 * lo, 100 * hi) : NULL;
            char *extra = rf_printf("mode=%s%s%s%s", t->mode, goal_row ? " goal=" : "",
                                    goal_row ? ha_goal_name(m[k].goal) : "", r->d.simulated ? " SIMULATED" : "");
            if (name && extra && (range || !ranged))
                bench_entry(&w, name, m[k].unit, m[k].v, range, extra);
            else
                rc = -1;
            free(name);
            free(range);
            free(extra);
        }
    }
    jw_arr_end(&w);
    jw_finish(&w);
    return rc;
}

/* One Bencher measure: its value, and its interval where there is one. */
static void bmf_measure(jw *w, const char *measure, double value, double lo, double hi)
{
    jw_key(w, measure);
    jw_obj(w);
    jw_kdbl(w, "value", value);
    if (isfinite(lo) && isfinite(hi)) {
        jw_kdbl(w, "lower_value", lo);
        jw_kdbl(w, "upper_value", hi);
    }
    jw_obj_end(w);
}

int export_bmf(FILE *f, const m_run *r)
{
    const char *machine = r->d.series; /* NULL: out of memory deriving it */
    if (!machine)
        return -1;
    int rc = 0;
    jw w;
    jw_init(&w, f, true);
    jw_obj(&w);
    const m_bench *b = &r->bench;
    for (size_t i = 0; !rc && r->has[RUN_BENCH] && i < b->nrows; i++) {
        const m_row *x = &b->rows[i];
        if (x->repeat != 1 || x->skipped)
            continue;
        char *name = row_series(machine, x);
        if (!name) {
            rc = -1;
            break;
        }
        const m_figure *g = m_row_figure(r, x);
        jw_key(&w, name);
        jw_obj(&w);
        bmf_measure(&w, "latency", g->ns, g->lo, g->hi); /* Bencher's latency is in ns */
        jw_obj_end(&w);
        free(name);
    }
    for (size_t i = 0; !rc && r->has[RUN_POOL] && i < r->pool.ntputs; i++) {
        const m_tput *t = &r->pool.tputs[i];
        char *name = t->measured ? rf_printf("%s: pool %.0f bytes %s", machine, t->bytes, t->mode) : NULL;
        if (t->measured && !name)
            rc = -1;
        if (!name)
            continue;
        tput_metric m[NTPUT];
        tput_metrics(t, m);
        jw_key(&w, name);
        jw_obj(&w);
        for (size_t k = 0; k < NTPUT; k++) {
            double lo = NAN, hi = NAN;
            if (!isfinite(m[k].v))
                continue;
            if (m[k].ncyc >= 2)
                ha_cycles_range(m[k].cyc, m[k].ncyc, &lo, &hi);
            bmf_measure(&w, m[k].what, m[k].v, 100 * lo, 100 * hi);
        }
        jw_obj_end(&w);
        free(name);
    }
    jw_obj_end(&w);
    jw_finish(&w);
    return rc;
}

/* The CSV's header line, and one row with the run's keys. */
static void export_csv_header(FILE *f)
{
    fprintf(f, "run,time_utc,host,device_name,device,backend,runtime_version,driver_version,tool_version,simulated,"
               "section,name,kind,metric,value,unit,text\n");
}

static void export_csv_row(FILE *f, const m_run *r, const char *section, const char *name, const char *kind,
                           const char *metric, double value, const char *unit, const char *text)
{
    const m_env *e = r->env;
    const char *keys[] = {r->name ? r->name : r->path, e->time_utc, e->host, e->device_name};
    for (size_t i = 0; i < 4; i++) {
        csv_text(f, keys[i]);
        fputc(',', f);
    }
    fprintf(f, "%lld,", e->device);
    const char *more[] = {e->backend, e->runtime_version, e->driver_version, e->tool_version};
    for (size_t i = 0; i < 4; i++) {
        csv_text(f, more[i]);
        fputc(',', f);
    }
    fprintf(f, "%s,", r->d.simulated ? "true" : "false");
    const char *cols[] = {section, name, kind, metric};
    for (size_t i = 0; i < 4; i++) {
        csv_text(f, cols[i]);
        fputc(',', f);
    }
    if (isfinite(value))
        fprintf(f, "%.10g", value);
    fputc(',', f);
    csv_text(f, unit);
    fputc(',', f);
    csv_text(f, text);
    fputc('\n', f);
}

int export_csv(FILE *f, const m_run *r)
{
    export_csv_header(f);
    const m_probe *p = &r->probe;
    for (size_t i = 0; r->has[RUN_PROBE] && i < p->nkinds; i++) {
        const m_kind *k = &p->kinds[i];
        export_csv_row(f, r, "truth", k->name, k->name, "created", k->created, "bool", k->detail);
        if (k->readable >= 0)
            export_csv_row(f, r, "truth", k->name, k->name, "readable", k->readable, "bool", k->read_status);
    }
    for (size_t i = 0; r->has[RUN_PROBE] && i < p->ncands; i++) {
        const m_cand *c = &p->cands[i];
        export_csv_row(f, r, "verdict", c->name, "", "distinguishes", c->distinguishes, "bool",
                       ha_verdict_name(c->verdict));
        /* The metric names what is measured, never its outcome: a key that
         * moved with the result would start a new series on a dashboard. */
        for (size_t w = 0; w < c->nwrong; w++) {
            char *text = rf_printf("%s: %s", c->wrong[w].false_positive ? "false positive" : "false negative",
                                   c->wrong[w].outcome);
            if (!text)
                return -1;
            export_csv_row(f, r, "verdict", c->name, c->wrong[w].kind, "wrong", 1, "bool", text);
            free(text);
        }
        for (size_t k = 0; k < c->ncells; k++) {
            char *text = rf_printf("%s: %s", c->cells[k].outcome, c->cells[k].status_name);
            if (!text)
                return -1;
            export_csv_row(f, r, "answer", c->name, c->cells[k].kind, "status", (double)c->cells[k].status, "status",
                           text);
            free(text);
        }
    }
    const m_bench *b = &r->bench;
    for (size_t i = 0; r->has[RUN_BENCH] && i < b->nrows; i++) {
        const m_row *x = &b->rows[i];
        if (x->skipped)
            continue;
        char *name = rf_printf("%s%s%s#%lld", x->path, *x->candidate ? " " : "", x->candidate, x->repeat);
        if (!name)
            return -1;
        /* the figure and its interval over processes (where it has one),
         * then the pooled samples' statistics, as every record has them */
        const m_figure *g = m_row_figure(r, x);
        const struct { const char *m; double v; bool always; } st[] = {
            {"figure", g->ns, true},         {"interval_lo", g->lo, false}, {"interval_hi", g->hi, false},
            {"median", x->st.median, true},  {"spread", x->st.spread, true}, {"p90", x->st.p90, true},
            {"p99", x->st.p99, true},
        };
        for (size_t k = 0; k < sizeof st / sizeof st[0]; k++)
            if (st[k].always || isfinite(st[k].v))
                export_csv_row(f, r, "bench", name, x->kind, st[k].m, st[k].v, "ns", m_row_family(x));
        free(name);
    }
    const m_pool *pl = &r->pool;
    for (size_t i = 0; r->has[RUN_POOL] && i < pl->nchecks; i++) {
        char *text = rf_printf("%s: %s", pl->checks[i].status, pl->checks[i].detail);
        if (!text)
            return -1;
        export_csv_row(f, r, "pool_check", pl->checks[i].name, pl->checks[i].mode, "passed",
                       pl->checks[i].passed < 0 ? NAN : pl->checks[i].passed, "bool", text);
        free(text);
    }
    for (size_t i = 0; r->has[RUN_POOL] && i < pl->ntputs; i++) {
        const m_tput *t = &pl->tputs[i];
        if (!t->measured)
            continue;
        char *name = rf_printf("pool %.0f bytes", t->bytes);
        if (!name)
            return -1;
        tput_metric tp[NTPUT];
        tput_metrics(t, tp);
        for (size_t k = 0; k < NTPUT; k++)
            if (isfinite(tp[k].v))
                export_csv_row(f, r, "throughput", name, t->mode, tp[k].what, tp[k].v, tp[k].unit, "");
        free(name);
    }
    return 0;
}

static int smaller_is_better(FILE *f, const m_run *r) { return export_benchmark(f, r, 0); }
static int bigger_is_better(FILE *f, const m_run *r) { return export_benchmark(f, r, 1); }

const export_def exports[] = {
    {"junit.xml", export_junit},        {"benchmark.json", smaller_is_better},
    {"benchmark_bigger.json", bigger_is_better}, {"results.csv", export_csv},
    {"bencher.json", export_bmf},       {NULL, NULL},
};
