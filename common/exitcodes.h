/* Exit statuses of every tool (README "Exit statuses"): part of the base
 * library, so the report tools use the same names as the GPU tools. */
#ifndef HA_EXITCODES_H
#define HA_EXITCODES_H

enum {
    HA_EXIT_OK = 0,
    HA_EXIT_FAIL = 1,       /* the tool could not do its job; report tools: a regression or departure found */
    HA_EXIT_USAGE = 2,      /* bad command line; report tools: unusable input too */
    HA_EXIT_NO_RUNTIME = 3, /* the runtime library (report tools: gnuplot) is missing or compiled out */
    HA_EXIT_NO_DEVICE = 4,  /* the runtime loaded but reports no usable device */
    HA_EXIT_OUTPUT = 5,     /* the record or an output could not be written, or exists */
    HA_EXIT_INCONCLUSIVE = 6, /* compare: no regression, but timings it could not judge (never 1) */
    HA_EXIT_UNRESOLVED = 7,   /* compare: no regression, but too few rows shown the same to call it clean */
    HA_EXIT_NO_MEMORY = 8,    /* report tools: out of memory; nothing judged (a run dropped would read as whole) */
};

#endif
