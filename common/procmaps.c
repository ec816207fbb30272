#include "procmaps.h"

#include <inttypes.h>
#include <string.h>

bool ha_maps_parse_line(const char *line, ha_map_entry *e)
{
    memset(e, 0, sizeof *e);
    uintmax_t s, t;
    char perms[8] = {0};
    int off = 0;
    if (sscanf(line, "%jx-%jx %7s %*x %*s %*u%n", &s, &t, perms, &off) < 3 || off == 0)
        return false;
    if (strlen(perms) != 4 || t <= s)
        return false;
    e->start = (uintptr_t)s;
    e->end = (uintptr_t)t;
    memcpy(e->perms, perms, 5);
    const char *p = line + off;
    while (*p == ' ' || *p == '\t')
        p++;
    snprintf(e->path, sizeof e->path, "%s", p);
    size_t n = strlen(e->path);
    while (n && (e->path[n - 1] == '\n' || e->path[n - 1] == ' '))
        e->path[--n] = 0;
    return true;
}

int ha_maps_find_in(FILE *f, uintptr_t addr, ha_map_entry *e)
{
    char line[1024];
    while (fgets(line, sizeof line, f)) {
        ha_map_entry cur;
        if (!ha_maps_parse_line(line, &cur))
            continue;
        if (addr >= cur.start && addr < cur.end) {
            *e = cur;
            return 1;
        }
    }
    return ferror(f) ? -1 : 0;
}

int ha_maps_find(const void *addr, ha_map_entry *e)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    int r = ha_maps_find_in(f, (uintptr_t)addr, e);
    fclose(f);
    return r;
}
