/* cpustate: what state each CPU of a VM is in, how fast it changes, and
 * whether moving to a CPU in the fast state keeps figures on one level.
 * Diagnostic for the gate (issue #19): not built by make.
 *   cc -O2 -std=c11 -D_GNU_SOURCE -pthread tools/diag/cpustate.c -o build/cpustate
 *   build/cpustate OUTDIR [timeline_s] [migrate_s]
 * Writes OUTDIR/timeline.csv (t_ms,cpu,empty_ns,canary_ns,syscall_ns),
 * OUTDIR/siblings.csv (spinner,cpu,empty_ns) and OUTDIR/blocks.csv
 * (mode,t_ms,cpu,probe_ns,row,ns_per_op,moved). */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int ncpu;
static int cpus[1024];

static void hold(int cpu)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    sched_setaffinity(0, sizeof s, &s);
}

static volatile uint64_t sink;

/* the bench's empty batch loop: independent adds, high IPC */
static void empty(size_t n)
{
    for (size_t i = 0; i < n; i++)
        __asm__ volatile("" ::: "memory");
}

/* a latency chain: each multiply-add waits for the last */
static void chain(size_t n)
{
    uint64_t x = sink | 1;
    for (size_t i = 0; i < n; i++)
        x = x * 6364136223846793005ull + 1442695040888963407ull;
    sink = x;
}

static void sys(size_t n)
{
    for (size_t i = 0; i < n; i++)
        syscall(SYS_getppid);
}

static unsigned char src[65536], dst[65536];
static void copy(size_t n)
{
    for (size_t i = 0; i < n; i++) {
        memcpy(dst, src, sizeof src);
        __asm__ volatile("" ::: "memory");
    }
}

/* ns per op, the least of three tries of n ops */
static double probe(void (*f)(size_t), size_t n)
{
    double best = 1e300;
    for (int k = 0; k < 3; k++) {
        double t0 = now_ns();
        f(n);
        double d = (now_ns() - t0) / (double)n;
        if (d < best)
            best = d;
    }
    return best;
}

static void timeline(FILE *out, double seconds)
{
    fprintf(out, "t_ms,cpu,empty_ns,canary_ns,syscall_ns\n");
    double t0 = now_ns();
    while (now_ns() - t0 < seconds * 1e9) {
        double sweep = now_ns();
        for (int i = 0; i < ncpu; i++) {
            hold(cpus[i]);
            empty(20000);
            double e = probe(empty, 100000), c = probe(chain, 20000), s = probe(sys, 200);
            fprintf(out, "%.1f,%d,%.4f,%.4f,%.1f\n", (now_ns() - t0) / 1e6, cpus[i], e, c, s);
        }
        while (now_ns() - sweep < 25e6)
            ;
    }
}

static atomic_int spin_stop;
static void *spinner(void *arg)
{
    hold(*(int *)arg);
    while (!atomic_load_explicit(&spin_stop, memory_order_relaxed))
        empty(4096);
    return NULL;
}

static void siblings(FILE *out)
{
    fprintf(out, "spinner,cpu,empty_ns\n");
    for (int s = -1; s < ncpu; s++) {
        pthread_t th;
        int sc = s >= 0 ? cpus[s] : -1;
        atomic_store(&spin_stop, 0);
        if (s >= 0)
            pthread_create(&th, NULL, spinner, &sc);
        for (int i = 0; i < ncpu; i++) {
            if (i == s)
                continue;
            hold(cpus[i]);
            double v[9];
            for (int k = 0; k < 9; k++)
                v[k] = probe(empty, 50000);
            for (int a = 1; a < 9; a++)
                for (int b = a; b > 0 && v[b] < v[b - 1]; b--) {
                    double t = v[b];
                    v[b] = v[b - 1];
                    v[b - 1] = t;
                }
            fprintf(out, "%d,%d,%.4f\n", sc, cpus[i], v[4]);
        }
        if (s >= 0) {
            atomic_store(&spin_stop, 1);
            pthread_join(th, NULL);
        }
    }
}

/* Blocks of four surrogate rows in rounds, alternating every 2 s between
 * a fixed CPU and moving to the fastest CPU when the probe says slow. */
static void blocks(FILE *out, double seconds)
{
    struct { const char *name; void (*f)(size_t); size_t n; } rows[] = {
        {"empty", empty, 200000}, {"chain", chain, 100000}, {"syscall", sys, 1000}, {"copy64k", copy, 100},
    };
    fprintf(out, "mode,t_ms,cpu,probe_ns,row,ns_per_op,moved\n");
    int fixed = cpus[0], cur = cpus[0];
    double best = 1e300;
    for (int i = 0; i < ncpu; i++) {
        hold(cpus[i]);
        double e = probe(empty, 100000);
        if (e < best) {
            best = e;
            fixed = cpus[i];
        }
    }
    double t0 = now_ns();
    while (now_ns() - t0 < seconds * 1e9) {
        int migrate = ((long)((now_ns() - t0) / 2e9)) % 2;
        if (!migrate)
            cur = fixed;
        for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
            hold(cur);
            double p = probe(empty, 30000);
            int moved = 0;
            if (migrate && p > 1.3 * best) {
                double b = 1e300;
                for (int i = 0; i < ncpu; i++) {
                    hold(cpus[i]);
                    double e = probe(empty, 30000);
                    if (e < b) {
                        b = e;
                        cur = cpus[i];
                    }
                }
                hold(cur);
                moved = 1;
                p = probe(empty, 30000);
            }
            if (p < best)
                best = p;
            rows[r].f(rows[r].n / 10);
            double s = now_ns();
            rows[r].f(rows[r].n);
            double d = (now_ns() - s) / (double)rows[r].n;
            fprintf(out, "%s,%.1f,%d,%.4f,%s,%.4f,%d\n", migrate ? "migrate" : "fixed", (now_ns() - t0) / 1e6, cur,
                    p, rows[r].name, d, moved);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: cpustate OUTDIR [timeline_s] [blocks_s]\n");
        return 2;
    }
    double tl = argc > 2 ? atof(argv[2]) : 20, bl = argc > 3 ? atof(argv[3]) : 20;
    cpu_set_t all;
    sched_getaffinity(0, sizeof all, &all);
    for (int c = 0; c < CPU_SETSIZE && ncpu < 1024; c++)
        if (CPU_ISSET(c, &all))
            cpus[ncpu++] = c;
    char p[4096];
    snprintf(p, sizeof p, "%s/timeline.csv", argv[1]);
    FILE *f = fopen(p, "w");
    if (!f)
        return 1;
    timeline(f, tl);
    fclose(f);
    snprintf(p, sizeof p, "%s/siblings.csv", argv[1]);
    f = fopen(p, "w");
    siblings(f);
    fclose(f);
    snprintf(p, sizeof p, "%s/blocks.csv", argv[1]);
    f = fopen(p, "w");
    blocks(f, bl);
    fclose(f);
    return 0;
}
