/* Does a candidate separate host-readable memory from the rest?
 *
 * It does if and only if no outcome (status + value class) it gives on a
 * readable kind is also given on an unreadable kind. When it does not, each
 * outcome is read as the rule a user would apply: readable if most kinds
 * giving it are readable, unreadable otherwise (a tie counts as unreadable,
 * the safe guess). The kinds that rule gets wrong are named: a false
 * positive says "readable" of memory that faults (the crash), a false
 * negative says "unreadable" of memory that reads (a lost fast path).
 * A cell whose answer says what it means (says set) is wrong exactly when
 * it disagrees with the truth. */
#ifndef HA_VERDICT_H
#define HA_VERDICT_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu.h"
#include "verdictname.h"

typedef enum { HA_TRUTH_UNKNOWN = -1, HA_TRUTH_NO = 0, HA_TRUTH_YES = 1 } ha_truth;

typedef enum { HA_SAYS_INFER = 0, HA_SAYS_READABLE, HA_SAYS_UNREADABLE } ha_says;

typedef struct ha_vcell {
    const char *kind;
    ha_truth truth;
    bool answered;       /* false: symbol missing, unavailable, skipped */
    const char *outcome; /* ha_outcome_key() */
    /* What the answer means by itself, for a model of another program's
     * rule (judged as said, not by majority); HA_SAYS_INFER for a query. */
    ha_says says;
} ha_vcell;

typedef struct ha_wrong {
    const char *kind;
    bool false_positive;
    const char *outcome;
} ha_wrong;

typedef struct ha_verdict {
    ha_verdict_kind v;
    size_t nwrong;
    ha_wrong wrong[HA_MAX_KINDS];
    char why[256];
} ha_verdict;

void ha_verdict_compute(const ha_vcell *cells, size_t n, ha_verdict *out);


#endif
