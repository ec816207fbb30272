#include "procrun.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "exitcodes.h"
#include "log.h"
#include "procstats.h"
#include "rounds.h"
#include "tool.h"
#include "workerenv.h"

extern char **environ;

#define WORKER_MAGIC "hostaccess bench worker 3"

unsigned long long bench_proc_seed(int index)
{
    unsigned long long s = BENCH_ROUND_SEED;
    for (int i = 1; i < index; i++)
        ha_xorshift64(&s);
    return s;
}

/* The medians of a row's uncontended blocks, in order; their count. */
static size_t block_medians(const bench_row *r, double *out)
{
    if (r->skipped)
        return 0;
    return ha_block_medians(r->samples, r->nsamples, r->block_samples, r->block_state, r->nblocks, out);
}

static int keep_blocks(bench_row *r, int p, const double *v, size_t n)
{
    free(r->proc_med[p]);
    r->proc_med[p] = NULL;
    r->nproc_med[p] = 0;
    if (n == 0)
        return 0;
    r->proc_med[p] = malloc(n * sizeof *v);
    if (!r->proc_med[p])
        return -1;
    memcpy(r->proc_med[p], v, n * sizeof *v);
    r->nproc_med[p] = n;
    return 0;
}

void bench_procs_collect_self(bench_procs_view *b)
{
    bench_proc *p = &b->procs[0];
    p->index = 1;
    p->seed = b->order_seed;
    p->start_cpu = b->cpu->cpu;
    p->ok = true;
    p->blocks = b->state->blocks;
    p->retaken = b->state->retaken;
    p->kept = b->state->kept;
    p->moves = b->state->moves;
    p->order = *b->order_log;
    *b->nprocs = 1;
    for (size_t i = 0; i < b->nrows; i++) {
        bench_row *r = &b->rows[i];
        double *v = malloc((r->nblocks ? r->nblocks : 1) * sizeof *v);
        if (!v || keep_blocks(r, 0, v, block_medians(r, v)) != 0)
            ha_log(HA_LOG_WARN, "out of memory keeping the blocks of %s", r->path);
        free(v);
    }
}

/* ---- a worker ---- */

int bench_procs_write_worker(const bench_procs_view *b)
{
    FILE *f = fopen(b->worker_out, "w");
    if (!f) {
        ha_log(HA_LOG_ERROR, "cannot write the worker's rows to %s: %s", b->worker_out, strerror(errno));
        return HA_EXIT_OUTPUT;
    }
    const bench_proc *p = &b->procs[0];
    const cpu_state *cs = b->state;
    fprintf(f, "%s\nprocess %.6f %.6f %.6f %.6f %d %zu %zu %zu %zu %llx %zu\n", WORKER_MAGIC, p->wall_s, p->open_s,
            p->prepare_s, p->measure_s, b->cpu->cpu, cs->blocks, cs->retaken, cs->kept, cs->moves, b->order_log->digest,
            b->order_log->unshuffled);
    for (size_t i = 0; i < b->nrows; i++) {
        const bench_row *r = &b->rows[i];
        double *v = malloc((r->nblocks ? r->nblocks : 1) * sizeof *v);
        if (!v)
            break;
        size_t n = block_medians(r, v);
        if (n) {
            fprintf(f, "row\t%s\t%s\t%s\t%d\t", r->path, r->kind, r->candidate, r->repeat);
            for (size_t k = 0; k < n; k++)
                fprintf(f, "%s%.6g", k ? " " : "", v[k]);
            fputc('\n', f);
        }
        free(v);
    }
    /* Test only: HOSTACCESS_TEST_WORKER_STOPS=I makes process I leave
     * out its end line, as a worker killed while writing would: the first
     * process must count none of its rows, and it as not finished. */
    const char *stops = getenv("HOSTACCESS_TEST_WORKER_STOPS");
    char *rest = NULL;
    long stop = stops ? strtol(stops, &rest, 10) : 0;
    if (!(stops && rest && !*rest && stop == b->process_index))
        fputs("end\n", f);
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        ha_log(HA_LOG_ERROR, "cannot write the worker's rows to %s", b->worker_out);
        return HA_EXIT_OUTPUT;
    }
    return 0;
}

/* ---- the first process: starting and reading workers ---- */

static bench_row *row_by_key(bench_procs_view *b, const char *path, const char *kind, const char *cand, int rep)
{
    for (size_t i = 0; i < b->nrows; i++) {
        bench_row *r = &b->rows[i];
        if (!r->skipped && r->repeat == rep && !strcmp(r->path, path) && !strcmp(r->kind, kind) &&
            !strcmp(r->candidate, cand))
            return r;
    }
    return NULL;
}

/* One "row" line after its tag: path, kind, candidate, repeat and the
 * block medians, tab-separated (kind and candidate may be empty). -1 when
 * it does not parse (a worker that died mid-line). */
