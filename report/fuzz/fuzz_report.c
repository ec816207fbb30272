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
#include "derive.h"
#include "exports.h"
#include "markdown.h"
#include "plots.h"
#include "text.h"
#include "trendpage.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char scratch[64];

static void remove_scratch(void) { rmdir(scratch); }

static void drive(const m_run *r)
{
    FILE *null = fopen("/dev/null", "w");
    if (!null)
        return;
    md_opts o = {0};
    md_write(null, r, &o);
    md_write_pr(null, r, &(md_opts){0});
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
    trend_run u[1];
    trend_summarise(&u[0], r, "fuzz-run", "fuzz-run/REPORT.md");
    trend_write_group(dir, 0, u, 0, 1, NULL, 0);
    trend_write_html(dir, "fuzz", u, 1, NULL, 0, NULL, NULL, 0);
    trend_run_free(&u[0]);
    ha_remove_flat_dir(dir);
    text_pool_free();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!scratch[0]) {
        snprintf(scratch, sizeof scratch, "/tmp/ha-fuzz-report-XXXXXX");
        if (!mkdtemp(scratch))
            abort();
        atexit(remove_scratch);
    }
    m_run r;
    char *err = NULL;
    if (m_load_buffer(&r, (const char *)data, size, &err) == 0)
        drive(&r);
    m_free_run(&r);
    free(err);
    return 0;
}
