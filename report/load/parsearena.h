/* jansson's allocations for one document, from a few large chunks released
 * at once. A 60 MB record is millions of small JSON values: malloc's
 * bookkeeping per value, consolidating them on the way out and faulting
 * their pages in one by one were about half of report's and compare's time
 * on such records (perf). The loader turns a document into its
 * own arena-backed model and drops it before the next one, so nothing
 * jansson made outlives pa_end. */
#ifndef HA_PARSEARENA_H
#define HA_PARSEARENA_H

/* From here, jansson allocates from the parse arena. */
void pa_begin(void);

/* jansson allocates with malloc again; everything it allocated since
 * pa_begin is released (the caller holds no json_t from then). */
void pa_end(void);

#endif
