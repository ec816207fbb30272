#include "plots.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "records.h"

const char *const plot_files[] = {"report_paths.png", "report_paths.svg", "report_sweep.png",
                                  "report_sweep.svg", "report_pool.png",  "report_pool.svg",
                                  NULL};

/* Each plot is drawn twice, once per terminal, from the same commands. */
static int draw(const char *tmp, const char *name, const char *size, const char *commands)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "cd '%s' && gnuplot 2>gnuplot.log", tmp);
    FILE *g = popen(cmd, "w");
    if (!g)
        return -1;
    fprintf(g, "set terminal pngcairo size %s noenhanced font ',10'\nset output '%s.png'\n%s\n"
               "set terminal svg size %s noenhanced font ',10'\nset output '%s.svg'\nreplot\n",
            size, name, commands, size, name);
    return pclose(g) == 0 ? 0 : -1;
}

static int paths_plot(const json_t *b, const char *tmp)
{
    const json_t *h = json_object_get(b, "headline");
    if (!json_is_object(h))
        return 1;
    char p[700];
    snprintf(p, sizeof p, "%s/paths.dat", tmp);
    FILE *f = fopen(p, "w");
    if (!f)
        return -1;
    const char *fk = rec_str(h, "fast_kind"), *sk = rec_str(h, "slow_kind");
    size_t i;
    const json_t *r;
    json_array_foreach(json_object_get(b, "rows"), i, r) {
        const char *k = rec_str(r, "kind"), *path = rec_str(r, "path");
        bool mine = !strcmp(k, fk) && strncmp(path, "copy", 4);
        bool slow = !strcmp(k, sk) && !strncmp(path, "copy", 4);
        if (json_integer_value(json_object_get(r, "repeat")) != 1 ||
            json_is_true(json_object_get(r, "skipped")) || !(mine || slow || !strncmp(path, "fault", 5)))
            continue;
        fprintf(f, "\"%s%s%s\"\t%.6g\t%.6g\n", path, *rec_str(r, "candidate") ? " " : "",
                rec_str(r, "candidate"), rec_num(r, "median_ns"), rec_num(r, "spread_ns"));
    }
    fclose(f);
    char title[300];
    snprintf(title, sizeof title,
             "set title 'paths on %s (median ns, bars: robust spread)'\n"
             "set datafile separator '\\t'\nset style fill solid 0.6\nset boxwidth 0.7\n"
             "set logscale y\nset ylabel 'ns'\nset xtics rotate by -40 left font ',8'\n"
             "set bmargin 16\nset grid y\nset offsets 1, 1, 0, 0\n", fk);
    char cmds[1000];
    snprintf(cmds, sizeof cmds, "%splot 'paths.dat' using 0:2:3:xtic(1) with boxerrorbars lc rgb '#4477aa' notitle",
             title);
    return draw(tmp, "report_paths", "1200,700", cmds);
}

static int sweep_plot(const json_t *b, const char *tmp)
{
    const json_t *sw = json_object_get(b, "sweep");
    if (!json_is_object(sw))
        return 1;
    char p[700];
    snprintf(p, sizeof p, "%s/sweep.dat", tmp);
    FILE *f = fopen(p, "w");
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
    fclose(f);
    char cmds[1000];
    snprintf(cmds, sizeof cmds,
             "set title 'size sweep on %s: runtime copy vs host read'\nset logscale xy 2\n"
             "set xlabel 'bytes'\nset ylabel 'ns per read (median)'\nset key top left\nset grid\n"
             "plot 'sweep.dat' using 1:2:3 with yerrorlines lw 2 title 'runtime D2H copy', "
             "'' using 1:4:5 with yerrorlines lw 2 title 'host read', "
             "'' using 1:6:7 with yerrorlines lw 2 dt 2 title 'host read, non-temporal'",
             rec_str(sw, "kind"));
    return draw(tmp, "report_sweep", "900,560", cmds);
}

static int pool_plot(const json_t *p, const char *tmp)
{
    char path[700];
    snprintf(path, sizeof path, "%s/pool.dat", tmp);
    FILE *f = fopen(path, "w");
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
    fclose(f);
    if (!rows)
        return 1;
    return draw(tmp, "report_pool", "900,500",
                "set title 'sleep (offload) and wake (restore) against the pinned-copy ceiling'\n"
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

int plots_make(const rundir *r, const char *dir, char *err, size_t errlen)
{
    if (system("command -v gnuplot >/dev/null 2>&1") != 0)
        return 1;
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s/.report-plots-XXXXXX", dir);
    if (!mkdtemp(tmp)) {
        snprintf(err, errlen, "%s: cannot make a folder for plots: %s", dir, strerror(errno));
        return -1;
    }
    int rc = 0;
    if (r->rec[RUN_BENCH] && (paths_plot(r->rec[RUN_BENCH], tmp) < 0 || sweep_plot(r->rec[RUN_BENCH], tmp) < 0))
        rc = -1;
    if (r->rec[RUN_POOL] && pool_plot(r->rec[RUN_POOL], tmp) < 0)
        rc = -1;
    if (rc)
        snprintf(err, errlen, "gnuplot failed; see its log in %s", tmp);
    for (int i = 0; !rc && plot_files[i]; i++)
        rc = place(tmp, plot_files[i], dir, err, errlen);
    if (!rc) {
        char cmd[700];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
        if (system(cmd) != 0)
            fprintf(stderr, "report: could not remove %s\n", tmp);
    }
    return rc;
}