static int read_row(bench_procs_view *b, int pi, char *line)
{
    char *f[5];
    for (int i = 0; i < 5; i++)
        if (!(f[i] = strsep(&line, "\t")))
            return -1;
    if (line)
        return -1;
    char *end;
    long rep = strtol(f[3], &end, 10);
    if (*end || rep < 1 || rep > 1000)
        return -1;
    double v[1024];
    size_t nv = 0;
    char *save = NULL;
    for (char *t = strtok_r(f[4], " \n", &save); t; t = strtok_r(NULL, " \n", &save)) {
        if (nv == sizeof v / sizeof v[0])
            return -1;
        v[nv] = strtod(t, &end);
        if (*end || !(v[nv] > 0) || !isfinite(v[nv]))
            return -1;
        nv++;
    }
    bench_row *row = row_by_key(b, f[0], f[1], f[2], (int)rep);
    return row ? keep_blocks(row, pi, v, nv) : 0;
}

/* A finished worker's file; sets p->ok or p->detail. */
static void read_worker(bench_procs_view *b, int pi, const char *file)
{
    bench_proc *p = &b->procs[pi];
    FILE *f = fopen(file, "r");
    char *line = NULL;
    size_t cap = 0;
    bool magic = false, end = false;
    int cpu = -1;
    while (f && getline(&line, &cap, f) > 0) {
        if (!magic) {
            magic = !strcmp(line, WORKER_MAGIC "\n");
            if (!magic)
                break;
        } else if (!strncmp(line, "process ", 8)) {
            if (sscanf(line + 8, "%lf %lf %lf %lf %d %zu %zu %zu %zu %llx %zu", &p->wall_s, &p->open_s, &p->prepare_s,
                       &p->measure_s, &cpu, &p->blocks, &p->retaken, &p->kept, &p->moves, &p->order.digest,
                       &p->order.unshuffled) != 11)
                break;
        } else if (!strncmp(line, "row\t", 4)) {
            if (read_row(b, pi, line + 4) != 0)
                break;
        } else {
            end = !strcmp(line, "end\n");
            break;
        }
    }
    free(line);
    if (f)
        fclose(f);
    if (!end) {
        /* What it wrote before it stopped is not a whole process: none of it counts. */
        for (size_t i = 0; i < b->nrows; i++)
            keep_blocks(&b->rows[i], pi, NULL, 0);
        snprintf(p->detail, sizeof p->detail, "its rows were not written whole");
        return;
    }
    p->start_cpu = cpu;
    p->ok = true;
}

/* The parent's arguments less those only the first process takes, then
 * the worker's own. */
static char **worker_argv(const bench_procs_view *b, int argc, char **argv, int pi, const char *out, char *num[4])
{
    /* --cpu goes on: a worker of a run held on one CPU is held there too */
    static const char *const own[] = {"--json", "--sweep-csv", "--processes", "--ab", "--ab-budget", "--ab-seed",
                                      "--sim-profile", NULL};
    char **v = calloc((size_t)argc + 16, sizeof *v);
    if (!v)
        return NULL;
    int n = 0;
    v[n++] = argv[0];
    /* The stand-in release a worker acts as: side B's when SPEC names one. */
    const char *profile = b->procs[pi].side == 'b' && b->ab->b_profile ? b->ab->b_profile : b->sim_profile;
    if (profile) {
        v[n++] = "--sim-profile";
        v[n++] = (char *)profile;
    }
    for (int i = 1; i < argc; i++) {
        bool drop = !strcmp(argv[i], "--no-sweep");
        for (int k = 0; own[k]; k++) {
            size_t l = strlen(own[k]);
            if (!strncmp(argv[i], own[k], l) && argv[i][l] == '=')
                drop = true;
            else if (!strcmp(argv[i], own[k])) {
                drop = true;
                i++; /* its value */
            }
        }
        if (!drop)
            v[n++] = argv[i];
    }
    snprintf(num[0], 32, "%d", pi + 1);
    snprintf(num[1], 32, "%llu", b->procs[pi].seed);
    snprintf(num[2], 32, "%d", b->procs[pi].start_cpu);
    v[n++] = "--no-sweep";
    v[n++] = "--processes=1";
    v[n++] = "--process-index";
    v[n++] = num[0];
    v[n++] = "--order-seed";
    v[n++] = num[1];
    if (b->procs[pi].start_cpu >= 0) {
        v[n++] = "--start-cpu";
        v[n++] = num[2];
    }
    v[n++] = "--worker-out";
    v[n++] = (char *)out;
    return v;
}

/* The environment, with HOSTACCESS_ENV_PAD of pad bytes and the workers'
 * progress lines quieted unless the caller chose a level. */
/* Waits for pid at most limit_s; ends it after that. The exit status as
 * waitpid gives it, or -1 when it had to be ended. */
