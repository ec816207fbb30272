#include "trendpage.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cleanup.h"
#include "gnuplot.h"
#include "records.h"
#include "text.h"

void trend_summarise(trend_run *u, const rundir *r, const char *name)
{
    memset(u, 0, sizeof *u);
    snprintf(u->dir, sizeof u->dir, "%.255s", name);
    u->sim = rundir_simulated(r);
    rundir_group(r, u->group, sizeof u->group);
    snprintf(u->version, sizeof u->version, "%s", rec_str(r->env, "runtime_version"));
    snprintf(u->time, sizeof u->time, "%s", rec_str(r->env, "time_utc"));
    u->fast = u->cold = u->slow = u->hardened = u->sleep = u->wake = NAN;
    u->ndist = u->ncand = -1;
    const json_t *b = r->rec[RUN_BENCH], *h = b ? json_object_get(b, "headline") : NULL;
    if (json_is_object(h)) {
        u->fast = rec_num(h, "fast_median_ns");
        u->slow = rec_num(h, "slow_median_ns");
        const json_t *c = rec_bench_row(b, "fast_cold", rec_str(h, "fast_kind"), NULL, 1);
        u->cold = c ? rec_num(c, "median_ns") : NAN;
        size_t i;
        const json_t *x;
        json_array_foreach(json_object_get(h, "hardened"), i, x) {
            double o = rec_num(x, "hardened_median_ns");
            if (isnan(u->hardened) || o < u->hardened)
                u->hardened = o;
        }
    }
    if (r->rec[RUN_PROBE]) {
        const json_t *c = json_object_get(r->rec[RUN_PROBE], "candidates");
        size_t i;
        const json_t *x;
        u->ncand = (int)json_array_size(c);
        u->ndist = 0;
        json_array_foreach(c, i, x) u->ndist += json_is_true(json_object_get(x, "distinguishes"));
    }
    if (r->rec[RUN_POOL]) {
        size_t i;
        const json_t *x;
        json_array_foreach(json_object_get(r->rec[RUN_POOL], "throughput"), i, x) {
            if (json_is_true(json_object_get(x, "measured")) && isnan(u->sleep)) {
                u->sleep = 100 * rec_num(x, "sleep_fraction_of_ceiling");
                u->wake = 100 * rec_num(x, "wake_fraction_of_ceiling");
            }
        }
    }
}

static void num(FILE *f, double v) { isnan(v) ? fputs(" NaN", f) : fprintf(f, " %.6g", v); }

/* Registers a file of the page for removal on a signal or a failure. */
void trend_track(const char *out, const char *name, char *p, size_t n)
{
    snprintf(p, n, "%.700s/%s", out, name);
    ha_cleanup_add(p);
}

/* One group's three plots, from its data file. Versions are record
 * text: they go into the data file as quoted fields, never into the script. */
