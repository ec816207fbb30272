/* The report's plots, drawn by gnuplot as PNG and SVG. */
#ifndef HA_PLOTS_H
#define HA_PLOTS_H

#include <stddef.h>

#include "rundir.h"

/* The files plots_make may write into a run folder, ended by NULL. */
extern const char *const plot_files[];

/* What plots_prepare wrote, or-ed. */
enum { PLOT_PATHS = 1, PLOT_SWEEP = 2, PLOT_POOL = 4 };

/* Writes the data files and gnuplot scripts (report_*.gp) for what the
 * run's records allow into the folder tmp, without running gnuplot.
 * Returns the PLOT_* drawn, or -1 when a file could not be written. */
int plots_prepare(const rundir *r, const char *tmp);

/* Draws what the run's records allow into dir. Returns 0 when drawn, 1
 * when gnuplot is not installed, -1 on a failure (err says which). */
int plots_make(const rundir *r, const char *dir, char *err, size_t errlen);

#endif
