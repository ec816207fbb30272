/* The command line, HOSTACCESS_TEST_SLOWDOWN, and the checks that need
 * the backend open. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "gpuhelpers.h"
#include "log.h"

/* ---- command line ---- */

static int known_path(const char *v, char *why, size_t n)
{
    if (bench_path_find(v))
        return 0;
    snprintf(why, n, "a path of --list-paths");
    return -1;
}

static int power_of_two(const char *v, char *why, size_t n)
{
    unsigned long long z;
    if (ha_parse_size(v, 8, SWEEP_LIMIT, &z) == 0 && (z & (z - 1)) == 0)
        return 0;
    snprintf(why, n, "a power of two from 8 B to 1 MiB (e.g. 64KiB)");
    return -1;
}

static int a_seed(const char *v, char *why, size_t n)
{
    char *end;
    errno = 0;
    unsigned long long s = strtoull(v, &end, 10);
    if (*v >= '0' && *v <= '9' && !*end && !errno && s)
        return 0;
    snprintf(why, n, "a whole number from 1 to 18446744073709551615");
    return -1;
}

/* --ab SPEC and what goes with it: 0, -1 (--ab-side-b said B; exit 0), or
 * the usage status. */
static int ab_options(bench *b, const char *ab, const char *ab_seed, bool side_b)
{
    char why[400];
    if (b->worker_out || b->process_index > 1)
        return ha_tool_usage(&b->t, "--ab is the first process's, not a worker's");
    side_b |= b->ab.alone;
    if (ab_parse_spec(&b->ab, ab, b->t.sim_profile, side_b, why, sizeof why) != 0)
        return ha_tool_usage(&b->t, why);
    if (b->ab.budget_s <= 0)
        b->ab.budget_s = AB_DEFAULT_BUDGET_S;
    if (side_b)
        return ab_print_side_b(&b->ab, STDOUT_FILENO) == 0 ? -1 : ha_tool_usage(&b->t, "stdout cannot be written");
    b->ab.seed = ab_seed ? strtoull(ab_seed, NULL, 10) : ((unsigned long long)(ha_now_s() * 1e6) | 1);
    b->nprocs_requested = 1 + 2 * HA_AB_MAX_ROUNDS;
    return 0;
}

/* Several processes: the time goes to processes, not to blocks inside one
 * (each row a few ms in four rounds); one process keeps the plan it always
 * had. What the command line gives wins either way (iterations and warmup
 * given: above 0 and 0 or more). */
static void plan_defaults(bench *b, long iterations, long warmup)
{
    bool many = b->nprocs_requested > 1 || b->worker_out || b->process_index > 1;
    b->plan.iterations = iterations > 0 ? iterations : many ? 2000 : 20000;
    b->plan.warmup = warmup >= 0 ? warmup : many ? 200 : 1000;
    b->plan.rounds = b->plan.rounds ? b->plan.rounds : many ? 4 : 12;
    b->repeat = b->repeat ? b->repeat : many ? 1 : 2;
    b->plan.row_seconds = b->plan.row_seconds > 0 ? b->plan.row_seconds : many ? 0.012 : 1.0;
    b->plan.min_row_seconds = many ? 0.004 : 0.05;
    b->plan.min_samples = many ? 40 : 200;
    b->plan.warm_seconds = many ? 0.002 : 0.01;
}

