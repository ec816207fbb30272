/* A fleet survey's folders as one table: a row per host x device, a
 * column per property (device, backend, versions, large-BAR evidence, each
 * kind's readability, the distinguishing candidates, the pool checks, the
 * headline timings), each column's majority, and what was not counted.
 * report/fleet renders it as Markdown, the trend page as HTML. */
#ifndef HA_FLEETMODEL_H
#define HA_FLEETMODEL_H

#include <stdbool.h>

#include "rundir.h"

#define FLEET_MAX_NODES 1024
#define FLEET_MAX_COLS 48
#define FLEET_CELL 512
#define FLEET_TIMINGS "fast / slow ns (reported only)"

typedef struct fleet_column {
    char name[64];
    bool judged;   /* a departure here fails the survey */
    bool reported; /* timings: shown, never compared (they differ run to run) */
} fleet_column;

typedef struct fleet_node {
    char folder[256];
    char host[64];
    long long device;
    bool used;     /* whole, and the newest folder of its host/device */
    char cell[FLEET_MAX_COLS][FLEET_CELL];
} fleet_node;

typedef struct fleet {
    fleet_node *nodes;
    int nnodes, nfolders;
    fleet_column cols[FLEET_MAX_COLS];
    int ncols;
    char majority[FLEET_MAX_COLS][FLEET_CELL];
    char notes[8192]; /* Markdown-free lines: folders not counted, twins, schema notes */
} fleet;

/* Reads every run folder under dir. 0, or -1 with the reason in err (no
 * run folders, out of memory). */
int fleet_load(fleet *fl, const char *dir, char *err, size_t n);
void fleet_free(fleet *fl);

/* Whether node i's cell in column c departs from the column's majority. */
bool fleet_departs(const fleet *fl, int i, int c);

/* How many departures are in judged columns (the survey fails on any). */
int fleet_judged(const fleet *fl);

#endif
