#include "cpupick.h"

#include <ctype.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "paths.h"
#include "stats.h"

/* Parses a sysfs CPU list ("0-3,8,10-11") into a 0/1 array of max entries.
 * Returns the count set, or -1 on a malformed list. */
static int cpupick_parse_list(const char *s, unsigned char *set, int max)
{
    memset(set, 0, (size_t)max);
    int count = 0;
    while (*s && *s != '\n') {
        if (!isdigit((unsigned char)*s))
            return -1;
        char *end;
        long lo = strtol(s, &end, 10), hi = lo;
        s = end;
        if (*s == '-') {
            if (!isdigit((unsigned char)s[1]))
                return -1;
            hi = strtol(s + 1, &end, 10);
            s = end;
        }
        if (lo < 0 || hi < lo || hi >= max)
            return -1;
        for (long c = lo; c <= hi; c++)
            count += !set[c], set[c] = 1;
        if (*s == ',')
            s++;
        else if (*s && *s != '\n')
            return -1;
    }
    return count;
}

int cpupick_hold(int cpu)
{
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof one, &one);
}

/* Ten 1 ms blocks of the empty loop on one CPU. */
static void score(int cpu, cpu_score *s)
{
    bench_ctx c = {0};
    double per[10];
    path_empty(&c, 1u << 16); /* the move itself, and a first touch */
    for (int i = 0; i < 10; i++) {
        double t0 = ha_clock_ns();
        size_t n = 0;
        while (ha_clock_ns() - t0 < 1e6) {
            path_empty(&c, 4096);
            n += 4096;
        }
        per[i] = (ha_clock_ns() - t0) / (double)n;
    }
    ha_sort_doubles(per, 10);
    s->cpu = cpu;
    s->p50_ns = ha_percentile(per, 10, 50);
    s->p90_ns = ha_percentile(per, 10, 90);
}

/* The CPUs a run may use, in order: those this process may use that are
 * in the GPU's local_cpulist, or all it may use where none is (or the
 * list is unknown). Their count into cpus; *nnear the local list's size
 * (-1 unknown). */
static int candidates(const char *sysfs_root, const char *pci_bus_id, const cpu_set_t *allowed, int *cpus,
                      int *nnear, bool *use_near)
{
    unsigned char near[CPUPICK_MAX];
    *nnear = -1;
    if (pci_bus_id && *pci_bus_id) {
        char p[300], buf[1024];
        snprintf(p, sizeof p, "%s/sys/bus/pci/devices/%s/local_cpulist", sysfs_root, pci_bus_id);
        FILE *f = fopen(p, "r");
        if (f) {
            if (fgets(buf, sizeof buf, f))
                *nnear = cpupick_parse_list(buf, near, CPUPICK_MAX);
            fclose(f);
        }
    }
    int nboth = 0, n = 0;
    for (int c = 0; c < CPUPICK_MAX && c < CPU_SETSIZE; c++)
        nboth += CPU_ISSET(c, allowed) && *nnear > 0 && near[c];
    *use_near = nboth > 0;
    for (int c = 0; c < CPUPICK_MAX && c < CPU_SETSIZE; c++)
        if (CPU_ISSET(c, allowed) && (!*use_near || near[c]))
            cpus[n++] = c;
    return n;
}

int cpupick_choose(const char *sysfs_root, const char *pci_bus_id, int forced, cpu_choice *out)
{
    memset(out, 0, sizeof *out);
    out->cpu = -1;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
        snprintf(out->how, sizeof out->how, "not pinned: the CPUs this process may use are unknown");
        return forced >= 0 ? -1 : 0;
    }
    if (forced >= 0) {
        if (forced >= CPU_SETSIZE || !CPU_ISSET(forced, &allowed) || cpupick_hold(forced) != 0)
            return -1;
        out->cpu = forced;
        out->forced = true;
        snprintf(out->how, sizeof out->how, "--cpu %d", forced);
        return 0;
    }
    int cpus[CPUPICK_MAX], nnear;
    bool use_near;
    int n = candidates(sysfs_root, pci_bus_id, &allowed, cpus, &nnear, &use_near);
    for (int i = 0; i < n; i++)
        if (cpupick_hold(cpus[i]) == 0)
            score(cpus[i], &out->scores[out->nscores++]);
    int best = -1;
    for (int i = 0; i < out->nscores; i++)
        if (best < 0 || out->scores[i].p90_ns < out->scores[best].p90_ns)
            best = i;
    if (best < 0 || cpupick_hold(out->scores[best].cpu) != 0) {
        sched_setaffinity(0, sizeof allowed, &allowed);
        snprintf(out->how, sizeof out->how, "not pinned: no CPU could be held");
        return 0;
    }
    out->cpu = out->scores[best].cpu;
    snprintf(out->how, sizeof out->how,
             "the steadiest empty loop (lowest p90 of ten 1 ms blocks) of %d CPU(s) %s", out->nscores,
             use_near ? "near the GPU (its local_cpulist) that this process may use"
                      : nnear > 0 ? "this process may use (none of them is in the GPU's local_cpulist)"
                                  : "this process may use (the GPU's local_cpulist is unknown)");
    return 0;
}

int cpupick_start_at(const char *sysfs_root, const char *pci_bus_id, int cpu, cpu_choice *out)
{
    cpu_set_t allowed;
    bool known = sched_getaffinity(0, sizeof allowed, &allowed) == 0;
    if (cpupick_choose(sysfs_root, pci_bus_id, cpu, out) != 0)
        return -1;
    out->forced = false;
    if (!known)
        return 0;
    int cpus[CPUPICK_MAX], nnear;
    bool use_near;
    int n = candidates(sysfs_root, pci_bus_id, &allowed, cpus, &nnear, &use_near);
    for (int i = 0; i < n; i++)
        out->scores[out->nscores++] = (cpu_score){.cpu = cpus[i], .p50_ns = NAN, .p90_ns = NAN};
    return 0;
}
