#include "plots.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "derive.h"
#include "families.h"
#include "gnuplot.h"
#include "goals.h"
#include "readfile.h"
#include "text.h"

const char *const plot_files[] = {"report_paths.png", "report_paths.svg", "report_sweep.png", "report_sweep.svg",
                                  "report_pool.png",  "report_pool.svg",  NULL};

static const char *const names[PLOT_N] = {"report_paths", "report_sweep", "report_pool"};


/* A figure on a log axis: a value gnuplot cannot place there (0, negative,
 * not finite, or past what it plots) goes in as missing. */
static void logval(FILE *f, double v)
{
    if (isfinite(v) && v > 0 && v < 1e300)
        fprintf(f, "\t%.6g", v);
    else
        fprintf(f, "\tNaN");
}

/* Each plot is drawn twice, once per terminal, from the same commands. The
 * title is record text, so it goes in quoted, never pasted. */
static int script(const m_run *r, const char *tmp, const char *name, const char *size, const char *title,
                  const char *commands)
{
    char *p = rf_printf("%s/%s.gp", tmp, name);
    FILE *g = p ? fopen(p, "w") : NULL;
    if (!g) {
        free(p);
        return -1;
    }
    ha_cleanup_add(p);
    free(p);
    fprintf(g, "set terminal pngcairo size %s noenhanced font ',10'\nset output '%s.png'\nset title ", size, name);
    gp_quote(g, title);
    fputc('\n', g);
    if (r->d.simulated)
        fprintf(g, "set label 1 'SIMULATED: not evidence' at screen 0.5, 0.55 center front font ',30' "
                   "textcolor rgb '#cc0000'\n");
    if (r->d.slowed)
        fprintf(g, "set label 2 'SLOWED ON PURPOSE: not evidence' at screen 0.5, 0.45 center front font ',20' "
                   "textcolor rgb '#cc0000'\n");
    fprintf(g, "%s\nset terminal svg size %s noenhanced font ',10'\nset output '%s.svg'\nreplot\n", commands, size,
            name);
    return fclose(g) == 0 ? 0 : -1;
}

static FILE *data_file(const char *tmp, const char *name)
{
    char *p = rf_join(tmp, name);
    FILE *f = p ? fopen(p, "w") : NULL;
    if (f)
        ha_cleanup_add(p);
    free(p);
    return f;
}

/* A path family's place in the colours and the legend: families.def's
 * order, the instruments left out. -1: not a path family. */
static int family_index(const char *fam)
{
    int k = 0;
    for (size_t i = 0; i < HA_NFAMILIES; i++) {
        if (ha_families[i].instrument)
            continue;
        if (!strcmp(ha_families[i].name, fam))
            return k;
        k++;
    }
    return -1;
}

static int paths_plot(const m_run *r, const char *tmp)
{
    const m_bench *b = &r->bench;
    if (!b->has_headline)
        return 1;
    FILE *f = data_file(tmp, "paths.dat");
    if (!f)
        return -1;
    double copy = NAN;
    for (size_t i = 0; i < b->nrows; i++) {
        const m_row *x = &b->rows[i];
        const char *fam = m_row_family(x);
        int fi = family_index(fam);
        bool copyrow = !strcmp(fam, "copy");
        bool mine = !strcmp(x->kind, b->fast_kind) && !copyrow;
        bool slow = copyrow && !strcmp(x->kind, *b->slow_kind ? b->slow_kind : b->fast_kind);
        if (x->repeat != 1 || x->skipped || fi < 0 || !(mine || slow || !strcmp(fam, "fault")))
            continue;
        /* the row's figure, as the tables show it (rowest.h) */
        const m_figure *g = m_row_figure(r, x);
        if (x == r->d.copies[0]) /* the headline's slow path */
            copy = g->ns;
        char *label = rf_printf("%s%s%s", x->path, *x->candidate ? " " : "", x->candidate);
        gp_data_str(f, label ? label : x->path);
        free(label);
        /* a figure without an interval (one process, an older record)
         * gets a bar of no length: a missing end would drop its box */
        logval(f, g->ns);
        logval(f, isfinite(g->lo) ? g->lo : g->ns);
        logval(f, isfinite(g->hi) ? g->hi : g->ns);
        fprintf(f, "\t%d\n", fi);
    }
    if (fclose(f) != 0)
        return -1;
    char colours[512] = "", legend[1024] = "";
    for (size_t i = 0, k = 0; i < HA_NFAMILIES; i++) {
        const ha_family *fm = &ha_families[i];
        if (fm->instrument)
            continue;
        size_t l = strlen(colours), m = strlen(legend);
        snprintf(colours + l, sizeof colours - l, "%s%zu '%s'", k ? ", " : "", k, fm->colour);
        snprintf(legend + m, sizeof legend - m, ", NaN with boxes lc rgb '%s' title '%s'", fm->colour, fm->name);
        k++;
    }
    /* the copy's reference line, in the copy family's colour */
    char *copy_line = isfinite(copy) && copy > 0 ? rf_printf(", copy_ref(x) with lines dt 2 lw 2 lc rgb '%s' title "
                                                             "'the copy (slow path)'", ha_families[HA_FAM_copy].colour)
                                                 : NULL;
    char *cmd = rf_printf("set datafile separator '\\t'\nset style fill solid 0.7\nset boxwidth 0.7\n"
                          "set logscale y\nset ylabel 'ns per operation'\nset xtics rotate by -40 left "
                          "font ',8'\nset bmargin 16\nset grid y\nset offsets 1, 1, 0, 0\nset key outside right\n"
                          "set palette defined (%s)\nunset colorbox\nset cbrange [0:%zu]\n%s"
                          "plot 'paths.dat' using 0:2:3:4:(0.7):5:xtic(1) with boxerrorbars lc palette notitle%s%s\n",
                          colours, (size_t)HA_NPATH_FAMILIES - 1, "", legend, copy_line ? copy_line : "");
    free(copy_line);
    char *ref = rf_printf("copy_ref(x) = %.6g\n%s", isfinite(copy) && copy > 0 ? copy : 1, cmd ? cmd : "");
    char *title = rf_printf("paths on %s by family: %s; dashed: the copy", b->fast_kind,
                            r->d.by_process ? "the geometric mean of the processes, bars its 95 % interval"
                                            : "the median of the pooled samples (a record before the processes)");
    int rc = cmd && ref && title ? script(r, tmp, names[PLOT_PATHS], "1200,720", title, ref) : -1;
    free(cmd);
    free(ref);
    free(title);
    return rc;
}

