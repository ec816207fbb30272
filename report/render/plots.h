/* The report's plots, drawn by gnuplot as PNG and SVG: the bench's paths
 * coloured by family against the copy, the size sweep, and the pool's
 * throughput as a share of its ceiling against the goal. A simulated run's
 * images carry a SIMULATED stamp. */
#ifndef HA_PLOTS_H
#define HA_PLOTS_H

#include <stddef.h>

#include "model.h"

/* The files plots_make may write into a run folder, ended by NULL. */
extern const char *const plot_files[];

enum { PLOT_PATHS, PLOT_SWEEP, PLOT_POOL, PLOT_N };

typedef struct plot_result {
    int drawn;             /* 1 << PLOT_* for each figure placed in the folder */
    char *why[PLOT_N];     /* a figure gnuplot refused: its first complaint (malloc'd) */
} plot_result;

/* Writes the data files and gnuplot scripts (report_*.gp) for what the
 * run's records allow into the folder tmp, without running gnuplot.
 * Returns 1 << PLOT_* for each, or -1 when a file could not be written. */
int plots_prepare(const m_run *r, const char *tmp);

/* Draws what the run's records allow into dir; a figure gnuplot refuses is
 * left out, with the reason in out->why, and the rest still drawn.
 * Returns 0, 1 when gnuplot is not installed, or -1 when the folder could
 * not be written (*err says why; nothing is left behind). */
int plots_make(const m_run *r, const char *dir, plot_result *out, char **err);
void plots_result_free(plot_result *p);

#endif
