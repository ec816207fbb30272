/* Checks a parsed record against its declaration (common/fields.def):
 * every field's presence for the record's schema version, its type, its
 * range and its allowed values, in every element of every array. The
 * loader runs it before it reads anything, so a renderer never meets a
 * value of the wrong shape. */
#ifndef HA_VALIDATE_H
#define HA_VALIDATE_H

#include <jansson.h>

/* root checked as a document of the given root field (HF_ROOT_*), at
 * schema version version. 0, or -1 with "$.rows[3].median_ns: expected a
 * number, found a string" in *err (malloc'd). */
int v_check(const json_t *root, int root_field, long long version, char **err);

/* A bench record's processes agree with themselves: each listed once in
 * processes.list, and each row's by_process names listed processes, each
 * once (a process repeated would be counted as several samples). From
 * schema version HA_SCHEMA_DERIVED_ON_READ a measured row has samples and
 * by_process leaves process 1 out (both for report/load/onread.c). 0, or
 * -1 with *err (one line). */
int v_bench_processes(const json_t *root, long long version, char **err);

#endif
