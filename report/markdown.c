/* The PR-ready Markdown: one section per record, and a line that says so
 * where a record is missing. */
#include "markdown.h"

#include <math.h>
#include <string.h>

#include "statusname.h"
#include "records.h"
#include "text.h"

/* a / b as "N.N×", or "n/a" where either is not a positive figure: a
 * record of zeros must not print "-nan×". Static buffers, two in flight. */
static const char *times(double a, double b)
{
    static char buf[2][32];
    static int k;
    char *o = buf[k++ & 1];
    if (isfinite(a) && isfinite(b) && a > 0 && b > 0)
        snprintf(o, 32, "%.1f×", a / b);
    else
        snprintf(o, 32, "n/a");
    return o;
}

static void md_env(FILE *f, const json_t *e)
{
    const json_t *lb = json_object_get(e, "large_bar");
    int rt = rec_tri(lb, "runtime"), sy = rec_tri(lb, "sysfs");
    fprintf(f, "## Environment\n\n| | |\n|---|---|\n");
    fprintf(f, "| device | %s (%s), device %d, %.1f GiB |\n", md_text(rec_str(e, "device_name")),
            md_text(rec_str(e, "arch")), (int)rec_int(e, "device"), rec_num(e, "vram_bytes") / (1 << 30));
    fprintf(f, "| backend | %s%s |\n", md_text(rec_str(e, "backend")),
            json_is_true(json_object_get(e, "simulated")) ? " (SIMULATED)" : "");
    fprintf(f, "| versions | header %s · runtime %s · driver %s |\n", md_text(rec_str(e, "header_version")),
            md_text(rec_str(e, "runtime_version")), md_text(rec_str(e, "driver_version")));
    if (json_is_string(json_object_get(e, "kernel_driver")))
        fprintf(f, "| kernel driver | %s |\n", md_text(rec_str(e, "kernel_driver")));
    if (json_is_string(json_object_get(e, "version_warning")))
        fprintf(f, "| **warning** | %s |\n", md_text(rec_str(e, "version_warning")));
    fprintf(f, "| large BAR | runtime: %s (%s) · sysfs: %s (%s) |\n",
            rt < 0 ? "not reported" : rt ? "yes" : "no", md_text(rec_str(lb, "runtime_note")),
            sy < 0 ? "unknown" : sy ? "yes" : "no", md_text(rec_str(lb, "sysfs_note")));
    const json_t *attrs = json_object_get(e, "device_attributes");
    if (json_array_size(attrs)) {
        fprintf(f, "| device attributes |");
        size_t i;
        const json_t *a;
        json_array_foreach(attrs, i, a) {
            const json_t *v = json_object_get(a, "value");
            if (json_is_integer(v))
                fprintf(f, " %s=%lld", md_text(rec_str(a, "name")), (long long)json_integer_value(v));
            else
                fprintf(f, " %s=?", md_text(rec_str(a, "name")));
        }
        fprintf(f, " |\n");
    }
    fprintf(f, "| host | %s · %s · %s |\n", md_text(rec_str(e, "host")), md_text(rec_str(e, "kernel")), md_text(rec_str(e, "cpu")));
    fprintf(f, "| run | %s · tool %s |\n\n", md_text(rec_str(e, "time_utc")), md_text(rec_str(e, "tool_version")));
}

/* A cell: the status name without the runtime's long prefix, then the class. */
static void cell(FILE *f, const json_t *res)
{
    const char *st = ha_short_status(rec_str(res, "status_name")), *out = rec_str(res, "outcome");
    if (!strcmp(out, "ok"))
        fprintf(f, " %s |", md_text(rec_str(res, "class")));
    else if (!strcmp(out, "error"))
        fprintf(f, " ✘ %s |", md_text(st));
    else if (!strcmp(out, "not_written"))
        fprintf(f, " ok, not written |");
    else if (!strcmp(out, "skipped") && *st && strcmp(st, "skipped"))
        fprintf(f, " – %s |", md_text(st)); /* why: not GPU memory, a header/runtime skew, ... */
    else
        fprintf(f, " %s |", md_text(out));
}

