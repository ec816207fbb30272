#include "cleanup.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <limits.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#define SLOTS 512

static char paths[SLOTS][PATH_MAX];
static volatile sig_atomic_t used[SLOTS];
static const int signals[] = {SIGINT, SIGTERM, SIGHUP};

/* Only async-signal-safe calls: unlink, rmdir. Later registrations go
 * first, so files go before the folder holding them. */
void ha_cleanup_now(void)
{
    int saved = errno;
    for (int i = SLOTS - 1; i >= 0; i--)
        if (used[i] && unlink(paths[i]) != 0)
            rmdir(paths[i]);
    errno = saved;
}

static void on_signal(int sig)
{
    ha_cleanup_now();
    signal(sig, SIG_DFL);
    raise(sig);
}

static void install(void)
{
    static int done;
    if (done)
        return;
    done = 1;
    for (size_t i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old, sa;
        /* A signal the caller ignores (nohup, a background job) stays ignored. */
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(signals[i], &sa, NULL);
    }
}

int ha_cleanup_add(const char *path)
{
    if (strlen(path) >= PATH_MAX)
        return -1;
    install();
    for (int i = 0; i < SLOTS; i++)
        if (!used[i]) {
            memcpy(paths[i], path, strlen(path) + 1);
            used[i] = 1;
            return 0;
        }
    return -1;
}

void ha_cleanup_del(const char *path)
{
    for (int i = SLOTS - 1; i >= 0; i--)
        if (used[i] && strcmp(paths[i], path) == 0) {
            used[i] = 0;
            return;
        }
}

int ha_remove_flat_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        for (struct dirent *e; (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char p[PATH_MAX];
            if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, e->d_name) >= sizeof p)
                continue;
            unlink(p);
            ha_cleanup_del(p);
        }
        closedir(d);
    }
    int rc = rmdir(dir);
    ha_cleanup_del(dir);
    return rc;
}
