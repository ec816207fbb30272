/* The trend page's parts, apart from reading folders: what one run
 * contributes, each group's data file and gnuplot script, the links from
 * each plotted point to its run, and the HTML. Record text reaches the
 * script only as quoted data and the page only escaped (trend.c runs it;
 * the fuzz target drives it on any record). */
#ifndef HA_TRENDPAGE_H
#define HA_TRENDPAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "fleetmodel.h"
#include "model.h"
#include "trendmarks.h"

typedef struct trend_run {
    char *dir;   /* the folder's name */
    char *link;  /* where its REPORT.md is, for the page's links */
    char *group, *runtime, *tool, *time;
    bool sim;
    bool slowed; /* HOSTACCESS_TEST_SLOWDOWN: slowed on purpose, not evidence */
    /* ns, each a row's figure as report shows it (m_row_figure);
     * throughput in % of the ceiling. A figure whose definition
     * changed is kept under its own name: slow_other is an older record's
     * copy of another allocation than the one read fast (never a like-for-
     * like slow path), and a schema-1 wake was timed right after its sleep,
     * so it lands in wake_now. */
    double fast, cold, slow, slow_other, hardened, sleep, wake, wake_now;
    double fast_lo, fast_hi; /* the fast path's 95 % interval over its processes; NaN without */
    long long pause_ms; /* the wake's pause after its sleep; -1 none */
    int sleep_goal, wake_goal; /* ha_goal_outcome as report judged it; -1 none */
    int ndist, ncand;
} trend_run;

typedef struct trend_skip {
    char *dir, *why;
} trend_skip;

/* What the run in folder name contributes to the page; link is where its
 * report lies. Strings are malloc'd (trend_run_free). */
void trend_summarise(trend_run *u, const m_run *r, const char *name, const char *link);
void trend_run_free(trend_run *u);

/* Orders runs into groups (device and backend), each by run time. */
void trend_sort(trend_run *runs, size_t n);

/* out/name into a malloc'd path, registered for removal on a signal or a failure. */
char *trend_track(const char *out, const char *name);

/* Writes groupG.dat and groupG.gp into out for runs[from, to): the plots
 * that have data, each titled SIMULATED where the group is, with a dotted
 * line before the first run of each of marks whose two runs are in the
 * group. The script also prints where each plot's axes landed
 * (groupG_K.box), from which the page maps each point to its run. 0, or -1
 * when a file could not be written. */
int trend_write_group(const char *out, int g, const trend_run *runs, size_t from, size_t to,
                      const trend_mark *marks, size_t nmarks);

/* Writes out/index.html for runs (sorted into groups), the folders
 * skipped as not whole, with fl (NULL: none) and more than one host a
 * fleet view first, and each group's change points among marks linking
 * both their runs (those whose runs are not both in one group are named
 * apart). Returns the number of groups, or -1. */
int trend_write_html(const char *out, const char *dir, const trend_run *runs, size_t nruns,
                     const trend_skip *skipped, size_t nskipped, const fleet *fl, const trend_mark *marks,
                     size_t nmarks);

#endif
