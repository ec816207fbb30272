#include "itest.h"

#include <dirent.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

char it_out[1 << 16];

const char *it_tail(size_t n)
{
    size_t l = strlen(it_out);
    return l > n ? it_out + l - n : it_out;
}

int it_sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    /* a command cut to fit would run something else: say so instead */
    if (len < 0 || (size_t)len + sizeof " 2>&1" > sizeof cmd) {
        snprintf(it_out, sizeof it_out, "it_sh: the command is %d bytes, more than %zu: make it shorter", len,
                 sizeof cmd - sizeof " 2>&1");
        return 127;
    }
    strcat(cmd, " 2>&1");
    FILE *p = popen(cmd, "r");
    if (!p)
        return 128;
    size_t n = fread(it_out, 1, sizeof it_out - 1, p);
    it_out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int it_tmpdir(char *dir, size_t n, const char *name)
{
    snprintf(dir, n, "/tmp/ha-%s-XXXXXX", name);
    return mkdtemp(dir) ? 0 : -1;
}

const char *it_build(void)
{
    const char *b = getenv("BUILD");
    return b ? b : "build";
}

int it_backend_compiled(const char *name)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "%s/probe_discriminator --list-backends", it_build());
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char line[1024];
    int compiled = 0;
    while (fgets(line, sizeof line, p)) {
        char be[16], state[16];
        if (sscanf(line, "%15s %15s", be, state) == 2 && !strcmp(be, name) && !strcmp(state, "compiled"))
            compiled = 1;
    }
    pclose(p);
    return compiled;
}

int it_loadable(const char *lib)
{
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (h)
        dlclose(h);
    return h != NULL;
}

int it_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

int it_seal(const char *dir)
{
    /* an A/B session's side B too, where its records are there */
    int rc = it_sh("rm -f \"%s\"/MANIFEST.json && b= && if [ -e \"%s\"/b_env.json ]; then "
                   "b='b_env:0 b_probe_discriminator:0 b_probe_memgetaccess:0 b_pool_check:0'; fi && "
                   "%s/run_manifest \"%s\" --backend sim --device 0 env:0 probe_discriminator:0 probe_memgetaccess:0 "
                   "bench_discriminator:0 pool_check:0 $b", dir, dir, it_build(), dir);
    /* run_manifest says nothing when it works: any output is a fault in it */
    if (rc == 0 && it_out[0]) {
        fprintf(stderr, "run_manifest printed: %s\n", it_out);
        return -1;
    }
    return rc;
}

