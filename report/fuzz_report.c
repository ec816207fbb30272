/* Fuzz target for the whole report path: any bytes that the reader takes
 * as a record go through everything a reviewer's `report` and `trend` do
 * with it — the Markdown, the exports, the plots' data and gnuplot scripts,
 * the trend page — into a scratch folder. Nothing may crash, leak or trip
 * a sanitizer, whatever the record's text holds.
 *   libFuzzer:  make fuzz   (build-fuzz/fuzz_report)
 *   replay:     build/tests/fuzz_replay_report tests/fuzz/corpus (make check, ASan too) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"
#include "exports.h"
#include "markdown.h"
#include "plots.h"
#include "records.h"
#include "trendpage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[64];

static void remove_scratch(void) { rmdir(scratch); }

static void drive(const rundir *r)
{
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        return;
    md_write(null, r, "yes");
    export_junit(null, r);
    export_benchmark(null, r, 0);
    export_benchmark(null, r, 1);
    export_csv(null, r);
    fclose(null);
    char dir[128];
    snprintf(dir, sizeof dir, "%s/w", scratch);
    if (mkdir(dir, 0700) != 0)
        return;
    plots_prepare(r, dir);
    static trend_run u[1];
    trend_summarise(&u[0], r, "fuzz-run");
    char script[64];
    trend_write_group(dir, 0, u, 0, 1, script, sizeof script);
    trend_write_html(dir, "fuzz", u, 1, NULL, 0, NULL);
    ha_remove_flat_dir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!scratch[0]) {
        snprintf(scratch, sizeof scratch, "/tmp/ha-fuzz-report-XXXXXX");
        if (!mkdtemp(scratch))
            abort();
        atexit(remove_scratch);
    }
    char err[512];
    json_t *j = rec_load_buffer((const char *)data, size, err, sizeof err);
    if (!j)
        return 0;
    rundir r;
    memset(&r, 0, sizeof r);
    snprintf(r.path, sizeof r.path, "%s", scratch);
    r.complete = true;
    const char *tool = json_string_value(json_object_get(j, "tool"));
    for (int i = 0; i < RUN_NREC; i++)
        if (tool && !strcmp(tool, run_tools[i]))
            r.rec[i] = j;
    r.env = json_object_get(j, "env");
    drive(&r);
    json_decref(j);
    return 0;
}
