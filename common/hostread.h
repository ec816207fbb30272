/* Ground truth: host reads and writes that survive a bad pointer.
 *
 * In process, SIGSEGV and SIGBUS are caught for the duration of one access
 * (sigsetjmp/siglongjmp) and the previous handlers are put back. In fork
 * mode the access runs unguarded in a child, so even a fault no handler can
 * contain costs only the child.
 *
 * Signal handlers belong to the process: the guard's handler is installed
 * once for all threads that guard at a time, and the handlers found before
 * are put back when the last one is done, so any interleaving of guarded
 * accesses from any threads leaves the process's signal handling as it
 * was. A handler the process installs while guards run is its newer
 * choice and stays when they end (guarded accesses made after it, until
 * the guards end, are not contained: the signal is the process's). A fault
 * outside a guard, in any thread, goes to the handler that was there before
 * (with the default action, the process dies of it). */
#ifndef HA_HOSTREAD_H
#define HA_HOSTREAD_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
    HA_HR_OK,         /* completed (and, for reads with an expectation, matched) */
    HA_HR_MISMATCH,   /* completed, but the bytes are not the expected ones */
    HA_HR_SIGSEGV,
    HA_HR_SIGBUS,
    HA_HR_TIMEOUT,    /* fork mode: the child did not finish in time */
    HA_HR_CHILD_DIED, /* fork mode: another signal or exit */
    HA_HR_ERROR,      /* could not even try (fork failed) */
} ha_hr_status;

typedef struct ha_hr_info {
    int sig;          /* the signal taken, 0 if none */
    int si_code;
    void *fault_addr;
} ha_hr_info;

const char *ha_hr_name(ha_hr_status s);

/* Copies n bytes from src to dst; src may be unreadable. If expect is not
 * NULL, the result is HA_HR_MISMATCH when dst differs from it. */
ha_hr_status ha_guarded_read(const void *src, void *dst, size_t n, const void *expect,
                             ha_hr_info *info);
ha_hr_status ha_guarded_write(void *dst, const void *src, size_t n, ha_hr_info *info);

/* One aligned 4-byte load, as PyTorch's scalar fast path does. */
ha_hr_status ha_guarded_load32(const void *src, uint32_t *out, ha_hr_info *info);

/* The same accesses in a child process (timeout in seconds). A write's data
 * is not checked: the child's view of private pages is its own copy. */
ha_hr_status ha_fork_read(const void *src, size_t n, const void *expect, unsigned timeout_s,
                          ha_hr_info *info);
ha_hr_status ha_fork_write(void *dst, const void *src, size_t n, unsigned timeout_s,
                           ha_hr_info *info);

/* For the bench: keep the handlers installed across many accesses, so the
 * per-access cost is the jump buffer alone. ha_guard_session_begin returns 0
 * on success; this thread's accesses while its session is open skip the
 * install. Sessions are per thread. */
int ha_guard_session_begin(void);
void ha_guard_session_end(void);

#endif
