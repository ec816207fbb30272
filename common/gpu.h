/* The one interface the probes, the bench and the pool talk to.
 *
 * A backend is a table of operations over one runtime (hip, cuda) or over a
 * host-only model of a large-BAR platform (sim). Allocation kinds and
 * candidate queries are rows in tables: adding one is adding a row. Version
 * differences stay inside the backend that has them. */
#ifndef HA_GPU_H
#define HA_GPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "exitcodes.h"

/* Statuses: a runtime's own codes are >= 0 with 0 meaning success (true of
 * hipError_t and CUresult alike); the negative ones are this tool's. */
enum {
    HA_ST_OK = 0,
    HA_ST_SYMBOL_MISSING = -1, /* the loaded runtime lacks the entry point */
    HA_ST_UNAVAILABLE = -2,    /* the header compiled against lacks the feature */
    HA_ST_SKIPPED = -3,        /* known to be unsafe on this runtime version */
    HA_ST_NOT_WRITTEN = -4,    /* success, but the output kept its sentinel */
    HA_ST_MISMATCH = -5,       /* success, but the bytes are not the pattern */
    HA_ST_SKEW = -6,           /* refused: header and runtime disagree on a layout or numbering */
    HA_ST_CRASHED = -7,        /* --unsafe-queries: the call killed the child that made it */
    HA_ST_UNSAFE = -8,         /* not asked: known to crash this runtime (--unsafe-queries asks) */
};

/* What a query answered, in a form the verdict can compare. */
typedef enum {
    HA_OUT_OK,             /* success and a value */
    HA_OUT_ERROR,          /* the call returned an error status */
    HA_OUT_NOT_WRITTEN,    /* success, nothing written */
    HA_OUT_SYMBOL_MISSING, /* cannot be called with this runtime */
    HA_OUT_UNAVAILABLE,    /* cannot be called with this header */
    HA_OUT_SKIPPED,        /* not called: unsafe here */
} ha_outcome;

typedef struct ha_result {
    ha_outcome outcome;
    int status;           /* runtime status, errno, or HA_ST_* */
    char status_name[48];
    char value[160];      /* the raw value, for people */
    char cls[48];         /* the value's class (never a raw address) */
} ha_result;

typedef enum {
    HA_LOC_DEVICE,
    HA_LOC_HOST,
    HA_LOC_HOST_NUMA,
    HA_LOC_HOST_NUMA_CURRENT,
    HA_LOC_COUNT
} ha_loc_type;

typedef struct ha_loc {
    ha_loc_type type;
    int id; /* device ordinal or NUMA node */
} ha_loc;

typedef uint64_t ha_vmm_handle;
#define HA_VMM_NO_HANDLE UINT64_MAX

typedef struct ha_backend ha_backend;
typedef struct ha_kind ha_kind;

#define HA_PATTERN_LEN 64

/* One allocation of one kind. ptr is the address a host read would use. */
typedef struct ha_alloc {
    const ha_kind *kind;
    void *ptr;
    size_t size;
    char detail[384]; /* the calls that made it and what they returned */
    void *priv;       /* the kind's own bookkeeping */
    /* What the device wrote at ptr, once it has: OS-level candidates check
     * the bytes they get against it. */
    unsigned char pattern[HA_PATTERN_LEN];
    bool has_pattern;
} ha_alloc;

/* How a VMM kind is built from the backend's VMM primitives. */
typedef struct ha_vmm_recipe {
    ha_loc_type backing;   /* where the physical memory lives */
    bool host_grant;       /* add a host descriptor to SetAccess: the fix */
    int chunks;            /* separate handles mapped back to back */
    bool posix_fd;         /* exportable handle, as PyTorch's expandable segments */
    bool expandable;       /* large reserve, per-chunk access, then grow by one */
    bool imported;         /* exported to a POSIX fd and imported back, then mapped: IPC's receiving side */
} ha_vmm_recipe;

struct ha_kind {
    const char *name;
    const char *desc;
    /* Returns a status; on failure a->detail names the failing call. */
    int (*create)(const ha_backend *be, ha_alloc *a);
    void (*destroy)(const ha_backend *be, ha_alloc *a);
    ha_vmm_recipe vmm; /* used by the shared VMM kinds only */
    /* Not GPU memory: a control that only the OS-level candidates are asked
     * about and judged on (the runtime's queries are skipped for it). */
    bool control;
    bool is_vmm; /* built from the shared VMM recipe (vmmkinds.c) */
    /* PyTorch hands such memory out through its caching allocator or a
     * MemPool: the tensor qualifies for its large-BAR .item() read. */
    bool torch_allocator;
};

typedef struct ha_query ha_query;

/* Flags of a query */
#define HA_QF_READS_VALUE 1u /* it returns the bytes itself: no dereference after it */
#define HA_QF_OS 2u          /* asks the operating system, not the runtime: asked of control kinds too */
#define HA_QF_MODEL 4u       /* a model of another program's rule (PyTorch's), not a call: never timed */

#define HA_RAW_MAX 32 /* bytes a raw call may write */

struct ha_query {
    const char *name; /* short, stable: used as the record key */
    const char *api;  /* the call as a person would write it */
    /* The bare call, as a user would make it at read time: returns the
     * status and writes the output (at most HA_RAW_MAX bytes) to out. */
    int (*raw)(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out);
    int arg;          /* attribute number, location type or field, per query */
    int vtype;        /* how to read the value (classify.h) */
    int width;        /* bytes the value is documented to take */
    /* Classifies the answer for the probe; NULL: the status, then the
     * value read as vtype/width (ha_query_run). */
    void (*run)(const ha_backend *be, const ha_query *q, const ha_alloc *a, ha_result *r);
    unsigned flags;
};