static void md_probe(FILE *f, const json_t *p)
{
    const json_t *kinds = json_object_get(p, "kinds"), *cands = json_object_get(p, "candidates");
    fprintf(f, "## Can the host read it? (probe_discriminator)\n\n");
    fprintf(f, "Ground truth: a host read of a pattern the device wrote, with SIGSEGV/SIGBUS "
               "contained (isolation: %s). ✔ readable, ✘ not. A cell is the query's answer: "
               "✘ and the status for an error, else the value's class. **FP** says readable of "
               "memory that faults (the crash); **FN** says unreadable of memory that reads.\n\n",
            md_text(rec_str(p, "isolation")));
    fprintf(f, "| candidate |");
    size_t i, k;
    const json_t *kd, *c;
    json_array_foreach(kinds, i, kd) if (json_is_true(json_object_get(kd, "created")))
        fprintf(f, " %s |", md_text(rec_str(kd, "name")));
    fprintf(f, " Distinguishes? |\n|---|");
    json_array_foreach(kinds, i, kd) if (json_is_true(json_object_get(kd, "created"))) fprintf(f, "---|");
    fprintf(f, "---|\n| **host read (truth)** |");
    json_array_foreach(kinds, i, kd) {
        if (!json_is_true(json_object_get(kd, "created")))
            continue;
        int r = rec_tri(kd, "readable");
        fprintf(f, " %s |", r < 0 ? "?" : r ? "✔" : "✘");
    }
    fprintf(f, " |\n");
    json_array_foreach(cands, i, c) {
        fprintf(f, "| `%s` |", md_text(rec_str(c, "name")));
        json_array_foreach(kinds, k, kd) {
            if (!json_is_true(json_object_get(kd, "created")))
                continue;
            const json_t *res = NULL, *r;
            size_t m;
            json_array_foreach(json_object_get(c, "results"), m, r)
                if (!strcmp(rec_str(r, "kind"), rec_str(kd, "name"))) res = r;
            if (res)
                cell(f, res);
            else
                fprintf(f, " – |");
        }
        const char *v = rec_str(c, "verdict");
        if (!strcmp(v, "distinguishes")) {
            fprintf(f, " ✔ yes |\n");
        } else if (!strcmp(v, "fails")) {
            fprintf(f, " ✘ no:");
            const json_t *w;
            size_t m;
            json_array_foreach(json_object_get(c, "wrong_on"), m, w)
                fprintf(f, " %s %s", strcmp(rec_str(w, "error"), "false_positive") ? "FN" : "FP",
                        md_text(rec_str(w, "kind")));
            fprintf(f, " |\n");
        } else {
            fprintf(f, " – %s |\n", md_text(rec_str(c, "why")));
        }
    }
    fprintf(f, "\nDistinguishing here:");
    int n = 0;
    json_array_foreach(cands, i, c) if (json_is_true(json_object_get(c, "distinguishes")))
        fprintf(f, "%s `%s`", n++ ? "," : "", md_text(rec_str(c, "name")));
    fprintf(f, "%s. Probe wall time %.3f s.\n\n", n ? "" : " none", rec_num(p, "wall_time_s"));
    json_array_foreach(kinds, i, kd) {
        if (!json_is_true(json_object_get(kd, "created")))
            fprintf(f, "- kind `%s` could not be made here: %s\n", md_text(rec_str(kd, "name")), md_text(rec_str(kd, "detail")));
        if (*rec_str(kd, "truth_note"))
            fprintf(f, "- kind `%s`: %s\n", md_text(rec_str(kd, "name")), md_text(rec_str(kd, "truth_note")));
        if (json_is_true(json_object_get(kd, "control")))
            fprintf(f, "- kind `%s` is a **control, not GPU memory** (%s). Large-BAR VRAM that amdgpu maps "
                       "for the CPU (`hipMalloc` on MI300X) is the same kind of mapping (VM_IO | VM_PFNMAP), so "
                       "an OS-level candidate that is wrong on this column would be wrong on the memory the "
                       "fast path reads; the runtime's own queries are not asked of it and not judged on it.\n",
                    md_text(rec_str(kd, "name")), md_text(rec_str(kd, "detail")));
    }
    fprintf(f, "\n");
}

