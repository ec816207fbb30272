/* The facts every renderer shares, derived from a run the model read:
 * the one direction of the pipeline is read (model.h) -> derive (here) ->
 * render; the model never calls back into this. */
#ifndef HA_DERIVE_H
#define HA_DERIVE_H

#include "model.h"

/* Fills r->d from what the model read. */
void m_derive(m_run *r);

/* Row x's figure (x one of r's bench rows): what report, trend and the
 * exports show of it. */
const m_figure *m_row_figure(const m_run *r, const m_row *x);

/* The headline's two figures, ns: the fast path's and the slow path's
 * (the recorded medians where the rows are absent; NaN where the run has
 * no headline). */
double m_fast_ns(const m_run *r);
double m_slow_ns(const m_run *r);

/* m_read_run, then m_derive: what every tool loads a run with. */
int m_load_run(m_run *r, const char *path, unsigned flags, char **err);

/* m_read_buffer, then m_derive: one record, as the fuzz targets feed it. */
int m_load_buffer(m_run *r, const char *buf, size_t len, char **err);

/* Each process's rows_kept (m_proc) over b's rows: m_derive does it for
 * a run; compare for the view of an A/B session's side B. */
void m_rows_kept(m_bench *b);

#endif
