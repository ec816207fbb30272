/* Turning what a query wrote into a value for people and a class for the
 * verdict. A class never holds a raw address or id: two allocations of the
 * same kind must land in the same class. Outputs are sentinel-filled before
 * a query, so "success without writing" and short writes are seen. */
#ifndef HA_CLASSIFY_H
#define HA_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gpu.h"
#include "statusname.h"

typedef enum {
    HA_VT_NONE,   /* status only */
    HA_VT_PTR,    /* an address: null, =ptr, in-alloc, other */
    HA_VT_SIZE,   /* a byte count compared to the allocation */
    HA_VT_INT,    /* an enum or flag word: the number is the class */
    HA_VT_BOOL,
    HA_VT_HANDLE, /* an opaque handle: null or not */
    HA_VT_ID,     /* a unique id: zero or not */
    HA_VT_BYTES,  /* an opaque struct: written or not */
} ha_vtype;

#define HA_SENTINEL_BYTE 0xA5

void ha_sentinel_fill(void *buf, size_t n);

/* Bytes from the start up to the last one that lost its sentinel; 0 when
 * nothing was written. */
size_t ha_sentinel_written(const void *buf, size_t n);

/* Decodes buf (width bytes, little-endian, sentinel-filled before the call)
 * into r->value and r->cls, for a call that returned success. */
void ha_result_value(ha_result *r, const ha_alloc *a, ha_vtype vt, const void *buf,
                     size_t width);

void ha_cls_ptr(const ha_alloc *a, uintptr_t p, char *cls, size_t n);
void ha_cls_size(const ha_alloc *a, uint64_t s, char *cls, size_t n);

/* "status_name|class": the outcome the verdict compares. */
void ha_outcome_key(const ha_result *r, char *key, size_t n);

/* A short cell for the table. */
void ha_result_cell(const ha_result *r, char *cell, size_t n);

const char *ha_outcome_name(ha_outcome o);


/* What a raw call answered on memory known to be readable: the reference a
 * hardened fast path compares against at read time. */
typedef struct ha_raw_ref {
    int status;
    unsigned char out[HA_RAW_MAX];
} ha_raw_ref;

/* Cheap, allocation-free: does (status, out) fall in the same class as the
 * reference? The decision a hardened fast path makes before it reads. */
bool ha_raw_same_class(const ha_query *q, const ha_alloc *a, int status, const void *out,
                       const ha_raw_ref *ref);

#endif
