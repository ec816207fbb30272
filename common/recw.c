#include "recw.h"

void hw_key(jw *w, int id) { jw_key(w, ha_fkey(id)); }
void hw_str(jw *w, int id, const char *v) { jw_kstr(w, ha_fkey(id), v); }
void hw_int(jw *w, int id, int64_t v) { jw_kint(w, ha_fkey(id), v); }
void hw_uint(jw *w, int id, uint64_t v) { jw_kuint(w, ha_fkey(id), v); }
void hw_num(jw *w, int id, double v) { jw_kdbl(w, ha_fkey(id), v); }
void hw_bool(jw *w, int id, bool v) { jw_kbool(w, ha_fkey(id), v); }
void hw_tri(jw *w, int id, int v) { jw_ktri(w, ha_fkey(id), v); }

void hw_null(jw *w, int id)
{
    jw_key(w, ha_fkey(id));
    jw_null(w);
}

void hw_obj(jw *w, int id)
{
    jw_key(w, ha_fkey(id));
    jw_obj(w);
}

void hw_arr(jw *w, int id)
{
    jw_key(w, ha_fkey(id));
    jw_arr(w);
}

void hw_arr_flat(jw *w, int id)
{
    jw_key(w, ha_fkey(id));
    jw_arr_flat(w);
}

void hw_ident(jw *w, const char *tool)
{
    hw_int(w, HF_SCHEMA_VERSION, HA_SCHEMA_VERSION);
    hw_str(w, HF_TOOL, tool);
}
