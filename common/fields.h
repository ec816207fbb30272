/* The record fields, declared once in fields.def: the tools write through
 * them (recw.h), the report side reads and checks through them, and
 * results/SCHEMA.md is generated from them. Part of the base library. */
#ifndef HA_FIELDS_H
#define HA_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

/* A field's JSON types, or-ed, and its flags. */
enum {
    T_STR = 1,
    T_INT = 2,
    T_NUM = 4, /* an integer or a real */
    T_BOOL = 8,
    T_OBJ = 16,
    T_ARR = 32,
    T_NULL = 64,
    F_MEAS = 256,        /* required only where its object was measured */
    F_GATE_TRUE = 512,   /* this boolean, true, says its object was measured */
    F_GATE_FALSE = 1024, /* this boolean, false, says its object was measured */
    F_ROOT = 2048,       /* a record's top level; the key is the tool's name */
    F_GROUP = 4096,      /* fields shared by several containers (ha_field_uses) */
    F_DERIVED = 8192,    /* a figure derived from the record's measurements: records up to
                          * schema 3 carry it; from HA_SCHEMA_DERIVED_ON_READ the reader
                          * derives it (report/load/onread.c) and refuses a record that
                          * carries it, so a figure has one source */
};
#define T_TYPES (T_STR | T_INT | T_NUM | T_BOOL | T_OBJ | T_ARR | T_NULL)

/* The schema version this build writes; readers take 1 to this. */
/* The backend names a record may hold: those ha_all_backends (backend.c)
 * lists, spelled here for the schema, which the report side reads without
 * the backends (test_backendkit holds the two equal). */
#define HA_BACKEND_VALUES "hip|cuda|sim"

#define HA_SCHEMA_VERSION 4
/* From this version on a record holds measurements and metadata alone:
 * whatever is derived from them (F_DERIVED) is derived once, on read. */
#define HA_SCHEMA_DERIVED_ON_READ 4

typedef enum ha_field_id {
    HF_NONE = 0,
#define HF(ID, PARENT, KEY, TYPES, ELEM, UNIT, MIN, MAX, SINCE, VALS, DOC) HF_##ID,
#define HU(C, G)
#define HUD(C, G)
#include "fields.def"
#undef HF
#undef HU
#undef HUD
    HF_COUNT
} ha_field_id;

typedef struct ha_field {
    const char *name; /* the identifier, for messages and the schema page */
    const char *key;
    int parent;
    unsigned types;
    unsigned elem; /* a scalar array's element type; 0: objects */
    const char *unit;
    double min, max; /* min > max: any */
    int since;       /* required from this schema version on; 0 never */
    const char *vals; /* "a|b|c" or NULL */
    const char *doc;
} ha_field;

extern const ha_field ha_fields[HF_COUNT];

typedef struct ha_field_use {
    int container, group;
    unsigned flags; /* F_DERIVED: the group's fields are derived in this container (HUD) */
} ha_field_use;

extern const ha_field_use ha_field_uses[];
extern const size_t ha_nfield_uses;

/* The key of field id ("" for HF_NONE). */
const char *ha_fkey(int id);

/* Whether field belongs to container: its parent, or a group the
 * container uses. */
bool ha_field_member(int container, int field);

/* Whether field is derived in container (F_DERIVED): its own flag, or the
 * group that brings it in is used there with HUD. */
bool ha_field_derived(int container, int field);

/* The schema whose figures a record of schema v gives: from
 * HA_SCHEMA_DERIVED_ON_READ the reader derives what schema 3 wrote, by the
 * bench's own functions, so a series runs on across 3 -> 4 (changes) and
 * breaks only where a figure's meaning changed. */
static inline long long ha_schema_figures(long long v) { return v >= HA_SCHEMA_DERIVED_ON_READ ? 3 : v; }

/* The newest schema version that added a field: a record older than it
 * lacks something a newer one has. */
int ha_schema_last_added(void);

/* Whether s is one of the field's allowed values (any, without a list). */
bool ha_field_value_ok(int id, const char *s);

/* The root of a tool's record ("env", "probe_discriminator", ...), or HF_NONE. */
int ha_field_root(const char *tool);

#endif
