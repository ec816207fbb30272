/* A run folder's records, loaded and checked once for every report tool. */
#ifndef HA_RUNDIR_H
#define HA_RUNDIR_H

#include <jansson.h>
#include <stdbool.h>

enum { RUN_ENV, RUN_PROBE, RUN_MGA, RUN_BENCH, RUN_POOL, RUN_NREC };

typedef struct rundir {
    char path[512];
    bool complete;        /* MANIFEST.json says whole, and the records match it */
    char incomplete[400]; /* why not, when !complete */
    json_t *rec[RUN_NREC]; /* NULL where the run has no such record */
    const json_t *env;     /* the env block of whichever record has one */
} rundir;

extern const char *const run_files[RUN_NREC]; /* "env.json", ... */
extern const char *const run_tools[RUN_NREC]; /* "env", "probe_discriminator", ... */

/* Loads every record present. A present record that does not parse or
 * check fails the whole load (err names it); a run with no record at all
 * fails too. So does a run that is not whole — no MANIFEST.json (run_all.sh
 * writes it last), a manifest that says incomplete, a record that differs
 * from it, a temporary file left behind — unless allow_incomplete, which
 * loads what is there with complete false and the reason. The bench's raw
 * samples are read only when with_samples (compare judges on them; the
 * report needs the statistics alone, and the samples are most of a run). */
int rundir_load(rundir *r, const char *path, bool allow_incomplete, bool with_samples, char *err, size_t errlen);
void rundir_free(rundir *r);

bool rundir_simulated(const rundir *r);

/* The group a run belongs to in trends and series: "device / backend",
 * marked when simulated. */
void rundir_group(const rundir *r, char *buf, size_t n);

/* The run folders under dir (those holding env.json or a probe record), in
 * name order, which run_all.sh makes time order. Returns the count, or -1
 * when dir cannot be read. names holds max entries of 256 bytes. */
int rundir_list(const char *dir, char (*names)[256], int max);

/* The run's completeness alone, for a listing that skips what is not whole:
 * 0 whole, -1 not (why says why). */
int rundir_check_whole(const char *path, char *why, size_t n);

#endif