static int wait_bounded(pid_t pid, double limit_s, bool *timed_out)
{
    *timed_out = false;
    double until = ha_now_s() + limit_s;
    for (;;) {
        int st;
        pid_t w = waitpid(pid, &st, WNOHANG);
        if (w == pid)
            return st;
        if (w < 0 && errno != EINTR)
            return -1;
        if (ha_now_s() > until) {
            *timed_out = true;
            kill(pid, SIGKILL);
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
            return st;
        }
        nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
}

void bench_procs_run_one(bench_procs_view *b, int argc, char **argv, int pi)
{
    bench_proc *p = &b->procs[pi];
    /* TMPDIR when it fits the path, else /tmp, and said: never cut. */
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    if (tmpdir && *tmpdir && strlen(tmpdir) >= sizeof path - 32) {
        ha_log(HA_LOG_WARN, "TMPDIR is longer than %zu bytes: the workers' rows go to /tmp", sizeof path - 32);
        tmpdir = NULL;
    }
    snprintf(path, sizeof path, "%s/hostaccess-worker-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) {
        snprintf(p->detail, sizeof p->detail, "no temporary file for its rows in %s: %s",
                 tmpdir && *tmpdir ? "TMPDIR" : "/tmp", strerror(errno));
        return;
    }
    close(fd);
    char nums[4][32], *num[4] = {nums[0], nums[1], nums[2], nums[3]}, *padvar = NULL;
    char **av = worker_argv(b, argc, argv, pi, path, num);
    /* Side B of an A/B session: its variables over this environment, its bench. */
    bool side_b = p->side == 'b';
    char **ev = bench_worker_env(environ, p->env_pad, &padvar, side_b ? b->ab->vars : NULL, side_b ? b->ab->nvars : 0);
    const char *exe = side_b && b->ab->b_exe ? b->ab->b_exe : NULL;
    pid_t pid = av && ev ? fork() : -1;
    if (pid == 0) {
        /* Pinning is inherited: the worker may choose among what the first process could. */
        if (b->allowed)
            sched_setaffinity(0, sizeof *b->allowed, b->allowed);
        if (exe) {
            av[0] = (char *)exe;
            execve(exe, av, ev);
        } else {
            execve("/proc/self/exe", av, ev);
            execve(argv[0], av, ev);
        }
        _exit(127);
    }
    if (pid < 0) {
        snprintf(p->detail, sizeof p->detail, "could not be started: %s", strerror(errno));
    } else {
        bool timed_out;
        int st = wait_bounded(pid, BENCH_WORKER_LIMIT_S, &timed_out);
        if (timed_out)
            snprintf(p->detail, sizeof p->detail, "ran past %d s and was ended", BENCH_WORKER_LIMIT_S);
        else if (st >= 0 && WIFSIGNALED(st))
            snprintf(p->detail, sizeof p->detail, "died of signal %d (%s)", WTERMSIG(st), strsignal(WTERMSIG(st)));
        else if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
            snprintf(p->detail, sizeof p->detail, "exited with status %d", st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
        else
            read_worker(b, pi, path);
    }
    if (!p->ok)
        ha_log(HA_LOG_WARN, "process %d of %ld %s: the rows use the processes that finished", p->index,
               b->nprocs_requested, p->detail);
    unlink(path);
    free(av);
    free(ev);
    free(padvar);
}

/* Where process p starts: the next of the CPUs the first one surveyed,
 * steadiest first, by its index (it may still move off a contended one),
 * and its environment's padding, drawn from one sequence by index: an A/B
 * session's two sides sample CPUs and environment sizes alike. */
void bench_procs_place(const bench_procs_view *b, bench_proc *p)
{
    int order[CPUPICK_MAX], n = b->cpu->nscores;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && b->cpu->scores[order[j]].p90_ns < b->cpu->scores[order[j - 1]].p90_ns; j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    int pi = p->index - 1;
    p->start_cpu = b->cpu->forced ? b->cpu->cpu : n > 0 ? b->cpu->scores[order[pi % n]].cpu : -1;
    unsigned long long pad_seed = b->order_seed ^ 0x5bd1e995ull;
    for (int i = 1; i < pi; i++)
        ha_xorshift64(&pad_seed);
    p->env_pad = (size_t)(ha_xorshift64(&pad_seed) % 4096);
}

void bench_procs_run_workers(bench_procs_view *b, int argc, char **argv)
{
    for (int pi = 1; pi < b->nprocs_requested && pi < BENCH_MAX_PROCS; pi++) {
        bench_proc *p = &b->procs[pi];
        memset(p, 0, sizeof *p);
        p->index = pi + 1;
        p->seed = bench_proc_seed(pi + 1);
        bench_procs_place(b, p);
        *b->nprocs = pi + 1;
        ha_log(HA_LOG_INFO, "process %d of %ld (CPU %d, seed %llu)", p->index, b->nprocs_requested, p->start_cpu,
               p->seed);
        bench_procs_run_one(b, argc, argv, pi);
    }
}
