/* The path families as data (families.def): one row per family, every
 * trait a judgement or a view needs. Adding or retuning a family is one
 * row there. */
#ifndef HA_FAMILIES_H
#define HA_FAMILIES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct ha_family {
    const char *name;
    bool instrument;
    double clock_share;
    bool state_bound, steady_only, run_bound;
    const char *colour;
} ha_family;

enum {
#define FAMILY(NAME, KIND, SHARE, STATE, STEADY, RUN, COLOUR) HA_FAM_##NAME,
#include "families.def"
#undef FAMILY
    HA_NFAMILIES
};

/* How many path families (the instruments left out), for arrays of them. */
#define HA_FAMILY_COUNTS_INSTRUMENT 0
#define HA_FAMILY_COUNTS_PATH 1
enum {
    HA_NPATH_FAMILIES = 0
#define FAMILY(NAME, KIND, SHARE, STATE, STEADY, RUN, COLOUR) + HA_FAMILY_COUNTS_##KIND
#include "families.def"
#undef FAMILY
};

/* The path families' names, "read, memory, ..., fault, ", a string
 * literal for help texts, which are static. */
extern const char ha_family_path_names[];

extern const ha_family ha_families[HA_NFAMILIES];

/* The headline, by the rows' paths: the fast path read (on the kind the
 * bench chose), its cold read, the runtime's copies of the same
 * allocation (the first is the slow path the ratio is set against), each
 * hardened path with its discriminator alone, and the contained fault's
 * fallback. The bench finds them so as it measures (bench/headline.c), the
 * report as it reads (report/derive/derive.c). */
#define HA_HEADLINE_NCOPIES 3
typedef struct ha_headline_rule {
    const char *fast, *cold, *copies[HA_HEADLINE_NCOPIES], *hardened, *alone, *fault;
} ha_headline_rule;
extern const ha_headline_rule ha_headline;

/* The family of that name, or NULL. */
const ha_family *ha_family_find(const char *name);

/* Whether it is one of the instruments (a family no table knows is not). */
bool ha_family_is_instrument(const char *name);

/* The path families' clock shares other than 1, as "memory 0.7, copy 0.4"
 * into buf (n bytes, cut nowhere: -1 when it does not fit). */
int ha_family_shares(char *buf, size_t n);

#endif
