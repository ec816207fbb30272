/* Finding a run's rows, kinds and candidates by name: the indices the
 * loader builds once, and the lookups every stage makes. */
#include "model.h"

#include <stdbool.h>
#include <string.h>

#include "stats.h"

/* Kind names to indices, so a candidate's cells line up with the kinds in
 * time linear in the record (a record of thousands of kinds stays quick). */
void m_index_kinds(m_run *r, m_probe *p)
{
    size_t cap = 16;
    while (cap < 2 * p->nkinds)
        cap *= 2;
    p->kslot = m_alloc(r, cap * sizeof *p->kslot);
    if (!p->kslot)
        return;
    p->kcap = cap;
    for (size_t i = 0; i < cap; i++)
        p->kslot[i] = -1;
    for (size_t k = 0; k < p->nkinds; k++) {
        size_t h = ha_fnv1a(HA_FNV_OFFSET, p->kinds[k].name) & (cap - 1);
        while (p->kslot[h] >= 0 && strcmp(p->kinds[p->kslot[h]].name, p->kinds[k].name))
            h = (h + 1) & (cap - 1);
        if (p->kslot[h] < 0)
            p->kslot[h] = (long)k; /* a name given twice keeps its first kind */
    }
}

long m_probe_kind_index(const m_probe *p, const char *name)
{
    if (!p->kcap) {
        for (size_t i = 0; i < p->nkinds; i++)
            if (!strcmp(p->kinds[i].name, name))
                return (long)i;
        return -1;
    }
    for (size_t h = ha_fnv1a(HA_FNV_OFFSET, name) & (p->kcap - 1); p->kslot[h] >= 0; h = (h + 1) & (p->kcap - 1))
        if (!strcmp(p->kinds[p->kslot[h]].name, name))
            return p->kslot[h];
    return -1;
}

static size_t row_hash(const char *path, const char *kind, const char *cand, long long repeat)
{
    unsigned long long h = HA_FNV_OFFSET ^ (unsigned long long)repeat;
    const char *parts[] = {path, kind, cand};
    for (int k = 0; k < 3; k++)
        h = (ha_fnv1a(h, parts[k]) ^ 0xff) * HA_FNV_PRIME; /* "ab","c" is not "a","bc" */
    return (size_t)h;
}


static bool row_is(const m_row *r, const char *path, const char *kind, const char *cand, long long repeat)
{
    return r->repeat == repeat && !r->skipped && !strcmp(r->path, path) && (!kind || !strcmp(r->kind, kind)) &&
           (!cand || !strcmp(r->candidate, cand));
}

/* Rows by (path, kind, candidate, repeat), the first of equal keys kept
 * as the scan keeps it: compare and the derived facts look a row up per
 * row, and a record of 20,000 rows made that quadratic. */
void m_index_rows(m_run *r, m_bench *b)
{
    size_t cap = 16;
    while (cap < 2 * b->nrows)
        cap *= 2;
    b->row_index = m_alloc(r, cap * sizeof *b->row_index);
    if (!b->row_index)
        return;
    memset(b->row_index, 0, cap * sizeof *b->row_index);
    b->row_index_mask = cap - 1;
    for (size_t i = 0; i < b->nrows; i++) {
        const m_row *x = &b->rows[i];
        if (x->skipped)
            continue;
        size_t h = row_hash(x->path, x->kind, x->candidate, x->repeat) & b->row_index_mask;
        while (b->row_index[h] && !row_is(&b->rows[b->row_index[h] - 1], x->path, x->kind, x->candidate, x->repeat))
            h = (h + 1) & b->row_index_mask;
        if (!b->row_index[h])
            b->row_index[h] = i + 1;
    }
}


const m_row *m_bench_row(const m_bench *b, const char *path, const char *kind, const char *cand, long long repeat)
{
    if (kind && cand && b->row_index) {
        size_t h = row_hash(path, kind, cand, repeat) & b->row_index_mask;
        for (; b->row_index[h]; h = (h + 1) & b->row_index_mask)
            if (row_is(&b->rows[b->row_index[h] - 1], path, kind, cand, repeat))
                return &b->rows[b->row_index[h] - 1];
        return NULL;
    }
    for (size_t i = 0; i < b->nrows; i++)
        if (row_is(&b->rows[i], path, kind, cand, repeat))
            return &b->rows[i];
    return NULL;
}

const char *m_row_family(const m_row *r)
{
    if (*r->family)
        return r->family;
    /* Records from before the field: the path names of that bench. */
    static const struct { const char *prefix, *family; } legacy[] = {
        {"harness", "harness"}, {"canary", "canary"},   {"fast_cold", "memory"}, {"fast", "read"},
        {"guarded", "guarded"}, {"disc", "query"},      {"hardened", "hardened"}, {"copy", "copy"},
        {"fault", "fault"},
    };
    for (size_t i = 0; i < sizeof legacy / sizeof legacy[0]; i++)
        if (!strncmp(r->path, legacy[i].prefix, strlen(legacy[i].prefix)))
            return legacy[i].family;
    return "";
}

const m_cand *m_probe_cand(const m_probe *p, const char *name)
{
    for (size_t i = 0; i < p->ncands; i++)
        if (!strcmp(p->cands[i].name, name))
            return &p->cands[i];
    return NULL;
}

const m_kind *m_probe_kind(const m_probe *p, const char *name)
{
    long i = m_probe_kind_index(p, name);
    return i < 0 ? NULL : &p->kinds[i];
}
