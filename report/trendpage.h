/* The trend page's parts, apart from reading folders: what one run
 * contributes, each group's data file and gnuplot script, and the HTML.
 * Record text reaches the script only as quoted data and the page only
 * escaped (trend.c runs it; the fuzz target drives it on any record). */
#ifndef HA_TRENDPAGE_H
#define HA_TRENDPAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "fleetmodel.h"
#include "rundir.h"

typedef struct trend_run {
    char dir[256];
    char group[256];
    char version[64];
    char time[32];
    bool sim;
    double fast, cold, slow, hardened, sleep, wake;
    int ndist, ncand;
} trend_run;

typedef struct trend_skip {
    char dir[256];
    char why[400];
} trend_skip;

/* What the run in folder name contributes to the page. */
void trend_summarise(trend_run *u, const rundir *r, const char *name);

/* out/name into p, registered for removal on a signal or a failure. */
void trend_track(const char *out, const char *name, char *p, size_t n);

/* Writes groupG.dat and groupG.gp into out for runs[from, to), every file
 * registered for removal on a signal. The script's name is put in script.
 * 0, or -1 when a file could not be written. */
int trend_write_group(const char *out, int g, const trend_run *runs, size_t from, size_t to, char *script,
                      size_t n);

/* Writes out/index.html for runs (sorted into groups) and the folders
 * skipped as not whole; with fl (NULL: none) and more than one host in
 * it, a fleet view first: a row per host x device, departing cells
 * marked. Returns the number of groups, or -1. */
int trend_write_html(const char *out, const char *dir, const trend_run *runs, size_t nruns,
                     const trend_skip *skipped, size_t nskipped, const fleet *fl);

#endif
