#include "hostread.h"

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *ha_hr_name(ha_hr_status s)
{
    switch (s) {
    case HA_HR_OK: return "ok";
    case HA_HR_MISMATCH: return "mismatch";
    case HA_HR_SIGSEGV: return "SIGSEGV";
    case HA_HR_SIGBUS: return "SIGBUS";
    case HA_HR_TIMEOUT: return "timeout";
    case HA_HR_CHILD_DIED: return "child_died";
    case HA_HR_ERROR: return "error";
    }
    return "?";
}

/* Per thread: the jump target while an access is in flight, else NULL. */
static _Thread_local sigjmp_buf *tl_jump;
static _Thread_local volatile sig_atomic_t tl_sig;
static _Thread_local void *volatile tl_addr;
static _Thread_local volatile int tl_code;
/* Sessions this thread holds open: its accesses need no reference then. */
static _Thread_local int tl_sessions;

/* The handler is the process's, so it is installed once for every thread
 * that guards (users counts them) and the handlers found before the first
 * install are the ones put back after the last: whatever the interleaving,
 * the process's own signal handling ends as it was. */
static pthread_mutex_t guard_lock = PTHREAD_MUTEX_INITIALIZER;
static int users;
static struct sigaction old_segv, old_bus;

/* A fault outside any guard is the process's own: it goes to the handler
 * that was there before, and with the default action the process dies of
 * it, as it would have without this library. */
static void not_ours(int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *old = sig == SIGBUS ? &old_bus : &old_segv;
    if (old->sa_flags & SA_SIGINFO) {
        if (old->sa_sigaction)
            old->sa_sigaction(sig, si, uc);
        return;
    }
    if (old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN) {
        old->sa_handler(sig);
        return;
    }
    /* Default (or ignored, which the kernel does not honour for a fault):
     * the process is about to die of this signal; the faulting access runs
     * again on return and takes it with the default action. */
    signal(sig, SIG_DFL);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    if (!tl_jump) {
        not_ours(sig, si, uc);
        return;
    }
    tl_sig = sig;
    tl_addr = si ? si->si_addr : NULL;
    tl_code = si ? si->si_code : 0;
    siglongjmp(*tl_jump, 1);
}

/* One more thread guarding; the first installs the handler. */
static int acquire(void)
{
    int rc = 0;
    pthread_mutex_lock(&guard_lock);
    if (users == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = on_fault;
        sa.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGSEGV, &sa, &old_segv) != 0)
            rc = -1;
        else if (sigaction(SIGBUS, &sa, &old_bus) != 0) {
            sigaction(SIGSEGV, &old_segv, NULL);
            rc = -1;
        }
    }
    if (rc == 0)
        users++;
    pthread_mutex_unlock(&guard_lock);
    return rc;
}

/* The handler found goes back only in place of ours: one the process
 * installed while guards ran is its newer choice, and stays. Put back and
 * read what was there in one call, undone in the rare case it was not
 * ours: a query first cost two more system calls on every guarded read
 * outside a session (+39 % on the H200, found by changes). */
static void put_back(int sig, const struct sigaction *found)
{
    struct sigaction now;
    if (sigaction(sig, found, &now) == 0 && !((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == on_fault))
        sigaction(sig, &now, NULL);
}

/* One thread fewer; the last puts the handlers found back. */
static void release(void)
{
    pthread_mutex_lock(&guard_lock);
    if (users > 0 && --users == 0) {
        put_back(SIGSEGV, &old_segv);
        put_back(SIGBUS, &old_bus);
    }
    pthread_mutex_unlock(&guard_lock);
}

int ha_guard_session_begin(void)
{
    if (tl_sessions == 0 && acquire() != 0)
        return -1;
    tl_sessions++;
    return 0;
}

void ha_guard_session_end(void)
{
    if (tl_sessions > 0 && --tl_sessions == 0)
        release();
}

static ha_hr_status fault_status(ha_hr_info *info)
{
    if (info) {
        info->sig = tl_sig;
        info->si_code = tl_code;
        info->fault_addr = tl_addr;
    }
    return tl_sig == SIGBUS ? HA_HR_SIGBUS : HA_HR_SIGSEGV;
}

static void clear_info(ha_hr_info *info)
{
    if (info)
        memset(info, 0, sizeof *info);
}

/* The access itself. Volatile byte accesses: the compiler may neither widen
 * them past the range nor move them out of the guarded window. */
static void copy_in(volatile unsigned char *dst, const volatile unsigned char *src, size_t n)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = src[i];
}