static void md_mga(FILE *f, const json_t *m)
{
    fprintf(f, "## MemGetAccess across an allocation's life (probe_memgetaccess)\n\n");
    fprintf(f, "| kind | stage | stage call | host read | device | host | host_numa | host_numa_current |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|\n");
    size_t i, s, a;
    const json_t *sh, *st, *ac;
    json_array_foreach(json_object_get(m, "shapes"), i, sh) {
        if (!json_is_true(json_object_get(sh, "created"))) {
            fprintf(f, "| %s | not created: %s | | | | | | |\n", md_text(rec_str(sh, "kind")), md_text(rec_str(sh, "detail")));
            continue;
        }
        json_array_foreach(json_object_get(sh, "stages"), s, st) {
            fprintf(f, "| %s | %s | %s | %s |", md_text(rec_str(sh, "kind")), md_text(rec_str(st, "stage")),
                    md_text(rec_str(st, "stage_status_name")), md_text(rec_str(st, "host_read")));
            json_array_foreach(json_object_get(st, "access"), a, ac) {
                const json_t *fl = json_object_get(ac, "flags");
                if (json_is_integer(fl))
                    fprintf(f, " %lld |", (long long)json_integer_value(fl));
                else
                    fprintf(f, " ✘ %s |", md_text(rec_str(ac, "status_name")));
            }
            fprintf(f, "\n");
        }
    }
    fprintf(f, "\nflags: 0 none, 1 read, 3 read-write.\n\n");
}

static const json_t *bench_row(const json_t *b, const char *path, const char *kind, const char *cand)
{
    return rec_bench_row(b, path, kind, cand, 1);
}

/* "median ns | repeat 2 | spread ns" cells for a row. */
static void figures(FILE *f, const json_t *b, const json_t *r)
{
    const json_t *r2 = rec_bench_row(b, rec_str(r, "path"), rec_str(r, "kind"),
                                     *rec_str(r, "candidate") ? rec_str(r, "candidate") : NULL, 2);
    fprintf(f, " %.1f |", rec_num(r, "median_ns"));
    if (r2)
        fprintf(f, " %.1f |", rec_num(r2, "median_ns"));
    else
        fprintf(f, " – |");
    fprintf(f, " %.1f |", rec_num(r, "spread_ns"));
}

