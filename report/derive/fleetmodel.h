/* A fleet survey's folders as one table: a row per host x device, a
 * column per property (device, backend, versions, large-BAR evidence, each
 * kind's readability, the distinguishing candidates, the pool checks, the
 * headline timings), each column's majority, and what was not counted.
 * report/fleet renders it as Markdown, the trend page as HTML. No limit on
 * folders or columns: the table grows with the survey. */
#ifndef HA_FLEETMODEL_H
#define HA_FLEETMODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define FLEET_TIMINGS "fast / slow ns (reported only)"

typedef struct fleet_column {
    char *name;
    bool judged;   /* a departure here fails the survey */
    bool reported; /* timings: shown, never compared (they differ run to run) */
} fleet_column;

typedef struct fleet_node {
    char *folder, *host;
    long long device;
    bool used;     /* whole, and the newest folder of its host/device */
    char **cell;   /* one per column; NULL where the node has none */
    size_t ncell;
} fleet_node;

typedef struct fleet {
    fleet_node *nodes;
    size_t nnodes;
    long nfolders;
    fleet_column *cols;
    size_t ncols;
    char **majority;
    char *notes; /* Markdown-free lines: folders not counted, twins, schema notes */
    size_t notes_len;
} fleet;

/* Reads every run folder under dir. 0, or -1 with the reason in *err
 * (malloc'd): no run folders, out of memory. */
int fleet_load(fleet *fl, const char *dir, char **err);
void fleet_free(fleet *fl);

/* A run's "fast / slow ns" cell: the fast and slow rows' figures, as
 * REPORT.md and the exports show them (rowest.h), never process 1's pooled
 * median; false without a headline. */
bool fleet_timings(const m_run *r, char *t, size_t n);

/* Node i's value in column c ("" where it has none). */
const char *fleet_cell(const fleet *fl, size_t i, size_t c);

/* Whether node i's cell in column c departs from the column's majority. */
bool fleet_departs(const fleet *fl, size_t i, size_t c);

/* How many departures are in judged columns (the survey fails on any). */
size_t fleet_judged(const fleet *fl);

/* How many hosts the nodes in use span. */
size_t fleet_hosts(const fleet *fl);

#endif
