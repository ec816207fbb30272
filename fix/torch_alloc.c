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
 * HOSTACCESS_POOL_CHUNK (bytes per handle, e.g. 64MiB).
 *
 * A call that fails leaves its reason for hostaccess_last_error(), per
 * thread, which keeps the last failure until it is read and then reads ""
 * (as dlerror and cudaGetLastError do): PyTorch may make more calls
 * between a failure and the caller's question, and a success does not
 * clear it. Tags follow vLLM's allocator:
 * allocations carry "default" until hostaccess_set_tag names another, and
 * sleep with no tags offloads the default tag. */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "backend.h"
#include "gpuhelpers.h"
#include "hostread.h"
#include "log.h"
#include "refpool.h"
#include "tool.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static ha_backend be;
static refpool *pool;
#define DEFAULT_TAG "default" /* vLLM's CuMemAllocator.default_tag */
static char tag[64] = DEFAULT_TAG;
/* Per thread, as cudaGetLastError: a failure is the calling thread's, and
 * another thread's calls neither see nor clear it. */
static _Thread_local char err[600];      /* the last failure not yet read */
static _Thread_local char err_read[600]; /* what hostaccess_last_error() handed out */
static char config[200];
static int pool_device = -1; /* the device the pool serves: the first call's */

static int init(int device)
{
    if (pool)
        return 0;
    ha_log_name("hostaccess pool");
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
    pool_device = device;
    return 0;
}

/* The device a call names must be the pool's: one pool, one device. */
static int check_device(int device)
{
    if (device < 0) {
        snprintf(err, sizeof err, "device %d: a device index is 0 or more", device);
        return -1;
    }
    if (pool && device != pool_device) {
        snprintf(err, sizeof err, "device %d: this pool serves device %d (the first allocation's); one pool per "
                 "device", device, pool_device);
        return -1;
    }
    return 0;
}

void *my_malloc(ssize_t size, int device, void *stream)
{
    (void)stream;
    void *p = NULL;
    pthread_mutex_lock(&lock);
    if (size <= 0)
        snprintf(err, sizeof err, "my_malloc: size %zd", size);
    else if (check_device(device) == 0 && init(device) == 0 && refpool_alloc(pool, (size_t)size, tag, &p) != REFPOOL_OK)
        snprintf(err, sizeof err, "my_malloc(%zd): %s", size, refpool_last_error(pool));
    if (!p)
        ha_log(HA_LOG_ERROR, "%s", err);
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
        ha_log(HA_LOG_ERROR, "%s", err);
    }
    pthread_mutex_unlock(&lock);
}

/* Allocations made from now on carry this tag. */
int hostaccess_set_tag(const char *t)
{
    pthread_mutex_lock(&lock);
    int rc = REFPOOL_E_INVALID;
    if (!t || !*t || strlen(t) >= sizeof tag) {
        snprintf(err, sizeof err, "set_tag: a tag of 1 to %zu characters is needed", sizeof tag - 1);
    } else {
        snprintf(tag, sizeof tag, "%s", t);
        rc = 0;
    }
    pthread_mutex_unlock(&lock);
    return rc;
}

/* The tags of "a,b", as many as there are: *buf (to free) holds them.
 * Returns the count, or -1 for an empty name ("a,,b") or no memory; a list
 * is never cut to fit. */
static long split(const char *csv, char **buf, const char ***tags)
{
    *buf = NULL;
    *tags = NULL;
    if (!csv || !*csv)
        return 0;
    size_t n = 1;
    for (const char *c = csv; *c; c++)
        n += *c == ',';
    /* one spare slot: sleep may add the default tag */
    if (!(*buf = strdup(csv)) || !(*tags = calloc(n + 1, sizeof **tags))) {
        snprintf(err, sizeof err, "out of memory reading a list of %zu tags", n);
        return -1;
    }
    size_t k = 0;
    for (char *t = *buf, *end; t; t = end) {
        end = strchr(t, ',');
        if (end)
            *end++ = 0;
        if (!*t) {
            snprintf(err, sizeof err, "tag list '%.100s%s': an empty name (two commas, or one at an end)", csv,
                     strlen(csv) > 100 ? "..." : "");
            return -1;
        }
        (*tags)[k++] = t;
    }
    return (long)k;
}

enum pool_op { OP_SLEEP, OP_WAKE, OP_DISCARD };

