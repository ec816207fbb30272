#include "parsearena.h"

#include <jansson.h>
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#define CHUNK (8u << 20)

typedef struct chunk {
    struct chunk *prev;
    size_t size, used;
} chunk;

static chunk *top, *spare; /* in use; kept from earlier documents for the next */
static size_t spare_bytes;

/* Chunks kept between documents, at most this much: a folder of runs is
 * thousands of documents of a few MB, and mapping each one's chunks anew
 * faulted their pages in again (a tenth of trend's time over a results
 * folder). Under AddressSanitizer nothing is kept, so that a
 * value used after pa_end is still a fault. */
#if defined(__SANITIZE_ADDRESS__)
#define SPARE_MAX 0u
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SPARE_MAX 0u
#endif
#endif
#ifndef SPARE_MAX
#define SPARE_MAX (64u << 20)
#endif

/* A kept chunk with room for n bytes past its head, taken off the list. */
static chunk *take_spare(size_t n, size_t head)
{
    for (chunk **c = &spare; *c; c = &(*c)->prev)
        if ((*c)->size - head >= n) {
            chunk *got = *c;
            *c = got->prev;
            spare_bytes -= got->size;
            return got;
        }
    return NULL;
}

static void *pa_malloc(size_t n)
{
    const size_t align = alignof(max_align_t), head = (sizeof(chunk) + align - 1) & ~(align - 1);
    if (n > SIZE_MAX / 2)
        return NULL; /* rounding up must not wrap to a small block */
    n = (n + align - 1) & ~(align - 1);
    if (!top || top->size - top->used < n) {
        chunk *c = take_spare(n, head);
        if (!c) {
            size_t size = n + head > CHUNK ? n + head : CHUNK;
            void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (m == MAP_FAILED)
                return NULL;
            /* fewer, larger pages: the faults were a fifth of the time */
            (void)madvise(m, size, MADV_HUGEPAGE);
            c = m;
            c->size = size;
        }
        c->prev = top;
        c->used = head;
        top = c;
    }
    void *p = (char *)top + top->used;
    top->used += n;
    return p;
}

/* Nothing is given back one by one: pa_end releases every chunk. */
static void pa_free(void *p) { (void)p; }

void pa_begin(void) { json_set_alloc_funcs(pa_malloc, pa_free); }

void pa_end(void)
{
    json_set_alloc_funcs(malloc, free);
    while (top) {
        chunk *c = top;
        top = c->prev;
        if (spare_bytes + c->size <= SPARE_MAX) {
            c->prev = spare;
            spare = c;
            spare_bytes += c->size;
        } else {
            munmap(c, c->size);
        }
    }
}
