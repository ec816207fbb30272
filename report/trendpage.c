#include "trendpage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cleanup.h"
#include "gnuplot.h"
#include "goals.h"
#include "readfile.h"
#include "text.h"

#define PLOT_W 860
#define PLOT_H 380
static const char *const plots[] = {"latency", "verdicts", "pool"};
#define NPLOTS 3

static char *dup(const char *s) { return strdup(s ? s : ""); }

void trend_summarise(trend_run *u, const m_run *r, const char *name, const char *link)
{
    memset(u, 0, sizeof *u);
    u->dir = dup(name);
    u->link = dup(link);
    u->sim = r->d.simulated;
    u->group = dup(r->d.group);
    u->runtime = dup(r->env->runtime_version);
    u->tool = dup(r->env->tool_version);
    u->time = dup(r->env->time_utc);
    u->fast = u->cold = u->slow = u->hardened = u->sleep = u->wake = u->wake_now = NAN;
    u->ndist = u->ncand = -1;
    const m_bench *b = &r->bench;
    if (r->has[RUN_BENCH] && b->has_headline) {
        u->fast = b->fast_median;
        u->slow = b->slow_median;
        u->cold = r->d.cold ? r->d.cold->st.median : NAN;
        for (size_t i = 0; i < r->d.nhardened; i++)
            if (isnan(u->hardened) || r->d.hardened[i]->st.median < u->hardened)
                u->hardened = r->d.hardened[i]->st.median;
    }
    if (r->has[RUN_PROBE]) {
        u->ncand = (int)r->probe.ncands;
        u->ndist = (int)r->d.ndistinguishing;
    }
    for (size_t i = 0; r->has[RUN_POOL] && i < r->pool.ntputs; i++) {
        const m_tput *t = &r->pool.tputs[i];
        if (t->measured && isnan(u->sleep)) {
            u->sleep = 100 * t->sleep_frac;
            u->wake = 100 * t->wake_frac;
            u->wake_now = 100 * t->wake_now_frac;
        }
    }
}

void trend_run_free(trend_run *u)
{
    free(u->dir);
    free(u->link);
    free(u->group);
    free(u->runtime);
    free(u->tool);
    free(u->time);
    memset(u, 0, sizeof *u);
}

static int by_group_time(const void *x, const void *y)
{
    const trend_run *a = x, *b = y;
    int c = strcmp(a->group, b->group);
    if (c)
        return c;
    c = strcmp(a->time, b->time);
    return c ? c : strcmp(a->dir, b->dir);
}

void trend_sort(trend_run *runs, size_t n) { qsort(runs, n, sizeof *runs, by_group_time); }

char *trend_track(const char *out, const char *name)
{
    char *p = rf_join(out, name);
    if (p)
        ha_cleanup_add(p);
    return p;
}

static void num(FILE *f, double v) { isfinite(v) ? fprintf(f, " %.6g", v) : fputs(" NaN", f); }
/* A value under the goal, for the red marks; NaN where it is not. */
static void under(FILE *f, double v) { num(f, isfinite(v) && v < 100 * HA_POOL_THROUGHPUT_GOAL ? v : NAN); }

static FILE *tracked_file(const char *out, const char *name)
{
    char *p = trend_track(out, name);
    FILE *f = p ? fopen(p, "w") : NULL;
    free(p);
    return f;
}

/* One group's three plots, from its data file. Versions and times are
 * record text: they go into the data file as quoted fields, never into
 * the script. After each plot the script prints where its axes landed,
 * for the page's map of points to runs. */
