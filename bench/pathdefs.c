#include "pathdefs.h"

#include <string.h>

const path_def bench_paths[] = {
    {"harness", path_empty, "harness", ON_NOTHING, false, false, false, 0,
     "empty batch loop: the harness's own cost, taken off no figure but reported against each"},
    {"canary", path_canary, "canary", ON_NOTHING, false, false, false, 0,
     "chain of dependent multiply-adds: a fixed count of core cycles; if it moves, the machine changed speed"},
    {"syscall", path_syscall, "syscall", ON_NOTHING, false, false, false, 0,
     "getppid(): a system call that does no work; moves with the host core's state as the query rows do"},
    {"fast", path_deref, "read", ON_READABLE, false, false, true, 0,
     "host dereference, 4 B, line warm in cache (latency: loads chained)"},
    {"fast_cold", path_deref_cold, "memory", ON_READABLE, false, false, true, NEED_FLUSH,
     "host dereference, 4 B, line flushed first; the next of up to 512 lines, each on its own page"},
    {"fast_nt", path_deref_nt, "read", ON_READABLE, false, false, true, NEED_NT,
     "non-temporal load (MOVNTDQA), 16 B (latency: loads chained)"},
    {"guarded", path_guarded, "guarded", ON_READABLE, false, false, false, 0,
     "fault-guarded dereference, handlers set per access"},
    {"guarded_session", path_guarded, "guarded", ON_READABLE, false, true, false, 0,
     "fault-guarded dereference, handlers set once"},
    {"disc", path_disc, "query", ON_READABLE, true, false, false, 0, "discriminator alone"},
    {"hardened", path_hardened, "hardened", ON_READABLE, true, false, false, 0,
     "discriminator, then the dereference (or its own read)"},
    {"copy_pageable", path_copy_pageable, "copy", ON_SLOW_KIND, false, false, false, 0,
     "runtime D2H copy, 4 B, into pageable memory"},
    {"copy_pinned", path_copy_pinned, "copy", ON_SLOW_KIND, false, false, false, NEED_PINNED,
     "runtime D2H copy, 4 B, into pinned memory"},
    {"copy_async", path_copy_async, "copy", ON_SLOW_KIND, false, false, false, NEED_PINNED,
     "async D2H copy, 4 B, pinned, + stream synchronize"},
    {"fault", path_fault, "fault", ON_UNREADABLE, false, false, false, 0,
     "contained fault: guarded read of unreadable memory"},
    {"fault_fallback", path_fault_fallback, "fault", ON_UNREADABLE, false, false, false, 0,
     "contained fault, then the runtime copy"},
    {NULL, NULL, NULL, ON_NOTHING, false, false, false, 0, NULL},
};

const path_def *bench_path_find(const char *name)
{
    for (const path_def *p = bench_paths; p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}
