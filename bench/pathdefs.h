/* The bench's paths, declared once: what each times, its family (how the
 * report groups it and how much change compare tolerates in it), which
 * memory it runs on and what it needs. The record carries the family, so
 * nothing downstream guesses it from a name. */
#ifndef HA_BENCH_PATHDEFS_H
#define HA_BENCH_PATHDEFS_H

#include <stdbool.h>

#include "paths.h"

typedef enum bench_target {
    ON_NOTHING,    /* the instruments (harness, canary, syscall): no memory */
    ON_READABLE,   /* every host-readable kind */
    ON_SLOW_KIND,  /* the memory the slow path copies from */
    ON_UNREADABLE, /* a kind whose host read faults */
} bench_target;

enum { NEED_FLUSH = 1, NEED_NT = 2, NEED_PINNED = 4 };

typedef struct path_def {
    const char *name;
    bench_fn fn;
    const char *family; /* harness, canary, syscall (the instruments); read, memory, guarded, query,
                         * hardened, copy, fault */
    bench_target target;
    bool per_candidate; /* one row per distinguishing candidate */
    bool session;       /* fault-guard handlers installed once around the loop */
    bool bar_read;      /* a host read: crosses the BAR when the memory is large-BAR VRAM */
    unsigned needs;
    const char *what;
} path_def;

/* Every path, in the order rows are written; ended by a NULL name. */
extern const path_def bench_paths[];

const path_def *bench_path_find(const char *name);


#endif
