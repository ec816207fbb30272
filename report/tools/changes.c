/* changes RESULTS_DIR: which run in a series moved a figure, by how much,
 * and how sure we are, where compare --series asks each pair.
 *   changes RESULTS_DIR [--json FILE] [--window N]
 * The runs are RESULTS_DIR's and those in the folders below it, to
 * CAMPAIGN_DEPTH levels (results/gate-proc-h200/m1/RUN). Runs are grouped
 * into machine classes (device and its index, backend, CPU model and
 * count: a series is one class); runs slowed on purpose and A/B sessions
 * are left out, each named; each class is put in time order by its records' times, and a
 * change of record schema breaks it: the parts are judged apart, never
 * against each other. Per gated row, the run's value is its processes'
 * estimate over their instrument (regress.h); change points are those of
 * changepoint.h. Exact facts (a kind's readability, a candidate's verdict,
 * a pool check's status) are placed at the run where they change.
 * Markdown goes to stdout. Exit: 0 no regression in the newest window; 1 a
 * timing change point that is a regression (its interval wholly above 1;
 * for the pool's throughput, a share of its ceiling, wholly below 1)
 * with its first run among the newest N runs (default 10) of a class that
 * is not simulated, unless the machine changed there and the tool did not;
 * 2 unusable input; 5 the JSON cannot be written. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "changepoint.h"
#include "derive.h"
#include "exitcodes.h"
#include "jsonw.h"
#include "opts.h"
#include "readfile.h"
#include "recw.h"
#include "record.h"
#include "regress.h"
#include "stats.h"
#include "text.h"

typedef struct crun {
    char *dir, *time, *tool, *runtime, *driver, *cpu, *boot, *cls, *seal;
    long long schema;
    bool sim;
    double *y;     /* per row id: the run's log estimate, NaN absent */
    double canary; /* the instrument's raw log value, NaN absent */
    char **facts;  /* "kind X: readable", ...: what is exactly so in this run */
    size_t nfacts;
} crun;

static char **rows; /* row names, by id */
static bool *higher_better; /* by id: a share of a ceiling, not a time */
static size_t nrows;
static crun *runs;
static size_t nruns;
static regress_cfg cfg;

static void *grow(void *p, size_t n, size_t size)
{
    void *q = realloc(p, (n + 1) * size);
    if (!q)
        rf_out_of_memory("listing the series");
    return q;
}

static char *dupe(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        rf_out_of_memory("listing the series");
    return d;
}

static size_t row_id(const char *name, bool higher_is_better)
{
    for (size_t i = 0; i < nrows; i++)
        if (!strcmp(rows[i], name))
            return i;
    rows = grow(rows, nrows, sizeof *rows);
    rows[nrows] = dupe(name);
    higher_better = grow(higher_better, nrows, sizeof *higher_better);
    higher_better[nrows] = higher_is_better;
    for (size_t i = 0; i < nruns; i++) { /* every run summarised so far lacks the new row */
        runs[i].y = grow(runs[i].y, nrows, sizeof *runs[i].y);
        runs[i].y[nrows] = NAN;
    }
    return nrows++;
}

static void fact(crun *u, const char *fmt, const char *a, const char *b, const char *c)
{
    char *s = rf_printf(fmt, a, b, c);
    u->facts = grow(u->facts, u->nfacts, sizeof *u->facts);
    u->facts[u->nfacts++] = s ? s : dupe("");
}

static void pool_row(crun *u, const char *what, const m_tput *t, double frac)
{
    if (!(frac > 0))
        return;
    char *name = rf_printf("pool %s / %.0f bytes / %s", what, t->bytes, t->mode ? t->mode : "?");
    if (!name)
        rf_out_of_memory("naming a pool row");
    size_t id = row_id(name, true);
    free(name);
    u->y[id] = log(frac);
}

/* The pool's throughput goals, one figure a run as compare gates them: the
 * share of the pinned-copy ceiling. A wake is named with its pause after
 * the sleep (records before it was paused timed it right after: the figure
 * now called "wake right after sleep"), so a definition change starts a
 * new series instead of a step. */
