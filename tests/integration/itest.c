#include "itest.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

char it_out[1 << 16];

int it_sh(const char *fmt, ...)
{
    char cmd[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
    FILE *p = popen(cmd, "r");
    if (!p)
        return 128;
    size_t n = fread(it_out, 1, sizeof it_out - 1, p);
    it_out[n] = 0;
    int st = pclose(p);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

int it_tmpdir(char *dir, size_t n, const char *name)
{
    snprintf(dir, n, "/tmp/ha-%s-XXXXXX", name);
    return mkdtemp(dir) ? 0 : -1;
}

const char *it_build(void)
{
    const char *b = getenv("BUILD");
    return b ? b : "build";
}
