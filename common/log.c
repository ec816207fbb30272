#include "log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prefix = "hostaccess";

void ha_log_name(const char *tool) { prefix = tool; }

/* Read each time: a test or a wrapper may set it between tools in one process. */
static ha_log_level threshold(void)
{
    static const char *const names[] = {"error", "warn", "info", "debug"};
    const char *v = getenv("HOSTACCESS_LOG");
    for (int i = 0; v && i < 4; i++)
        if (!strcmp(v, names[i]))
            return (ha_log_level)i;
    return HA_LOG_INFO;
}

/* Whether a level is printed under the current HOSTACCESS_LOG. */
static int ha_log_enabled(ha_log_level level) { return level <= threshold(); }

void ha_log(ha_log_level level, const char *fmt, ...)
{
    if (!ha_log_enabled(level))
        return;
    static const char *const tags[] = {"", "warning: ", "", "debug: "};
    fprintf(stderr, "%s: %s", prefix, tags[level]);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}