typedef enum { OP_READ, OP_WRITE, OP_LOAD32 } access_op;

static ha_hr_status guarded(access_op op, void *dst, const void *src, size_t n, ha_hr_info *info)
{
    clear_info(info);
    int own = tl_sessions == 0;
    if (own && acquire() != 0)
        return HA_HR_ERROR;
    sigjmp_buf jb;
    ha_hr_status st = HA_HR_OK;
    tl_sig = 0;
    /* No mask to save: SA_NODEFER keeps the handler from changing it, and
     * saving it would cost a sigprocmask call on every access. */
    if (sigsetjmp(jb, 0) == 0) {
        tl_jump = &jb;
        if (op == OP_LOAD32)
            *(uint32_t *)dst = *(const volatile uint32_t *)src;
        else
            copy_in(dst, src, n);
        tl_jump = NULL;
    } else {
        tl_jump = NULL;
        st = fault_status(info);
    }
    if (own)
        release();
    return st;
}

ha_hr_status ha_guarded_read(const void *src, void *dst, size_t n, const void *expect,
                             ha_hr_info *info)
{
    ha_hr_status st = guarded(OP_READ, dst, src, n, info);
    if (st == HA_HR_OK && expect && memcmp(dst, expect, n) != 0)
        st = HA_HR_MISMATCH;
    return st;
}

ha_hr_status ha_guarded_write(void *dst, const void *src, size_t n, ha_hr_info *info)
{
    return guarded(OP_WRITE, dst, src, n, info);
}

ha_hr_status ha_guarded_load32(const void *src, uint32_t *out, ha_hr_info *info)
{
    return guarded(OP_LOAD32, out, src, sizeof *out, info);
}

/* Child exit codes */
enum { CHILD_OK = 0, CHILD_MISMATCH = 3 };

static ha_hr_status in_child(void *dst, const void *src, size_t n, const void *expect,
                             unsigned timeout_s, ha_hr_info *info)
{
    clear_info(info);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return HA_HR_ERROR;
    if (pid == 0) {
        /* Default actions, so a fault ends the child with that signal. */
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        alarm(timeout_s ? timeout_s : 5);
        unsigned char buf[256];
        size_t m = n < sizeof buf ? n : sizeof buf;
        if (expect) {
            copy_in(buf, src, m);
            _exit(memcmp(buf, expect, m) == 0 ? CHILD_OK : CHILD_MISMATCH);
        }
        copy_in(dst, src, m);
        _exit(CHILD_OK);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR)
            return HA_HR_ERROR;
    }
    if (WIFEXITED(status)) {
        if (WEXITSTATUS(status) == CHILD_OK)
            return HA_HR_OK;
        return WEXITSTATUS(status) == CHILD_MISMATCH ? HA_HR_MISMATCH : HA_HR_CHILD_DIED;
    }
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    if (info)
        info->sig = sig;
    if (sig == SIGSEGV)
        return HA_HR_SIGSEGV;
    if (sig == SIGBUS)
        return HA_HR_SIGBUS;
    if (sig == SIGALRM)
        return HA_HR_TIMEOUT;
    return HA_HR_CHILD_DIED;
}

ha_hr_status ha_fork_read(const void *src, size_t n, const void *expect, unsigned timeout_s,
                          ha_hr_info *info)
{
    unsigned char scratch[256];
    return in_child(scratch, src, n, expect, timeout_s, info);
}

ha_hr_status ha_fork_write(void *dst, const void *src, size_t n, unsigned timeout_s,
                           ha_hr_info *info)
{
    return in_child(dst, src, n, NULL, timeout_s, info);
}
