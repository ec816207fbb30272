#include "regress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "goals.h"
#include "records.h"
#include "stats.h"
#include "timing.h"

/* Defaults, in %, from the H200's A/A runs (results/aa-calibration: 15
 * pairs of 6 back-to-back runs, after the canary; tools/diag/aa_spread.py):
 * copies moved at most 5.5 %, the CPU-bound families at most 8 %, reads
 * that go to DRAM (memory) 12 %. Each
 * threshold sits above that and below 20 %, the change the A/A check
 * must catch every time. */
void regress_defaults(regress_cfg *c)
{
    static const family_threshold d[REGRESS_NFAM] = {
        {"read", 10, 1}, {"memory", 15, 1}, {"guarded", 10, 1}, {"query", 10, 1},
        {"hardened", 10, 1}, {"copy", 8, 0.5}, {"fault", 10, 1},
    };
    memcpy(c->thr, d, sizeof d);
    c->timings_across_hosts = false;
}

int regress_set_threshold(regress_cfg *c, const char *spec, char *err, size_t n)
{
    const char *eq = strchr(spec, '=');
    char *end;
    double v = eq ? strtod(eq + 1, &end) : NAN;
    if (!eq || eq[1] == 0 || *end || !(v >= 0.1 && v <= 1000)) {
        snprintf(err, n, "--threshold takes FAMILY=PERCENT (0.1 to 1000), not '%.80s'", spec);
        return -1;
    }
    size_t fl = (size_t)(eq - spec);
    bool all = fl == 3 && !strncmp(spec, "all", 3), found = false;
    for (int i = 0; i < REGRESS_NFAM; i++)
        if (all || (strlen(c->thr[i].family) == fl && !strncmp(spec, c->thr[i].family, fl))) {
            c->thr[i].pct = v;
            found = true;
        }
    if (!found) {
        snprintf(err, n, "--threshold: unknown family '%.*s' (read, memory, guarded, query, hardened, copy, fault, all)",
                 (int)(fl < 40 ? fl : 40), spec);
        return -1;
    }
    return 0;
}

family_threshold regress_family(const regress_cfg *c, const char *family)
{
    family_threshold loosest = {family, 0, 1};
    for (int i = 0; i < REGRESS_NFAM; i++) {
        if (!strcmp(c->thr[i].family, family))
            return c->thr[i];
        loosest.pct = fmax(loosest.pct, c->thr[i].pct);
    }
    return loosest;
}

static const json_t *by_key(const json_t *arr, const char *key, const char *val)
{
    size_t i;
    const json_t *o;
    json_array_foreach(arr, i, o) if (!strcmp(rec_str(o, key), val)) return o;
    return NULL;
}

static void cmp_env(const json_t *a, const json_t *b, findings *f)
{
    const char *keys[] = {"header_version", "runtime_version", "driver_version", "device_name", "backend", "host"};
    for (int i = 0; i < 6; i++)
        if (strcmp(rec_str(a, keys[i]), rec_str(b, keys[i])))
            findings_add(f, CHANGE, "environment", keys[i], "%s → %s", rec_str(a, keys[i]), rec_str(b, keys[i]));
}

static void cmp_kinds(const json_t *a, const json_t *b, findings *f)
{
    size_t i;
    const json_t *ka;
    json_array_foreach(json_object_get(a, "kinds"), i, ka) {
        const char *n = rec_str(ka, "name");
        const json_t *kb = by_key(json_object_get(b, "kinds"), "name", n);
        if (!kb) {
            findings_add(f, REGRESSION, "kind", n, "no longer probed: its host readability is no longer checked");
            continue;
        }
        int ca = json_is_true(json_object_get(ka, "created")), cb = json_is_true(json_object_get(kb, "created"));
        if (ca != cb)
            findings_add(f, ca ? REGRESSION : IMPROVEMENT, "kind", n, "%s (%s)",
                         ca ? "can no longer be made" : "can now be made", rec_str(kb, "detail"));
        int ra = rec_tri(ka, "readable"), rb = rec_tri(kb, "readable");
        if (ra >= 0 && rb >= 0 && ra != rb)
            findings_add(f, ra ? REGRESSION : IMPROVEMENT, "kind", n, "host read: %s → %s",
                         ra ? "readable" : "faults", rb ? "readable" : "faults");
    }
    json_array_foreach(json_object_get(b, "kinds"), i, ka)
        if (!by_key(json_object_get(a, "kinds"), "name", rec_str(ka, "name")))
            findings_add(f, CHANGE, "kind", rec_str(ka, "name"), "new");
}