static int pool_op(const char *csv, enum pool_op op)
{
    char *buf;
    const char **tags;
    int rc = REFPOOL_E_STATE;
    pthread_mutex_lock(&lock);
    long got = split(csv, &buf, &tags);
    size_t n = got > 0 ? (size_t)got : 0;
    refpool_tag_info ti;
    const char *one[1];
    if (got < 0) {
        rc = REFPOOL_E_INVALID;
    } else if (!pool) {
        snprintf(err, sizeof err, "nothing allocated yet");
    } else {
        /* vLLM: sleep() offloads the default tag, when anything carries it */
        if (op == OP_SLEEP && n == 0 && refpool_tag(pool, DEFAULT_TAG, &ti) == REFPOOL_OK) {
            one[0] = DEFAULT_TAG;
            tags = tags ? tags : one;
            tags[n++] = DEFAULT_TAG;
        }
        rc = op == OP_SLEEP ? refpool_sleep(pool, tags, n)
           : op == OP_WAKE  ? refpool_wake(pool, tags, n)
                            : refpool_discard(pool, tags, n);
        if (rc)
            snprintf(err, sizeof err, "%s", refpool_last_error(pool));
    }
    pthread_mutex_unlock(&lock);
    if (tags != one)
        free(tags);
    free(buf);
    return rc;
}

/* Offloads the comma-separated tags ("" or NULL: the default tag), releases
 * all device memory. */
int hostaccess_sleep(const char *offload_tags) { return pool_op(offload_tags, OP_SLEEP); }

/* Wakes the comma-separated tags ("" or NULL: everything). */
int hostaccess_wake(const char *tags) { return pool_op(tags, OP_WAKE); }

/* Drops what sleep offloaded for the comma-separated tags (asleep ones):
 * their next wake gives fresh memory. */
int hostaccess_discard(const char *tags) { return pool_op(tags, OP_DISCARD); }

/* What the pool holds under tag t: REFPOOL_OK (the error cleared), or the
 * refpool error with the reason left for hostaccess_last_error(). */
static int tag_info(const char *t, refpool_tag_info *ti)
{
    int rc = pool ? refpool_tag(pool, t, ti) : REFPOOL_E_UNKNOWN_TAG;
    if (rc != REFPOOL_OK)
        snprintf(err, sizeof err, "no allocation is tagged '%.100s'", t ? t : "(null)");
    return rc;
}

/* 1 when every allocation tagged so is asleep, 0 when one is awake, or a
 * negative refpool error (unknown tag). */
int hostaccess_tag_asleep(const char *t)
{
    pthread_mutex_lock(&lock);
    refpool_tag_info ti;
    int rc = tag_info(t, &ti);
    pthread_mutex_unlock(&lock);
    return rc == REFPOOL_OK ? ti.asleep == ti.allocations : rc;
}

/* The bytes the tag maps when awake, or a negative refpool error. */
long long hostaccess_tag_bytes(const char *t)
{
    pthread_mutex_lock(&lock);
    refpool_tag_info ti;
    int rc = tag_info(t, &ti);
    pthread_mutex_unlock(&lock);
    return rc == REFPOOL_OK ? (long long)ti.bytes : rc;
}

/* The tags in use, comma-separated, into buf; returns how many there are,
 * or REFPOOL_E_INVALID when buf cannot hold them all. */
int hostaccess_tags(char *buf, size_t len)
{
    pthread_mutex_lock(&lock);
    size_t n = pool ? refpool_tags(pool, NULL, 0) : 0, used = 0;
    const char **tags = n ? calloc(n, sizeof *tags) : NULL;
    int rc = n > (size_t)INT_MAX ? REFPOOL_E_INVALID : (int)n;
    if (n && !tags) {
        snprintf(err, sizeof err, "tags: out of memory listing %zu tags", n);
        rc = REFPOOL_E_INVALID;
    } else if (!buf || len == 0) {
        snprintf(err, sizeof err, "tags: no buffer given");
        rc = REFPOOL_E_INVALID;
    } else {
        if (n)
            refpool_tags(pool, tags, n);
        buf[0] = 0;
        for (size_t i = 0; i < n && rc >= 0; i++) {
            int w = snprintf(buf + used, len - used, "%s%s", i ? "," : "", tags[i]);
            if (w < 0 || (size_t)w >= len - used)
                rc = REFPOOL_E_INVALID;
            else
                used += (size_t)w;
        }
        if (rc < 0)
            snprintf(err, sizeof err, "tags: the buffer of %zu bytes cannot hold all %zu tags", len, n);
    }
    free(tags);
    pthread_mutex_unlock(&lock);
    return rc;
}

/* The calling thread's last failure, once: read, it is cleared. The text
 * stays valid until that thread's next call of this function. */
const char *hostaccess_last_error(void)
{
    memcpy(err_read, err, sizeof err_read);
    err[0] = 0;
    return err_read;
}
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
    if (!out) {
        pthread_mutex_lock(&lock);
        snprintf(err, sizeof err, "host_read_u32: no place to put the value (out is NULL)");
        pthread_mutex_unlock(&lock);
        return REFPOOL_E_INVALID;
    }
    uint32_t v = 0;
    ha_hr_info info;
    ha_hr_status st = ha_guarded_load32(ptr, &v, &info);
    *out = v;
    return st == HA_HR_OK ? 0 : info.sig ? info.sig : -1;
}