int trend_write_group(const char *out, int g, const trend_run *runs, size_t from, size_t to, char *script,
                      size_t n)
{
    char p[800], name[64];
    snprintf(name, sizeof name, "group%d.dat", g);
    trend_track(out, name, p, sizeof p);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    for (size_t i = from; i < to; i++) {
        fprintf(f, "%zu ", i - from);
        gp_data_str(f, runs[i].version);
        num(f, runs[i].fast);
        num(f, runs[i].cold);
        num(f, runs[i].slow);
        num(f, runs[i].hardened);
        num(f, runs[i].ndist < 0 ? NAN : runs[i].ndist);
        num(f, runs[i].sleep);
        num(f, runs[i].wake);
        fputc('\n', f);
    }
    if (fclose(f) != 0)
        return -1;
    const char *kinds[] = {"latency", "verdicts", "pool"};
    for (int k = 0; k < 3; k++) {
        snprintf(name, sizeof name, "group%d_%s.svg", g, kinds[k]);
        trend_track(out, name, p, sizeof p);
    }
    snprintf(name, sizeof name, "group%d.gp", g);
    trend_track(out, name, p, sizeof p);
    FILE *gp = fopen(p, "w");
    if (!gp)
        return -1;
    fprintf(gp,
            "set terminal svg size 760,360 noenhanced font ',10'\nset grid\nset key outside right\n"
            "set xtics rotate by -30 left\nset offsets 0.3, 0.3, 0, 0\nd = 'group%d.dat'\n"
            "set output 'group%d_latency.svg'\nset logscale y\nset ylabel 'ns (median)'\n"
            "set title 'read paths by runtime version'\n"
            "plot d using 1:3:xtic(2) with linespoints title 'fast path', "
            "d using 1:4 with linespoints title 'line-flushed read', "
            "d using 1:6 with linespoints title 'best hardened', "
            "d using 1:5 with linespoints title 'slow path (copy)'\nunset logscale y\n"
            "set output 'group%d_verdicts.svg'\nset ylabel 'candidates'\nset yrange [0:*]\n"
            "set title 'candidates that distinguish'\n"
            "plot d using 1:7:xtic(2) with linespoints title 'distinguishing'\n"
            "set output 'group%d_pool.svg'\nset ylabel '%% of the pinned-copy ceiling'\n"
            "set yrange [0:*]\nset title 'pool sleep and wake throughput'\n"
            "plot d using 1:8:xtic(2) with linespoints title 'sleep', "
            "d using 1:9 with linespoints title 'wake', 90 dt 2 title 'goal'\n",
            g, g, g, g);
    if (fclose(gp) != 0)
        return -1;
    snprintf(script, n, "%s", name);
    return 0;
}

/* A fresh nonce per page: the one script the page carries runs, nothing
 * that a record could smuggle in does. */
static void nonce(char *buf, size_t n)
{
    unsigned char r[16] = {0};
    FILE *u = fopen("/dev/urandom", "rb");
    if (!u || fread(r, 1, sizeof r, u) != sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        memcpy(r, &ts, sizeof ts < sizeof r ? sizeof ts : sizeof r);
    }
    if (u)
        fclose(u);
    for (size_t i = 0; i < sizeof r && 2 * i + 2 < n; i++)
        snprintf(buf + 2 * i, 3, "%02x", r[i]);
}