int trend_write_group(const char *out, int g, const trend_run *runs, size_t from, size_t to)
{
    char name[64];
    snprintf(name, sizeof name, "group%d.dat", g);
    FILE *f = tracked_file(out, name);
    if (!f)
        return -1;
    double low = 100 * HA_POOL_THROUGHPUT_GOAL;
    for (size_t i = from; i < to; i++) {
        const trend_run *u = &runs[i];
        char *label = rf_printf("%.10s %.16s %.10s", u->tool, u->runtime, u->time);
        fprintf(f, "%zu ", i - from);
        gp_data_str(f, label ? label : u->dir);
        free(label);
        num(f, u->fast);
        num(f, u->cold);
        num(f, u->slow);
        num(f, u->hardened);
        num(f, u->ndist < 0 ? NAN : u->ndist);
        num(f, u->sleep);
        num(f, u->wake);
        num(f, u->wake_now);
        under(f, u->sleep);
        under(f, u->wake);
        under(f, u->wake_now);
        fputc('\n', f);
        const double v[] = {u->sleep, u->wake, u->wake_now};
        for (int k = 0; k < 3; k++)
            if (isfinite(v[k]) && v[k] < low && v[k] > 0)
                low = v[k];
    }
    if (fclose(f) != 0)
        return -1;
    for (int k = 0; k < NPLOTS; k++) {
        snprintf(name, sizeof name, "group%d_%s.svg", g, plots[k]);
        free(trend_track(out, name));
        snprintf(name, sizeof name, "group%d_%s.box", g, plots[k]);
        free(trend_track(out, name));
    }
    snprintf(name, sizeof name, "group%d.gp", g);
    FILE *gp = tracked_file(out, name);
    if (!gp)
        return -1;
    double lo = fmin(85, floor(low - 2));
    fprintf(gp,
            "set terminal svg size %d,%d noenhanced font ',10'\nset grid\nset key outside right\n"
            "set xtics rotate by -30 left font ',8'\nset bmargin 7\nset offsets 0.3, 0.3, 0, 0\nd = 'group%d.dat'\n"
            "set xlabel 'runs by time (tool, runtime, time)'\n"
            "set output 'group%d_latency.svg'\nset logscale y\nset ylabel 'ns (median)'\n"
            "set title 'read paths, run by run'\n"
            "plot d using 1:3:xtic(2) with linespoints title 'fast path', "
            "d using 1:4 with linespoints title 'line-flushed read', "
            "d using 1:6 with linespoints title 'best hardened', "
            "d using 1:5 with linespoints title 'slow path (copy)'\n"
            "set print 'group%d_latency.box'\nprint GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, "
            "GPVAL_TERM_YMAX, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX\nunset print\nunset logscale y\n"
            "set output 'group%d_verdicts.svg'\nset ylabel 'candidates'\nset yrange [0:*]\n"
            "set title 'candidates that distinguish'\n"
            "plot d using 1:7:xtic(2) with linespoints title 'distinguishing'\n"
            "set print 'group%d_verdicts.box'\nprint GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, "
            "GPVAL_TERM_YMAX, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX\nunset print\n"
            "set output 'group%d_pool.svg'\nset ylabel '%% of the pinned-copy ceiling'\n"
            "set yrange [%g:101]\nset title 'pool throughput (red: under the goal)'\n"
            "plot d using 1:8:xtic(2) with linespoints title 'sleep', "
            "d using 1:9 with linespoints title 'wake', d using 1:10 with linespoints dt 3 title 'wake right after sleep', "
            "%g with lines dt 2 lw 2 lc rgb '#cc0000' title 'goal %g %%', "
            "d using 1:11 with points pt 7 ps 1.4 lc rgb '#cc0000' notitle, "
            "d using 1:12 with points pt 7 ps 1.4 lc rgb '#cc0000' notitle, "
            "d using 1:13 with points pt 7 ps 1.4 lc rgb '#cc0000' notitle\n"
            "set print 'group%d_pool.box'\nprint GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, "
            "GPVAL_TERM_YMAX, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX\nunset print\n",
            PLOT_W, PLOT_H, g, g, g, g, g, g, lo, 100 * HA_POOL_THROUGHPUT_GOAL, 100 * HA_POOL_THROUGHPUT_GOAL, g);
    return fclose(gp) == 0 ? 0 : -1;
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

static void html_fleet(FILE *f, const fleet *fl)
{
    size_t hosts = fleet_hosts(fl);
    if (hosts < 2)
        return;
    fprintf(f, "<h2>Fleet: %zu hosts</h2>\n<p>Each column's majority is the fleet's configuration; "
               "<span class=\"off\">marked</span> cells depart from it (%zu in large-BAR evidence, readability, "
               "verdicts or pool checks).</p>\n<table><tr><th>host</th><th>device</th>", hosts, fleet_judged(fl));
    for (size_t c = 0; c < fl->ncols; c++) {
        fprintf(f, "<th>");
        html_text(f, fl->cols[c].name);
        fprintf(f, "</th>");
    }
    fprintf(f, "</tr>\n");
    for (size_t i = 0; i < fl->nnodes; i++) {
        if (!fl->nodes[i].used)
            continue;
        fprintf(f, "<tr><td>");
        html_text(f, fl->nodes[i].host);
        fprintf(f, "</td><td>%lld</td>", fl->nodes[i].device);
        for (size_t c = 0; c < fl->ncols; c++) {
            fprintf(f, "<td%s>", fleet_departs(fl, i, c) ? " class=\"off\"" : "");
            html_text(f, fleet_cell(fl, i, c));
            fprintf(f, "</td>");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

/* Where gnuplot put a plot's axes, as the script printed them. */
typedef struct box {
    double x0, x1, y0, y1, xmin, xmax, ymin, ymax;
} box;

static int read_box(const char *out, int g, const char *plot, box *b)
{
    char name[64];
    snprintf(name, sizeof name, "group%d_%s.box", g, plot);
    char *p = rf_join(out, name), *buf = NULL, *err = NULL;
    size_t len;
    int rc = p && rf_read(p, 4096, false, &buf, &len, &err) == 0 &&
                     sscanf(buf, "%lf %lf %lf %lf %lf %lf %lf %lf", &b->x0, &b->x1, &b->y0, &b->y1, &b->xmin,
                            &b->xmax, &b->ymin, &b->ymax) == 8
                 ? 0
                 : -1;
    free(p);
    free(buf);
    free(err);
    return rc;
}

/* Each plotted point, an area of an image map that links to its run. */
static void point_map(FILE *f, const char *out, int g, int k, const trend_run *runs, size_t from, size_t to)
{
    box b;
    if (read_box(out, g, plots[k], &b) != 0 || !(b.xmax > b.xmin) || !(b.ymax > b.ymin))
        return;
    bool logy = k == 0;
    fprintf(f, "<map name=\"g%d_%s\">\n", g, plots[k]);
    for (size_t i = from; i < to; i++) {
        const trend_run *u = &runs[i];
        double ys[4] = {NAN, NAN, NAN, NAN};
        if (k == 0)
            ys[0] = u->fast, ys[1] = u->cold, ys[2] = u->slow, ys[3] = u->hardened;
        else if (k == 1)
            ys[0] = u->ndist < 0 ? NAN : u->ndist;
        else
            ys[0] = u->sleep, ys[1] = u->wake, ys[2] = u->wake_now;
        double x = b.x0 + ((double)(i - from) - b.xmin) / (b.xmax - b.xmin) * (b.x1 - b.x0);
        for (int s = 0; s < 4; s++) {
            double v = ys[s];
            if (!isfinite(v) || (logy && v <= 0))
                continue;
            double t = logy ? (log(v) - log(b.ymin)) / (log(b.ymax) - log(b.ymin)) : (v - b.ymin) / (b.ymax - b.ymin);
            if (!(t >= -0.05 && t <= 1.05))
                continue;
            double y = PLOT_H - (b.y0 + t * (b.y1 - b.y0));
            fprintf(f, "<area shape=\"circle\" coords=\"%.0f,%.0f,7\" href=\"", x, y);
            html_text(f, u->link);
            fprintf(f, "\" alt=\"");
            html_text(f, u->dir);
            fprintf(f, "\" title=\"");
            html_text(f, u->dir);
            fprintf(f, "\">\n");
        }
    }
    fprintf(f, "</map>\n");
}

static void cell(FILE *f, double v, const char *fmt)
{
    if (!isfinite(v))
        fprintf(f, "<td>–</td>");
    else {
        fprintf(f, "<td>");
        fprintf(f, fmt, v);
        fprintf(f, "</td>");
    }
}

static void group_table(FILE *f, const trend_run *runs, size_t i, size_t j)
{
    fprintf(f, "<table><tr><th>time</th><th>run</th><th>tool</th><th>runtime</th><th>fast</th><th>slow</th>"
               "<th>slow/fast</th><th>distinguishing</th><th>sleep %%</th><th>wake %%</th><th>wake right after "
               "%%</th></tr>\n");
    for (size_t k = i; k < j; k++) {
        const trend_run *u = &runs[k];
        fprintf(f, "<tr><td>");
        html_text(f, u->time);
        fprintf(f, "</td><td><a href=\"");
        html_text(f, u->link);
        fprintf(f, "\">");
        html_text(f, u->dir);
        fprintf(f, "</a></td><td>");
        html_text(f, u->tool);
        fprintf(f, "</td><td>");
        html_text(f, u->runtime);
        fprintf(f, "</td><td>");
        html_text(f, fmt_ns(u->fast));
        fprintf(f, "</td><td>");
        html_text(f, fmt_ns(u->slow));
        fprintf(f, "</td><td>");
        html_text(f, fmt_times(u->slow / u->fast));
        fprintf(f, "</td>");
        u->ndist < 0 ? fprintf(f, "<td>–</td>") : fprintf(f, "<td>%d of %d</td>", u->ndist, u->ncand);
        const double tp[] = {u->sleep, u->wake, u->wake_now};
        for (int t = 0; t < 3; t++) {
            bool low = isfinite(tp[t]) && tp[t] < 100 * HA_POOL_THROUGHPUT_GOAL;
            if (low)
                fprintf(f, "<td class=\"off\">%.1f (under the goal)</td>", tp[t]);
            else
                cell(f, tp[t], "%.1f");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

int trend_write_html(const char *out, const char *dir, const trend_run *runs, size_t nruns,
                     const trend_skip *skipped, size_t nskipped, const fleet *fl)
{
    char n[40];
    char *p = trend_track(out, "index.html");
    FILE *f = p ? fopen(p, "w") : NULL;
    free(p);
    if (!f)
        return -1;
    nonce(n, sizeof n);
    fprintf(f, "<!doctype html>\n<html><head><meta charset=\"utf-8\">\n"
               "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
               "img-src 'self'; style-src 'unsafe-inline'; script-src 'nonce-%s'\">\n"
               "<title>hostaccess trend</title>\n", n);
    fprintf(f, "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
               "td,th{border:1px solid #ccc;padding:2px 6px;font-size:90%%}img{display:block;margin:1em 0}"
               ".sim{color:#a00}.off{background:#fdd;font-weight:bold}</style></head>\n<body>\n<h1>hostaccess trend: ");
    html_text(f, dir);
    fprintf(f, "</h1>\n<p>%zu runs. Each group is one device and backend, its runs in time order (the x axis names "
               "each run's tool version, runtime and time; a point links to its run). Simulated groups are not "
               "evidence. Throughput under the goal of %.0f %% is marked red.</p>\n", nruns,
            100 * HA_POOL_THROUGHPUT_GOAL);
    if (fl)
        html_fleet(f, fl);
    if (nskipped) {
        fprintf(f, "<h2>Not whole or not understood, not plotted</h2>\n<ul>\n");
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
        fprintf(f, "</h2>\n");
        group_table(f, runs, i, j);
        for (int k = 0; k < NPLOTS; k++) {
            point_map(f, out, g, k, runs, i, j);
            fprintf(f, "<img class=\"plot\" src=\"group%d_%s.svg\" width=\"%d\" height=\"%d\" usemap=\"#g%d_%s\" "
                       "alt=\"%s\">\n", g, plots[k], PLOT_W, PLOT_H, g, plots[k], plots[k]);
        }
        i = j;
    }
    /* A headless browser (tests/report) reads these attributes to know
     * every plot rendered and every point links somewhere. */
    fprintf(f, "<script nonce=\"%s\">\nwindow.addEventListener('load', function () {\n"
               "  var imgs = document.querySelectorAll('img.plot'), ok = 0;\n"
               "  imgs.forEach(function (i) { if (i.complete && i.naturalWidth > 0) ok++; });\n"
               "  document.body.setAttribute('data-plots-total', imgs.length);\n"
               "  document.body.setAttribute('data-plots-rendered', ok);\n"
               "  document.body.setAttribute('data-point-links', document.querySelectorAll('area[href]').length);\n"
               "});\n</script>\n</body></html>\n", n);
    return fclose(f) == 0 ? g : -1;
}
