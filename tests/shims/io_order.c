/* LD_PRELOAD shim: appends "fsync FD" and "link NEW" lines, in the order
 * the process makes those calls, to $IO_ORDER_LOG, then does the call. A
 * test reads the order: a record must reach the disk before its name
 * appears. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void say(const char *what, const char *arg)
{
    const char *log = getenv("IO_ORDER_LOG");
    if (!log)
        return;
    int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    char line[600];
    int n = snprintf(line, sizeof line, "%s %s\n", what, arg);
    if (n > 0 && write(fd, line, (size_t)n) < 0)
        n = 0;
    close(fd);
}

int fsync(int fd)
{
    static int (*real)(int);
    if (!real)
        real = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    char n[24];
    snprintf(n, sizeof n, "%d", fd);
    say("fsync", n);
    return real(fd);
}

int link(const char *from, const char *to)
{
    static int (*real)(const char *, const char *);
    if (!real)
        real = (int (*)(const char *, const char *))dlsym(RTLD_NEXT, "link");
    say("link", to);
    return real(from, to);
}