static void pool_rows(crun *u, const m_tput *t)
{
    if (!t->measured)
        return;
    pool_row(u, "sleep", t, t->sleep_frac);
    if (t->pause_ms > 0) {
        char what[64];
        snprintf(what, sizeof what, "wake %lld ms after sleep", t->pause_ms);
        pool_row(u, what, t, t->wake_frac);
        pool_row(u, "wake right after sleep", t, t->wake_now_frac);
    } else {
        pool_row(u, "wake right after sleep", t, t->wake_frac);
    }
}

/* What one whole run contributes; the run itself is freed after. */
static void summarise(crun *u, const m_run *r, const char *dir)
{
    memset(u, 0, sizeof *u);
    u->dir = dupe(dir);
    u->time = dupe(r->env->time_utc);
    u->tool = dupe(r->env->tool_version);
    u->runtime = dupe(r->env->runtime_version);
    u->driver = dupe(r->env->driver_version);
    u->cpu = dupe(r->env->cpu);
    u->boot = dupe(r->env->boot_id);
    /* timings are judged on the bench's own word, as compare judges them */
    u->sim = r->has[RUN_BENCH] ? r->bench.head.simulated : r->d.simulated;
    u->schema = r->has[RUN_BENCH] ? r->bench.head.schema_version : r->envrec.schema_version;
    u->cls = dupe(r->d.machine_class);
    u->seal = dupe("");
    for (size_t i = 0; i < r->manifest.nsteps; i++) {
        char *s = rf_printf("%s%s", u->seal, r->manifest.steps[i].sha256);
        free(u->seal);
        u->seal = s ? s : dupe("");
    }
    u->y = grow(NULL, nrows, sizeof *u->y);
    for (size_t i = 0; i < nrows; i++)
        u->y[i] = NAN;
    u->canary = NAN;
    const m_bench *b = &r->bench;
    for (size_t i = 0; r->has[RUN_BENCH] && i < b->nrows; i++) {
        const m_row *row = &b->rows[i];
        ha_proc_est e;
        if (!strcmp(row->path, "canary") && row->repeat == 1) {
            /* the machine's clock, as every row's figure: over the processes
             * where the record has them (rowest.h), else the pooled median */
            u->canary = m_row_estimate(b, row, M_EST_RAW, &cfg.rules, &e) == 0 ? e.mean_log : log(row->st.median);
            continue;
        }
        if (!regress_row_gated(row))
            continue;
        /* whole, never cut: two long names cut alike would join two rows' series */
        char *name = regress_row_name(row);
        if (!name)
            rf_out_of_memory("naming a row");
        size_t id = row_id(name, false);
        free(name);
        /* records before per-process values (schema 1): the run's median is its value */
        if (m_row_estimate(b, row, M_EST_NORMALISED, &cfg.rules, &e) == 0)
            u->y[id] = e.mean_log;
        else if (row->st.median > 0)
            u->y[id] = log(row->st.median);
    }
    for (size_t i = 0; r->has[RUN_POOL] && i < r->pool.ntputs; i++)
        pool_rows(u, &r->pool.tputs[i]);
    for (size_t i = 0; r->has[RUN_PROBE] && i < r->probe.nkinds; i++) {
        const m_kind *k = &r->probe.kinds[i];
        fact(u, "kind %s: %s%s", k->name, !k->created ? "not made" : k->readable == 1 ? "readable" : "faults", "");
    }
    for (size_t i = 0; r->has[RUN_PROBE] && i < r->probe.ncands; i++) {
        const m_cand *c = &r->probe.cands[i];
        fact(u, "candidate %s: %s%s", c->name, c->distinguishes ? "distinguishes" : "does not distinguish", "");
    }
    for (size_t i = 0; r->has[RUN_POOL] && i < r->pool.nchecks; i++) {
        const m_check *c = &r->pool.checks[i];
        fact(u, "pool check %s [%s]: %s", c->name, c->mode, c->status);
    }
}

static void free_run(crun *u)
{
    char **s[] = {&u->dir, &u->time, &u->tool, &u->runtime, &u->driver, &u->cpu, &u->boot, &u->cls, &u->seal};
    for (size_t i = 0; i < sizeof s / sizeof *s; i++)
        free(*s[i]);
    for (size_t i = 0; i < u->nfacts; i++)
        free(u->facts[i]);
    free(u->facts);
    free(u->y);
}

