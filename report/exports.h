/* Exports for what people already run: JUnit XML (CI systems), the JSON of
 * github-action-benchmark (customSmallerIsBetter for timings,
 * customBiggerIsBetter for throughput), and a flat CSV. */
#ifndef HA_EXPORTS_H
#define HA_EXPORTS_H

#include <stdio.h>

#include "rundir.h"

extern const char *const export_files[]; /* ended by NULL */

void export_junit(FILE *f, const rundir *r);
void export_benchmark(FILE *f, const rundir *r, int bigger_is_better);
void export_csv(FILE *f, const rundir *r);

#endif
