#ifndef HA_MARKDOWN_H
#define HA_MARKDOWN_H

#include <stdio.h>

#include "rundir.h"

/* Writes REPORT.md's text. plots is non-NULL when the plot files exist. */
void md_write(FILE *f, const rundir *r, const char *plots);

#endif
