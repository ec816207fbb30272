/* Writing a record's fields by their declaration (fields.def): the key
 * comes from the table, so a writer cannot misspell one. */
#ifndef HA_RECW_H
#define HA_RECW_H

#include <stdbool.h>
#include <stdint.h>

#include "fields.h"
#include "jsonw.h"

void hw_key(jw *w, int id);
void hw_str(jw *w, int id, const char *v); /* NULL writes null */
void hw_int(jw *w, int id, int64_t v);
void hw_uint(jw *w, int id, uint64_t v);
void hw_num(jw *w, int id, double v); /* non-finite writes null */
void hw_bool(jw *w, int id, bool v);
void hw_tri(jw *w, int id, int v); /* -1 writes null */
void hw_null(jw *w, int id);
void hw_obj(jw *w, int id);
void hw_arr(jw *w, int id);
void hw_arr_flat(jw *w, int id);

/* The identification every document starts with: schema_version and tool. */
void hw_ident(jw *w, const char *tool);

#endif
