#include "plots.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cleanup.h"
#include "gnuplot.h"
#include "records.h"

const char *const plot_files[] = {"report_paths.png", "report_paths.svg", "report_sweep.png",
                                  "report_sweep.svg", "report_pool.png",  "report_pool.svg",
                                  NULL};

/* Each plot is drawn twice, once per terminal, from the same commands:
 * writes NAME.gp into tmp, which plots_make runs. The title is record text,
 * so it goes in quoted, never pasted. */
static int script(const char *tmp, const char *name, const char *size, const char *title_fmt,
                  const char *title_arg, const char *commands)
{
    char p[700];
    snprintf(p, sizeof p, "%s/%s.gp", tmp, name);
    FILE *g = fopen(p, "w");
    if (!g)
        return -1;
    ha_cleanup_add(p);
    fprintf(g, "set terminal pngcairo size %s noenhanced font ',10'\nset output '%s.png'\nset title ", size,
            name);
    char title[400];
    snprintf(title, sizeof title, title_fmt, title_arg);
    gp_quote(g, title);
    fprintf(g, "\n%s\nset terminal svg size %s noenhanced font ',10'\nset output '%s.svg'\nreplot\n",
            commands, size, name);
    return fclose(g) == 0 ? 0 : -1;
}

/* Opens a data file in tmp, registered for removal on a signal. */
static FILE *data_file(const char *tmp, const char *name)
{
    char p[700];
    snprintf(p, sizeof p, "%s/%s", tmp, name);
    FILE *f = fopen(p, "w");
    if (f)
        ha_cleanup_add(p);
    return f;
}

static int paths_plot(const json_t *b, const char *tmp)
{
    const json_t *h = json_object_get(b, "headline");
    if (!json_is_object(h))
        return 1;
    FILE *f = data_file(tmp, "paths.dat");
    if (!f)
        return -1;
    const char *fk = rec_str(h, "fast_kind"), *sk = rec_str(h, "slow_kind");
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(b, "rows"), i, r) {
        const char *k = rec_str(r, "kind"), *path = rec_str(r, "path"), *fam = rec_row_family(r);
        bool copy = !strcmp(fam, "copy");
        bool mine = !strcmp(k, fk) && !copy && strcmp(fam, "canary");
        bool slow = !strcmp(k, sk) && copy;
        if (json_integer_value(json_object_get(r, "repeat")) != 1 ||
            json_is_true(json_object_get(r, "skipped")) || !(mine || slow || !strcmp(fam, "fault")))
            continue;
        char label[300];
        snprintf(label, sizeof label, "%s%s%s", path, *rec_str(r, "candidate") ? " " : "",
                 rec_str(r, "candidate"));
        gp_data_str(f, label);
        fprintf(f, "\t%.6g\t%.6g\n", rec_num(r, "median_ns"), rec_num(r, "spread_ns"));
    }
    if (fclose(f) != 0)
        return -1;
    return script(tmp, "report_paths", "1200,700", "paths on %s (median ns, bars: robust spread)", fk,
                  "set datafile separator '\\t'\nset style fill solid 0.6\nset boxwidth 0.7\n"
                  "set logscale y\nset ylabel 'ns'\nset xtics rotate by -40 left font ',8'\n"
                  "set bmargin 16\nset grid y\nset offsets 1, 1, 0, 0\n"
                  "plot 'paths.dat' using 0:2:3:xtic(1) with boxerrorbars lc rgb '#4477aa' notitle");
}

static int sweep_plot(const json_t *b, const char *tmp)
{
    const json_t *sw = json_object_get(b, "sweep");
    if (!json_is_object(sw))
        return 1;
    FILE *f = data_file(tmp, "sweep.dat");
    if (!f)
        return -1;
    size_t i;
    const json_t *pt;
    json_array_foreach(json_object_get(sw, "points"), i, pt) {
        const json_t *c = json_object_get(pt, "copy"), *r = json_object_get(pt, "read"),
                     *n = json_object_get(pt, "read_nt");
        fprintf(f, "%lld %.6g %.6g %.6g %.6g", (long long)rec_num(pt, "size_bytes"),
                rec_num(c, "median_ns"), rec_num(c, "spread_ns"), rec_num(r, "median_ns"),
                rec_num(r, "spread_ns"));
        if (json_is_object(n))
            fprintf(f, " %.6g %.6g\n", rec_num(n, "median_ns"), rec_num(n, "spread_ns"));
        else
            fprintf(f, " NaN NaN\n");
    }
    if (fclose(f) != 0)
        return -1;
    return script(tmp, "report_sweep", "900,560", "size sweep on %s: runtime copy vs host read",
                  rec_str(sw, "kind"),
                  "set logscale xy 2\n"
                  "set xlabel 'bytes'\nset ylabel 'ns per read (median)'\nset key top left\nset grid\n"
                  "plot 'sweep.dat' using 1:2:3 with yerrorlines lw 2 title 'runtime D2H copy', "
                  "'' using 1:4:5 with yerrorlines lw 2 title 'host read', "
                  "'' using 1:6:7 with yerrorlines lw 2 dt 2 title 'host read, non-temporal'");
}