static void md_bench(FILE *f, const json_t *b, const char *plots)
{
    const json_t *h = json_object_get(b, "headline");
    fprintf(f, "## What the fast path buys (bench_discriminator)\n\n");
    if (!json_is_object(h)) {
        fprintf(f, "No headline: no kind on this platform is host-readable.\n\n");
        return;
    }
    const char *fk = rec_str(h, "fast_kind");
    const json_t *fast = bench_row(b, "fast", fk, NULL);
    double fm = rec_num(fast, "median_ns");
    fprintf(f, "Fast path on `%s`, slow path copying from `%s`. Medians of batched samples "
               "with the robust spread (1.4826 MAD)%s.\n\n", md_text(fk), md_text(rec_str(h, "slow_kind")),
            json_is_true(json_object_get(h, "fast_comparable_to_bar_read"))
                ? "; the fast path crosses the PCIe BAR"
                : "; **the fast path reads host DRAM through a warm cache: not comparable to a "
                  "read across the PCIe BAR** (the line-flushed figure is the closest)");
    fprintf(f, "| path | median ns | repeat 2 | spread ns | against the fast path |\n|---|---|---|---|---|\n");
    fprintf(f, "| host dereference, 4 B (fast path) |");
    figures(f, b, fast);
    fprintf(f, " 1× |\n");
    const json_t *cold = bench_row(b, "fast_cold", fk, NULL);
    if (cold) {
        fprintf(f, "| host dereference, line flushed first |");
        figures(f, b, cold);
        fprintf(f, " %s |\n", times(rec_num(cold, "median_ns"), fm));
    }
    size_t i;
    const json_t *hd;
    json_array_foreach(json_object_get(h, "hardened"), i, hd) {
        const char *q = rec_str(hd, "candidate");
        const json_t *hr = bench_row(b, "hardened", fk, q), *dr = bench_row(b, "disc", fk, q);
        if (hr) {
            fprintf(f, "| `%s` + dereference (hardened) |", md_text(q));
            figures(f, b, hr);
            fprintf(f, " +%.1f ns (+%.0f%%) |\n", rec_num(hd, "overhead_ns"), rec_num(hd, "overhead_pct"));
        }
        if (dr) {
            fprintf(f, "| `%s` alone |", md_text(q));
            figures(f, b, dr);
            fprintf(f, " |\n");
        }
    }
    const char *copies[] = {"copy_pageable", "copy_pinned", "copy_async"};
    for (int c = 0; c < 3; c++) {
        const json_t *r = bench_row(b, copies[c], rec_str(h, "slow_kind"), NULL);
        if (!r)
            continue;
        fprintf(f, "| %s (slow path) |", md_text(rec_str(r, "what")));
        figures(f, b, r);
        fprintf(f, " fast path **%s** faster", times(rec_num(r, "median_ns"), fm));
        if (cold)
            fprintf(f, " (%s against the line-flushed read)", times(rec_num(r, "median_ns"), rec_num(cold, "median_ns")));
        fprintf(f, " |\n");
    }
    const json_t *fr = bench_row(b, "fault_fallback", NULL, NULL);
    if (fr) {
        fprintf(f, "| contained fault, then the copy (`%s`) |", md_text(rec_str(fr, "kind")));
        figures(f, b, fr);
        fprintf(f, " |\n");
    }
    /* The canary when the record has one; records before it timed the empty loop. */
    const char *inst = rec_bench_row(b, "canary", "", NULL, 1) ? "canary" : "harness";
    const json_t *h1 = rec_bench_row(b, inst, "", NULL, 1), *h2 = rec_bench_row(b, inst, "", NULL, 2);
    if (h1 && h2 && rec_num(h1, "median_ns") > 0)
        fprintf(f, "\nThe two repeats %s; the %s, which does no memory work, moved "
                   "%.1f%% between them: differences of that order are the machine's, not the paths'.\n",
                json_is_integer(json_object_get(json_object_get(b, "plan"), "rounds"))
                    ? "took turns in interleaved rounds (odd and even rounds)"
                    : "ran back to back",
                strcmp(inst, "canary") ? "empty loop" : "canary (a chain of multiply-adds)",
                100 * fabs(rec_num(h2, "median_ns") - rec_num(h1, "median_ns")) / rec_num(h1, "median_ns"));
    const json_t *sw = json_object_get(b, "sweep");
    if (json_is_object(sw)) {
        const json_t *x = json_object_get(sw, "crossover_bytes");
        fprintf(f, "\nSize sweep on `%s`: %s.\n", md_text(rec_str(sw, "kind")),
                json_is_integer(x) ? "the copy catches up with the host read at the crossover below"
                                   : "the host read stays faster than the copy up to the largest size");
        if (json_is_integer(x))
            fprintf(f, "Crossover: %lld bytes.\n", (long long)json_integer_value(x));
    }
    fprintf(f, "\nClock: one read %.1f ns; bench wall time %.1f s.\n\n",
            rec_num(json_object_get(b, "clock"), "read_ns"), rec_num(b, "wall_time_s"));
    if (plots)
        fprintf(f, "![path latencies](report_paths.png) ([svg](report_paths.svg))%s\n\n",
                json_is_object(sw) ? "\n![size sweep](report_sweep.png) ([svg](report_sweep.svg))" : "");
}