static void cmp_candidates(const json_t *a, const json_t *b, findings *f)
{
    size_t i, k;
    const json_t *ca;
    json_array_foreach(json_object_get(a, "candidates"), i, ca) {
        const char *n = rec_str(ca, "name");
        const json_t *cb = by_key(json_object_get(b, "candidates"), "name", n);
        if (!cb) {
            findings_add(f, REGRESSION, "candidate", n, "no longer probed: its verdict (%s) is no longer checked",
                         rec_str(ca, "verdict"));
            continue;
        }
        const char *va = rec_str(ca, "verdict"), *vb = rec_str(cb, "verdict");
        bool da = !strcmp(va, "distinguishes"), db = !strcmp(vb, "distinguishes");
        if (da != db)
            findings_add(f, da ? REGRESSION : IMPROVEMENT, "candidate", n, "%s distinguishing (%s → %s)",
                         da ? "stopped" : "started", va, vb);
        else if (strcmp(va, vb))
            findings_add(f, CHANGE, "candidate", n, "verdict %s → %s", va, vb);
        const json_t *ra;
        json_array_foreach(json_object_get(ca, "results"), k, ra) {
            const json_t *rb = by_key(json_object_get(cb, "results"), "kind", rec_str(ra, "kind"));
            if (!rb || (!strcmp(rec_str(ra, "status_name"), rec_str(rb, "status_name")) &&
                        !strcmp(rec_str(ra, "class"), rec_str(rb, "class"))))
                continue;
            char name[200];
            snprintf(name, sizeof name, "%s on %s", n, rec_str(ra, "kind"));
            findings_add(f, CHANGE, "status", name, "%s %s → %s %s", rec_str(ra, "status_name"),
                         rec_str(ra, "class"), rec_str(rb, "status_name"), rec_str(rb, "class"));
        }
    }
    json_array_foreach(json_object_get(b, "candidates"), i, ca)
        if (!by_key(json_object_get(a, "candidates"), "name", rec_str(ca, "name")))
            findings_add(f, CHANGE, "candidate", rec_str(ca, "name"), "new (%s)", rec_str(ca, "verdict"));
}

static const json_t *pool_check(const json_t *pool, const json_t *like)
{
    size_t k;
    const json_t *o;
    json_array_foreach(json_object_get(pool, "checks"), k, o)
        if (!strcmp(rec_str(o, "name"), rec_str(like, "name")) && !strcmp(rec_str(o, "mode"), rec_str(like, "mode")))
            return o;
    return NULL;
}

static void cmp_pool(const json_t *a, const json_t *b, findings *f)
{
    size_t i;
    const json_t *ca;
    json_array_foreach(json_object_get(a, "checks"), i, ca) {
        char name[200];
        snprintf(name, sizeof name, "%s [%s]", rec_str(ca, "name"), rec_str(ca, "mode"));
        const json_t *cb = pool_check(b, ca);
        const char *sa = rec_str(ca, "status");
        if (!cb) {
            findings_add(f, REGRESSION, "pool_check", name, "no longer run (was %s)", sa);
            continue;
        }
        const char *sb = rec_str(cb, "status");
        if (!strcmp(sa, sb))
            continue;
        bool pa = !strcmp(sa, "PASS"), pb = !strcmp(sb, "PASS");
        int cls = !strcmp(sb, "FAIL") || (pa && !pb) ? REGRESSION : !strcmp(sa, "FAIL") || pb ? IMPROVEMENT : CHANGE;
        findings_add(f, cls, "pool_check", name, "%s → %s: %s", sa, sb, rec_str(cb, "detail"));
    }
    json_array_foreach(json_object_get(b, "checks"), i, ca)
        if (!pool_check(a, ca)) {
            char name[200];
            snprintf(name, sizeof name, "%s [%s]", rec_str(ca, "name"), rec_str(ca, "mode"));
            findings_add(f, CHANGE, "pool_check", name, "new (%s)", rec_str(ca, "status"));
        }
    /* Throughput has no samples of its own: the goal is the line that matters. */
    json_array_foreach(json_object_get(a, "throughput"), i, ca) {
        const json_t *cb = NULL, *o;
        size_t k;
        json_array_foreach(json_object_get(b, "throughput"), k, o)
            if (rec_num(o, "pool_bytes") == rec_num(ca, "pool_bytes") && !strcmp(rec_str(o, "mode"), rec_str(ca, "mode")))
                cb = o;
        if (!cb || !json_is_true(json_object_get(ca, "measured")) || !json_is_true(json_object_get(cb, "measured")))
            continue;
        const char *what[] = {"sleep_fraction_of_ceiling", "wake_fraction_of_ceiling"};
        for (int w = 0; w < 2; w++) {
            double fa = rec_num(ca, what[w]), fb = rec_num(cb, what[w]);
            bool ma = ha_pool_throughput_met(fa), mb = ha_pool_throughput_met(fb);
            if (ma == mb || fabs(fb - fa) <= HA_THROUGHPUT_MARGIN)
                continue;
            char name[120];
            snprintf(name, sizeof name, "pool %.0f bytes %s", rec_num(ca, "pool_bytes"), what[w]);
            findings_add(f, mb ? IMPROVEMENT : REGRESSION, "throughput", name,
                         "%.1f%% → %.1f%% of the pinned-copy ceiling (goal %.0f%%, a move of more than %.0f "
                         "points counts)", 100 * fa, 100 * fb, 100 * HA_POOL_THROUGHPUT_GOAL,
                         100 * HA_THROUGHPUT_MARGIN);
        }
    }
}