typedef struct ha_vmm_ops {
    int (*granularity)(const ha_backend *be, ha_loc backing, bool posix_fd, size_t *g);
    int (*reserve)(const ha_backend *be, void **va, size_t size, size_t align, void *hint);
    int (*free_va)(const ha_backend *be, void *va, size_t size);
    int (*create)(const ha_backend *be, ha_vmm_handle *h, size_t size, ha_loc backing,
                  bool posix_fd);
    int (*release)(const ha_backend *be, ha_vmm_handle h);
    int (*map)(const ha_backend *be, void *va, size_t size, ha_vmm_handle h);
    int (*unmap)(const ha_backend *be, void *va, size_t size);
    /* Read-write access for every location in one call. */
    int (*set_access)(const ha_backend *be, void *va, size_t size, const ha_loc *locs,
                      size_t nlocs);
    int (*get_access)(const ha_backend *be, void *va, ha_loc loc, unsigned long long *flags);
    /* A POSIX-fd handle exported (the caller closes fd) and imported; NULL
     * where the backend cannot share handles. */
    int (*export_fd)(const ha_backend *be, ha_vmm_handle h, int *fd);
    int (*import_fd)(const ha_backend *be, int fd, ha_vmm_handle *h);
} ha_vmm_ops;

typedef struct ha_env ha_env;

/* Stream marks a backend keeps (events made once, at open). */
enum { HA_STREAM_MARKS = 4 };

typedef struct ha_backend_ops {
    const char *name;
    const char *desc;
    const char *build_note; /* header version compiled against, or why compiled out */
    const char *header_label; /* "HIP 5.2.21153": what "unavailable with" names */
    int header_version;       /* the header's own numbering (HIP_VERSION); 0 compiled out */
    bool compiled;
    bool simulated;
    /* Loads the runtime and opens the device; returns an HA_EXIT_* code and,
     * on failure, one line in why. */
    int (*open)(ha_backend *be, int device, char *why, size_t whylen);
    void (*close)(ha_backend *be);
    int (*device_count)(const ha_backend *be, int *n);
    void (*env)(const ha_backend *be, ha_env *env);
    const char *(*status_name)(const ha_backend *be, int status);
    const ha_kind *kinds;    /* the backend's own rows, ended by a NULL name */
    const ha_query *queries; /* the runtime's candidates, ended by a NULL name */
    int (*copy_h2d)(const ha_backend *be, void *dst, const void *src, size_t n);
    int (*copy_d2h)(const ha_backend *be, void *dst, const void *src, size_t n);
    /* Async copy on the backend's stream, then a stream synchronize. */
    int (*copy_d2h_async)(const ha_backend *be, void *dst, const void *src, size_t n);
    /* An H2D copy enqueued on the backend's stream and not waited for
     * (src must be pinned); stream_sync waits for every such copy. */
    int (*copy_h2d_enqueue)(const ha_backend *be, void *dst, const void *src, size_t n);
    /* The same, device to host (dst must be pinned). */
    int (*copy_d2h_enqueue)(const ha_backend *be, void *dst, const void *src, size_t n);
    int (*stream_sync)(const ha_backend *be);
    /* Marks the stream's position in slot (0 .. HA_STREAM_MARKS-1);
     * mark_wait returns once the stream has passed that mark, so a pool can
     * release what one enqueued copy read while the next copy runs. Where
     * the runtime gave no event, mark_wait waits for the whole stream: the
     * same result, without the overlap. */
    int (*stream_mark)(const ha_backend *be, int slot);
    int (*mark_wait)(const ha_backend *be, int slot);
    /* Waits for all work on the device, whoever's stream it is on: what a
     * pool must do before it copies out or unmaps memory a kernel may
     * still be writing. */
    int (*synchronize)(const ha_backend *be);
    int (*host_alloc_pinned)(const ha_backend *be, void **p, size_t n);
    void (*host_free_pinned)(const ha_backend *be, void *p);
    int (*mem_info)(const ha_backend *be, size_t *free_bytes, size_t *total_bytes);
    const ha_vmm_ops *vmm; /* NULL where the backend has no VMM */
    /* Released VRAM stays taken while its address range is reserved (ROCm,
     * and the large-BAR model): a pool must free and re-reserve on sleep. */
    bool vram_held_while_reserved;
    /* A host read of the runtime's own device memory goes across the PCIe
     * BAR (ROCm on a large-BAR GPU). Not CUDA's, whose device memory the
     * host cannot read, nor the model's, which is host DRAM. */
    bool device_reads_cross_bar;
    /* Whether PyTorch built against this runtime reads .item() scalars of
     * its allocator's tensors with a host load on the current device (its
     * large-BAR rule); why, in one line. NULL: never (PyTorch copies). */
    bool (*torch_reads_host)(const ha_backend *be, char *why, size_t n);
} ha_backend_ops;

struct ha_backend {
    const ha_backend_ops *ops;
    int device;
    void *priv;
    /* Set when the runtime that opened is the stand-in (standin/): the
     * ROCm profile it acts as. Everything from it is simulated. */
    const char *sim_profile;
    /* --unsafe-queries: ask what is known to crash some releases, in a child */
    bool unsafe_queries;
};

#define HA_MAX_KINDS 32
#define HA_MAX_QUERIES 96

#endif