static void md_pool(FILE *f, const json_t *p, const char *plots)
{
    fprintf(f, "## Sleep-mode pool with the host-access fix (pool_check)\n\n");
    const json_t *s = json_object_get(p, "summary");
    fprintf(f, "%lld passed, %lld failed, %lld unsupported on this platform.\n\n",
            rec_int(s, "passed"), rec_int(s, "failed"),
            rec_int(s, "unsupported"));
    fprintf(f, "| check | mode | result | detail |\n|---|---|---|---|\n");
    size_t i;
    const json_t *c;
    json_array_foreach(json_object_get(p, "checks"), i, c) {
        const char *st = rec_str(c, "status");
        fprintf(f, "| %s | %s | %s | %s |\n", md_text(rec_str(c, "name")), md_text(rec_str(c, "mode")),
                !strcmp(st, "PASS") ? "✔ PASS" : !strcmp(st, "FAIL") ? "✘ **FAIL**" : "– unsupported",
                md_text(rec_str(c, "detail")));
    }
    fprintf(f, "\n| pool | mode | sleep GB/s | wake GB/s | ceiling D2H | ceiling H2D | sleep/ceiling | wake/ceiling | wake right after sleep/ceiling |\n");
    fprintf(f, "|---|---|---|---|---|---|---|---|---|\n");
    json_array_foreach(json_object_get(p, "throughput"), i, c) {
        double gib = rec_num(c, "pool_bytes") / (1 << 30);
        if (!json_is_true(json_object_get(c, "measured"))) {
            fprintf(f, "| %.2f GiB | not measured: %s | | | | | | | |\n", gib, md_text(rec_str(c, "note")));
            continue;
        }
        /* Records before the pause was introduced woke right after sleep. */
        const json_t *now = json_object_get(c, "wake_right_after_sleep_fraction_of_ceiling");
        char right_after[32] = "(the wake column)";
        if (json_is_number(now))
            snprintf(right_after, sizeof right_after, "%.1f%%", 100 * json_number_value(now));
        fprintf(f, "| %.2f GiB | %s | %.2f | %.2f | %.2f | %.2f | %.1f%% | %.1f%% | %s |\n", gib,
                md_text(rec_str(c, "mode")), rec_num(c, "sleep_gbs"), rec_num(c, "wake_gbs"),
                rec_num(c, "ceiling_d2h_gbs"), rec_num(c, "ceiling_h2d_gbs"),
                100 * rec_num(c, "sleep_fraction_of_ceiling"), 100 * rec_num(c, "wake_fraction_of_ceiling"),
                right_after);
    }
    double pause_ms = -1;
    json_array_foreach(json_object_get(p, "throughput"), i, c)
        if (json_is_number(json_object_get(c, "wake_pause_ms")))
            pause_ms = rec_num(c, "wake_pause_ms");
    if (pause_ms >= 0)
        fprintf(f, "\nWake is timed %.0f ms after its sleep, as a pool wakes after other work: the driver "
                   "clears the memory a release gives back after the release returns, and a wake right "
                   "after sleep waits for that (the last column).\n", pause_ms);
    json_array_foreach(json_object_get(p, "throughput"), i, c)
        if (*rec_str(c, "note") && json_is_true(json_object_get(c, "measured")))
            fprintf(f, "\nNote (%.2f GiB): %s.\n", rec_num(c, "pool_bytes") / (1 << 30), md_text(rec_str(c, "note")));
    if (plots)
        fprintf(f, "\n![sleep and wake against the ceiling](report_pool.png) ([svg](report_pool.svg))\n");
    fprintf(f, "\n");
}

