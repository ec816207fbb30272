/* Reading result records: jansson parses, a declarative field list checks.
 * A record that is missing, truncated, corrupt or of another schema gives
 * one line naming the file, the place and what was expected. */
#ifndef HA_RECORDS_H
#define HA_RECORDS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Types a field may take, or-ed. */
enum { RT_NULL = 1, RT_BOOL = 2, RT_INT = 4, RT_REAL = 8, RT_NUM = RT_INT | RT_REAL, RT_STR = 16,
       RT_OBJ = 32, RT_ARR = 64, RT_ABSENT = 128 /* may be missing (older records) */ };

typedef struct rec_field {
    const char *path; /* "kinds[].readable": [] is every element of an array */
    int types;
    /* An integer's allowed range, checked where max > min: a value past
     * what the writer can produce is a corrupt record, not a number to print. */
    long long min, max;
} rec_field;

/* The largest record file read: the biggest real one is a few MiB. */
#define REC_MAX_BYTES (64ll << 20)

/* The fields a tool's record must have, ended by a NULL path; NULL for an
 * unknown tool. */
const rec_field *rec_schema(const char *tool);

/* Checks root against a field list ended by a NULL path. Returns 0, or -1
 * with err as "$.path: expected ..., found ...". */
int rec_check_fields(const json_t *root, const rec_field *f, char *err, size_t errlen);

/* Checks a parsed document against the head every record shares and its
 * tool's fields. Returns 0, or -1 with err as "$.path: expected ..., found ...". */
int rec_validate(const json_t *root, const char *tool, char *err, size_t errlen);

/* Loads and validates FILE, a record of tool (NULL: any known tool). On
 * failure returns NULL with "FILE: where: what was expected" in err. */
json_t *rec_load(const char *path, const char *tool, char *err, size_t errlen);

/* The same, with every raw-samples array ("samples_ns") read as empty: the
 * report and compare use the statistics, not the samples, and the samples
 * are most of a bench record. An array holding anything but numbers is not
 * skipped, so the full parse still refuses it. */
json_t *rec_load_summary(const char *path, const char *tool, char *err, size_t errlen);

/* Reads and parses any JSON file with the record reader's care (a regular
 * file, at most REC_MAX_BYTES, no duplicate keys); no schema check. */
json_t *rec_load_json(const char *path, char *err, size_t errlen);

/* Parses a buffer (the fuzz target's entry); same checks, no file name. */
json_t *rec_load_buffer(const char *buf, size_t len, char *err, size_t errlen);

/* A bench record's row: path, repeat, not skipped; kind and candidate
 * matched exactly ("" matches a null field) unless NULL, which matches any. */
const json_t *rec_bench_row(const json_t *bench, const char *path, const char *kind,
                            const char *candidate, int repeat);

/* A bench row's family (harness, canary, read, memory, guarded, query, hardened, copy,
 * fault): the record's own, or for records older than the field, the one
 * its path name implies. "" when neither says. */
const char *rec_row_family(const json_t *row);

/* Convenience getters for validated documents. */
const char *rec_str(const json_t *o, const char *key);
double rec_num(const json_t *o, const char *key);
/* A count or index: the integer, a finite number truncated, else 0 — never
 * a conversion past what long long holds. */
long long rec_int(const json_t *o, const char *key);
int rec_tri(const json_t *o, const char *key); /* true 1, false 0, null/absent -1 */

#endif
