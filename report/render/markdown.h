/* The run as Markdown, verdict first: REPORT.md beside the records, and
 * the PR comment (report --pr). Both open with the same block — which
 * memory the host can read, which query tells and which one lies, what
 * the fast path buys, how the pool with the fix fares, and the run on one
 * line — then the full tables, each row one line, the large ones folded. */
#ifndef HA_MARKDOWN_H
#define HA_MARKDOWN_H

#include <stdbool.h>
#include <stdio.h>

#include "findings.h"
#include "model.h"
#include "plots.h"

struct ab_tally;

/* GitHub's limit on a comment. */
#define MD_PR_LIMIT 65536

typedef struct md_opts {
    bool pr;    /* a PR comment: no local image links, everything below the verdict folded */
    /* REPORT.md: the plots drawn beside it (NULL: none were made) and why
     * none were, when NULL */
    const plot_result *plots;
    const char *no_plots_why;
    /* What to leave out, largest first, when a PR comment would pass the
     * limit: 1 the full truth table, 2 every bench row, 3 the MemGetAccess
     * matrix, 4 the per-candidate table. */
    int drop;
    /* Where the run's own files are from the report's folder (report
     * --out): a relative, percent-encoded path; NULL: the same folder. */
    const char *run_link;
    /* An A/B session's judgement (compare's on the folder) and its timings'
     * tally: REPORT.md opens with them. NULL: not a session. */
    const findings *session;
    const struct ab_tally *tally;
    const char *session_why; /* a session that cannot be judged: why */
} md_opts;

void md_write(FILE *f, const m_run *r, const md_opts *o);

/* The PR comment into f: md_write with as little dropped as keeps it under
 * MD_PR_LIMIT characters (what was left out is said in it). 0, or -1 when
 * even the verdict alone does not fit. */
int md_write_pr(FILE *f, const m_run *r, const md_opts *session);

#endif