static void md_torch(FILE *f, const char *dir)
{
    char p[700];
    snprintf(p, sizeof p, "%s/torch_pool.txt", dir);
    FILE *t = fopen(p, "r");
    if (!t) {
        fprintf(f, "## PyTorch through the pool\n\nNot run here (no torch or no GPU): no torch_pool.txt.\n\n");
        return;
    }
    fprintf(f, "## PyTorch through the pool\n\n`tests/torch/test_pool_torch.py` per pool configuration "
               "([torch_pool.txt](torch_pool.txt)):\n\n```\n");
    char line[1024];
    while (fgets(line, sizeof line, t))
        if (!strncmp(line, "## ", 3) || strstr(line, "passed") || strstr(line, "skipped") ||
            strstr(line, "host read") || strstr(line, "rose by") || strstr(line, "FAILED") ||
            strstr(line, "pool:"))
            fputs(line, f);
    fclose(t);
    fprintf(f, "```\n\n");
}

void md_write(FILE *f, const rundir *r, const char *plots)
{
    bool sim = rundir_simulated(r);
    const json_t *e = r->env;
    const json_t *slowed = r->rec[RUN_BENCH] ? json_object_get(r->rec[RUN_BENCH], "test_slowdown") : NULL;
    fprintf(f, "# %s%s%shostaccess report: %s, %s, %s\n\n", r->complete ? "" : "INCOMPLETE RUN: ",
            sim ? "SIMULATED, not evidence: " : "", json_array_size(slowed) ? "SLOWED ON PURPOSE, not evidence: " : "",
            md_text(rec_str(e, "device_name")), md_text(rec_str(e, "backend")), md_text(rec_str(e, "time_utc")));
    size_t si;
    const json_t *sx;
    json_array_foreach(slowed, si, sx)
        fprintf(f, "> **Test slowdown (HOSTACCESS_TEST_SLOWDOWN):** every `%s` batch was stretched by %lld%% "
                   "of its own time, to show that compare flags a known change. Its figures are not the "
                   "machine's.\n\n", md_text(rec_str(sx, "path")), rec_int(sx, "percent"));
    if (!r->complete)
        fprintf(f, "> **This run is not whole: %s.** What follows is what its records hold; "
                   "nothing here stands for a finished run.\n\n", md_text(r->incomplete));
    if (json_is_string(json_object_get(e, "layout_skew")))
        fprintf(f, "> **Header/runtime skew:** %s.\n\n", md_text(rec_str(e, "layout_skew")));
    if (json_is_string(json_object_get(e, "sim_profile")))
        fprintf(f, "> This run used the hip backend over the **stand-in ROCm runtime, profile %s**: the "
                   "answers ROCm's sources say that release gives, on a host-only model of a large-BAR "
                   "platform. It tests the code that runs on AMD GPUs; none of it was measured on one.\n\n",
                md_text(rec_str(e, "sim_profile")));
    else if (sim)
        fprintf(f, "> This run used the simulation backend: a host-only model of a large-BAR "
                   "platform. It tests the harness; none of it describes a GPU.\n\n");
    md_env(f, e);
    static const char *const missing[RUN_NREC] = {
        NULL, "No probe_discriminator record in this run: the truth table is missing.",
        "No probe_memgetaccess record in this run: the MemGetAccess matrix is missing.",
        "No bench_discriminator record in this run: no timings.",
        "No pool_check record in this run: no pool checks or throughput."};
    for (int i = RUN_PROBE; i < RUN_NREC; i++) {
        if (!r->rec[i]) {
            fprintf(f, "## %s\n\n%s\n\n", run_tools[i], missing[i]);
            continue;
        }
        switch (i) {
        case RUN_PROBE: md_probe(f, r->rec[i]); break;
        case RUN_MGA: md_mga(f, r->rec[i]); break;
        case RUN_BENCH: md_bench(f, r->rec[i], plots); break;
        case RUN_POOL: md_pool(f, r->rec[i], plots); break;
        }
    }
    md_torch(f, r->path);
    if (!plots)
        fprintf(f, "Plots: not made (gnuplot is not installed here, or --no-plots).\n\n");
    fprintf(f, "---\nMade by `report/report` from the records in this folder; exports: "
               "[junit.xml](junit.xml), [benchmark.json](benchmark.json), "
               "[benchmark_bigger.json](benchmark_bigger.json), [results.csv](results.csv).\n");
}
