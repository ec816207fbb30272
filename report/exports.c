#include "exports.h"

#include <string.h>

#include "jsonw.h"
#include "records.h"

const char *const export_files[] = {"junit.xml", "benchmark.json", "benchmark_bigger.json",
                                    "results.csv", NULL};

static void xml(FILE *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20 || *s == '\t')
                fputc(*s, f);
        }
    }
}

static void testcase(FILE *f, const char *cls, const char *name, const char *kind, const char *msg)
{
    fputs("    <testcase classname=\"", f);
    xml(f, cls);
    fputs("\" name=\"", f);
    xml(f, name);
    fputs("\"", f);
    if (!kind) {
        fputs("/>\n", f);
        return;
    }
    fprintf(f, "><%s message=\"", kind);
    xml(f, msg);
    fputs("\"/></testcase>\n", f);
}

/* A candidate that does not separate readable from unreadable memory is a
 * failed test case; one that cannot be decided here is skipped. */
void export_junit(FILE *f, const rundir *r)
{
    char cls[256];
    snprintf(cls, sizeof cls, "hostaccess.%s.%s", rec_str(r->env, "backend"), rec_str(r->env, "device_name"));
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"hostaccess\">\n");
    const json_t *p = r->rec[RUN_PROBE];
    if (p) {
        size_t i, n = json_array_size(json_object_get(p, "candidates")), fails = 0, skips = 0;
        const json_t *c;
        json_array_foreach(json_object_get(p, "candidates"), i, c) {
            fails += !strcmp(rec_str(c, "verdict"), "fails");
            skips += !strcmp(rec_str(c, "verdict"), "undetermined");
        }
        fprintf(f, "  <testsuite name=\"probe_discriminator\" tests=\"%zu\" failures=\"%zu\" skipped=\"%zu\">\n",
                n, fails, skips);
        json_array_foreach(json_object_get(p, "candidates"), i, c) {
            const char *v = rec_str(c, "verdict");
            char msg[1024] = "";
            if (!strcmp(v, "fails")) {
                size_t l = (size_t)snprintf(msg, sizeof msg, "does not distinguish:");
                size_t m;
                const json_t *w;
                json_array_foreach(json_object_get(c, "wrong_on"), m, w) if (l < sizeof msg)
                    l += (size_t)snprintf(msg + l, sizeof msg - l, " %s on %s;", rec_str(w, "error"), rec_str(w, "kind"));
            }
            testcase(f, cls, rec_str(c, "name"),
                     !strcmp(v, "distinguishes") ? NULL : !strcmp(v, "fails") ? "failure" : "skipped",
                     !strcmp(v, "fails") ? msg : rec_str(c, "why"));
        }
        fprintf(f, "  </testsuite>\n");
    }
    const json_t *pool = r->rec[RUN_POOL];
    if (pool) {
        const json_t *s = json_object_get(pool, "summary");
        fprintf(f, "  <testsuite name=\"pool_check\" tests=\"%zu\" failures=\"%lld\" skipped=\"%lld\">\n",
                json_array_size(json_object_get(pool, "checks")), rec_int(s, "failed"),
                rec_int(s, "unsupported"));
        size_t i;
        const json_t *c;
        json_array_foreach(json_object_get(pool, "checks"), i, c) {
            char name[200];
            snprintf(name, sizeof name, "%s [%s]", rec_str(c, "name"), rec_str(c, "mode"));
            const char *st = rec_str(c, "status");
            testcase(f, cls, name, !strcmp(st, "PASS") ? NULL : !strcmp(st, "FAIL") ? "failure" : "skipped",
                     rec_str(c, "detail"));
        }
        fprintf(f, "  </testsuite>\n");
    }
    fprintf(f, "</testsuites>\n");
}

static void bench_entry(jw *w, const char *name, const char *unit, double value, const char *range,
                        const char *extra)
{
    jw_obj(w);
    jw_kstr(w, "name", name);
    jw_kstr(w, "unit", unit);
    jw_kdbl(w, "value", value);
    if (range)
        jw_kstr(w, "range", range);
    if (extra)
        jw_kstr(w, "extra", extra);
    jw_obj_end(w);
}

