/* A result file is written under a temporary name beside its final path and
 * linked into place only when complete: a crash never leaves half a file,
 * and an existing result is never overwritten. */
#ifndef HA_RECORD_H
#define HA_RECORD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef struct ha_record {
    char path[PATH_MAX];
    char tmp[PATH_MAX];
    FILE *f;
    bool derived; /* made from other files (a report): no fsync, it can be made again */
} ha_record;

/* Creates the temporary file. Fails (with a one-line err) when the final
 * path exists or its folder is not writable. */
int ha_record_open(ha_record *r, const char *path, char *err, size_t errlen);

/* Flushes, syncs and links the file into place; 0 on success. */
int ha_record_commit(ha_record *r, char *err, size_t errlen);

/* Removes the temporary file; safe to call after a commit. */
void ha_record_abort(ha_record *r);

/* Whether two output paths name one file (same folder after resolving
 * links, same name), so a tool can refuse the pair before doing any work. */
bool ha_same_file(const char *a, const char *b);

#endif
