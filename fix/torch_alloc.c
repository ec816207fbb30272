/* libhostaccess_pool.so: the reference pool behind PyTorch's pluggable
 * allocator, plus sleep/wake for ctypes.
 *
 *   alloc = torch.cuda.memory.CUDAPluggableAllocator(so, "my_malloc", "my_free")
 *   pool = torch.cuda.MemPool(alloc.allocator())
 *   with torch.cuda.use_mem_pool(pool): t = torch.ones(n, device="cuda")
 *
 * Configured from the environment when the first allocation arrives:
 * HOSTACCESS_BACKEND (auto), HOSTACCESS_POOL_BACKING (device | host),
 * HOSTACCESS_POOL_HOST_ACCESS (1: the fix, default; 0: reproduce the bug),
 * HOSTACCESS_POOL_CHUNK (bytes per handle, e.g. 64MiB). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "backend.h"
#include "hostread.h"
#include "refpool.h"
#include "tool.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ha_backend be;
static refpool *pool;
static char tag[64] = "default";
static char err[600];
static char config[200];

static int init(int device)
{
    if (pool)
        return 0;
    const char *want = getenv("HOSTACCESS_BACKEND");
    char msg[512];
    if (ha_backend_open(want ? want : "auto", device, &be, msg, sizeof msg) != HA_EXIT_OK) {
        snprintf(err, sizeof err, "%s", msg);
        return -1;
    }
    refpool_config cfg = refpool_default_config(&be);
    /* A setting that is not understood is refused, never quietly replaced
     * by the default: the caller would test another pool than it asked for. */
    const char *backing = getenv("HOSTACCESS_POOL_BACKING");
    if (backing && strcmp(backing, "host") && strcmp(backing, "device")) {
        snprintf(err, sizeof err, "HOSTACCESS_POOL_BACKING='%.40s': expected device or host", backing);
        ha_backend_close(&be);
        return -1;
    }
    if (backing && strcmp(backing, "host") == 0)
        cfg.backing = HA_LOC_HOST;
    const char *host = getenv("HOSTACCESS_POOL_HOST_ACCESS");
    if (host && strcmp(host, "0") && strcmp(host, "1")) {
        snprintf(err, sizeof err, "HOSTACCESS_POOL_HOST_ACCESS='%.40s': expected 0 or 1", host);
        ha_backend_close(&be);
        return -1;
    }
    if (host)
        cfg.host_access = strcmp(host, "1") == 0;
    const char *chunk = getenv("HOSTACCESS_POOL_CHUNK");
    unsigned long long c;
    if (chunk && ha_parse_size(chunk, 1, 1ull << 40, &c) != 0) {
        snprintf(err, sizeof err, "HOSTACCESS_POOL_CHUNK='%.40s': expected a size such as 256MiB", chunk);
        ha_backend_close(&be);
        return -1;
    }
    if (chunk)
        cfg.chunk_size = (size_t)c;
    char why[300];
    int rc = refpool_create(&be, &cfg, &pool, why, sizeof why);
    if (rc) {
        snprintf(err, sizeof err, "pool: %s: %s", refpool_strerror(rc), why);
        ha_backend_close(&be);
        return -1;
    }
    snprintf(config, sizeof config, "backend=%s device=%d backing=%s host_access=%d chunk=%zu",
             be.ops->name, device, ha_loc_name(cfg.backing), cfg.host_access, cfg.chunk_size);
    return 0;
}

void *my_malloc(ssize_t size, int device, void *stream)
{
    (void)stream;
    void *p = NULL;
    pthread_mutex_lock(&lock);
    if (size <= 0)
        snprintf(err, sizeof err, "my_malloc: size %zd", size);
    else if (init(device) == 0 && refpool_alloc(pool, (size_t)size, tag, &p) != REFPOOL_OK)
        snprintf(err, sizeof err, "my_malloc(%zd): %s", size, refpool_last_error(pool));
    if (!p)
        fprintf(stderr, "hostaccess pool: %s\n", err);
    pthread_mutex_unlock(&lock);
    return p;
}

void my_free(void *ptr, ssize_t size, int device, void *stream)
{
    (void)size;
    (void)device;
    (void)stream;
    pthread_mutex_lock(&lock);
    if (pool && refpool_free(pool, ptr) != REFPOOL_OK) {
        snprintf(err, sizeof err, "my_free: %s", refpool_last_error(pool));
        fprintf(stderr, "hostaccess pool: %s\n", err);
    }
    pthread_mutex_unlock(&lock);
}

/* Allocations made from now on carry this tag. */
int hostaccess_set_tag(const char *t)
{
    if (!t || !*t || strlen(t) >= sizeof tag)
        return REFPOOL_E_INVALID;
    pthread_mutex_lock(&lock);
    snprintf(tag, sizeof tag, "%s", t);
    pthread_mutex_unlock(&lock);
    return 0;
}

/* Splits "a,b" into tags; returns the count. */
static size_t split(const char *csv, char *buf, size_t len, const char **tags, size_t max)
{
    size_t n = 0;
    if (!csv || !*csv)
        return 0;
    snprintf(buf, len, "%s", csv);
    for (char *t = strtok(buf, ","); t && n < max; t = strtok(NULL, ","))
        tags[n++] = t;
    return n;
}

static int pool_op(const char *csv, bool wake)
{
    char buf[512];
    const char *tags[32];
    size_t n = split(csv, buf, sizeof buf, tags, 32);
    pthread_mutex_lock(&lock);
    int rc = REFPOOL_E_STATE;
    if (!pool)
        snprintf(err, sizeof err, "nothing allocated yet");
    else if ((rc = wake ? refpool_wake(pool, tags, n) : refpool_sleep(pool, tags, n)))
        snprintf(err, sizeof err, "%s", refpool_last_error(pool));
    pthread_mutex_unlock(&lock);
    return rc;
}

/* Offloads the comma-separated tags, releases all device memory. */
int hostaccess_sleep(const char *offload_tags) { return pool_op(offload_tags, false); }

/* Wakes the comma-separated tags ("" or NULL: everything). */
int hostaccess_wake(const char *tags) { return pool_op(tags, true); }

const char *hostaccess_last_error(void) { return err; }
const char *hostaccess_config(void) { return config; }

size_t hostaccess_mapped_bytes(void)
{
    pthread_mutex_lock(&lock);
    size_t n = pool ? refpool_mapped_bytes(pool) : 0;
    pthread_mutex_unlock(&lock);
    return n;
}

/* The fast-path read, fault-contained: 0 and the value, or the signal. */
int hostaccess_host_read_u32(const void *ptr, unsigned *out)
{
    uint32_t v = 0;
    ha_hr_info info;
    ha_hr_status st = ha_guarded_load32(ptr, &v, &info);
    *out = v;
    return st == HA_HR_OK ? 0 : info.sig ? info.sig : -1;
}