static int sweep_plot(const m_run *r, const char *tmp)
{
    const m_bench *b = &r->bench;
    if (!b->has_sweep || !b->npoints)
        return 1;
    FILE *f = data_file(tmp, "sweep.dat");
    if (!f)
        return -1;
    for (size_t i = 0; i < b->npoints; i++) {
        const m_point *p = &b->points[i];
        fprintf(f, "%lld", p->size);
        logval(f, p->copy.median);
        logval(f, p->copy.spread);
        logval(f, p->read.median);
        logval(f, p->read.spread);
        logval(f, p->has_read_nt ? p->read_nt.median : NAN);
        logval(f, p->has_read_nt ? p->read_nt.spread : NAN);
        fputc('\n', f);
    }
    if (fclose(f) != 0)
        return -1;
    char *title = rf_printf("size sweep on %s: the runtime copy against the host read", b->sweep_kind);
    int rc = title ? script(r, tmp, names[PLOT_SWEEP], "900,560", title,
                            "set datafile separator '\\t'\nset logscale xy 2\nset xlabel 'bytes'\n"
                            "set ylabel 'ns per read (median)'\nset key top left\nset grid\n"
                            "plot 'sweep.dat' using 1:2:3 with yerrorlines lw 2 title 'runtime D2H copy', "
                            "'' using 1:4:5 with yerrorlines lw 2 title 'host read', "
                            "'' using 1:6:7 with yerrorlines lw 2 dt 2 title 'host read, non-temporal'")
                   : -1;
    free(title);
    return rc;
}

static void pctval(FILE *f, double frac)
{
    if (isfinite(frac) && frac >= 0 && frac < 1e6)
        fprintf(f, " %.4g", 100 * frac);
    else
        fprintf(f, " NaN");
}

static int pool_plot(const m_run *r, const char *tmp)
{
    FILE *f = data_file(tmp, "pool.dat");
    if (!f)
        return -1;
    int rows = 0;
    double low = 100 * HA_POOL_THROUGHPUT_GOAL;
    for (size_t i = 0; i < r->pool.ntputs; i++) {
        const m_tput *t = &r->pool.tputs[i];
        if (!t->measured)
            continue;
        char *label = rf_printf("%s %s", fmt_bytes(t->bytes), t->mode);
        gp_data_str(f, label ? label : "?");
        free(label);
        pctval(f, t->sleep_frac);
        pctval(f, t->wake_frac);
        pctval(f, t->wake_now_frac);
        fputc('\n', f);
        const double v[] = {t->sleep_frac, t->wake_frac, t->wake_now_frac};
        for (int k = 0; k < 3; k++)
            if (isfinite(v[k]) && 100 * v[k] < low && v[k] >= 0)
                low = 100 * v[k];
        rows++;
    }
    if (fclose(f) != 0)
        return -1;
    if (!rows)
        return 1;
    /* The axis shows what matters: from a little under the lowest bar (or
     * the goal) to just over the ceiling, not from 0. */
    double lo = floor((low - 5) / 5) * 5;
    char *cmd = rf_printf("set style data histogram\nset style histogram clustered gap 1\nset style fill solid 0.7\n"
                          "set ylabel '%% of the pinned-copy ceiling'\nset yrange [%g:105]\nset grid y\n"
                          "set key outside right\nset arrow 1 from graph 0, first %g to graph 1, first %g nohead "
                          "dt 2 lw 2 lc rgb '#cc0000' front\nset label 3 'goal %g %%' at graph 0.01, first %g "
                          "offset 0, 0.6 textcolor rgb '#cc0000' front\n"
                          "plot 'pool.dat' using 2:xtic(1) title 'sleep', '' using 3 title 'wake (after a pause)', "
                          "'' using 4 title 'wake right after sleep'",
                          lo < 0 ? 0 : lo, 100 * HA_POOL_THROUGHPUT_GOAL, 100 * HA_POOL_THROUGHPUT_GOAL,
                          100 * HA_POOL_THROUGHPUT_GOAL, 100 * HA_POOL_THROUGHPUT_GOAL);
    int rc = cmd ? script(r, tmp, names[PLOT_POOL], "900,500",
                          "pool sleep (offload) and wake (restore) as a share of the pinned-copy ceiling", cmd)
                 : -1;
    free(cmd);
    return rc;
}

