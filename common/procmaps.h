/* What the kernel says is mapped at an address: the line of /proc/self/maps
 * that holds it. */
#ifndef HA_PROCMAPS_H
#define HA_PROCMAPS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

typedef struct ha_map_entry {
    uintptr_t start, end;
    char perms[5];   /* "rw-p" */
    char path[128];  /* may be empty */
} ha_map_entry;

/* Parses one maps line; false when it is not one. */
bool ha_maps_parse_line(const char *line, ha_map_entry *e);

/* Finds addr in a maps stream; 1 found, 0 not mapped, -1 read error. */
int ha_maps_find_in(FILE *f, uintptr_t addr, ha_map_entry *e);

/* The same over /proc/self/maps. */
int ha_maps_find(const void *addr, ha_map_entry *e);

#endif
