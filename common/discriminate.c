#include "discriminate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "gpuhelpers.h"

void ha_discriminate_init(const ha_backend *be, ha_discrimination *d, bool isolate_fork)
{
    memset(d, 0, sizeof *d);
    d->isolate_fork = isolate_fork;
    d->nk = ha_kinds(be, d->kinds, HA_MAX_KINDS);
    d->nq = ha_queries(be, d->queries, HA_MAX_QUERIES);
}

#define PATTERN_LEN HA_PATTERN_LEN
#define FORK_TIMEOUT_S 5




void ha_make_pattern(unsigned char *p, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(0x5a ^ (i * 37 + seed * 11));
}

static void note(ha_kind_run *r, const char *msg)
{
    size_t l = strlen(r->truth_note);
    snprintf(r->truth_note + l, sizeof r->truth_note - l, "%s%s", l ? "; " : "", msg);
}

/* The host read, in process (contained) and, with --isolate=fork, first in a
 * child. The in-process answer is the truth: it is the process that would
 * take the fast path. */
static void read_truth(ha_discrimination *p, ha_kind_run *r)
{
    const ha_alloc *a = &r->a;
    size_t n = a->size < PATTERN_LEN ? a->size : PATTERN_LEN;
    if (p->isolate_fork) {
        r->fork_read = ha_fork_read(a->ptr, n, a->pattern, FORK_TIMEOUT_S, NULL);
        if (r->fork_read != HA_HR_OK && r->fork_read != HA_HR_MISMATCH &&
            r->fork_read != HA_HR_SIGSEGV && r->fork_read != HA_HR_SIGBUS) {
            char m[96];
            snprintf(m, sizeof m, "fork read ended with %s: in-process read not attempted",
                     ha_hr_name(r->fork_read));
            note(r, m);
            r->readable = HA_TRUTH_UNKNOWN;
            return;
        }
    }
    unsigned char got[PATTERN_LEN];
    r->read_st = ha_guarded_read(a->ptr, got, n, a->pattern, NULL);
    r->readable = r->read_st == HA_HR_OK ? HA_TRUTH_YES : HA_TRUTH_NO;
    if (p->isolate_fork && r->fork_read != (int)r->read_st) {
        char m[128];
        snprintf(m, sizeof m, "fork isolation disagrees: child %s, in process %s",
                 ha_hr_name(r->fork_read), ha_hr_name(r->read_st));
        note(r, m);
    }
}

/* The host writes the inverse pattern; the device reads it back. */
static void write_truth(const ha_backend *be, ha_discrimination *p, ha_kind_run *r)
{
    
    ha_alloc *a = &r->a;
    size_t n = a->size < PATTERN_LEN ? a->size : PATTERN_LEN;
    unsigned char inv[PATTERN_LEN], back[PATTERN_LEN];
    for (size_t i = 0; i < n; i++)
        inv[i] = (unsigned char)~a->pattern[i];
    if (p->isolate_fork) {
        r->fork_write = ha_fork_write(a->ptr, inv, n, FORK_TIMEOUT_S, NULL);
        if (r->fork_write == HA_HR_TIMEOUT || r->fork_write == HA_HR_CHILD_DIED ||
            r->fork_write == HA_HR_ERROR) {
            note(r, "fork write did not finish: in-process write not attempted");
            r->writable = HA_TRUTH_UNKNOWN;
            return;
        }
    }
    r->write_st = ha_guarded_write(a->ptr, inv, n, NULL);
    if (r->write_st != HA_HR_OK) {
        r->writable = HA_TRUTH_NO;
        return;
    }
    memset(back, 0, sizeof back);
    int st = be->ops->copy_d2h(be, back, a->ptr, n);
    if (st != HA_ST_OK) {
        char m[128];
        snprintf(m, sizeof m, "device read-back failed: %s", ha_status_name(be, st));
        note(r, m);
        r->writable = HA_TRUTH_UNKNOWN;
        return;
    }
    if (memcmp(back, inv, n) != 0) {
        note(r, "host write completed but the device did not see it");
        r->write_st = HA_HR_MISMATCH;
    }
    r->writable = r->write_st == HA_HR_OK ? HA_TRUTH_YES : HA_TRUTH_NO;
}

/* A control kind has no device to write a pattern: the truth is whether
 * a contained read completes, only the OS-level candidates are asked, and
 * nothing is written (the page is read-only). */
