#include "fields.h"

#include <string.h>

const ha_field ha_fields[HF_COUNT] = {
    [HF_NONE] = {"NONE", "", HF_NONE, 0, 0, "", 1, 0, 0, NULL, ""},
#define HF(ID, PARENT, KEY, TYPES, ELEM, UNIT, MIN, MAX, SINCE, VALS, DOC)                                   \
    [HF_##ID] = {#ID, KEY, HF_##PARENT, TYPES, ELEM, UNIT, MIN, MAX, SINCE, VALS, DOC},
#define HU(C, G)
#define HUD(C, G)
#include "fields.def"
#undef HF
#undef HU
#undef HUD
};

const ha_field_use ha_field_uses[] = {
#define HF(ID, PARENT, KEY, TYPES, ELEM, UNIT, MIN, MAX, SINCE, VALS, DOC)
#define HU(C, G) {HF_##C, HF_##G, 0},
#define HUD(C, G) {HF_##C, HF_##G, F_DERIVED},
#include "fields.def"
#undef HF
#undef HU
#undef HUD
};
const size_t ha_nfield_uses = sizeof ha_field_uses / sizeof ha_field_uses[0];

const char *ha_fkey(int id) { return id > HF_NONE && id < HF_COUNT ? ha_fields[id].key : ""; }

bool ha_field_member(int container, int field)
{
    if (ha_fields[field].parent == container)
        return true;
    for (size_t i = 0; i < ha_nfield_uses; i++)
        if (ha_field_uses[i].container == container && ha_field_member(ha_field_uses[i].group, field))
            return true;
    return false;
}

bool ha_field_derived(int container, int field)
{
    if (ha_fields[field].types & F_DERIVED)
        return ha_field_member(container, field);
    for (size_t i = 0; i < ha_nfield_uses; i++)
        if (ha_field_uses[i].container == container && ha_field_member(ha_field_uses[i].group, field) &&
            ((ha_field_uses[i].flags & F_DERIVED) || ha_field_derived(ha_field_uses[i].group, field)))
            return true;
    return false;
}

int ha_schema_last_added(void)
{
    int v = 1;
    for (int i = 1; i < HF_COUNT; i++)
        if (ha_fields[i].since > v)
            v = ha_fields[i].since;
    return v;
}

bool ha_field_value_ok(int id, const char *s)
{
    const char *v = ha_fields[id].vals;
    if (!v)
        return true;
    size_t n = strlen(s);
    while (*v) {
        size_t l = strcspn(v, "|");
        if (l == n && !strncmp(v, s, n))
            return true;
        v += l + (v[l] == '|');
    }
    return false;
}

int ha_field_root(const char *tool)
{
    for (int i = 1; i < HF_COUNT; i++)
        if ((ha_fields[i].types & F_ROOT) && tool && !strcmp(ha_fields[i].key, tool))
            return i;
    return HF_NONE;
}
