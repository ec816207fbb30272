#include "verdictname.h"

#include <string.h>

static const char *const names[] = {
    [HA_V_DISTINGUISHES] = "distinguishes",
    [HA_V_FAILS] = "fails",
    [HA_V_UNDETERMINED] = "undetermined",
};

const char *ha_verdict_name(ha_verdict_kind v)
{
    return (unsigned)v < sizeof names / sizeof *names ? names[v] : "?";
}

ha_verdict_kind ha_verdict_parse(const char *name)
{
    for (unsigned v = 0; name && v < sizeof names / sizeof *names; v++)
        if (!strcmp(name, names[v]))
            return (ha_verdict_kind)v;
    return HA_V_UNDETERMINED;
}