/* A run copied under another folder name holds the same sealed records:
 * it is one run, judged once. Runs are sorted, so a copy is next to it. */
static void drop_copies(void)
{
    size_t w = 0;
    for (size_t i = 0; i < nruns; i++) {
        if (w && *runs[i].seal && !strcmp(runs[i].seal, runs[w - 1].seal) && !strcmp(runs[i].cls, runs[w - 1].cls)) {
            printf("- %s holds the same records as %s (a copy): judged once.\n", md_text(runs[i].dir),
                   md_text(runs[w - 1].dir));
            free_run(&runs[i]);
            continue;
        }
        runs[w++] = runs[i];
    }
    nruns = w;
}

static int by_class_time(const void *x, const void *y)
{
    const crun *a = x, *b = y;
    int c = strcmp(a->cls, b->cls);
    if (!c)
        c = strcmp(a->time, b->time);
    return c ? c : strcmp(a->dir, b->dir);
}

/* The fact of run u that has the same subject (text before ": ") as f, or NULL. */
static const char *same_subject(const crun *u, const char *f)
{
    size_t n = strcspn(f, ":");
    for (size_t i = 0; i < u->nfacts; i++)
        if (!strncmp(u->facts[i], f, n) && u->facts[i][n] == ':')
            return u->facts[i];
    return NULL;
}

static const char *after_colon(const char *s) { return strchr(s, ':') ? strchr(s, ':') + 2 : s; }

typedef struct found {
    size_t row, at; /* at: index into the class's runs */
    ha_cp cp;
} found;

static int by_at_row(const void *x, const void *y)
{
    const found *a = x, *b = y;
    if (a->at != b->at)
        return (a->at > b->at) - (a->at < b->at);
    return (a->row > b->row) - (a->row < b->row);
}

/* Change points of one row over the class's runs [from, to) that have it. */
static size_t row_changes(const crun *c, size_t from, size_t to, size_t row, found **out, size_t *nout)
{
    size_t n = 0, *idx = malloc((to - from + 1) * sizeof *idx);
    double *y = malloc((to - from + 1) * sizeof *y);
    ha_cp *cps = malloc((to - from + 1) * sizeof *cps);
    if (!idx || !y || !cps)
        rf_out_of_memory("finding change points");
    for (size_t i = from; i < to; i++)
        if (isfinite(c[i].y[row])) {
            idx[n] = i;
            y[n++] = c[i].y[row];
        }
    ha_cp_cfg cc;
    ha_cp_defaults(&cc);
    long got = ha_changepoints(y, n, &cc, ha_fnv1a(HA_FNV_OFFSET, rows[row]), cps, n ? n : 1);
    for (long k = 0; k < got; k++) {
        *out = grow(*out, *nout, sizeof **out);
        (*out)[(*nout)++] = (found){row, idx[cps[k].at], cps[k]};
    }
    free(idx), free(y), free(cps);
    return got > 0 ? (size_t)got : 0;
}

/* Whether the machine moved with the change at run a: a new boot, another
 * driver or CPU, or its instrument (the canary) stepped by more than 3 %
 * between the 4 runs before and the 4 after. */
static bool machine_moved(const crun *c, size_t from, size_t to, size_t a)
{
    if (strcmp(c[a - 1].boot, c[a].boot) || strcmp(c[a - 1].driver, c[a].driver) || strcmp(c[a - 1].cpu, c[a].cpu))
        return true;
    double s1 = 0, s2 = 0;
    size_t n1 = 0, n2 = 0;
    for (size_t i = a; i > from && n1 < 4; i--)
        if (isfinite(c[i - 1].canary))
            s1 += c[i - 1].canary, n1++;
    for (size_t i = a; i < to && n2 < 4; i++)
        if (isfinite(c[i].canary))
            s2 += c[i].canary, n2++;
    return n1 && n2 && fabs(exp(s2 / (double)n2 - s1 / (double)n1) - 1) > 0.03;
}

