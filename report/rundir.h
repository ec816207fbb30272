/* A run folder's records, loaded and checked once for every report tool. */
#ifndef HA_RUNDIR_H
#define HA_RUNDIR_H

#include <jansson.h>
#include <stdbool.h>

enum { RUN_ENV, RUN_PROBE, RUN_MGA, RUN_BENCH, RUN_POOL, RUN_NREC };

typedef struct rundir {
    char path[512];
    json_t *rec[RUN_NREC]; /* NULL where the run has no such record */
    const json_t *env;     /* the env block of whichever record has one */
} rundir;

extern const char *const run_files[RUN_NREC]; /* "env.json", ... */
extern const char *const run_tools[RUN_NREC]; /* "env", "probe_discriminator", ... */

/* Loads every record present. A present record that does not parse or
 * check fails the whole load (err names it); a run with no record at all
 * fails too. */
int rundir_load(rundir *r, const char *path, char *err, size_t errlen);
void rundir_free(rundir *r);

bool rundir_simulated(const rundir *r);

/* The group a run belongs to in trends and series: "device / backend",
 * marked when simulated. */
void rundir_group(const rundir *r, char *buf, size_t n);

/* The run folders under dir (those holding env.json or a probe record), in
 * name order, which run_all.sh makes time order. Returns the count, or -1
 * when dir cannot be read. names holds max entries of 256 bytes. */
int rundir_list(const char *dir, char (*names)[256], int max);

#endif
