/* The A/B session's rounds, looks and stop (ab.h): a step of the bench. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench.h"
#include "gpustatus.h"
#include "log.h"
#include "stats.h"

/* Every row settled at this look (flagged, or the same within the flag
 * threshold: abjudge_settled)? 1 yes, 0 no, -1 the look could not be made
 * (said). */
static int look(bench *b)
{
    ab_session *s = &b->ab;
    char rec[4096];
    const char *tmpdir = getenv("TMPDIR");
    if (tmpdir && *tmpdir && strlen(tmpdir) >= 4000) {
        ha_log(HA_LOG_WARN, "TMPDIR is longer than 4000 bytes: the A/B look's record goes to /tmp");
        tmpdir = NULL;
    }
    snprintf(rec, sizeof rec, "%s/hostaccess-ablook-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int fd = mkstemp(rec);
    if (fd < 0) {
        ha_log(HA_LOG_WARN, "A/B look: no temporary file: %s", strerror(errno));
        return -1;
    }
    FILE *f = fdopen(fd, "w");
    s->looks[s->nlooks++] = s->rounds;
    int rc = f ? bench_record_file(b, f) : -1;
    if (f && fclose(f) != 0)
        rc = -1;
    else if (!f)
        close(fd);
    int decided = -1;
    if (rc == 0) {
        pid_t pid = fork();
        if (pid == 0) {
            int devnull = open("/dev/null", O_WRONLY);
            if (devnull >= 0) {
                dup2(devnull, 1);
                close(devnull);
            }
            execl(s->judge, s->judge, "--ab-look", rec, (char *)NULL);
            _exit(127);
        }
        int st = 0;
        if (pid > 0)
            while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
                ;
        if (pid > 0 && WIFEXITED(st) && (WEXITSTATUS(st) == HA_EXIT_OK || WEXITSTATUS(st) == HA_EXIT_UNRESOLVED))
            decided = WEXITSTATUS(st) == HA_EXIT_OK;
        else
            ha_log(HA_LOG_WARN, "A/B look after %d rounds: %s did not judge (status %d)", s->rounds, s->judge,
                   pid > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    unlink(rec);
    if (decided < 0)
        s->nlooks--; /* not taken: its alpha stays unspent */
    else
        ha_log(HA_LOG_INFO, "A/B look %d after %d rounds: %s", s->nlooks, s->rounds,
               decided ? "every row settled" : "rows unsettled, more rounds");
    return decided;
}

/* ---- the rounds ---- */

/* Why the session ended, whole (a build folder's path has no bound). */
static void stop(ab_session *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void stop(ab_session *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    free(s->stopped);
    if (vasprintf(&s->stopped, fmt, ap) < 0)
        s->stopped = NULL;
    va_end(ap);
}

static const char *stopped(const ab_session *s) { return s->stopped ? s->stopped : "out of memory saying why"; }

static bool one_process(bench *b, int argc, char **argv, char side, int round, int slot)
{
    int pi = b->nprocs;
    bench_proc *p = &b->procs[pi];
    memset(p, 0, sizeof *p);
    p->index = pi + 1;
    p->seed = bench_proc_seed(pi + 1);
    p->side = side;
    p->round = round;
    p->slot = slot;
    bench_procs_view pv = bench_procs_of(b);
    bench_procs_place(&pv, p);
    b->nprocs = pi + 1;
    ha_log(HA_LOG_INFO, "round %d, process %d: side %c (CPU %d)", round, p->index, side, p->start_cpu);
    bench_procs_run_one(&pv, argc, argv, pi);
    return p->ok;
}

int bench_ab_run(bench *b, int argc, char **argv)
{
    ab_session *s = &b->ab;
    ab_find_judge(s);
    b->procs[0].side = 'a';
    unsigned long long order = s->seed;
    double t0 = ha_now_s(), round_s = 0;
    int next_look = 0;
    while (s->rounds_started < HA_AB_MAX_ROUNDS) {
        double now = ha_now_s() - t0;
        /* A round that would end past the budget is not started (its
         * length: the longest so far, with a tenth to spare). */
        if (s->rounds_started >= HA_AB_MIN_ROUNDS && now + 1.1 * round_s > s->budget_s) {
            if (s->rounds < ha_ab_look_rounds[0])
                stop(s, "its budget of %.0f s before its first look: %d rounds in %.0f s, and the first look needs "
                        "%d (give --ab-budget %.0f or more)",
                     s->budget_s, s->rounds, now, ha_ab_look_rounds[0], ceil(1.1 * round_s * ha_ab_look_rounds[0]));
            else
                stop(s, "its budget of %.0f s: %d rounds in %.0f s", s->budget_s, s->rounds, now);
            break;
        }
        int round = ++s->rounds_started;
        bool b_first = ha_xorshift64(&order) & 1, ok[2];
        double r0 = ha_now_s();
        for (int slot = 1; slot <= 2; slot++) {
            char side = (slot == 1) == b_first ? 'b' : 'a';
            ok[slot - 1] = one_process(b, argc, argv, side, round, slot);
            /* Another build that cannot run here is said at once, not after the budget. */
            if (!ok[slot - 1] && side == 'b' && round == 1 && s->b_exe) {
                stop(s, "side B's bench (%s) did not finish its first process: %s", s->b_exe,
                     b->procs[b->nprocs - 1].detail);
                goto ended;
            }
        }
        s->rounds += ok[0] && ok[1];
        if (ha_now_s() - r0 > round_s)
            round_s = ha_now_s() - r0;
        /* A simulated session's timings are the machine's that ran it and
         * never judged: rounds past the fewest buy nothing. */
        if (ha_backend_simulated(&b->t.be) && s->rounds >= HA_AB_MIN_ROUNDS) {
            stop(s, "its fewest rounds, %d: a SIMULATED session's timings are never judged", s->rounds);
            break;
        }
        if (next_look < HA_AB_MAX_LOOKS && s->rounds >= ha_ab_look_rounds[next_look]) {
            next_look++;
            if (s->judge[0] && look(b) == 1) {
                s->decided = true;
                stop(s, "every row settled at look %d, after %d rounds", s->nlooks, s->rounds);
                break;
            }
        }
    }
ended:
    if (!s->stopped)
        stop(s, "its most rounds, %d", HA_AB_MAX_ROUNDS);
    /* A last look at what the session holds, if the budget came between two. */
    if (!s->decided && s->judge[0] && s->rounds >= HA_AB_MIN_ROUNDS &&
        (s->nlooks == 0 || s->looks[s->nlooks - 1] != s->rounds) && s->nlooks < HA_AB_MAX_LOOKS)
        s->decided = look(b) == 1;
    if (!s->judge[0])
        ha_log(HA_LOG_WARN, "A/B session: no compare to judge the looks (make report builds it beside the bench): "
                            "no looks, the session ran to %s", stopped(s));
    ha_log(HA_LOG_INFO, "A/B session: %d rounds paired, stopped at %s", s->rounds, stopped(s));
    if (s->rounds < HA_AB_MIN_ROUNDS) {
        ha_log(HA_LOG_ERROR, "A/B session: %d of the %d rounds it needs paired (%s): not a whole session", s->rounds,
               HA_AB_MIN_ROUNDS, stopped(s));
        return HA_EXIT_FAIL;
    }
    return 0;
}
