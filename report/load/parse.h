/* One document parsed and checked against the root it claims, before
 * anything reads it: the loader's run records (model.c) and changes' record
 * (changesrec.c) pass the same gate. */
#ifndef HA_PARSE_H
#define HA_PARSE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "fields.h"

/* Field id of object o, by its key in the field table (NULL when absent). */
static inline const json_t *ld_get(const json_t *o, int id) { return json_object_get(o, ha_fkey(id)); }

/* buf[0..len) as the record of root want (HF_ROOT_*), or of any run
 * record's root when want is HF_NONE (compare's and changes' own records
 * are never a run's). name prefixes every message. 0 with *out (the
 * caller's, json_decref) and *root, or -1 with a malloc'd one-line *err
 * naming the place and what was expected. */
int ld_parse_checked(const char *name, const char *buf, size_t len, int want, json_t **out, int *root, char **err);

#endif
