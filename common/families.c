#include "families.h"

#include <stdio.h>
#include <string.h>

#define INSTR_INSTRUMENT true
#define INSTR_PATH false
const ha_family ha_families[HA_NFAMILIES] = {
#define FAMILY(NAME, KIND, SHARE, STATE, STEADY, RUN, COLOUR) {#NAME, INSTR_##KIND, SHARE, STATE, STEADY, RUN, COLOUR},
#include "families.def"
#undef FAMILY
};

const ha_headline_rule ha_headline = {"fast", "fast_cold", {"copy_pageable", "copy_pinned", "copy_async"},
                                      "hardened", "disc", "fault_fallback"};

#define NAMES_INSTRUMENT(NAME)
#define NAMES_PATH(NAME) #NAME ", "
const char ha_family_path_names[] =
#define FAMILY(NAME, KIND, SHARE, STATE, STEADY, RUN, COLOUR) NAMES_##KIND(NAME)
#include "families.def"
#undef FAMILY
    "";

const ha_family *ha_family_find(const char *name)
{
    for (size_t i = 0; name && i < HA_NFAMILIES; i++)
        if (!strcmp(ha_families[i].name, name))
            return &ha_families[i];
    return NULL;
}

bool ha_family_is_instrument(const char *name)
{
    const ha_family *f = ha_family_find(name);
    return f && f->instrument;
}

int ha_family_shares(char *buf, size_t n)
{
    size_t at = 0;
    buf[0] = 0;
    for (size_t i = 0; i < HA_NFAMILIES; i++) {
        const ha_family *f = &ha_families[i];
        if (f->instrument || f->clock_share == 1)
            continue;
        int w = snprintf(buf + at, n - at, "%s%s %g", at ? ", " : "", f->name, f->clock_share);
        if (w < 0 || (size_t)w >= n - at)
            return -1;
        at += (size_t)w;
    }
    return 0;
}
