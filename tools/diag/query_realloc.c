/* Diagnostic: does a pointer query's per-process level follow the
 * allocation it asks about? The gate measured 7-8 % between the processes
 * of one run for query rows whose blocks agree within 2-3 % inside one
 * process (docs/gate.md); if the driver's lookup cost depends on where the
 * allocation landed, allocating again inside a process samples that, and a
 * process's median over fresh allocations spreads less between processes.
 * Each round times every (kind, query) pair twice, in a shuffled order:
 *   kept   on the allocation made at the start and kept all along
 *   fresh  on an allocation made for this round; the previous round's is
 *          destroyed only after it, so the two cannot share an address
 * One line per round, pair and mode: the median ns per call of BLOCKS
 * blocks of CALLS calls, the address asked about, and how many of those
 * calls failed (a failing call times an error path, not the query). QUERIES (a comma
 * list of query names, or "all") picks the queries; CPU (-1: none) pins
 * the process there, as the bench pins its own, so that a process's level
 * is not a CPU it wandered to.
 *   query_realloc [BACKEND] [ROUNDS] [BLOCKS] [CALLS] [QUERIES] [CPU] > out.tsv */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "classify.h"
#include "discriminate.h"
#include "stats.h"

enum { MAX_ROUNDS = 64, MAX_BLOCKS = 64 };

typedef struct pair {
    size_t ki;
    const ha_query *q;
} pair;

static bool listed(const char *list, const char *name)
{
    if (!strcmp(list, "all"))
        return true;
    size_t n = strlen(name);
    for (const char *p = list; p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
        if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == 0))
            return true;
    return false;
}

static int make_one(const ha_backend *be, const ha_kind *kind, ha_alloc *a)
{
    memset(a, 0, sizeof *a);
    a->kind = kind;
    return kind->create(be, a);
}

static int make_all(const ha_backend *be, const ha_discrimination *d, const bool *use, ha_alloc *a)
{
    for (size_t ki = 0; ki < d->nk; ki++)
        if (use[ki] && make_one(be, d->kinds[ki], &a[ki]) != 0) {
            fprintf(stderr, "query_realloc: %s: %s\n", d->kinds[ki]->name, a[ki].detail);
            return -1;
        }
    return 0;
}

static void destroy_all(const ha_backend *be, const ha_discrimination *d, const bool *use, ha_alloc *a)
{
    for (size_t ki = 0; ki < d->nk; ki++)
        if (use[ki] && a[ki].ptr)
            d->kinds[ki]->destroy(be, &a[ki]);
}

static double time_pair(const ha_backend *be, const pair *p, const ha_alloc *a, int blocks, int calls,
                        long *failed)
{
    double v[MAX_BLOCKS];
    unsigned char out[HA_RAW_MAX];
    /* Counted, not checked inside the block: a branch per call would be
     * timed too, and the count is what the reader needs. */
    long bad = 0;
    for (int b = 0; b < blocks; b++) {
        double t0 = ha_clock_ns();
        for (int i = 0; i < calls; i++)
            bad += p->q->raw(be, p->q, a, out) != 0;
        v[b] = (ha_clock_ns() - t0) / calls;
    }
    *failed = bad;
    return ha_median(v, (size_t)blocks);
}

int main(int argc, char **argv)
{
    ha_backend be;
    char msg[300];
    if (ha_backend_open(argc > 1 ? argv[1] : "auto", 0, &be, msg, sizeof msg)) {
        puts(msg);
        return 1;
    }
    int rounds = argc > 2 ? atoi(argv[2]) : 16, blocks = argc > 3 ? atoi(argv[3]) : 3,
        calls = argc > 4 ? atoi(argv[4]) : 500;
    const char *only = argc > 5 ? argv[5] : "all";
    int cpu = argc > 6 ? atoi(argv[6]) : -1;
    if (rounds < 2 || rounds > MAX_ROUNDS || blocks < 1 || blocks > MAX_BLOCKS || calls < 1) {
        fputs("query_realloc: 2 to 64 rounds, 1 to 64 blocks, at least one call\n", stderr);
        return 2;
    }
    if (cpu >= 0) {
        cpu_set_t set;
        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof set, &set) != 0) {
            perror("query_realloc: sched_setaffinity");
            return 2;
        }
    }
    static ha_discrimination d;
    ha_discriminate_init(&be, &d, false);
    bool use[HA_MAX_KINDS] = {0};
    for (size_t ki = 0; ki < d.nk; ki++)
        use[ki] = !d.kinds[ki]->control;
    static ha_alloc kept[HA_MAX_KINDS], fresh[2][HA_MAX_KINDS];
    /* A kind this machine cannot make is left out, and said. */
    for (size_t ki = 0; ki < d.nk; ki++) {
        if (use[ki] && make_one(&be, d.kinds[ki], &kept[ki]) != 0) {
            fprintf(stderr, "query_realloc: left out %s: %s\n", d.kinds[ki]->name, kept[ki].detail);
            use[ki] = false;
        }
    }
    /* The pairs whose call succeeds: what the bench times. */
    static pair pairs[HA_MAX_KINDS * HA_MAX_QUERIES];
    size_t np = 0;
    for (size_t ki = 0; ki < d.nk; ki++)
        for (size_t qi = 0; use[ki] && qi < d.nq; qi++) {
            unsigned char out[HA_RAW_MAX];
            ha_sentinel_fill(out, sizeof out);
            if (!(d.queries[qi]->flags & (HA_QF_OS | HA_QF_MODEL)) && listed(only, d.queries[qi]->name) &&
                d.queries[qi]->raw(&be, d.queries[qi], &kept[ki], out) == 0)
                pairs[np++] = (pair){ki, d.queries[qi]};
        }
    for (double until = ha_clock_ns() + 0.3e9; ha_clock_ns() < until;)
        ;
    unsigned long long seed = (unsigned long long)getpid() * 0x9e3779b97f4a7c15ull | 1;
    size_t *order = malloc(2 * np * sizeof *order);
    if (!order)
        return 1;
    printf("pid\tround\tmode\tkind\tquery\tns\taddress\tfailed\n");
    for (int r = 0; r < rounds; r++) {
        ha_alloc *now = fresh[r % 2], *before = fresh[(r + 1) % 2];
        if (make_all(&be, &d, use, now))
            return 1;
        if (r > 0)
            destroy_all(&be, &d, use, before);
        for (size_t i = 0; i < 2 * np; i++)
            order[i] = i;
        for (size_t i = 2 * np; i > 1; i--) {
            size_t o = (size_t)(ha_xorshift64(&seed) % i), t = order[i - 1];
            order[i - 1] = order[o], order[o] = t;
        }
        for (size_t i = 0; i < 2 * np; i++) {
            const pair *p = &pairs[order[i] / 2];
            bool is_fresh = order[i] % 2;
            const ha_alloc *a = is_fresh ? &now[p->ki] : &kept[p->ki];
            long failed;
            double ns = time_pair(&be, p, a, blocks, calls, &failed);
            printf("%d\t%d\t%s\t%s\t%s\t%.2f\t%p\t%ld\n", (int)getpid(), r, is_fresh ? "fresh" : "kept",
                   d.kinds[p->ki]->name, p->q->name, ns, a->ptr, failed);
        }
    }
    destroy_all(&be, &d, use, fresh[(rounds - 1) % 2]);
    destroy_all(&be, &d, use, kept);
    free(order);
    ha_backend_close(&be);
    return 0;
}