/* The fleet view: hosts x devices against the fleet's majority. */
static void html_fleet(FILE *f, const fleet *fl)
{
    int hosts = 0;
    for (int i = 0; i < fl->nnodes; i++) {
        bool seen = false;
        for (int j = 0; j < i && !seen; j++)
            seen = fl->nodes[j].used && !strcmp(fl->nodes[j].host, fl->nodes[i].host);
        hosts += fl->nodes[i].used && !seen;
    }
    if (hosts < 2)
        return;
    fprintf(f, "<h2>Fleet: %d hosts</h2>\n<p>Each column's majority is the fleet's configuration; "
               "<span class=\"off\">marked</span> cells depart from it (%d in large-BAR evidence, readability, "
               "verdicts or pool checks).</p>\n<table><tr><th>host</th><th>device</th>", hosts, fleet_judged(fl));
    for (int c = 0; c < fl->ncols; c++) {
        fprintf(f, "<th>");
        html_text(f, fl->cols[c].name);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (int i = 0; i < fl->nnodes; i++) {
        if (!fl->nodes[i].used)
            continue;
        fprintf(f, "<tr><td>");
        html_text(f, fl->nodes[i].host);
        fprintf(f, "</td><td>%lld</td>", fl->nodes[i].device);
        for (int c = 0; c < fl->ncols; c++) {
            fprintf(f, "<td%s>", fleet_departs(fl, i, c) ? " class=\"off\"" : "");
            html_text(f, fl->nodes[i].cell[c]);
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

int trend_write_html(const char *out, const char *dir, const trend_run *runs, size_t nruns,
                     const trend_skip *skipped, size_t nskipped, const fleet *fl)
{
    char p[800], n[40];
    trend_track(out, "index.html", p, sizeof p);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    nonce(n, sizeof n);
    fprintf(f, "<!doctype html>\n<html><head><meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
               "img-src 'self'; style-src 'unsafe-inline'; script-src 'nonce-%s'\">\n"
               "<title>hostaccess trend</title>\n", n);
    fprintf(f, 
               "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
               "td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%%}img{display:block;margin:1em 0}"
               ".sim{color:#a00}.off{background:#fdd;font-weight:bold}</style></head>\n<body>\n<h1>hostaccess trend: ");
    html_text(f, dir);
    fprintf(f, "</h1>\n<p>%zu runs. Each group is one device and backend, its runs ordered by "
               "runtime version. Simulated groups are not evidence.</p>\n", nruns);
    if (fl)
        html_fleet(f, fl);
    if (nskipped) {
        fprintf(f, "<h2>Not whole, not plotted</h2>\n<ul>\n");
        for (size_t k = 0; k < nskipped; k++) {
            fprintf(f, "<li>");
            html_text(f, skipped[k].dir);
            fprintf(f, ": ");
            html_text(f, skipped[k].why);
            fprintf(f, "</li>\n");
        }
        fprintf(f, "</ul>\n");
    }
    int g = 0;
    for (size_t i = 0; i < nruns; g++) {
        size_t j = i;
        while (j < nruns && !strcmp(runs[j].group, runs[i].group))
            j++;
        fprintf(f, "<h2%s>", runs[i].sim ? " class=\"sim\"" : "");
        html_text(f, runs[i].group);
        fprintf(f, "</h2>\n<table><tr><th>runtime</th><th>run</th><th>time</th><th>fast ns</th>"
                   "<th>slow ns</th><th>slow/fast</th><th>distinguishing</th><th>sleep %%</th><th>wake %%</th></tr>\n");
        for (size_t k = i; k < j; k++) {
            const trend_run *u = &runs[k];
            fprintf(f, "<tr><td>");
            html_text(f, u->version);
            fprintf(f, "</td><td>");
            html_text(f, u->dir);
            fprintf(f, "</td><td>");
            html_text(f, u->time);
            fprintf(f, "</td>");
            double cells[] = {u->fast, u->slow, u->slow / u->fast};
            for (int c = 0; c < 3; c++)
                isnan(cells[c]) ? fprintf(f, "<td>–</td>") : fprintf(f, "<td>%.4g</td>", cells[c]);
            u->ndist < 0 ? fprintf(f, "<td>–</td>") : fprintf(f, "<td>%d of %d</td>", u->ndist, u->ncand);
            isnan(u->sleep) ? fprintf(f, "<td>–</td><td>–</td>")
                            : fprintf(f, "<td>%.1f</td><td>%.1f</td>", u->sleep, u->wake);
            fprintf(f, "</tr>\n");
        }
        fprintf(f, "</table>\n");
        const char *kinds[] = {"latency", "verdicts", "pool"};
        for (int k = 0; k < 3; k++)
            fprintf(f, "<img class=\"plot\" src=\"group%d_%s.svg\" alt=\"%s\">\n", g, kinds[k], kinds[k]);
        i = j;
    }
    /* A headless browser (tests/report) reads these attributes to know
     * every plot rendered. */
    fprintf(f, "<script nonce=\"%s\">\nwindow.addEventListener('load', function () {\n"
               "  var imgs = document.querySelectorAll('img.plot'), ok = 0;\n"
               "  imgs.forEach(function (i) { if (i.complete && i.naturalWidth > 0) ok++; });\n"
               "  document.body.setAttribute('data-plots-total', imgs.length);\n"
               "  document.body.setAttribute('data-plots-rendered', ok);\n});\n</script>\n"
               "</body></html>\n", n);
    return fclose(f) == 0 ? g : -1;
}