static void control_kind(const ha_backend *be, ha_discrimination *p, ha_kind_run *r)
{
    for (size_t qi = 0; qi < p->nq; qi++) {
        if (p->queries[qi]->flags & HA_QF_OS) {
            ha_query_run(be, p->queries[qi], &r->a, &r->res[qi]);
        } else {
            ha_result_status(be, &r->res[qi], HA_ST_SKIPPED);
            snprintf(r->res[qi].status_name, sizeof r->res[qi].status_name, "not GPU memory");
        }
    }
    unsigned char got[PATTERN_LEN];
    size_t n = r->a.size < PATTERN_LEN ? r->a.size : PATTERN_LEN;
    if (p->isolate_fork)
        r->fork_read = ha_fork_read(r->a.ptr, n, NULL, FORK_TIMEOUT_S, NULL);
    r->read_st = ha_guarded_read(r->a.ptr, got, n, NULL, NULL);
    r->readable = r->read_st == HA_HR_OK ? HA_TRUTH_YES : HA_TRUTH_NO;
    note(r, "control: a contained read of the bytes, no pattern (no device wrote them); not written to");
    r->kind->destroy(be, &r->a);
}

/* A model of PyTorch's rule is about the tensors PyTorch's allocator hands
 * out: asked and judged on those kinds alone. */
static bool applies(const ha_query *q, const ha_kind *k) { return !(q->flags & HA_QF_MODEL) || k->torch_allocator; }

void ha_discriminate_kind(const ha_backend *be, ha_discrimination *p, size_t ki)
{
    
    ha_kind_run *r = &p->runs[ki];
    r->kind = p->kinds[ki];
    r->a.kind = r->kind;
    r->readable = r->writable = HA_TRUTH_UNKNOWN;
    r->fork_read = r->fork_write = -1;
    r->create_status = r->kind->create(be, &r->a);
    r->created = r->create_status == HA_ST_OK;
    if (!r->created)
        return;
    if (r->kind->control) {
        control_kind(be, p, r);
        return;
    }
    size_t n = r->a.size < PATTERN_LEN ? r->a.size : PATTERN_LEN;
    ha_make_pattern(r->a.pattern, n, (unsigned)ki);
    int st = be->ops->copy_h2d(be, r->a.ptr, r->a.pattern, n);
    if (st != HA_ST_OK) {
        char m[128];
        snprintf(m, sizeof m, "the device could not write the pattern: %s",
                 ha_status_name(be, st));
        note(r, m);
    } else {
        r->a.has_pattern = true;
    }
    /* Candidates first: a discriminator is asked before the read it guards. */
    for (size_t qi = 0; qi < p->nq; qi++) {
        if (!applies(p->queries[qi], r->kind)) {
            ha_result_status(be, &r->res[qi], HA_ST_SKIPPED);
            snprintf(r->res[qi].status_name, sizeof r->res[qi].status_name, "not PyTorch's allocator");
            continue;
        }
        ha_query_run(be, p->queries[qi], &r->a, &r->res[qi]);
    }
    if (r->a.has_pattern) {
        read_truth(p, r);
        write_truth(be, p, r);
    }
    r->kind->destroy(be, &r->a);
}

void ha_discriminate_verdicts(ha_discrimination *p)
{
    for (size_t qi = 0; qi < p->nq; qi++) {
        ha_vcell cells[HA_MAX_KINDS];
        size_t n = 0;
        for (size_t ki = 0; ki < p->nk; ki++) {
            ha_kind_run *r = &p->runs[ki];
            if (!r->created)
                continue;
            /* The control is judged by the OS-level candidates alone. */
            if (r->kind->control && !(p->queries[qi]->flags & HA_QF_OS))
                continue;
            if (!applies(p->queries[qi], r->kind))
                continue;
            ha_result *res = &r->res[qi];
            ha_outcome_key(res, p->keys[qi][ki], sizeof p->keys[qi][ki]);
            cells[n].kind = r->kind->name;
            cells[n].truth = r->readable;
            cells[n].answered = res->outcome == HA_OUT_OK || res->outcome == HA_OUT_ERROR ||
                                res->outcome == HA_OUT_NOT_WRITTEN;
            cells[n].outcome = p->keys[qi][ki];
            cells[n].says = !(p->queries[qi]->flags & HA_QF_MODEL) || res->outcome != HA_OUT_OK ? HA_SAYS_INFER
                            : atoi(res->cls) ? HA_SAYS_READABLE : HA_SAYS_UNREADABLE;
            n++;
        }
        ha_verdict_compute(cells, n, &p->verdicts[qi]);
    }
}