static void row_name(const json_t *r, char *name, size_t n)
{
    snprintf(name, n, "%s / %s%s%s", rec_str(r, "path"), rec_str(r, "kind"), *rec_str(r, "candidate") ? " / " : "",
             rec_str(r, "candidate"));
}

static bool timed(const json_t *r)
{
    return !json_is_true(json_object_get(r, "skipped"));
}

/* A path's row, not one of the instruments (the empty loop, the canary). */
static bool judged(const json_t *r)
{
    const char *f = rec_row_family(r);
    return timed(r) && strcmp(f, "harness") && strcmp(f, "canary");
}

/* The old rule, for records without samples: the medians differ by more
 * than both runs' spreads (sample spread plus the repeat-to-repeat gap). */
static double run_noise(const json_t *bench, const json_t *r)
{
    const json_t *r2 = rec_bench_row(bench, rec_str(r, "path"), rec_str(r, "kind"), rec_str(r, "candidate"), 2);
    return rec_num(r, "spread_ns") + (r2 ? fabs(rec_num(r2, "median_ns") - rec_num(r, "median_ns")) : 0);
}

/* A seed per row name, so each comparison repeats exactly. */
static unsigned long long seed_of(const char *s)
{
    unsigned long long h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h | 1;
}

static double pct_of(double *v, size_t n, double p)
{
    if (!n)
        return NAN;
    ha_sort_doubles(v, n);
    return v[(size_t)ceil(p / 100 * (double)n) - (p > 0)];
}

static double max_overhead(const json_t *bench)
{
    double m = 0;
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(bench, "rows"), i, r)
        if (judged(r))
            m = fmax(m, rec_num(r, "overhead_pct"));
    return m;
}

/* A row's figure: the median of its block medians, or for a record
 * without blocks the first repeat's median. */
static double figure(const json_t *bench, const json_t *r)
{
    row_blocks bl;
    if (timing_blocks(bench, rec_str(r, "path"), rec_str(r, "kind"), rec_str(r, "candidate"), &bl) == 0)
        return timing_median(bl.med, bl.n);
    return rec_num(r, "median_ns");
}

/* Every figure of the old run matched with the new run's. */
static void run_to_run(const regress_cfg *cfg, const json_t *a, const json_t *b, double canary, stability *st)
{
    size_t n = json_array_size(json_object_get(a, "rows")) + 1;
    double *v[4];
    for (int i = 0; i < 4; i++)
        v[i] = calloc(n, sizeof *v[i]);
    if (v[0] && v[1] && v[2] && v[3]) {
        size_t i;
        const json_t *ra;
        json_array_foreach(json_object_get(a, "rows"), i, ra) {
            if (rec_int(ra, "repeat") != 1 || !judged(ra))
                continue;
            const json_t *rb = rec_bench_row(b, rec_str(ra, "path"), rec_str(ra, "kind"), rec_str(ra, "candidate"), 1);
            double fa = figure(a, ra), fb = rb ? figure(b, rb) : NAN;
            if (!rb || !(fa > 0) || !(fb > 0))
                continue;
            family_threshold ft = regress_family(cfg, rec_row_family(ra));
            double raw = 100 * fabs(fb / fa - 1), norm = 100 * fabs(fb / fa / pow(canary, ft.clock_share) - 1);
            v[0][st->rows] = raw;
            v[1][st->rows++] = norm;
            if (!strcmp(ft.family, "copy")) {
                v[2][st->copies] = raw;
                v[3][st->copies++] = norm;
            }
        }
        st->have = st->rows > 0;
        st->p50 = pct_of(v[0], st->rows, 50);
        st->p90 = pct_of(v[0], st->rows, 90);
        st->max = pct_of(v[0], st->rows, 100);
        st->np90 = pct_of(v[1], st->rows, 90);
        st->nmax = pct_of(v[1], st->rows, 100);
        st->copy_p90 = pct_of(v[2], st->copies, 90);
        st->copy_max = pct_of(v[2], st->copies, 100);
        st->copy_np90 = pct_of(v[3], st->copies, 90);
        st->copy_nmax = pct_of(v[3], st->copies, 100);
        st->overhead_old = max_overhead(a);
        st->overhead_new = max_overhead(b);
    }
    for (int i = 0; i < 4; i++)
        free(v[i]);
}

