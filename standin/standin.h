/* What the stand-in's parts share: the profile it acts as, and what the
 * runtime knows of a pointer besides the platform model's VMM chunks (the
 * host memory it handed out or registered, and which flavour of device
 * allocation a BAR mapping is). */
#ifndef HA_STANDIN_H
#define HA_STANDIN_H

#include <hip/hip_runtime_api.h>
#include <hip/hip_version.h>

#include <stdbool.h>
#include <stddef.h>

#include "largebar.h"
#include "rocm_profiles.h"

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

#define GRANULE (2u << 20)
#define VRAM_BYTES (192ull << 30)

/* hipMemLocationType values; Host and the NUMA types are absent from
 * headers before 7.1, which the stand-in also builds against. */
enum { LOC_DEVICE = 1, LOC_HOST = 2, LOC_HOST_NUMA = 3, LOC_HOST_NUMA_CURRENT = 4 };

const ha_rocm_profile *sd_profile(void);

/* The runtime version the profile acts as (HIP_VERSION numbering). */
int V(void);

/* What the runtime knows p to be. */
typedef enum {
    U_NONE,       /* not the runtime's */
    U_BAR,        /* hipMalloc */
    U_POOL,       /* hipMallocAsync */
    U_FINE,       /* hipExtMallocWithFlags(Finegrained) */
    U_CHUNK,      /* a mapped VMM chunk */
    U_PINNED,     /* hipHostMalloc */
    U_MANAGED,    /* hipMallocManaged */
    U_REGISTERED, /* hipHostRegister */
} unit_kind;

/* The unit holding p: its start and size (the chunk for VMM, the whole
 * allocation otherwise); flags is what it was allocated with. */
unit_kind sd_unit(const void *p, void **start, size_t *size, unsigned *flags);

static inline bool sd_is_device(unit_kind k) { return k == U_BAR || k == U_POOL || k == U_FINE || k == U_CHUNK; }

/* The mapped VMM chunk holding p, if any. */
typedef struct sd_chunk {
    void *start;
    size_t size;
    lb_handle h;
    bool device, host;
} sd_chunk;

bool sd_chunk_of(const void *p, sd_chunk *c);

hipError_t sd_lb_error(int st);

#endif
