/* Which rows compare judges, and how it names them: one answer for compare,
 * changes and the A/B judgement (abjudge.c). */
#include "regress.h"

#include <string.h>

#include "families.h"
#include "readfile.h"

/* A path's row, not one of the instruments. */
bool regress_row_judged(const m_row *r) { return !r->skipped && !ha_family_is_instrument(m_row_family(r)); }

/* A run-bound family's rows (families.def: the cold read, one line on
 * each of 512 pages, costs what the pages' placement costs, and that moves
 * between runs of one machine beyond what one run's processes sample: on a
 * fresh H200 two A/A runs of 6 and 8 processes differed by x0.87 [0.82,
 * 0.93] on fast_cold, results/gate-proc-h200/m5), and os_proc_maps, whose
 * cost follows the process's memory layout: reading /proc/self/maps up to
 * the mapping costs what the lines before it cost, and where the mapping
 * lands differs run to run (±50 % between two runs of one build on the
 * H200). */
bool regress_row_run_bound(const m_row *r)
{
    const ha_family *f = ha_family_find(m_row_family(r));
    return (r->candidate && !strcmp(r->candidate, "os_proc_maps")) || (f && f->run_bound);
}

bool regress_row_gated(const m_row *r)
{
    return r->repeat == 1 && regress_row_judged(r) && !regress_row_run_bound(r);
}

/* In an A/B session every timed row is judged: the reason a row is run-bound
 * (where the mapping or the pages land differs between runs) does not hold
 * inside one interleaved session, where each process of either side draws
 * its own placement, so the draws average out of B/A. */
bool regress_row_session_judged(const m_row *r) { return r->repeat == 1 && regress_row_judged(r); }

char *regress_row_name(const m_row *r)
{
    return rf_printf("%s / %s%s%s", r->path, r->kind, *r->candidate ? " / " : "", r->candidate);
}

size_t regress_usable_procs(const m_bench *b) { return b->has_procs ? (size_t)b->procs_finished : 1; }