/* The canary's ratio new/old, or 1 when a run has none. */
static double canary_ratio(const json_t *a, const json_t *b, findings *f)
{
    row_blocks ca, cb;
    timing_change c;
    if (timing_blocks(a, "canary", "", "", &ca) || timing_blocks(b, "canary", "", "", &cb) ||
        timing_compare(&ca, &cb, seed_of("canary"), &c)) {
        findings_note(f, "no machine-speed canary in both runs: timings are not normalised");
        return 1;
    }
    findings_note(f, "machine-speed canary (a chain of multiply-adds): ×%.3f [%.3f, %.3f]; each timing ratio is "
                     "divided by it (copies by its square root)", c.ratio, c.lo, c.hi);
    return c.ratio;
}

static void cmp_timing_row(const regress_cfg *cfg, const json_t *a, const json_t *b, const json_t *ra,
                           double canary, findings *f, int *fallback)
{
    char name[200];
    row_name(ra, name, sizeof name);
    const char *fam = rec_row_family(ra);
    family_threshold ft = regress_family(cfg, fam);
    double thr = ft.pct / 100;
    canary = pow(canary, ft.clock_share);
    const char *p = rec_str(ra, "path"), *k = rec_str(ra, "kind"), *c = rec_str(ra, "candidate");
    row_blocks ba, bb;
    timing_change t;
    if (timing_blocks(a, p, k, c, &ba) == 0 && timing_blocks(b, p, k, c, &bb) == 0 &&
        timing_compare(&ba, &bb, seed_of(name), &t) == 0) {
        double r = t.ratio / canary, lo = t.lo / canary, hi = t.hi / canary;
        int cls = lo > 1 && r > 1 + thr ? REGRESSION : hi < 1 && r < 1 / (1 + thr) ? IMPROVEMENT : -1;
        if (cls >= 0)
            findings_add(f, cls, "timing", name,
                         "%.4g → %.4g ns: ×%.3f, 95%% interval [%.3f, %.3f] (%+.1f%%); beyond the %s "
                         "threshold of %.0f%%; %zu and %zu blocks", t.a, t.b, r, lo, hi, 100 * (r - 1), fam,
                         100 * thr, ba.n, bb.n);
        return;
    }
    /* No samples in rounds: the recorded medians and spreads. */
    (*fallback)++;
    const json_t *rb = rec_bench_row(b, p, k, c, 1);
    double ma = rec_num(ra, "median_ns"), mb = rec_num(rb, "median_ns"), noise = run_noise(a, ra) + run_noise(b, rb);
    if (!(ma > 0) || !(fabs(mb - ma) > noise) || fabs(mb / ma - 1) <= thr)
        return;
    findings_add(f, mb > ma ? REGRESSION : IMPROVEMENT, "timing", name,
                 "%.4g → %.4g ns (%+.1f%%), beyond both runs' recorded spreads (%.3g ns) and the %s threshold "
                 "of %.0f%% (no samples in rounds)", ma, mb, 100 * (mb - ma) / ma, noise, fam, 100 * thr);
}

/* A path the new run slowed on purpose: how many of its rows were caught.
 * The A/A check reads this line to prove the gate sees a known change. */
