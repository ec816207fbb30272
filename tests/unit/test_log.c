/* Levelled messages: the prefix, the warning tag, and HOSTACCESS_LOG
 * choosing what is printed. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"

/* What ha_log wrote to stderr while fn ran. */
static const char *captured(ha_log_level level, const char *msg)
{
    static char buf[512];
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 2);
    ha_log(level, "%s", msg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t n = fread(buf, 1, sizeof buf - 1, tmp);
    buf[n] = 0;
    fclose(tmp);
    return buf;
}

static void levels_prefix_and_filter(void **s)
{
    (void)s;
    ha_log_name("t");
    unsetenv("HOSTACCESS_LOG");
    assert_string_equal(captured(HA_LOG_INFO, "step"), "t: step\n");
    assert_string_equal(captured(HA_LOG_WARN, "odd"), "t: warning: odd\n");
    assert_string_equal(captured(HA_LOG_DEBUG, "detail"), ""); /* info by default */
    setenv("HOSTACCESS_LOG", "warn", 1);
    assert_string_equal(captured(HA_LOG_INFO, "step"), "");
    assert_string_equal(captured(HA_LOG_ERROR, "stop"), "t: stop\n");
    setenv("HOSTACCESS_LOG", "debug", 1);
    assert_string_equal(captured(HA_LOG_DEBUG, "detail"), "t: debug: detail\n");
    setenv("HOSTACCESS_LOG", "error", 1);
    assert_string_equal(captured(HA_LOG_WARN, "odd"), "");
    setenv("HOSTACCESS_LOG", "bogus", 1);
    assert_string_equal(captured(HA_LOG_INFO, "step"), "t: step\n"); /* not understood: the default */
    unsetenv("HOSTACCESS_LOG");
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(levels_prefix_and_filter)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
