/* The seals of a run (seal.c): the loader's own, not the report tools'. */
#ifndef HA_LOAD_SEAL_H
#define HA_LOAD_SEAL_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/* Why the manifest does not make the run whole (malloc'd), or NULL. */
char *ld_manifest_seals(const m_manifest *m);
/* A tool's temporary record left in the folder (it never finished), said
 * (malloc'd), or NULL. */
char *ld_leftover(const char *path);
/* Why buf[0..len) is not the bytes the manifest sealed as name (bytes,
 * sha256) (malloc'd), or NULL; what: "record" or "file". */
char *ld_seal_check(const char *name, const char *what, long long bytes, const char *sha256, const char *buf,
                    size_t len);
/* A record read once, against the manifest's seal while r is whole so
 * far: a record the manifest does not list, or one it lists that is not
 * there, makes r not whole (r->incomplete says why). */
void ld_seal_record(m_run *r, const char *name, bool there, const char *buf, size_t len);

#endif