static bool path_starts_with(json_t *row, const char *prefix)
{
    return !strncmp(json_string_value(json_object_get(row, "path")), prefix, strlen(prefix));
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* The median of count numbers of a JSON array, from index from on. */
static double median_of(const json_t *numbers, size_t from, size_t count)
{
    double *v = malloc((count ? count : 1) * sizeof *v), mid;
    if (!v || !count) {
        free(v);
        return NAN;
    }
    for (size_t k = 0; k < count; k++)
        v[k] = json_number_value(json_array_get(numbers, from + k));
    qsort(v, count, sizeof *v, by_value);
    mid = count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
    free(v);
    return mid;
}

/* A row's median: the one a schema-3 record carries, or (from schema 4,
 * which leaves figures to the reader) the median of its samples. */
static double row_median(const json_t *r)
{
    const json_t *m = json_object_get(r, "median_ns"), *samples = json_object_get(r, "samples_ns");
    size_t n = json_array_size(samples);
    return m || !n ? json_number_value(m) : median_of(samples, 0, n);
}

void it_scale_row(json_t *r, double factor)
{
    size_t k, p;
    json_t *x, *proc;
    /* set anew: a whole number in a record is a JSON integer, which json_real_set refuses */
    if (json_object_get(r, "median_ns"))
        json_object_set_new(r, "median_ns", json_real(json_number_value(json_object_get(r, "median_ns")) * factor));
    json_t *samples = json_object_get(r, "samples_ns");
    json_array_foreach(samples, k, x)
        json_array_set_new(samples, k, json_real(json_number_value(x) * factor));
    json_array_foreach(json_object_get(r, "by_process"), p, proc) {
        json_t *blocks = json_object_get(proc, "block_medians_ns");
        json_array_foreach(blocks, k, x)
            json_array_set_new(blocks, k, json_real(json_number_value(x) * factor));
    }
}

static void row_as_schema_3(json_t *r)
{
    json_t *samples = json_object_get(r, "samples_ns"), *x;
    size_t n = json_array_size(samples), k, per = (size_t)json_integer_value(json_object_get(r, "block_samples"));
    double *v = malloc((n ? n : 1) * sizeof *v), sum = 0, med = row_median(r);
    if (!v)
        abort(); /* a test helper: no run to make without memory */
    json_t *blocks = json_array(), *state = json_object_get(r, "block_state_ns");
    for (size_t b = 0; per && (b + 1) * per <= n && b < json_array_size(state); b++) {
        if (json_number_value(json_array_get(state, b)) < 0)
            continue;
        json_array_append_new(blocks, json_real(median_of(samples, b * per, per)));
    }
    json_array_foreach(samples, k, x)
        sum += v[k] = json_number_value(x);
    qsort(v, n, sizeof *v, by_value);
    double overhead = json_number_value(json_object_get(r, "overhead_ns"));
    json_object_set_new(r, "n", json_integer((json_int_t)n));
    json_object_set_new(r, "min_ns", json_real(v[0]));
    json_object_set_new(r, "median_ns", json_real(med));
    json_object_set_new(r, "p90_ns", json_real(v[(size_t)(0.9 * (double)(n - 1))]));
    json_object_set_new(r, "p99_ns", json_real(v[(size_t)(0.99 * (double)(n - 1))]));
    json_object_set_new(r, "max_ns", json_real(v[n - 1]));
    json_object_set_new(r, "mean_ns", json_real(sum / (double)n));
    json_object_set_new(r, "mad_ns", json_real(0));
    json_object_set_new(r, "spread_ns", json_real(0));
    json_object_set_new(r, "outliers", json_integer(0));
    json_object_set_new(r, "slow_first_batch", json_false());
    json_object_set_new(r, "overhead_pct", json_real(med > 0 ? 100 * overhead / med : 0));
    if (json_array_size(blocks))
        json_array_insert_new(json_object_get(r, "by_process"), 0,
                              json_pack("{s:i, s:o}", "process", 1, "block_medians_ns", blocks));
    else
        json_decref(blocks);
    free(v);
}

void it_as_schema_3(json_t *bench)
{
    size_t i;
    json_t *r, *h = json_object_get(bench, "headline");
    json_object_set_new(bench, "schema_version", json_integer(3));
    json_array_foreach(json_object_get(bench, "rows"), i, r)
        if (json_is_false(json_object_get(r, "skipped")) && json_array_size(json_object_get(r, "samples_ns")))
            row_as_schema_3(r);
    if (json_is_object(h)) {
        const char *unknown[] = {"fast_median_ns", "slow_median_ns", "slow_over_fast"};
        for (int k = 0; k < 3; k++)
            json_object_set_new(h, unknown[k], json_null());
        json_object_set_new(h, "fast_comparable_to_bar_read", json_false());
        json_object_set_new(h, "hardened", json_array());
    }
}

void it_slow_rows(json_t *bench, const char *prefix, double factor)
{
    size_t i;
    json_t *r;
    json_array_foreach(json_object_get(bench, "rows"), i, r)
        if (path_starts_with(r, prefix))
            it_scale_row(r, factor);
}

void it_steady_rows(json_t *bench, const char *prefix)
{
    size_t i, k;
    json_t *r, *x;
    json_array_foreach(json_object_get(bench, "rows"), i, r) {
        if (!path_starts_with(r, prefix))
            continue;
        double m = row_median(r);
        json_t *samples = json_object_get(r, "samples_ns");
        json_array_foreach(samples, k, x)
            json_array_set_new(samples, k, json_real(m * (1 + 0.005 * (double)(k % 5) - 0.01)));
        size_t p;
        json_t *proc;
        json_array_foreach(json_object_get(r, "by_process"), p, proc) {
            json_t *blocks = json_object_get(proc, "block_medians_ns");
            json_array_foreach(blocks, k, x)
                json_array_set_new(blocks, k, json_real(m * (1 + 0.005 * (double)((k + p) % 5) - 0.01)));
        }
    }
}

/* A process whose blocks all fell on a contended CPU kept none for a row:
 * on a quiet machine it would have kept one at the row's median. A busy
 * CI host takes that from whole processes, and compare then leaves them
 * out as contended throughout (docs/gate.md), so a test's run would lose
 * the processes its judgement needs. */
static void every_process_keeps(json_t *row, const json_t *procs, bool from_samples)
{
    json_t *by = json_object_get(row, "by_process");
    if (!json_array_size(by))
        return;
    double m = row_median(row);
    size_t p, k;
    const json_t *proc;
    json_t *x;
    json_array_foreach(procs, p, proc) {
        json_int_t index = json_integer_value(json_object_get(proc, "index"));
        /* from schema 4 process 1's blocks are its samples', all kept now */
        if (!json_is_true(json_object_get(proc, "ok")) || (from_samples && index == 1))
            continue;
        json_t *mine = NULL;
        json_array_foreach(by, k, x)
            if (json_integer_value(json_object_get(x, "process")) == index)
                mine = x;
        if (!mine) {
            mine = json_pack("{s:I, s:[]}", "process", index, "block_medians_ns");
            json_array_append_new(by, mine);
        }
        json_t *blocks = json_object_get(mine, "block_medians_ns");
        if (!json_array_size(blocks))
            json_array_append_new(blocks, json_real(m));
    }
}

void it_uncontended(json_t *bench)
{
    size_t i, k;
    json_t *r, *x;
    const json_t *procs = json_object_get(json_object_get(bench, "processes"), "list");
    bool from_samples = json_integer_value(json_object_get(bench, "schema_version")) >= 4;
    json_array_foreach(json_object_get(bench, "rows"), i, r) {
        json_t *st = json_object_get(r, "block_state_ns");
        json_array_foreach(st, k, x)
            json_array_set_new(st, k, json_real(fabs(json_number_value(x))));
        every_process_keeps(r, procs, from_samples);
    }
}

void it_steady_instruments(json_t *bench)
{
    it_steady_rows(bench, "canary");
    it_steady_rows(bench, "syscall");
    it_steady_rows(bench, "harness");
}

void it_as_real(json_t *bench)
{
    json_object_set_new(bench, "simulated", json_false());
    it_steady_instruments(bench);
}

void it_later(json_t *bench)
{
    json_t *w = json_object_get(bench, "timed_window");
    const char *k[] = {"from_unix_s", "until_unix_s"};
    for (int i = 0; i < 2; i++)
        json_object_set_new(w, k[i], json_real(json_number_value(json_object_get(w, k[i])) + 60));
}

int it_run_all(const char *key, const char *results, const char *args)
{
    const char *cache = getenv("HA_IT_RUN_CACHE");
    if (!cache || !*cache)
        return it_sh("BUILD=%s ./run_all.sh --backend sim --results %s %s", it_build(), results, args);
    /* the files report writes, made again from the records every time */
    static const char report_files[] = "REPORT.md PR_COMMENT.md junit.xml benchmark.json benchmark_bigger.json "
                                       "bencher.json results.csv report_*.png report_*.svg";
    if (it_sh("test -e '%s/%s/done'", cache, key) == 0)
        return it_sh("mkdir -p %s && cp -r '%s/%s/runs/.' %s/ && for d in %s/*/; do "
                     "allow=; grep -q '\"complete\": true' \"$d/MANIFEST.json\" || allow=--allow-incomplete; "
                     "%s/bin/report $allow \"$d\" >/dev/null || exit 1; done",
                     results, cache, key, results, results, it_build());
    int rc = it_sh("BUILD=%s ./run_all.sh --backend sim --results %s %s", it_build(), results, args);
    if (rc == 0)
        it_sh("mkdir -p '%s/%s/runs' && cp -r %s/. '%s/%s/runs/' && (cd '%s/%s/runs' && for d in */; do "
              "(cd \"$d\" && rm -f %s); done) && touch '%s/%s/done'",
              cache, key, results, cache, key, cache, key, report_files, cache, key);
    return rc;
}

int it_sim_run(const char *results, char *run, size_t n)
{
    if (it_run_all("quick", results, "--no-torch " IT_QUICK_RUN) != 0 || it_sh("ls -d %s/*-sim-dev0", results) != 0) {
        fprintf(stderr, "%s", it_out);
        return -1;
    }
    it_out[strcspn(it_out, "\n")] = 0;
    if (strlen(it_out) >= n)
        return -1;
    snprintf(run, n, "%s", it_out);
    return 0;
}

void it_set_every(json_t *j, const char *key, const char *value)
{
    const char *k;
    json_t *v;
    size_t i;
    if (json_is_object(j)) {
        json_object_foreach(j, k, v) {
            if (!strcmp(k, key) && json_is_string(v))
                json_object_set_new(j, k, json_string(value));
            else
                it_set_every(v, key, value);
        }
    } else if (json_is_array(j)) {
        json_array_foreach(j, i, v)
            it_set_every(v, key, value);
    }
}

int it_have_browser(void) { return it_sh("command -v chromium") == 0; }

int it_browser_dom(const char *page, const char *profile_dir, const char *pattern)
{
    /* --virtual-time-budget: the page's scripts and images finish before
     * the DOM is dumped; the rest keeps a headless run off the network */
    const char *cmd = "chromium --headless --no-sandbox --disable-gpu --disable-background-networking "
                      "--disable-component-update --disable-sync --no-first-run --user-data-dir='%s/chrome' "
                      "--virtual-time-budget=5000 --dump-dom 'file://%s' 2>/dev/null";
    if (!pattern)
        return it_sh(cmd, profile_dir, page);
    char full[1024];
    int n = snprintf(full, sizeof full, "%s | grep -o '%s'", cmd, pattern);
    if (n < 0 || (size_t)n >= sizeof full) {
        snprintf(it_out, sizeof it_out, "it_browser_dom: the pattern is too long");
        return 127;
    }
    return it_sh(full, profile_dir, page);
}

int it_plots_in_browser(const char *page_dir, const char *profile_dir)
{
    int rc = it_sh("d='%s' && f=\"$d/plots-in-browser.html\" && { printf '<!doctype html><html><body>\\n' && "
                   "for s in \"$d\"/*.svg; do sed '/^<?xml/d' \"$s\" || exit 1; done && printf '<script>\\n' && "
                   "cat tests/integration/xlabels.js && printf '</script></body></html>\\n'; } > \"$f\"",
                   page_dir);
    if (rc != 0)
        return rc;
    char page[1024];
    if ((size_t)snprintf(page, sizeof page, "%s/plots-in-browser.html", page_dir) >= sizeof page)
        return 127;
    return it_browser_dom(page, profile_dir, "data-[a-z-]*=\"[0-9]*\"");
}
