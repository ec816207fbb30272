#include "trendpage.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cleanup.h"
#include "derive.h"
#include "gnuplot.h"
#include "goals.h"
#include "readfile.h"
#include "text.h"

#define PLOT_W 860
#define PLOT_H 380
#define TREND_MAX_XLABELS 24 /* labels on a plot's axis at most */
#define PLOT_AXIS_W 420 /* px of a plot's x axis: its key takes the rest of PLOT_W */
#define MARK_GAP_PX 18  /* change-point numbers closer than this share no row */
#define MARK_ROWS 4     /* rows of numbers above a plot at most */
static const char *const plots[] = {"latency", "verdicts", "pool"};
#define NPLOTS 3

static char *dup(const char *s) { return strdup(s ? s : ""); }

void trend_summarise(trend_run *u, const m_run *r, const char *name, const char *link)
{
    memset(u, 0, sizeof *u);
    u->dir = dup(name);
    u->link = dup(link);
    u->sim = r->d.simulated;
    u->slowed = r->d.slowed;
    u->group = dup(r->d.series);
    u->runtime = dup(r->env->runtime_version);
    u->tool = dup(r->env->tool_version);
    u->time = dup(r->env->time_utc);
    u->fast = u->fast_lo = u->fast_hi = u->cold = u->slow = u->slow_other = u->hardened = NAN;
    u->sleep = u->wake = u->wake_now = NAN;
    u->pause_ms = -1;
    u->sleep_goal = u->wake_goal = -1;
    u->ndist = u->ncand = -1;
    const m_bench *b = &r->bench;
    if (r->has[RUN_BENCH] && b->has_headline) {
        /* the figures report shows: over the processes where the record has them */
        u->fast = m_fast_ns(r);
        if (r->d.fast) {
            u->fast_lo = m_row_figure(r, r->d.fast)->lo;
            u->fast_hi = m_row_figure(r, r->d.fast)->hi;
        }
        bool same = b->slow_kind && b->fast_kind && !strcmp(b->slow_kind, b->fast_kind);
        *(same ? &u->slow : &u->slow_other) = m_slow_ns(r);
        u->cold = r->d.cold ? m_row_figure(r, r->d.cold)->ns : NAN;
        for (size_t i = 0; i < r->d.nhardened; i++) {
            double h = m_row_figure(r, r->d.hardened[i])->ns;
            if (isnan(u->hardened) || h < u->hardened)
                u->hardened = h;
        }
    }
    if (r->has[RUN_PROBE]) {
        u->ncand = (int)r->probe.ncands;
        u->ndist = (int)r->d.ndistinguishing;
    }
    for (size_t i = 0; r->has[RUN_POOL] && i < r->pool.ntputs; i++) {
        const m_tput *t = &r->pool.tputs[i];
        if (t->measured && isnan(u->sleep)) {
            u->sleep = 100 * t->sleep_frac;
            u->sleep_goal = t->sleep_goal;
            u->wake_goal = t->wake_goal;
            u->pause_ms = t->pause_ms;
            if (t->pause_ms < 0) { /* schema 1: no pause, the wake came right after */
                u->wake_now = 100 * t->wake_frac;
            } else {
                u->wake = 100 * t->wake_frac;
                u->wake_now = 100 * t->wake_now_frac;
            }
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
/* The data file's columns: 1 the run's index, 2 its label, then these. */
enum {
    C_FAST = 3, C_COLD, C_SLOW, C_HARD, C_DIST, C_SLEEP, C_WAKE, C_WAKE_NOW, C_SLOW_OTHER, C_FAST_LO, C_FAST_HI,
    C_SLOWED, /* the fast path of a run slowed on purpose, marked apart */
    C_UNDER
};
#define NCOLS (C_UNDER + 3)

/* The goal's outcome of throughput column col as report judged it (the
 * run's first measured size, whose figures the page plots); -1 where the
 * column is no goal (wake right after sleep) or the run has none. */
static int goal_of(const trend_run *u, int col)
{
    if (u->pause_ms < 0 && col == C_WAKE_NOW) /* schema 1: its one wake, judged as the wake */
        return u->wake_goal;
    return col == C_SLEEP ? u->sleep_goal : col == C_WAKE && u->pause_ms >= 0 ? u->wake_goal : -1;
}

static bool missed(const trend_run *u, int col) { return goal_of(u, col) == HA_GOAL_MISSED; }

static double value(const trend_run *u, int col)
{
    switch (col) {
    case C_FAST: return u->fast;
    case C_COLD: return u->cold;
    case C_SLOW: return u->slow;
    case C_HARD: return u->hardened;
    case C_DIST: return u->ndist < 0 ? NAN : u->ndist;
    case C_SLEEP: return u->sleep;
    case C_WAKE: return u->wake;
    case C_WAKE_NOW: return u->wake_now;
    case C_SLOW_OTHER: return u->slow_other;
    case C_FAST_LO: return u->fast_lo;
    case C_FAST_HI: return u->fast_hi;
    case C_SLOWED: return u->slowed ? u->fast : NAN;
    default: /* a value whose goal report judged missed, for the red marks; NaN where not */
        return missed(u, C_SLEEP + (col - C_UNDER)) ? value(u, C_SLEEP + (col - C_UNDER)) : NAN;
    }
}

typedef struct series {
    int col;
    const char *title, *style;
} series;

/* Each plot's series, in the data file's columns; a series no run has is left out of the script. */
static const series plot_series[NPLOTS][5] = {
    {{C_FAST, "fast path", "linespoints"},
     {C_COLD, "line-flushed read", "linespoints"},
     {C_HARD, "best hardened", "linespoints"},
     {C_SLOW, "slow path (copy of the same allocation)", "linespoints"},
     {C_SLOW_OTHER, "copy of another allocation (older records)", "linespoints dt 3"}},
    {{C_DIST, "distinguishing", "linespoints"}},
    {{C_SLEEP, "sleep", "linespoints"},
     {C_WAKE, "wake (after its pause)", "linespoints"},
     {C_WAKE_NOW, "wake right after sleep", "linespoints dt 3"}},
};
static const char *const plot_titles[NPLOTS] = {"read paths, run by run", "candidates that distinguish",
                                                "pool throughput (red: goal missed)"};

static bool series_has_data(int col, const trend_run *runs, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (isfinite(value(&runs[i], col)))
            return true;
    return false;
}

/* Whether any run of runs[from, to) has a figure for plot k (0 latency,
 * 1 verdicts, 2 pool): a plot without one is not drawn, and the page says so. */
static bool trend_plot_has_data(int k, const trend_run *runs, size_t from, size_t to)
{
    for (size_t s = 0; s < 5 && plot_series[k][s].col; s++)
        if (series_has_data(plot_series[k][s].col, runs, from, to))
            return true;
    return false;
}

static FILE *tracked_file(const char *out, const char *name)
{
    char *p = trend_track(out, name);
    FILE *f = p ? fopen(p, "w") : NULL;
    free(p);
    return f;
}

/* The row above the plot for a change point's number at x: the lowest
 * whose last number is at least gap away; when every row has one nearer,
 * the row whose last number is farthest back. last[] is updated. */
static int mark_row(double x, double last[MARK_ROWS], double gap)
{
    int row = 0;
    while (row < MARK_ROWS && fabs(x - last[row]) < gap)
        row++;
    if (row == MARK_ROWS) {
        row = 0;
        for (int r = 1; r < MARK_ROWS; r++)
            if (last[r] < last[row])
                row = r;
    }
    last[row] = x;
    return row;
}

/* One plot of a group: its series that have data, then where its axes landed. */
static void plot_script(FILE *gp, int g, int k, const trend_run *runs, size_t from, size_t to, double lo,
                        const double *marks_x, size_t nmarks)
{
    bool sim = runs[from].sim;
    /* a change point: a dotted line just before its first run (the
     * position only: nothing of the marks file reaches the script) */
    fprintf(gp, "unset arrow\n");
    fprintf(gp, "unset label\n");
    /* Numbers of marks closer than MARK_GAP_PX are staggered up in rows
     * above the plot (the title and the top margin make room), so that
     * neighbouring change points stay readable: the committed 210 runs
     * have marks one run apart. */
    double gap = MARK_GAP_PX * (double)(to - from) / PLOT_AXIS_W, last[MARK_ROWS];
    int rows = 1;
    for (int r = 0; r < MARK_ROWS; r++)
        last[r] = -INFINITY;
    for (size_t m = 0; m < nmarks; m++) {
        int row = mark_row(marks_x[m], last, gap);
        rows = row + 1 > rows ? row + 1 : rows;
        fprintf(gp, "set arrow %zu from %.1f, graph 0 to %.1f, graph 1 nohead dt 3 lw 2 lc rgb '#7030a0' back\n"
                    "set label %zu '%zu' at %.1f, graph 1 center offset 0, %.1f textcolor rgb '#7030a0'\n",
                m + 1, marks_x[m], marks_x[m], m + 2, m + 1, marks_x[m], 0.6 + 1.2 * row);
    }
    if (rows > 1)
        fprintf(gp, "set tmargin %.1f\n", 3 + 1.2 * (rows - 1));
    else
        fprintf(gp, "set tmargin\n");
    fprintf(gp, "set output 'group%d_%s.svg'\nset title '%s%s' offset 0, %.1f\n", g, plots[k], plot_titles[k],
            sim ? " - SIMULATED, not a measurement of any GPU" : "", 1.2 * (rows - 1));
    if (sim)
        fprintf(gp, "set label 1 'SIMULATED' at graph 0.5, 0.5 center font ',36' textcolor rgb '#e8b0b0' back\n");
    else
        fprintf(gp, "unset label 1\n");
    if (k == 0)
        fprintf(gp, "set logscale y\nset ylabel 'ns (geometric mean of processes; older: median)'\nset yrange [*:*]\n");
    else if (k == 1)
        fprintf(gp, "unset logscale y\nset ylabel 'candidates'\nset yrange [0:*]\n");
    else
        fprintf(gp, "unset logscale y\nset ylabel '%% of the pinned-copy ceiling'\nset yrange [%g:101]\n", lo);
    fprintf(gp, "plot");
    const char *sep = " ";
    for (size_t s = 0; s < 5 && plot_series[k][s].col; s++) {
        const series *x = &plot_series[k][s];
        if (!series_has_data(x->col, runs, from, to))
            continue;
        fprintf(gp, "%sd using 1:%d%s with %s title '%s'", sep, x->col, *sep == ' ' ? ":xtic(2)" : "", x->style,
                x->title);
        sep = ", ";
    }
    /* the fast path's interval over its processes, where runs have one */
    if (k == 0 && series_has_data(C_FAST_LO, runs, from, to))
        fprintf(gp, ", d using 1:%d:%d:%d with yerrorbars lc rgb '#404040' pt 0 title 'fast path, 95 %% interval "
                    "over processes'",
                C_FAST, C_FAST_LO, C_FAST_HI);
    if (k == 0 && series_has_data(C_SLOWED, runs, from, to))
        fprintf(gp, ", d using 1:%d with points pt 2 ps 2 lw 2 lc rgb '#cc6600' title 'slowed on purpose (a test): "
                    "not evidence'",
                C_SLOWED);
    if (k == 2) {
        fprintf(gp, ", %g with lines dt 2 lw 2 lc rgb '#cc0000' title 'goal %g %%'", 100 * HA_POOL_THROUGHPUT_GOAL,
                100 * HA_POOL_THROUGHPUT_GOAL);
        for (int c = C_UNDER; c < NCOLS; c++)
            if (series_has_data(c, runs, from, to))
                fprintf(gp, ", d using 1:%d with points pt 7 ps 1.4 lc rgb '#cc0000' notitle", c);
    }
    fprintf(gp, "\nset print 'group%d_%s.box'\nprint GPVAL_TERM_XMIN, GPVAL_TERM_XMAX, GPVAL_TERM_YMIN, "
                "GPVAL_TERM_YMAX, GPVAL_X_MIN, GPVAL_X_MAX, GPVAL_Y_MIN, GPVAL_Y_MAX\nunset print\n",
            g, plots[k]);
}

/* One group's plots, from its data file. Versions and times are record
 * text: they go into the data file as quoted fields, whole, never into
 * the script. After each plot the script prints where its axes landed,
 * for the page's map of points to runs. */
/* Where run name lies in runs[from, to), or -1. */
static long run_at(const trend_run *runs, size_t from, size_t to, const char *name)
{
    for (size_t i = from; i < to; i++)
        if (!strcmp(runs[i].dir, name))
            return (long)(i - from);
    return -1;
}

/* Whether a mark lies in this group: both its runs are here. */
static bool mark_here(const trend_mark *m, const trend_run *runs, size_t from, size_t to)
{
    return run_at(runs, from, to, m->before) >= 0 && run_at(runs, from, to, m->after) >= 0;
}

int trend_write_group(const char *out, int g, const trend_run *runs, size_t from, size_t to,
                      const trend_mark *marks, size_t nmarks)
{
    char name[64];
    snprintf(name, sizeof name, "group%d.dat", g);
    FILE *f = tracked_file(out, name);
    if (!f)
        return -1;
    double low = 100 * HA_POOL_THROUGHPUT_GOAL;
    /* At most TREND_MAX_XLABELS labels on the axis: every step-th run
     * counted back from the newest, which is always labelled. 210 runs'
     * labels would merge into one black band; and counted from the oldest,
     * the newest run's label, added at the end, overlapped the one before
     * (seen in chromium by integration_changes:a_long_trend_page_reads). */
    size_t step = (to - from + TREND_MAX_XLABELS - 1) / TREND_MAX_XLABELS;
    for (size_t i = from; i < to; i++) {
        const trend_run *u = &runs[i];
        bool labelled = step <= 1 || (to - 1 - i) % step == 0;
        char *label = labelled ? rf_printf("%s %s %s", u->tool, u->runtime, u->time) : strdup("");
        fprintf(f, "%zu ", i - from);
        gp_data_str(f, label ? label : u->dir);
        free(label);
        for (int c = C_FAST; c < NCOLS; c++)
            num(f, value(u, c));
        fputc('\n', f);
        for (int c = C_SLEEP; c <= C_WAKE_NOW; c++) {
            double v = value(u, c);
            if (isfinite(v) && v < low && v > 0)
                low = v;
        }
    }
    if (fclose(f) != 0)
        return -1;
    snprintf(name, sizeof name, "group%d.gp", g);
    FILE *gp = tracked_file(out, name);
    if (!gp)
        return -1;
    fprintf(gp,
            "set terminal svg size %d,%d noenhanced font ',10'\nset grid\nset key outside right\n"
            "set xtics rotate by -30 left font ',8'\nset bmargin 9\nset offsets 0.3, 0.3, 0, 0\nd = 'group%d.dat'\n"
            "set xlabel 'runs by time (tool, runtime, time)'\n",
            PLOT_W, PLOT_H, g);
    double *xs = malloc((nmarks + 1) * sizeof *xs);
    size_t nx = 0;
    for (size_t m = 0; xs && m < nmarks; m++)
        if (mark_here(&marks[m], runs, from, to))
            xs[nx++] = (double)run_at(runs, from, to, marks[m].after) - 0.5;
    for (int k = 0; k < NPLOTS; k++) {
        if (!trend_plot_has_data(k, runs, from, to))
            continue;
        snprintf(name, sizeof name, "group%d_%s.svg", g, plots[k]);
        free(trend_track(out, name));
        snprintf(name, sizeof name, "group%d_%s.box", g, plots[k]);
        free(trend_track(out, name));
        plot_script(gp, g, k, runs, from, to, fmin(85, floor(low - 2)), xs, nx);
    }
    bool placed = xs || !nmarks;
    free(xs);
    return fclose(gp) == 0 && placed ? 0 : -1;
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
        double x = b.x0 + ((double)(i - from) - b.xmin) / (b.xmax - b.xmin) * (b.x1 - b.x0);
        for (size_t s = 0; s < 5 && plot_series[k][s].col; s++) {
            double v = value(u, plot_series[k][s].col);
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

/* Where a figure's definition changed inside a group: the page says
 * which runs measured what, and the plots keep the figures apart. */
static void definitions(FILE *f, const trend_run *runs, size_t i, size_t j)
{
    size_t other = 0, v1 = 0, n = j - i;
    long long pmin = -1, pmax = -1;
    for (size_t k = i; k < j; k++) {
        other += isfinite(runs[k].slow_other);
        v1 += runs[k].pause_ms < 0 && isfinite(runs[k].wake_now) && isnan(runs[k].wake);
        if (runs[k].pause_ms >= 0) {
            pmin = pmin < 0 || runs[k].pause_ms < pmin ? runs[k].pause_ms : pmin;
            pmax = runs[k].pause_ms > pmax ? runs[k].pause_ms : pmax;
        }
    }
    if (!other && !v1 && pmin == pmax)
        return;
    fprintf(f, "<p>Definitions changed within this group; the plots keep each figure under its own name, so a "
               "line ends where its definition does:</p>\n<ul>\n");
    if (other)
        fprintf(f, "<li>slow path: %zu of %zu runs (older records) timed the copy of <em>another</em> allocation than "
                   "the one read fast, not a like-for-like slow path: plotted apart as \"copy of another "
                   "allocation\", with no slow/fast ratio.</li>\n", other, n);
    if (v1)
        fprintf(f, "<li>wake: %zu of %zu runs (schema-1 pool records) timed the wake right after its sleep: plotted "
                   "as \"wake right after sleep\"; later records time \"wake\" after a pause.</li>\n", v1, n);
    if (pmin != pmax)
        fprintf(f, "<li>wake: the pause after its sleep differs between runs (%lld to %lld ms).</li>\n", pmin, pmax);
    fprintf(f, "</ul>\n");
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
        fprintf(f, "</a>%s</td><td>", u->slowed ? " <b>(slowed on purpose: not evidence)</b>" : "");
        html_text(f, u->tool);
        fprintf(f, "</td><td>");
        html_text(f, u->runtime);
        fprintf(f, "</td><td>");
        html_text(f, fmt_ns(u->fast));
        fprintf(f, "</td><td>");
        html_text(f, fmt_ns(isfinite(u->slow) ? u->slow : u->slow_other));
        fprintf(f, "%s</td><td>", isfinite(u->slow_other) ? " (another allocation)" : "");
        html_text(f, fmt_times(u->slow / u->fast));
        fprintf(f, "</td>");
        u->ndist < 0 ? fprintf(f, "<td>–</td>") : fprintf(f, "<td>%d of %d</td>", u->ndist, u->ncand);
        for (int c = C_SLEEP; c <= C_WAKE_NOW; c++) {
            double v = value(u, c);
            int goal = goal_of(u, c);
            if (isfinite(v) && goal >= 0 && goal != HA_GOAL_MET)
                fprintf(f, "<td%s>%.1f (%s)</td>", goal == HA_GOAL_MISSED ? " class=\"off\"" : "", v,
                        ha_goal_name((ha_goal_outcome)goal));
            else
                cell(f, v, "%.1f");
        }
        fprintf(f, "</tr>\n");
    }
    fprintf(f, "</table>\n");
}

/* A link to run name's report, its name the link's text. */
static void run_link(FILE *f, const trend_run *runs, size_t from, size_t to, const char *name)
{
    long at = run_at(runs, from, to, name);
    fprintf(f, "<a href=\"");
    html_text(f, runs[from + (size_t)at].link);
    fprintf(f, "\">");
    html_text(f, name);
    fprintf(f, "</a>");
}

/* The group's change points (report/changes), each linking both its runs;
 * the plots mark them with a dotted line. */
static void change_points(FILE *f, const trend_run *runs, size_t from, size_t to, const trend_mark *marks,
                          size_t nmarks)
{
    bool any = false;
    size_t shown = 0; /* the number its line carries on the plots */
    for (size_t m = 0; m < nmarks; m++) {
        if (!mark_here(&marks[m], runs, from, to))
            continue;
        if (!any)
            fprintf(f, "<h3>Change points (report/changes; the numbered dotted lines)</h3>\n<ul>\n");
        any = true;
        fprintf(f, "<li%s>%zu: between ", marks[m].regression ? " class=\"off\"" : "", ++shown);
        run_link(f, runs, from, to, marks[m].before);
        fprintf(f, " and ");
        run_link(f, runs, from, to, marks[m].after);
        fprintf(f, " (");
        html_text(f, marks[m].cause);
        fprintf(f, "%s): ", marks[m].regression ? "; a regression among the newest runs" : "");
        html_text(f, marks[m].what);
        fprintf(f, "</li>\n");
    }
    if (any)
        fprintf(f, "</ul>\n");
}

/* Marks whose two runs are in no group here: named, not dropped. */
static void marks_elsewhere(FILE *f, const trend_run *runs, size_t nruns, const trend_mark *marks, size_t nmarks)
{
    bool any = false;
    for (size_t m = 0; m < nmarks; m++) {
        bool here = false;
        for (size_t i = 0; i < nruns && !here;) {
            size_t j = i;
            while (j < nruns && !strcmp(runs[j].group, runs[i].group))
                j++;
            here = mark_here(&marks[m], runs, i, j);
            i = j;
        }
        if (here)
            continue;
        if (!any)
            fprintf(f, "<h2>Change points whose runs are not both here, not marked</h2>\n<ul>\n");
        any = true;
        fprintf(f, "<li>between ");
        html_text(f, marks[m].before);
        fprintf(f, " and ");
        html_text(f, marks[m].after);
        fprintf(f, ": ");
        html_text(f, marks[m].what);
        fprintf(f, "</li>\n");
    }
    if (any)
        fprintf(f, "</ul>\n");
}

int trend_write_html(const char *out, const char *dir, const trend_run *runs, size_t nruns,
                     const trend_skip *skipped, size_t nskipped, const fleet *fl, const trend_mark *marks,
                     size_t nmarks)
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
               "evidence. Throughput is judged as each run's report judges it (goal %.0f %% of the ceiling in every "
               "steady cycle): missed is marked red, at the goal within noise is said, a simulation's is never "
               "judged.</p>\n", nruns,
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
    marks_elsewhere(f, runs, nruns, marks, nmarks);
    int g = 0;
    for (size_t i = 0; i < nruns; g++) {
        size_t j = i;
        while (j < nruns && !strcmp(runs[j].group, runs[i].group))
            j++;
        fprintf(f, "<h2%s>", runs[i].sim ? " class=\"sim\"" : "");
        html_text(f, runs[i].group);
        fprintf(f, "</h2>\n");
        if (runs[i].sim)
            fprintf(f, "<p class=\"sim\"><b>SIMULATED:</b> the simulation backend, not a measurement of any GPU; "
                       "its plots say so.</p>\n");
        /* the plots first, then what they are drawn from */
        for (int k = 0; k < NPLOTS; k++) {
            if (!trend_plot_has_data(k, runs, i, j)) {
                fprintf(f, "<p>Not plotted: no run of this group has a figure for %s (its records hold no %s).</p>\n",
                        plot_titles[k], k == 0 ? "bench headline" : k == 1 ? "probe verdicts" : "measured pool throughput");
                continue;
            }
            point_map(f, out, g, k, runs, i, j);
            fprintf(f, "<img class=\"plot\" src=\"group%d_%s.svg\" width=\"%d\" height=\"%d\" usemap=\"#g%d_%s\" "
                       "alt=\"%s\">\n", g, plots[k], PLOT_W, PLOT_H, g, plots[k], plots[k]);
        }
        change_points(f, runs, i, j, marks, nmarks);
        group_table(f, runs, i, j);
        definitions(f, runs, i, j);
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