static void slowdown_caught(const json_t *a, const json_t *b, const char *path, long long pct, findings *f)
{
    size_t rows = 0, caught = 0, i;
    const json_t *r;
    json_array_foreach(json_object_get(a, "rows"), i, r) {
        if (rec_int(r, "repeat") != 1 || !judged(r) || strcmp(rec_str(r, "path"), path) ||
            !rec_bench_row(b, path, rec_str(r, "kind"), rec_str(r, "candidate"), 1))
            continue;
        rows++;
        char name[200];
        row_name(r, name, sizeof name);
        for (size_t k = 0; k < f->n; k++)
            caught += f->v[k].cls == REGRESSION && !strcmp(f->v[k].name, name);
    }
    findings_note(f, "the new run was slowed on purpose (HOSTACCESS_TEST_SLOWDOWN: %s +%lld%%): %zu of %zu rows "
                     "flagged", path, pct, caught, rows);
}

static bool same_machine(const rundir *a, const rundir *b)
{
    const char *keys[] = {"host", "device_name", "pci_bus_id"};
    for (int i = 0; i < 3; i++)
        if (strcmp(rec_str(a->env, keys[i]), rec_str(b->env, keys[i])))
            return false;
    return true;
}

static void cmp_bench(const regress_cfg *cfg, const rundir *ra, const rundir *rb, findings *f)
{
    const json_t *a = ra->rec[RUN_BENCH], *b = rb->rec[RUN_BENCH];
    bool judge = same_machine(ra, rb) || cfg->timings_across_hosts;
    bool ra_rounds = json_is_integer(json_object_get(json_object_get(a, "plan"), "rounds")),
         rb_rounds = json_is_integer(json_object_get(json_object_get(b, "plan"), "rounds"));
    if (ra_rounds != rb_rounds)
        findings_note(f, "the two benches took their samples differently (%s run: interleaved rounds; the other: "
                         "each row back to back): a timing change between them may be the method's",
                      ra_rounds ? "the old" : "the new");
    double canary = judge ? canary_ratio(a, b, f) : 1;
    run_to_run(cfg, a, b, canary, &f->st);
    if (!judge) {
        findings_note(f, "the runs are from different hosts or devices: timings are not judged "
                         "(--timings-across-hosts judges them)");
        return;
    }
    int fallback = 0;
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(a, "rows"), i, r) {
        if (rec_int(r, "repeat") != 1 || !judged(r))
            continue;
        char name[200];
        row_name(r, name, sizeof name);
        if (!rec_bench_row(b, rec_str(r, "path"), rec_str(r, "kind"), rec_str(r, "candidate"), 1))
            findings_add(f, CHANGE, "timing", name, "timed in the old run only");
        else
            cmp_timing_row(cfg, a, b, r, canary, f, &fallback);
    }
    json_array_foreach(json_object_get(b, "rows"), i, r) {
        if (rec_int(r, "repeat") != 1 || !judged(r))
            continue;
        if (!rec_bench_row(a, rec_str(r, "path"), rec_str(r, "kind"), rec_str(r, "candidate"), 1)) {
            char name[200];
            row_name(r, name, sizeof name);
            findings_add(f, CHANGE, "timing", name, "timed in the new run only");
        }
    }
    if (fallback)
        findings_note(f, "%d row(s) without samples taken in rounds (a record older than the interleaved bench): "
                         "judged on the recorded spreads and the threshold instead", fallback);
    const json_t *slowed = json_object_get(a, "test_slowdown");
    if (json_array_size(slowed))
        findings_note(f, "the old run was slowed on purpose (HOSTACCESS_TEST_SLOWDOWN): not evidence");
    json_array_foreach(json_object_get(b, "test_slowdown"), i, r)
        slowdown_caught(a, b, rec_str(r, "path"), rec_int(r, "percent"), f);
}

void regress_analyse(const regress_cfg *c, const rundir *a, const rundir *b, findings *f)
{
    findings_clear(f);
    cmp_env(a->env, b->env, f);
    static const char *const what[RUN_NREC] = {"env", "probe", "memgetaccess probe", "bench", "pool check"};
    for (int i = 0; i < RUN_NREC; i++)
        if (a->rec[i] && !b->rec[i])
            findings_add(f, REGRESSION, "record", run_files[i], "the new run has no %s record", what[i]);
    if (a->rec[RUN_PROBE] && b->rec[RUN_PROBE]) {
        cmp_kinds(a->rec[RUN_PROBE], b->rec[RUN_PROBE], f);
        cmp_candidates(a->rec[RUN_PROBE], b->rec[RUN_PROBE], f);
    }
    if (a->rec[RUN_BENCH] && b->rec[RUN_BENCH])
        cmp_bench(c, a, b, f);
    if (a->rec[RUN_POOL] && b->rec[RUN_POOL])
        cmp_pool(a->rec[RUN_POOL], b->rec[RUN_POOL], f);
}
