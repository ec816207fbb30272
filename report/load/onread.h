/* What a bench record of schema 4 or later leaves to its reader:
 * the record holds what was measured and how (process 1's samples and block
 * states, the other processes' block medians, the bench's choice of kinds),
 * as pyperf's runs hold values and metadata; every figure that follows from
 * them is derived once, on read (a row's here, the headline's rows in
 * derive.c by families.h's rule), by the functions the bench itself
 * uses (common/stats.c, common/procstats.c). The bench keeps its samples as
 * the record writes them, so its own text and every view of the record
 * show one figure. Older records carry their figures and are read as they
 * are. */
#ifndef HA_ONREAD_H
#define HA_ONREAD_H

#include "model.h"

/* A measured row's statistics, n, outliers, slow first batch and the
 * harness's share, from its samples; process 1's block medians put first
 * in its processes. */
void onread_row(m_run *r, m_row *d);

#endif