static int parse(bench *b, int argc, char **argv)
{
    static ha_opt_list kinds, paths;
    static bool nosweep, listpaths, ab_side_b;
    static long iterations = -1, warmup = -1, sweep_iterations = -1;
    static const char *seed, *ab, *ab_seed, *side_plan;
    const ha_opt own[] = {
        {"iterations", HA_OPT_LONG, 1, MAX_ITERATIONS, &iterations, "N", "operations per row, as upstream counts them (20000; 2000 with several processes)", NULL},
        {"warmup", HA_OPT_LONG, 0, MAX_ITERATIONS, &warmup, "N", "operations before a row is timed (1000; 200 with several processes)", NULL},
        {"repeat", HA_OPT_LONG, 1, 10, &b->repeat, "N", "rows per path, each in its own share of the rounds (2; 1 with several processes)", NULL},
        {"rounds", HA_OPT_LONG, 1, 100, &b->plan.rounds, "N", "interleaved rounds each row takes part in (12; 4 with several processes)", NULL},
        {"row-seconds", HA_OPT_REAL, 0.01, 600, &b->plan.row_seconds, "S", "a row takes no more samples than fill S (1; 0.012 with several processes)", NULL},
        {"kind", HA_OPT_LIST, 0, 0, &kinds, "NAME", "time only this kind (repeatable)", NULL},
        {"path", HA_OPT_LIST, 0, 0, &paths, "NAME", "time only this path (repeatable; --list-paths)", known_path},
        {"cpu", HA_OPT_LONG, 0, CPUPICK_MAX - 1, &b->forced_cpu, "N", "hold the run on CPU N instead of the surveyed one", NULL},
        {"sweep-csv", HA_OPT_STRING, 0, 0, &b->sweep_csv, "FILE", "the size sweep as CSV into FILE (a new file)", NULL},
        {"sweep-max", HA_OPT_SIZE, 8, SWEEP_LIMIT, &b->sweep_max, "SIZE", "the sweep's largest size, a power of two (64KiB)", power_of_two},
        {"sweep-iterations", HA_OPT_LONG, 1, MAX_ITERATIONS, &sweep_iterations, "N", "operations per sweep point (2000)", NULL},
        {"processes", HA_OPT_LONG, 1, BENCH_MAX_PROCS, &b->nprocs_requested, "K",
         "sample every timed row in K fresh processes, one after another (8): the process is the unit", NULL},
        {"process-index", HA_OPT_LONG, 1, BENCH_MAX_PROCS, &b->process_index, "I", "internal: this is process I of the run", NULL},
        {"order-seed", HA_OPT_STRING, 0, 0, &seed, "S", "internal: the seed of this process's row order", a_seed},
        {"start-cpu", HA_OPT_LONG, 0, CPUPICK_MAX - 1, &b->start_cpu, "N", "internal: start on CPU N (it may move)", NULL},
        {"worker-out", HA_OPT_STRING, 0, 0, &b->worker_out, "FILE", "internal: a worker's rows into FILE, no record", NULL},
        {"ab", HA_OPT_STRING, 0, 0, &ab, "SPEC",
         "an A/B session: this build against SPEC, rocm:PREFIX, sim-profile:NAME, build:DIR or env:NAME=VALUE[,...], "
         "round after round (ab.h)", NULL},
        {"ab-budget", HA_OPT_REAL, AB_MIN_BUDGET_S, AB_MAX_BUDGET_S, &b->ab.budget_s, "S",
         "an A/B session starts no round that would end past S seconds of its rounds (140)", NULL},
        {"ab-seed", HA_OPT_STRING, 0, 0, &ab_seed, "S", "the seed of the A/B order in each round (from the clock)", a_seed},
        {"ab-side-b", HA_OPT_FLAG, 0, 0, &ab_side_b, NULL,
         "internal (run_all.sh --ab): print side B's plan as --ab names it, NUL-separated (ab.h), then exit", NULL},
        {"side-plan", HA_OPT_STRING, 0, 0, &side_plan, "SPEC",
         "internal (run_all.sh --sim-profile): print the tools SPEC needs as a side of its own, as --ab-side-b does, "
         "then exit", NULL},
        {"no-sweep", HA_OPT_FLAG, 0, 0, &nosweep, NULL, "no size sweep", NULL},
        {"list-paths", HA_OPT_FLAG, 0, 0, &listpaths, NULL, "list the paths with their families, then exit", NULL},
        {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
    };
    ha_cli cli = {"bench_discriminator", "",
                  "what the host read buys over the runtime copy, and what each working discriminator costs on it; "
                  "test only: HOSTACCESS_TEST_SLOWDOWN=PATH=PERCENT[,...] stretches every batch of PATH by PERCENT "
                  "of its own time (the record says so); HOSTACCESS_TEST_WORKER_STOPS=I makes process I leave out "
                  "the end of what it hands back, as a worker killed while writing would; HOSTACCESS_TEST_CONTENDED=1 "
                  "makes every CPU-state probe read contended (every block is then kept contended and left out of "
                  "its row, as the record's cpu_state and processes say)",
                  own, 0, 0, NULL};
    int rc = ha_tool_parse(&b->t, &cli, argc, argv);
    if (rc)
        return rc;
    if (listpaths) {
        for (const path_def *p = bench_paths; p->name; p++)
            printf("%-16s %-9s %s\n", p->name, p->family, p->what);
        return -1;
    }
    if (seed)
        b->order_seed = strtoull(seed, NULL, 10);
    if (side_plan && ab)
        return ha_tool_usage(&b->t, "--side-plan and --ab: give one");
    if (side_plan) {
        b->ab.alone = true;
        ab = side_plan;
    }
    if ((b->ab.budget_s > 0 || ab_seed || ab_side_b) && !ab)
        return ha_tool_usage(&b->t, "--ab-budget, --ab-seed and --ab-side-b belong to an A/B session: give --ab SPEC");
    if (ab && (rc = ab_options(b, ab, ab_seed, ab_side_b)))
        return rc;
    if (b->worker_out && b->t.json)
        return ha_tool_usage(&b->t, "--worker-out is the worker's: it writes no record (--json)");
    plan_defaults(b, iterations, warmup);
    if (sweep_iterations > 0)
        b->sweep_iterations = sweep_iterations;
    b->sweep = !nosweep;
    if (kinds.n > HA_MAX_KINDS || paths.n > 32)
        return ha_tool_usage(&b->t, "--kind is given more than 32 times, or --path more than 32");
    for (int i = 0; i < kinds.n; i++)
        b->only_kinds[b->nonly_kinds++] = kinds.v[i];
    for (int i = 0; i < paths.n; i++)
        b->only_paths[b->nonly_paths++] = paths.v[i];
    return 0;
}

/* HOSTACCESS_TEST_SLOWDOWN: "PATH=PERCENT[,PATH=PERCENT]", read whole:
 * a spec that does not parse is refused, never cut to fit. */
static int parse_slowdown(bench *b, const char *spec, char *msg, size_t n)
{
    if (!spec || !*spec)
        return 0;
    char *buf = strdup(spec);
    if (!buf) {
        snprintf(msg, n, "out of memory reading HOSTACCESS_TEST_SLOWDOWN");
        return -1;
    }
    int rc = 0;
    /* strsep, not strtok: an empty item (",", "fast=10,,disc=5") is refused, not skipped */
    char *rest = buf;
    for (char *item = strsep(&rest, ","); item && !rc; item = strsep(&rest, ",")) {
        char *eq = strchr(item, '=');
        const path_def *p = NULL;
        long pct;
        if (eq)
            *eq = 0;
        bool twice = false;
        for (int i = 0; eq && (p = bench_path_find(item)) && i < b->nslow; i++)
            twice |= b->slow[i].p == p;
        if (!eq || !p || twice || ha_parse_long(eq + 1, 1, 1000, &pct) || b->nslow == MAX_SLOWED) {
            snprintf(msg, n, "HOSTACCESS_TEST_SLOWDOWN takes PATH=PERCENT[,...] (up to %d paths of --list-paths, "
                             "each once, 1 to 1000 %%), not '%.100s%s'", MAX_SLOWED, spec,
                     strlen(spec) > 100 ? "..." : "");
            rc = -1;
            break;
        }
        b->slow[b->nslow].p = p;
        b->slow[b->nslow++].pct = pct;
    }
    free(buf);
    return rc;
}

void bench_defaults(bench *b)
{
    ha_tool_init(&b->t, "bench_discriminator");
    /* rounds, repeat and row_seconds 0: set by the options (one process or several) */
    b->plan = (bench_plan){20000, 1000, 200, 0, 0.05, 0, 0, 0.01};
    b->forced_cpu = -1;
    b->repeat = 0;
    b->sweep = true;
    b->sweep_iterations = 2000;
    b->sweep_max = 64 * 1024;
    b->crossover = -1;
    b->nprocs_requested = BENCH_DEFAULT_PROCS;
    b->process_index = 1;
    b->start_cpu = -1;
    b->order_seed = 0;
}

static int known_kinds(bench *b);
static int check_opened(void *b) { return known_kinds(b); }

int bench_options(bench *b, int argc, char **argv)
{
    int rc = parse(b, argc, argv);
    if (rc)
        return rc;
    b->t.check_opened = check_opened;
    b->t.check_ctx = b;
    char msg[300];
    if (parse_slowdown(b, getenv("HOSTACCESS_TEST_SLOWDOWN"), msg, sizeof msg) != 0)
        return ha_tool_usage(&b->t, msg);
    return 0;
}

static int known_kinds(bench *b)
{
    const ha_kind *ks[HA_MAX_KINDS];
    size_t nk = ha_kinds(&b->t.be, ks, HA_MAX_KINDS);
    for (int i = 0; i < b->nonly_kinds; i++) {
        bool found = false;
        for (size_t k = 0; k < nk; k++)
            found |= strcmp(ks[k]->name, b->only_kinds[i]) == 0;
        char m[200];
        snprintf(m, sizeof m, "unknown kind '%.80s' for the %s backend", b->only_kinds[i], b->t.be.ops->name);
        if (!found)
            return ha_tool_usage(&b->t, m);
        for (int j = 0; j < i; j++)
            if (strcmp(b->only_kinds[i], b->only_kinds[j]) == 0)
                return ha_tool_usage(&b->t, "a --kind is given twice");
    }
    return 0;
}

int bench_check_started(bench *b)
{
    int rc = 0;
    if (!rc && b->sweep_csv && b->t.json && ha_same_file(b->sweep_csv, b->t.json))
        rc = ha_tool_usage(&b->t, "--json and --sweep-csv name the same file: choose two");
    ha_record csv_check;
    char err[512];
    if (!rc && b->sweep_csv) { /* refuse a bad CSV path before any work, like --json */
        if (ha_record_open(&csv_check, b->sweep_csv, err, sizeof err) != 0) {
            ha_log(HA_LOG_ERROR, "%s", err);
            rc = HA_EXIT_OUTPUT;
        } else {
            ha_record_abort(&csv_check);
        }
    }
    if (!b->order_seed)
        b->order_seed = bench_proc_seed((int)b->process_index);
    b->plan.order_seed = b->order_seed;
    long cpu = b->start_cpu >= 0 ? b->start_cpu : b->forced_cpu;
    b->have_allowed = sched_getaffinity(0, sizeof b->allowed, &b->allowed) == 0;
    /* a worker (--start-cpu) may move, as the first process may, unless the run is held on one CPU (--cpu) */
    int held = rc ? 0
               : b->start_cpu >= 0 && b->forced_cpu < 0
                   ? cpupick_start_at("", b->t.env.pci_bus_id, (int)cpu, &b->cpu)
                   : cpupick_choose("", b->t.env.pci_bus_id, (int)cpu, &b->cpu);
    if (held != 0) {
        char msg[120];
        snprintf(msg, sizeof msg, "--%s %ld is not a CPU this process may run on", b->start_cpu >= 0 ? "start-cpu" : "cpu", cpu);
        rc = ha_tool_usage(&b->t, msg);
    } else if (!rc && b->start_cpu >= 0) {
        /* A worker starts where the first process sent it and moves off a contended CPU like any run. */
        snprintf(b->cpu.how, sizeof b->cpu.how, "process %ld of the run: started on CPU %ld, as the first process chose",
                 b->process_index, b->start_cpu);
    }
    if (rc)
        ha_tool_abort(&b->t);
    else
        ha_log(HA_LOG_INFO, "starting on CPU %d: %s", b->cpu.cpu, b->cpu.how);
    return rc;
}
