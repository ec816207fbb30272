#include "rtwatch.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "exitcodes.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static bool enabled, watching;
static const char *tool_name = "hostaccess";
static const char *volatile cur_lib, *volatile cur_call; /* set while a call runs */
static struct timespec deadline;
static unsigned timeout_s;
static int saved_stdout = -1;

unsigned ha_env_seconds(const char *name, unsigned dflt)
{
    const char *s = getenv(name);
    if (!s)
        return dflt;
    /* digits only: strtol would take " 5" and "+5" too */
    size_t digits = strspn(s, "0123456789"), len = strlen(s);
    long v = digits && digits == len && digits <= 3 ? strtol(s, NULL, 10) : -1;
    if (v >= 1 && v <= 600)
        return (unsigned)v;
    /* said each time it is read, which is once or twice per tool; a long
     * value is quoted in part, and says so */
    if (len > 40)
        fprintf(stderr, "%s: %s='%.40s...' (%zu bytes, quoted in part) is not a whole number of seconds from 1 to 600: "
                        "%u s used\n", tool_name, name, s, len, dflt);
    else
        fprintf(stderr, "%s: %s='%s' is not a whole number of seconds from 1 to 600: %u s used\n", tool_name, name, s,
                dflt);
    return dflt;
}

/* The bound in seconds, as $HOSTACCESS_CALL_TIMEOUT_S sets it. */
static unsigned ha_rtwatch_timeout_s(void) { return ha_env_seconds("HOSTACCESS_CALL_TIMEOUT_S", 60); }

/* From the watcher thread or an exit handler: one line, the tool's
 * temporary files gone, and out with the status of a broken runtime. */
static void leave(const char *what)
{
    char line[600];
    int n = snprintf(line, sizeof line, "%s: %s %s %s: that runtime cannot be used; fix or remove it\n", tool_name,
                     cur_lib ? cur_lib : "the runtime", cur_call ? cur_call : "(a call)", what);
    if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
        n = 0;
    ha_cleanup_now();
    _exit(HA_EXIT_NO_RUNTIME);
}

static void *watcher(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mu);
    for (;;) {
        if (!cur_call) {
            pthread_cond_wait(&cv, &mu);
            continue;
        }
        if (pthread_cond_timedwait(&cv, &mu, &deadline) == ETIMEDOUT && cur_call) {
            char what[80];
            snprintf(what, sizeof what, "did not return in %u s", timeout_s);
            leave(what);
        }
    }
    return NULL;
}

static void on_exit_inside(void)
{
    if (cur_call)
        leave("ended the process (it called exit)");
}

/* A child of fork() has no watcher thread: it starts its own. */
static void after_fork_child(void)
{
    pthread_mutex_init(&mu, NULL);
    pthread_cond_init(&cv, NULL);
    watching = false;
    cur_call = NULL;
}

void ha_rtwatch_enable(const char *tool)
{
    tool_name = tool;
    if (enabled)
        return;
    enabled = true;
    timeout_s = ha_rtwatch_timeout_s();
    atexit(on_exit_inside);
    pthread_atfork(NULL, NULL, after_fork_child);
}

void ha_rtwatch_begin(const char *library, const char *call)
{
    if (!enabled)
        return;
    pthread_mutex_lock(&mu);
    if (!watching) {
        pthread_t t;
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
        watching = pthread_create(&t, &at, watcher, NULL) == 0;
        pthread_attr_destroy(&at);
    }
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += timeout_s;
    cur_lib = library;
    cur_call = call;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
    fflush(stdout);
    saved_stdout = dup(1);
    if (saved_stdout >= 0)
        dup2(2, 1);
}

void ha_rtwatch_end(void)
{
    if (!enabled)
        return;
    fflush(stdout);
    if (saved_stdout >= 0) {
        dup2(saved_stdout, 1);
        close(saved_stdout);
        saved_stdout = -1;
    }
    pthread_mutex_lock(&mu);
    cur_lib = cur_call = NULL;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
}