static int pool_plot(const json_t *p, const char *tmp)
{
    FILE *f = data_file(tmp, "pool.dat");
    if (!f)
        return -1;
    int rows = 0;
    size_t i;
    const json_t *t;
    json_array_foreach(json_object_get(p, "throughput"), i, t) {
        if (!json_is_true(json_object_get(t, "measured")))
            continue;
        fprintf(f, "\"%.2f GiB\" %.4g %.4g %.4g %.4g\n", rec_num(t, "pool_bytes") / (1 << 30),
                rec_num(t, "sleep_gbs"), rec_num(t, "wake_gbs"), rec_num(t, "ceiling_d2h_gbs"),
                rec_num(t, "ceiling_h2d_gbs"));
        rows++;
    }
    if (fclose(f) != 0)
        return -1;
    if (!rows)
        return 1;
    return script(tmp, "report_pool", "900,500", "%s",
                "sleep (offload) and wake (restore) against the pinned-copy ceiling",
                "set style data histogram\nset style histogram clustered gap 1\n"
                "set style fill solid 0.7\nset ylabel 'GB/s'\nset yrange [0:*]\nset grid y\n"
                "set key outside right\n"
                "plot 'pool.dat' using 2:xtic(1) title 'sleep', '' using 3 title 'wake', "
                "'' using 4 title 'ceiling D2H', '' using 5 title 'ceiling H2D'");
}

/* Moves a drawn file into the run folder; link() refuses to replace one. */
static int place(const char *tmp, const char *name, const char *dir, char *err, size_t errlen)
{
    char from[700], to[700];
    snprintf(from, sizeof from, "%s/%s", tmp, name);
    snprintf(to, sizeof to, "%s/%s", dir, name);
    if (access(from, F_OK) != 0)
        return 0;
    if (link(from, to) != 0) {
        snprintf(err, errlen, "%s: %s", to, errno == EEXIST ? "exists; not overwritten" : strerror(errno));
        return -1;
    }
    return 0;
}

int plots_prepare(const rundir *r, const char *tmp)
{
    int drawn = 0, rc;
    if (r->rec[RUN_BENCH]) {
        if ((rc = paths_plot(r->rec[RUN_BENCH], tmp)) < 0)
            return -1;
        drawn |= rc == 0 ? PLOT_PATHS : 0;
        if ((rc = sweep_plot(r->rec[RUN_BENCH], tmp)) < 0)
            return -1;
        drawn |= rc == 0 ? PLOT_SWEEP : 0;
    }
    if (r->rec[RUN_POOL]) {
        if ((rc = pool_plot(r->rec[RUN_POOL], tmp)) < 0)
            return -1;
        drawn |= rc == 0 ? PLOT_POOL : 0;
    }
    return drawn;
}

int plots_make(const rundir *r, const char *dir, char *err, size_t errlen)
{
    if (!gp_available())
        return 1;
    char tmp[600];
    snprintf(tmp, sizeof tmp, "%.500s/.report-plots-XXXXXX", dir);
    if (!mkdtemp(tmp)) {
        snprintf(err, errlen, "%s: cannot make a folder for plots: %s", dir, strerror(errno));
        return -1;
    }
    ha_cleanup_add(tmp);
    /* gnuplot's own files, so a signal while it runs leaves nothing behind */
    char p[800];
    snprintf(p, sizeof p, "%s/gnuplot.log", tmp);
    ha_cleanup_add(p);
    for (int i = 0; plot_files[i]; i++) {
        snprintf(p, sizeof p, "%s/%s", tmp, plot_files[i]);
        ha_cleanup_add(p);
    }
    static const char *const scripts[] = {"report_paths.gp", "report_sweep.gp", "report_pool.gp"};
    int drawn = plots_prepare(r, tmp), rc = 0;
    if (drawn < 0) {
        snprintf(err, errlen, "%s: cannot write the plots' data: %s", dir, strerror(errno));
        rc = -1;
    }
    for (int i = 0; !rc && i < 3; i++)
        if (drawn & (1 << i))
            rc = gp_run(tmp, scripts[i], err, errlen);
    if (rc) {
        /* The log goes with the folder: keep its first line in the message. */
        snprintf(p, sizeof p, "%s/gnuplot.log", tmp);
        FILE *log = fopen(p, "r");
        char line[200] = "";
        if (log && fgets(line, sizeof line, log))
            line[strcspn(line, "\n")] = 0;
        if (log)
            fclose(log);
        size_t l = strlen(err);
        if (line[0])
            snprintf(err + l, errlen - l, " (gnuplot said: %s)", line);
    }
    for (int i = 0; !rc && plot_files[i]; i++)
        rc = place(tmp, plot_files[i], dir, err, errlen);
    if (ha_remove_flat_dir(tmp) != 0)
        fprintf(stderr, "report: could not remove %s: %s\n", tmp, strerror(errno));
    return rc;
}
