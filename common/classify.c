#include "classify.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void ha_sentinel_fill(void *buf, size_t n) { memset(buf, HA_SENTINEL_BYTE, n); }

size_t ha_sentinel_written(const void *buf, size_t n)
{
    const unsigned char *p = buf;
    for (size_t i = n; i > 0; i--)
        if (p[i - 1] != HA_SENTINEL_BYTE)
            return i;
    return 0;
}

void ha_cls_ptr(const ha_alloc *a, uintptr_t p, char *cls, size_t n)
{
    uintptr_t base = (uintptr_t)a->ptr;
    if (p == 0)
        snprintf(cls, n, "null");
    else if (p == base)
        snprintf(cls, n, "=ptr");
    else if (p > base && p < base + a->size)
        snprintf(cls, n, "in-alloc");
    else
        snprintf(cls, n, "other");
}

void ha_cls_size(const ha_alloc *a, uint64_t s, char *cls, size_t n)
{
    if (s == 0)
        snprintf(cls, n, "0");
    else if (s == a->size)
        snprintf(cls, n, "=size");
    else
        snprintf(cls, n, s > a->size ? ">size" : "<size");
}

void ha_result_value(ha_result *r, const ha_alloc *a, ha_vtype vt, const void *buf, size_t width)
{
    r->outcome = HA_OUT_OK;
    if (vt == HA_VT_NONE) {
        snprintf(r->cls, sizeof r->cls, "ok");
        return;
    }
    size_t w = ha_sentinel_written(buf, width);
    if (w == 0) {
        r->outcome = HA_OUT_NOT_WRITTEN;
        snprintf(r->value, sizeof r->value, "(output not written)");
        snprintf(r->cls, sizeof r->cls, "not-written");
        return;
    }
    if (vt == HA_VT_BYTES) {
        snprintf(r->value, sizeof r->value, "%zu of %zu bytes written", w, width);
        snprintf(r->cls, sizeof r->cls, "written");
        return;
    }
    uint64_t v = 0;
    const unsigned char *p = buf;
    size_t take = w < 8 ? w : 8;
    for (size_t i = 0; i < take; i++)
        v |= (uint64_t)p[i] << (8 * i);
    char note[64] = "";
    if (w < width)
        snprintf(note, sizeof note, " (%zu of %zu bytes written)", w, width);
    switch (vt) {
    case HA_VT_PTR:
        snprintf(r->value, sizeof r->value, "0x%" PRIx64 "%s", v, note);
        ha_cls_ptr(a, (uintptr_t)v, r->cls, sizeof r->cls);
        break;
    case HA_VT_SIZE:
        snprintf(r->value, sizeof r->value, "%" PRIu64 "%s", v, note);
        ha_cls_size(a, v, r->cls, sizeof r->cls);
        break;
    case HA_VT_INT: {
        int64_t sv = (int64_t)v;
        if (w == 4 && width == 4)
            sv = (int32_t)(uint32_t)v;
        snprintf(r->value, sizeof r->value, "%" PRId64 "%s", sv, note);
        snprintf(r->cls, sizeof r->cls, "%" PRId64, sv);
        break;
    }
    case HA_VT_BOOL:
        snprintf(r->value, sizeof r->value, "%" PRIu64 "%s", v, note);
        snprintf(r->cls, sizeof r->cls, "%d", v != 0);
        break;
    case HA_VT_HANDLE:
        snprintf(r->value, sizeof r->value, "0x%" PRIx64 "%s", v, note);
        snprintf(r->cls, sizeof r->cls, v ? "non-null" : "null");
        break;
    case HA_VT_ID:
        snprintf(r->value, sizeof r->value, "%" PRIu64 "%s", v, note);
        snprintf(r->cls, sizeof r->cls, v ? "nonzero" : "0");
        break;
    default:
        break;
    }
}

void ha_outcome_key(const ha_result *r, char *key, size_t n)
{
    snprintf(key, n, "%s|%s", r->status_name, r->outcome == HA_OUT_ERROR ? "" : r->cls);
}

const char *ha_outcome_name(ha_outcome o)
{
    switch (o) {
    case HA_OUT_OK: return "ok";
    case HA_OUT_ERROR: return "error";
    case HA_OUT_NOT_WRITTEN: return "not_written";
    case HA_OUT_SYMBOL_MISSING: return "symbol_missing";
    case HA_OUT_UNAVAILABLE: return "unavailable";
    case HA_OUT_SKIPPED: return "skipped";
    }
    return "?";
}

void ha_result_cell(const ha_result *r, char *cell, size_t n)
{
    switch (r->outcome) {
    case HA_OUT_OK: snprintf(cell, n, "%s", r->cls); break;
    case HA_OUT_ERROR: snprintf(cell, n, "x %s", ha_short_status(r->status_name)); break;
    case HA_OUT_NOT_WRITTEN: snprintf(cell, n, "ok,unwritten"); break;
    case HA_OUT_SYMBOL_MISSING: snprintf(cell, n, "no symbol"); break;
    case HA_OUT_UNAVAILABLE: snprintf(cell, n, "unavailable"); break;
    case HA_OUT_SKIPPED: /* the reason, where there is one more telling than "skipped" */
        snprintf(cell, n, "%s", r->status == HA_ST_SKEW ? "refused: skew" : r->status_name[0] ? r->status_name : "skipped");
        break;
    }
}

static uint64_t raw_value(const void *out, int width)
{
    uint64_t v = 0;
    const unsigned char *p = out;
    for (int i = 0; i < width && i < 8; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int ptr_code(const ha_alloc *a, uint64_t v)
{
    uintptr_t base = (uintptr_t)a->ptr;
    if (v == 0)
        return 0;
    if (v == base)
        return 1;
    return v > base && v < base + a->size ? 2 : 3;
}

static int size_code(const ha_alloc *a, uint64_t v)
{
    if (v == 0)
        return 0;
    return v == a->size ? 1 : v < a->size ? 2 : 3;
}

bool ha_raw_same_class(const ha_query *q, const ha_alloc *a, int status, const void *out,
                       const ha_raw_ref *ref)
{
    if (status != ref->status)
        return false;
    if (status != 0)
        return true; /* errors are told apart by their status alone */
    uint64_t v = raw_value(out, q->width), r = raw_value(ref->out, q->width);
    switch ((ha_vtype)q->vtype) {
    case HA_VT_PTR: return ptr_code(a, v) == ptr_code(a, r);
    case HA_VT_SIZE: return size_code(a, v) == size_code(a, r);
    case HA_VT_INT: return v == r;
    case HA_VT_BOOL:
    case HA_VT_HANDLE:
    case HA_VT_ID: return (v != 0) == (r != 0);
    default: return true;
    }
}