int plots_prepare(const m_run *r, const char *tmp)
{
    int drawn = 0, rc;
    if (r->has[RUN_BENCH]) {
        if ((rc = paths_plot(r, tmp)) < 0)
            return -1;
        drawn |= rc == 0 ? 1 << PLOT_PATHS : 0;
        if ((rc = sweep_plot(r, tmp)) < 0)
            return -1;
        drawn |= rc == 0 ? 1 << PLOT_SWEEP : 0;
    }
    if (r->has[RUN_POOL]) {
        if ((rc = pool_plot(r, tmp)) < 0)
            return -1;
        drawn |= rc == 0 ? 1 << PLOT_POOL : 0;
    }
    return drawn;
}

/* Moves a drawn file into the run folder; link() refuses to replace one. */
static int place(const char *tmp, const char *name, const char *dir, char **err)
{
    char *from = rf_join(tmp, name), *to = rf_join(dir, name);
    int rc = 0;
    if (!from || !to || link(from, to) != 0) {
        *err = rf_printf("%s/%s: %s", dir, name, errno == EEXIST ? "exists; not overwritten" : strerror(errno));
        rc = -1;
    }
    free(from);
    free(to);
    return rc;
}

static void track(const char *tmp, const char *name)
{
    char *p = rf_join(tmp, name);
    if (p)
        ha_cleanup_add(p);
    free(p);
}

int plots_make(const m_run *r, const char *dir, plot_result *out, char **err)
{
    memset(out, 0, sizeof *out);
    if (!gp_available())
        return 1;
    char *tmp = rf_printf("%s/.report-plots-XXXXXX", dir);
    if (!tmp || !mkdtemp(tmp)) {
        *err = rf_printf("%s: cannot make a folder for plots: %s", dir, strerror(errno));
        free(tmp);
        return -1;
    }
    ha_cleanup_add(tmp);
    track(tmp, "gnuplot.log");
    for (int i = 0; plot_files[i]; i++)
        track(tmp, plot_files[i]);
    int want = plots_prepare(r, tmp), rc = 0;
    if (want < 0) {
        *err = rf_printf("%s: cannot write the plots' data: %s", dir, strerror(errno));
        rc = -1;
    }
    for (int i = 0; !rc && i < PLOT_N; i++) {
        if (!(want & (1 << i)))
            continue;
        char *gp = rf_printf("%s.gp", names[i]), *why = NULL;
        char e[300] = "";
        if (!gp || gp_run(tmp, gp, e, sizeof e) != 0) {
            /* A figure gnuplot refuses (a record's values it cannot place) is
             * left out, and the report says why; the others still go in. */
            out->why[i] = strdup(e[0] ? e : "gnuplot failed");
            char *png = rf_printf("%s/%s.png", tmp, names[i]), *svg = rf_printf("%s/%s.svg", tmp, names[i]);
            if (png)
                unlink(png);
            if (svg)
                unlink(svg);
            free(png);
            free(svg);
            char *log = rf_join(tmp, "gnuplot.log");
            if (log)
                unlink(log);
            free(log);
        } else {
            out->drawn |= 1 << i;
        }
        free(gp);
        free(why);
    }
    for (int i = 0; !rc && i < PLOT_N; i++) {
        if (!(out->drawn & (1 << i)))
            continue;
        char *png = rf_printf("%s.png", names[i]), *svg = rf_printf("%s.svg", names[i]);
        rc = png && svg ? place(tmp, png, dir, err) || place(tmp, svg, dir, err) : -1;
        free(png);
        free(svg);
    }
    if (rc)
        for (int i = 0; plot_files[i]; i++) {
            char *p = rf_join(dir, plot_files[i]);
            /* only what this run placed: report refused to start when one existed */
            if (p)
                unlink(p);
            free(p);
        }
    if (ha_remove_flat_dir(tmp) != 0)
        fprintf(stderr, "report: could not remove %s: %s\n", tmp, strerror(errno));
    free(tmp);
    return rc;
}

void plots_result_free(plot_result *p)
{
    for (int i = 0; i < PLOT_N; i++)
        free(p->why[i]);
    memset(p, 0, sizeof *p);
}