/* What moved with a change point, in words. */
static const char *cause(bool machine, bool tool)
{
    if (machine && tool)
        return "the tool and the machine changed together: this series cannot tell which moved the figures";
    if (machine)
        return "**the machine changed, not the code** (a new boot, another driver or CPU, or its instrument moved)";
    if (tool)
        return "the tool changed, on the same machine: the code";
    return "neither the tool nor the machine changed: the runtime, the load, or chance";
}

/* How deep below RESULTS_DIR runs are looked for: a campaign's machine
 * folders hold runs (results/CAMPAIGN/mN/RUN), and a copy of results/
 * one more level down still is read whole. */
#define CAMPAIGN_DEPTH 3

static const char *out_json;
static long window = 10;
static const ha_opt options[] = {
    {"json", HA_OPT_STRING, 0, 0, &out_json, "FILE", "the change points as JSON into FILE (a new file)", NULL},
    {"window", HA_OPT_LONG, 1, 100000, &window, "N",
     "a regression whose first run is among the newest N of its class exits 1 (default 10)", NULL},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
static const ha_cli cli = {"changes", "RESULTS_DIR", "change points over a series of runs: which run moved what",
                           options, 1, 1, NULL};

/* One class [from, to): its parts between schema breaks, each judged. */
/* One change point: rows fs[k..j) moved together at run fs[k].at of the
 * schema part [part, end). Whether it is a regression in the newest runs. */
static bool say_change_point(const crun *c, size_t part, size_t end, size_t to, const found *fs, size_t k, size_t j,
                             jw *w, bool json)
{
    size_t a = fs[k].at;
    bool machine = machine_moved(c, part, end, a);
    bool slower = false;
    for (size_t q = k; q < j; q++)
        slower |= higher_better[fs[q].row] ? fs[q].cp.hi < 1 : fs[q].cp.lo > 1;
    bool newest = (long)(to - a) <= window;
    bool tool = strcmp(c[a - 1].tool, c[a].tool) != 0;
    bool counts = slower && newest && !c[a].sim && !(machine && !tool);
    printf("\n### Between %s and %s\n\ntool %s → %s, runtime %s → %s; %zu row(s) moved together; %s%s\n\n"
           "| row | after / before | interval | p |\n|---|---|---|---|\n",
           md_text(c[a - 1].dir), md_text(c[a].dir), md_text(c[a - 1].tool), md_text(c[a].tool),
           md_text(c[a - 1].runtime), md_text(c[a].runtime), j - k, cause(machine, tool),
           counts ? "; **a regression in the newest runs**" : "");
    for (size_t q = k; q < j; q++)
        printf("| %s | ×%.3f | %.3f – %.3f | %.3g |\n", md_text(rows[fs[q].row]), fs[q].cp.step, fs[q].cp.lo,
               fs[q].cp.hi, fs[q].cp.p);
    if (!json)
        return counts;
    jw_obj(w);
    hw_str(w, HF_CP_BEFORE, c[a - 1].dir);
    hw_str(w, HF_CP_AFTER, c[a].dir);
    hw_str(w, HF_CP_TOOL_BEFORE, c[a - 1].tool);
    hw_str(w, HF_CP_TOOL_AFTER, c[a].tool);
    hw_str(w, HF_CP_RUNTIME_BEFORE, c[a - 1].runtime);
    hw_str(w, HF_CP_RUNTIME_AFTER, c[a].runtime);
    hw_bool(w, HF_CP_MACHINE, machine);
    hw_bool(w, HF_CP_TOOL, tool);
    hw_bool(w, HF_CP_REGRESSION, counts);
    hw_arr(w, HF_CP_ROWS);
    for (size_t q = k; q < j; q++) {
        jw_obj(w);
        hw_str(w, HF_CPR_ROW, rows[fs[q].row]);
        hw_num(w, HF_CPR_STEP, fs[q].cp.step);
        hw_num(w, HF_CPR_LO, fs[q].cp.lo);
        hw_num(w, HF_CPR_HI, fs[q].cp.hi);
        hw_num(w, HF_CPR_P, fs[q].cp.p);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_obj_end(w);
    return counts;
}

/* The change points of runs [part, end), one schema: figures are never
 * compared across a schema break. Whether one is a regression. */
static bool judge_part(const crun *c, size_t part, size_t end, size_t to, jw *w, bool json)
{
    bool regression = false;
    found *fs = NULL;
    size_t nf = 0;
    for (size_t r = 0; r < nrows; r++)
        row_changes(c, part, end, r, &fs, &nf);
    if (nf) /* qsort of no array at all is undefined, even of none */
        qsort(fs, nf, sizeof *fs, by_at_row);
    if (end - part < 8)
        printf("- %zu run(s) of schema %lld: too few for change points (at least 8: 4 on each side).\n", end - part,
               c[end - 1].schema);
    for (size_t k = 0; k < nf;) {
        size_t j = k;
        while (j < nf && fs[j].at == fs[k].at)
            j++;
        regression |= say_change_point(c, part, end, to, fs, k, j, w, json);
        k = j;
    }
    free(fs);
    return regression;
}

/* The exact facts (kinds, verdicts, pool checks) that differ from the run
 * before, each where it changed. */
static void exact_facts(const crun *c, size_t from, size_t to, jw *w, bool json)
{
    bool any = false;
    for (size_t i = from + 1; i < to; i++)
        for (size_t f = 0; f < c[i].nfacts; f++) {
            const char *was = same_subject(&c[i - 1], c[i].facts[f]);
            if (!was || !strcmp(was, c[i].facts[f]))
                continue;
            if (!any)
                printf("\n### Exact facts that changed\n\n");
            any = true;
            printf("- at %s (tool %s): %s → %s\n", md_text(c[i].dir), md_text(c[i].tool), md_text(was),
                   md_text(after_colon(c[i].facts[f])));
            if (json) {
                jw_obj(w);
                hw_str(w, HF_FACT_AT, c[i].dir);
                hw_str(w, HF_FACT_WAS, was);
                hw_str(w, HF_FACT_NOW, c[i].facts[f]);
                jw_obj_end(w);
            }
        }
}

static bool judge_class(const crun *c, size_t from, size_t to, jw *w, bool json)
{
    bool regression = false;
    printf("\n## %s\n\n%zu run(s), %s to %s.%s\n", md_text(c[from].cls), to - from, md_text(c[from].dir),
           md_text(c[to - 1].dir), c[from].sim ? " **SIMULATED**: timings are shown, never judged." : "");
    if (json) {
        jw_obj(w);
        hw_str(w, HF_CLS_NAME, c[from].cls);
        hw_bool(w, HF_CLS_SIMULATED, c[from].sim);
        hw_uint(w, HF_CLS_RUNS, to - from);
        hw_arr(w, HF_CLS_POINTS);
    }
    for (size_t i = from + 1; i < to; i++)
        if (strcmp(c[i - 1].dir, c[i].dir) > 0) {
            printf("- Folder names and the records' times disagree in order (%s after %s): ordered by the "
                   "records' times.\n", md_text(c[i].dir), md_text(c[i - 1].dir));
            break;
        }
    for (size_t part = from, end; part < to; part = end) {
        for (end = part + 1; end < to && ha_schema_figures(c[end].schema) == ha_schema_figures(c[part].schema);)
            end++;
        if (end < to)
            printf("- A break before %s: its records are of schema %lld, those before of %lld; figures are not "
                   "compared across it.\n", md_text(c[end].dir), c[end].schema, c[end - 1].schema);
        regression |= judge_part(c, part, end, to, w, json);
    }
    if (json) {
        jw_arr_end(w);
        hw_arr(w, HF_CLS_FACTS);
    }
    exact_facts(c, from, to, w, json);
    if (json) {
        jw_arr_end(w);
        jw_obj_end(w);
    }
    return regression;
}

/* Every whole run under dir into runs[], summarised; a run that does not
 * load or was slowed on purpose is said and counted. */
static size_t read_runs(const char *dir, char **names, long n)
{
    size_t skipped = 0;
    for (long i = 0; i < n; i++) {
        char *p = rf_join(dir, names[i]), *e = NULL;
        m_run r;
        if (!p)
            rf_out_of_memory("naming a run");
        if (m_load_run(&r, p, 0, &e) != 0) {
            /* the loader's message starts with the path; the folder's name is said already */
            const char *why = e ? e : "out of memory";
            if (p && !strncmp(why, p, strlen(p)) && !strncmp(why + strlen(p), ": ", 2))
                why += strlen(p) + 2;
            printf("- Skipped %s: %s\n", md_text(names[i]), md_text(why));
            skipped++;
            free(e);
            free(p);
            continue;
        }
        /* two sides in one record: compare RUN judges a session; a planted
         * slowdown measures the gate, not the code */
        const char *left_out = r.bench.ab.on ? "an A/B session (its bench is two sides in one record: compare RUN "
                                               "judges it)"
                               : r.d.slowed  ? "slowed on purpose (HOSTACCESS_TEST_SLOWDOWN)"
                                             : NULL;
        if (left_out) {
            printf("- Left out %s: %s\n", md_text(names[i]), left_out);
            skipped++;
            m_free_run(&r);
            free(p);
            continue;
        }
        runs = grow(runs, nruns, sizeof *runs);
        summarise(&runs[nruns++], &r, names[i]);
        m_free_run(&r);
        free(p);
    }
    return skipped;
}

/* The series ends: everything summarised is freed. */
static void free_runs(void)
{
    for (size_t i = 0; i < nruns; i++)
        free_run(&runs[i]);
    for (size_t i = 0; i < nrows; i++)
        free(rows[i]);
    free(runs);
    free(rows);
    free(higher_better);
}

int main(int argc, char **argv)
{
    const char *dir;
    int done = ha_cli_parse_one(&cli, argc, argv, &dir);
    if (done >= 0)
        return done;
    regress_defaults(&cfg);
    char **names = NULL;
    long n = m_list_runs_below(dir, CAMPAIGN_DEPTH, &names);
    if (n <= 0) {
        fprintf(stderr, "changes: %s: %s\n", dir,
                n < 0 ? "expected a folder of runs (results/)" : "no run folders in it: expected results/<run>/");
        m_free_names(names, n > 0 ? n : 0);
        return HA_EXIT_USAGE;
    }
    ha_record rec;
    char err[800];
    if (out_json && ha_record_open(&rec, out_json, err, sizeof err) != 0) {
        fprintf(stderr, "changes: %s\n", err);
        m_free_names(names, n);
        return HA_EXIT_OUTPUT;
    }
    printf("# hostaccess changes: %s\n\n", md_text(dir));
    size_t skipped = read_runs(dir, names, n);
    m_free_names(names, n);
    if (nruns)
        qsort(runs, nruns, sizeof *runs, by_class_time);
    drop_copies();
    jw w;
    if (out_json) {
        jw_init(&w, rec.f, true);
        jw_obj(&w);
        hw_ident(&w, "changes");
        hw_str(&w, HF_CHG_RESULTS, dir);
        hw_uint(&w, HF_CHG_SKIPPED, skipped);
        hw_arr(&w, HF_CHG_CLASSES);
    }
    printf("%zu whole run(s) in %s; %zu skipped or left out (named above). Each class of machine (device, backend, CPU) is a "
           "series of its own, in the order of its records' times; a change point needs 4 runs on each side and "
           "a permutation p of at most 0.01 (src: common/changepoint.h).\n",
           nruns, md_text(dir), skipped);
    bool regression = false;
    for (size_t i = 0; i < nruns;) {
        size_t j = i;
        while (j < nruns && !strcmp(runs[j].cls, runs[i].cls))
            j++;
        regression |= judge_class(runs, i, j, &w, out_json != NULL);
        i = j;
    }
    printf("\n%s\n", regression ? "**A regression among the newest runs** (exit 1)." : "No regression among the "
                                                                                     "newest runs.");
    int rc = regression ? HA_EXIT_FAIL : 0;
    free_runs();
    text_pool_free();
    if (out_json) {
        jw_arr_end(&w);
        hw_bool(&w, HF_CHG_REGRESSION, regression);
        jw_obj_end(&w);
        if (jw_finish(&w) != 0 || ha_record_commit(&rec, err, sizeof err) != 0) {
            fprintf(stderr, "changes: %s\n", err);
            rc = HA_EXIT_OUTPUT;
        }
    }
    return rc;
}
