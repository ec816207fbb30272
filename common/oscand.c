#include "oscand.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "classify.h"
#include "hostread.h"
#include "procmaps.h"

/* errno's symbolic name ("EFAULT"). */
static const char *ha_errno_name(int e)
{
    const char *n = strerrorname_np(e);
    return n ? n : "E?";
}

static void set_errno_result(ha_result *r, int e)
{
    r->outcome = HA_OUT_ERROR;
    r->status = e;
    snprintf(r->status_name, sizeof r->status_name, "%s", ha_errno_name(e));
}

static void set_ok(ha_result *r)
{
    r->outcome = HA_OUT_OK;
    r->status = 0;
    snprintf(r->status_name, sizeof r->status_name, "ok");
}

/* Classifies bytes a kernel-mediated read returned against the pattern. */
static void bytes_result(const ha_alloc *a, ha_result *r, const unsigned char *got, size_t n)
{
    set_ok(r);
    bool match = a->has_pattern && memcmp(got, a->pattern, n) == 0;
    snprintf(r->cls, sizeof r->cls, "%s", !a->has_pattern ? "read" : match ? "read" : "mismatch");
    snprintf(r->value, sizeof r->value, "%zu bytes, %s", n,
             !a->has_pattern ? "no pattern to compare" : match ? "pattern matches" : "pattern differs");
}

/* raw: out[0] is 'r' when the range is readable, '-' when not, 0 when
 * nothing is mapped there. */
static int r_maps(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    ha_map_entry e;
    int f = ha_maps_find(a->ptr, &e);
    if (f < 0)
        return errno ? errno : EIO;
    *(char *)out = f == 0 ? 0 : e.perms[0] == 'r' ? 'r' : '-';
    return 0;
}

static void q_maps(const ha_backend *be, const ha_query *q, const ha_alloc *a, ha_result *r)
{
    (void)be;
    (void)q;
    ha_map_entry e;
    int f = ha_maps_find(a->ptr, &e);
    if (f < 0) {
        set_errno_result(r, errno ? errno : EIO);
        return;
    }
    set_ok(r);
    if (f == 0) {
        snprintf(r->cls, sizeof r->cls, "unmapped");
        snprintf(r->value, sizeof r->value, "no mapping");
        return;
    }
    snprintf(r->cls, sizeof r->cls, "%s", e.perms[0] == 'r' ? "r" : "no-r");
    snprintf(r->value, sizeof r->value, "%s %s", e.perms, e.path[0] ? e.path : "[anon]");
}

/* write() copies from the source with copy_from_user: an unmapped or
 * protected page gives EFAULT, never a signal. */
static int ha_pipe_read(const void *src, void *dst, size_t n)
{
    static int fds[2] = {-1, -1};
    if (fds[0] < 0 && pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0)
        return errno;
    ssize_t w = write(fds[1], src, n);
    if (w < 0)
        return errno;
    ssize_t got = read(fds[0], dst, (size_t)w);
    if (got < 0)
        return errno;
    return (size_t)got == n ? 0 : EIO;
}

/* process_vm_readv pins the source pages (get_user_pages), which PFN and IO
 * mappings may refuse even where a plain load works. */
static int ha_vm_read(const void *src, void *dst, size_t n)
{
    struct iovec local = {dst, n};
    struct iovec remote = {(void *)src, n};
    ssize_t got = process_vm_readv(getpid(), &local, 1, &remote, 1, 0);
    if (got < 0)
        return errno;
    return (size_t)got == n ? 0 : EIO;
}

/* raw: the scalar itself, as a safe read would return it. */
static int r_kernel_read(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    return q->arg ? ha_vm_read(a->ptr, out, 4) : ha_pipe_read(a->ptr, out, 4);
}

static int r_guarded(const ha_backend *be, const ha_query *q, const ha_alloc *a, void *out)
{
    (void)be;
    (void)q;
    ha_hr_info info;
    uint32_t v;
    ha_hr_status st = ha_guarded_load32(a->ptr, &v, &info);
    memcpy(out, &v, sizeof v);
    return st == HA_HR_OK ? 0 : info.sig ? info.sig : -1;
}

static void q_kernel_read(const ha_backend *be, const ha_query *q, const ha_alloc *a,
                          ha_result *r)
{
    (void)be;
    unsigned char buf[HA_PATTERN_LEN];
    size_t n = a->size < sizeof buf ? a->size : sizeof buf;
    int e = q->arg ? ha_vm_read(a->ptr, buf, n) : ha_pipe_read(a->ptr, buf, n);
    if (e)
        set_errno_result(r, e);
    else
        bytes_result(a, r, buf, n);
}

static void q_guarded(const ha_backend *be, const ha_query *q, const ha_alloc *a, ha_result *r)
{
    (void)be;
    (void)q;
    unsigned char buf[HA_PATTERN_LEN];
    size_t n = a->size < sizeof buf ? a->size : sizeof buf;
    ha_hr_info info;
    ha_hr_status st = ha_guarded_read(a->ptr, buf, n, NULL, &info);
    if (st == HA_HR_OK) {
        bytes_result(a, r, buf, n);
        return;
    }
    r->outcome = HA_OUT_ERROR;
    r->status = info.sig;
    snprintf(r->status_name, sizeof r->status_name, "%s", ha_hr_name(st));
}

const ha_query ha_os_queries[] = {
    {"os_proc_maps", "/proc/self/maps permissions of the range", r_maps, 0, HA_VT_INT, 1, q_maps,
     HA_QF_OS},
    {"os_pipe_write", "write() of the bytes into a pipe (EFAULT, no signal)", r_kernel_read, 0,
     HA_VT_NONE, 4, q_kernel_read, HA_QF_READS_VALUE | HA_QF_OS},
    {"os_process_vm_readv", "process_vm_readv() on the own pid (page pinning)", r_kernel_read, 1,
     HA_VT_NONE, 4, q_kernel_read, HA_QF_READS_VALUE | HA_QF_OS},
    {"os_guarded_read", "the host read itself, fault-contained", r_guarded, 0, HA_VT_NONE, 4,
     q_guarded, HA_QF_READS_VALUE | HA_QF_OS},
    {0},
};