void export_benchmark(FILE *f, const rundir *r, int bigger)
{
    jw w;
    jw_init(&w, f, true);
    jw_arr(&w);
    const json_t *b = r->rec[RUN_BENCH], *p = r->rec[RUN_POOL];
    size_t i;
    const json_t *row;
    char name[256], range[64], extra[200];
    if (b && !bigger) {
        json_array_foreach(json_object_get(b, "rows"), i, row) {
            if (json_integer_value(json_object_get(row, "repeat")) != 1 ||
                json_is_true(json_object_get(row, "skipped")))
                continue;
            snprintf(name, sizeof name, "%s%s%s%s%s", rec_str(row, "path"), *rec_str(row, "kind") ? " / " : "",
                     rec_str(row, "kind"), *rec_str(row, "candidate") ? " / " : "", rec_str(row, "candidate"));
            snprintf(range, sizeof range, "± %.3g", rec_num(row, "spread_ns"));
            snprintf(extra, sizeof extra, "n=%lld batch=%lld p99=%.4g ns", rec_int(row, "n"),
                     rec_int(row, "batch"), rec_num(row, "p99_ns"));
            bench_entry(&w, name, "ns", rec_num(row, "median_ns"), range, extra);
        }
    }
    if (p && bigger) {
        json_array_foreach(json_object_get(p, "throughput"), i, row) {
            if (!json_is_true(json_object_get(row, "measured")))
                continue;
            double gib = rec_num(row, "pool_bytes") / (1 << 30);
            const char *what[] = {"sleep_gbs", "wake_gbs", "ceiling_d2h_gbs", "ceiling_h2d_gbs"};
            for (int k = 0; k < 4; k++) {
                snprintf(name, sizeof name, "pool %.2f GiB %s", gib, what[k]);
                bench_entry(&w, name, "GB/s", rec_num(row, what[k]), NULL, rec_str(row, "mode"));
            }
        }
    }
    jw_arr_end(&w);
    jw_finish(&w);
}

static void csv_field(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void csv_line(FILE *f, const char *section, const char *name, const char *kind,
                     const char *metric, double value, const char *unit)
{
    const char *cols[] = {section, name, kind, metric};
    for (int i = 0; i < 4; i++) {
        csv_field(f, cols[i]);
        fputc(',', f);
    }
    fprintf(f, "%.10g,", value);
    csv_field(f, unit);
    fputc('\n', f);
}

void export_csv(FILE *f, const rundir *r)
{
    fprintf(f, "section,name,kind_or_mode,metric,value,unit\n");
    size_t i, k;
    const json_t *x, *y;
    if (r->rec[RUN_PROBE]) {
        json_array_foreach(json_object_get(r->rec[RUN_PROBE], "kinds"), i, x)
            if (rec_tri(x, "readable") >= 0)
                csv_line(f, "truth", rec_str(x, "name"), "", "readable", rec_tri(x, "readable"), "bool");
        json_array_foreach(json_object_get(r->rec[RUN_PROBE], "candidates"), i, x) {
            csv_line(f, "verdict", rec_str(x, "name"), "", "distinguishes",
                     json_is_true(json_object_get(x, "distinguishes")), "bool");
            json_array_foreach(json_object_get(x, "results"), k, y)
                csv_line(f, "status", rec_str(x, "name"), rec_str(y, "kind"), rec_str(y, "status_name"),
                         rec_num(y, "status"), "status");
        }
    }
    if (r->rec[RUN_BENCH])
        json_array_foreach(json_object_get(r->rec[RUN_BENCH], "rows"), i, x) {
            if (json_is_true(json_object_get(x, "skipped")))
                continue;
            char name[200];
            snprintf(name, sizeof name, "%s%s%s#%lld", rec_str(x, "path"), *rec_str(x, "candidate") ? " " : "",
                     rec_str(x, "candidate"), rec_int(x, "repeat"));
            csv_line(f, "bench", name, rec_str(x, "kind"), "median", rec_num(x, "median_ns"), "ns");
            csv_line(f, "bench", name, rec_str(x, "kind"), "spread", rec_num(x, "spread_ns"), "ns");
        }
    if (r->rec[RUN_POOL]) {
        json_array_foreach(json_object_get(r->rec[RUN_POOL], "checks"), i, x)
            csv_line(f, "pool_check", rec_str(x, "name"), rec_str(x, "mode"), rec_str(x, "status"),
                     rec_tri(x, "passed"), "pass");
        json_array_foreach(json_object_get(r->rec[RUN_POOL], "throughput"), i, x) {
            if (!json_is_true(json_object_get(x, "measured")))
                continue;
            char name[64];
            snprintf(name, sizeof name, "pool %.0f bytes", rec_num(x, "pool_bytes"));
            const char *what[] = {"sleep_gbs", "wake_gbs", "ceiling_d2h_gbs", "ceiling_h2d_gbs"};
            for (int m = 0; m < 4; m++)
                csv_line(f, "throughput", name, rec_str(x, "mode"), what[m], rec_num(x, what[m]), "GB/s");
        }
    }
}
