/* Exports for what people already run: JUnit XML (CI systems), the JSON of
 * github-action-benchmark (customSmallerIsBetter for timings,
 * customBiggerIsBetter for throughput), and a long-form CSV whose every
 * row carries the run's keys, so the CSVs of many runs concatenate. */
#ifndef HA_EXPORTS_H
#define HA_EXPORTS_H

#include <stdio.h>

#include "model.h"

/* The exports, one row each: the file and its writer. report writes them
 * in this order, REPORT.md links them, and report refuses a folder that
 * holds any of them. Ended by a NULL file. */
typedef struct export_def {
    const char *file;
    int (*write)(FILE *f, const m_run *r);
} export_def;
extern const export_def exports[];

/* JUnit: a candidate's verdict is a passing test case with the verdict as
 * a property; only broken expectations fail (the fixed kind not
 * host-readable, a pool check failing, a throughput goal missed).
 * Each returns 0, or -1 out of memory: what it wrote is then not whole
 * and the caller must not keep it. */
int export_junit(FILE *f, const m_run *r);
int export_benchmark(FILE *f, const m_run *r, int bigger_is_better);
int export_csv(FILE *f, const m_run *r);
/* Bencher Metric Format (bencher.dev): one object keyed by benchmark name
 * (as in benchmark.json), each timing's measure "latency" in ns with its
 * interval over the processes as lower_value and upper_value, each pool
 * size's figures under the record's keys (rates in GB/s, goals in % of the
 * ceiling with their cycles' range). */
int export_bmf(FILE *f, const m_run *r);

/* A JUnit test case; kind NULL passes, else "failure" or "skipped" with
 * msg. Properties: name=value pairs, NULL-terminated (may be NULL). */
void junit_case(FILE *f, const char *cls, const char *name, const char *kind, const char *msg,
                const char *const *props);

#endif
