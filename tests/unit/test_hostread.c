/* The ground truth survives every kind of bad pointer and leaves the
 * process's signal handlers as it found them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostread.h"

/* Iterations of each thread's guarded-only phase. */
#define GUARD_LOOPS 4000

static size_t page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

static void *map_prot(int prot)
{
    void *p = mmap(NULL, page(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    memset(p, 0x42, page());
    assert_int_equal(mprotect(p, page(), prot), 0);
    return p;
}

static void readable_page_reads_and_matches(void **s)
{
    (void)s;
    unsigned char *p = map_prot(PROT_READ);
    unsigned char want[16], got[16];
    memset(want, 0x42, sizeof want);
    assert_int_equal(ha_guarded_read(p, got, 16, want, NULL), HA_HR_OK);
    want[3] = 0;
    assert_int_equal(ha_guarded_read(p, got, 16, want, NULL), HA_HR_MISMATCH);
    uint32_t v = 0;
    assert_int_equal(ha_guarded_load32(p, &v, NULL), HA_HR_OK);
    assert_int_equal(v, 0x42424242u);
    munmap(p, page());
}

static void prot_none_is_contained_as_sigsegv(void **s)
{
    (void)s;
    void *p = map_prot(PROT_NONE);
    unsigned char got[8];
    ha_hr_info info;
    assert_int_equal(ha_guarded_read(p, got, 8, NULL, &info), HA_HR_SIGSEGV);
    assert_int_equal(info.sig, SIGSEGV);
    assert_ptr_equal(info.fault_addr, p);
    assert_int_equal(ha_guarded_write(p, got, 8, NULL), HA_HR_SIGSEGV);
    munmap(p, page());
}

static void read_only_page_refuses_writes(void **s)
{
    (void)s;
    void *p = map_prot(PROT_READ);
    unsigned char v[4] = {1, 2, 3, 4};
    assert_int_equal(ha_guarded_write(p, v, 4, NULL), HA_HR_SIGSEGV);
    munmap(p, page());
}

static void unmapped_address_is_contained(void **s)
{
    (void)s;
    void *p = map_prot(PROT_READ);
    munmap(p, page());
    unsigned char got[8];
    assert_int_equal(ha_guarded_read(p, got, 8, NULL, NULL), HA_HR_SIGSEGV);
}

/* A mapping past the end of a truncated file raises SIGBUS, not SIGSEGV. */
static void past_end_of_file_is_sigbus(void **s)
{
    (void)s;
    char path[] = "/tmp/ha-sigbus-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    unlink(path);
    assert_int_equal(ftruncate(fd, (off_t)page()), 0);
    void *p = mmap(NULL, 2 * page(), PROT_READ, MAP_SHARED, fd, 0);
    assert_true(p != MAP_FAILED);
    assert_int_equal(ftruncate(fd, 0), 0);
    unsigned char got[8];
    ha_hr_info info;
    assert_int_equal(ha_guarded_read((char *)p + page(), got, 8, NULL, &info), HA_HR_SIGBUS);
    assert_int_equal(info.sig, SIGBUS);
    munmap(p, 2 * page());
    close(fd);
}

static void marker(int sig) { (void)sig; }

static void previous_handlers_are_restored(void **s)
{
    (void)s;
    struct sigaction mine, old_segv, old_bus, after;
    memset(&mine, 0, sizeof mine);
    mine.sa_handler = marker;
    sigemptyset(&mine.sa_mask);
    sigaction(SIGSEGV, &mine, &old_segv);
    sigaction(SIGBUS, &mine, &old_bus);
    void *p = map_prot(PROT_NONE);
    unsigned char got[4];
    assert_int_equal(ha_guarded_read(p, got, 4, NULL, NULL), HA_HR_SIGSEGV);
    sigaction(SIGSEGV, NULL, &after);
    assert_ptr_equal(after.sa_handler, marker);
    sigaction(SIGBUS, NULL, &after);
    assert_ptr_equal(after.sa_handler, marker);
    /* a session keeps ours installed, and ending it restores theirs */
    assert_int_equal(ha_guard_session_begin(), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(ha_guarded_read(p, got, 4, NULL, NULL), HA_HR_SIGSEGV);
    ha_guard_session_end();
    sigaction(SIGSEGV, NULL, &after);
    assert_ptr_equal(after.sa_handler, marker);
    sigaction(SIGSEGV, &old_segv, NULL);
    sigaction(SIGBUS, &old_bus, NULL);
    munmap(p, page());
}

static void fork_mode_reports_the_childs_fate(void **s)
{
    (void)s;
    unsigned char *ok = map_prot(PROT_READ | PROT_WRITE);
    unsigned char want[8];
    memset(want, 0x42, 8);
    assert_int_equal(ha_fork_read(ok, 8, want, 5, NULL), HA_HR_OK);
    want[0] = 1;
    assert_int_equal(ha_fork_read(ok, 8, want, 5, NULL), HA_HR_MISMATCH);
    assert_int_equal(ha_fork_write(ok, want, 8, 5, NULL), HA_HR_OK);
    void *bad = map_prot(PROT_NONE);
    ha_hr_info info;
    assert_int_equal(ha_fork_read(bad, 8, NULL, 5, &info), HA_HR_SIGSEGV);
    assert_int_equal(info.sig, SIGSEGV);
    assert_int_equal(ha_fork_write(bad, want, 8, 5, NULL), HA_HR_SIGSEGV);
    munmap(ok, page());
    munmap(bad, page());
}

/* ---- a read that never completes ---- */

/* A page registered with userfaultfd whose faults nobody serves: a read of
 * it blocks, as a host read of memory whose page never arrives does. With
 * UFFD_FEATURE_EVENT_FORK the fork read's child inherits the registration;
 * fork() waits until the event is read, so a thread reads it and keeps the
 * child's descriptor open (closing it would let the fault complete). After
 * the watchdog it closes it: a child without its alarm then reads zeros and
 * the test fails instead of hanging. */
typedef struct stalled {
    int uffd, child_uffd;
    void *page;
    volatile int done;
    pthread_t thread;
} stalled;

static void *serve_nothing(void *arg)
{
    stalled *st = arg;
    for (int waited_ms = 0; !st->done && waited_ms < 20000;) {
        struct pollfd pf = {.fd = st->uffd, .events = POLLIN};
        if (poll(&pf, 1, 100) <= 0) {
            waited_ms += 100;
            continue;
        }
        struct uffd_msg m;
        if (read(st->uffd, &m, sizeof m) == (ssize_t)sizeof m && m.event == UFFD_EVENT_FORK)
            st->child_uffd = (int)m.arg.fork.ufd;
    }
    if (st->child_uffd >= 0)
        close(st->child_uffd);
    st->child_uffd = -1;
    return NULL;
}

static const char *stall_page(stalled *st)
{
    st->child_uffd = -1;
    st->done = 0;
    st->uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK);
    if (st->uffd < 0)
        return strerror(errno);
    struct uffdio_api api = {.api = UFFD_API, .features = UFFD_FEATURE_EVENT_FORK};
    if (ioctl(st->uffd, UFFDIO_API, &api) != 0) {
        close(st->uffd);
        return "UFFD_FEATURE_EVENT_FORK refused";
    }
    st->page = mmap(NULL, page(), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(st->page != MAP_FAILED);
    struct uffdio_register reg = {.range = {.start = (unsigned long)st->page, .len = page()},
                                  .mode = UFFDIO_REGISTER_MODE_MISSING};
    assert_int_equal(ioctl(st->uffd, UFFDIO_REGISTER, &reg), 0);
    assert_int_equal(pthread_create(&st->thread, NULL, serve_nothing, st), 0);
    return NULL;
}

static void unstall_page(stalled *st)
{
    st->done = 1;
    pthread_join(st->thread, NULL);
    close(st->uffd);
    munmap(st->page, page());
}

/* A child whose read never completes is ended by its alarm and reported
 * as a timeout, not waited for and not taken for an answer. */
static void a_fork_read_that_never_completes_times_out(void **s)
{
    (void)s;
    stalled st;
    const char *why = stall_page(&st);
    if (why) {
        printf("[  SKIP    ] because userfaultfd is not available here (%s): nothing can make a read block\n", why);
        skip();
    }
    ha_hr_info info;
    ha_hr_status r = ha_fork_read(st.page, 8, NULL, 1, &info);
    unstall_page(&st);
    if (r != HA_HR_TIMEOUT)
        fail_msg("a read that never completes ended as %s, not as a timeout", ha_hr_name(r));
    assert_int_equal(info.sig, SIGALRM);
}

/* A handler the process installs while a guard session is open is its
 * newer choice: ending the session leaves it in place. */
static void a_handler_installed_while_guards_run_survives_them(void **s)
{
    (void)s;
    struct sigaction mine, found_segv, found_bus, after;
    sigaction(SIGSEGV, NULL, &found_segv);
    sigaction(SIGBUS, NULL, &found_bus);
    assert_int_equal(ha_guard_session_begin(), 0);
    memset(&mine, 0, sizeof mine);
    mine.sa_handler = marker;
    sigemptyset(&mine.sa_mask);
    sigaction(SIGSEGV, &mine, NULL);
    ha_guard_session_end();
    sigaction(SIGSEGV, NULL, &after);
    assert_ptr_equal(after.sa_handler, marker);
    sigaction(SIGBUS, NULL, &after); /* the one not replaced went back as found */
    assert_ptr_equal(after.sa_handler, found_bus.sa_handler);
    sigaction(SIGSEGV, &found_segv, NULL);
}

static sigjmp_buf plain_escape;
static volatile sig_atomic_t plain_got;
static void plain_handler(int sig)
{
    plain_got = sig;
    siglongjmp(plain_escape, 1);
}

/* A plain (not SA_SIGINFO) handler found before the guards still gets a
 * fault taken outside them while they are installed. */
static void a_plain_handler_found_before_gets_a_fault_outside_the_guards(void **s)
{
    (void)s;
    void *p = map_prot(PROT_NONE);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(20);
        struct sigaction mine;
        memset(&mine, 0, sizeof mine);
        mine.sa_handler = plain_handler;
        sigemptyset(&mine.sa_mask);
        mine.sa_flags = SA_NODEFER;
        sigaction(SIGSEGV, &mine, NULL);
        if (ha_guard_session_begin() != 0)
            _exit(5);
        if (sigsetjmp(plain_escape, 1) == 0)
            *(volatile int *)p = 1; /* outside any guarded access */
        _exit(plain_got == SIGSEGV ? 0 : 6);
    }
    int ws = 0;
    waitpid(pid, &ws, 0);
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        fail_msg("the process's own handler did not get the fault (%s %d)", WIFEXITED(ws) ? "exit" : "signal",
                 WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
    munmap(p, page());
}

/* ---- threads ---- */

static void *bad_page, *good_page;
static volatile int keep_going;
static atomic_long reads_done; /* pairs of guarded reads that answered right */

/* Guarded reads of a faulting and a readable page, some inside sessions. */
static void *guard_loop(void *arg)
{
    long id = (long)arg;
    unsigned char got[4];
    for (int i = 0; i < GUARD_LOOPS || keep_going; i++) {
        bool session = (i + id) % 3 == 0 && ha_guard_session_begin() == 0;
        if (ha_guarded_read(bad_page, got, 4, NULL, NULL) != HA_HR_SIGSEGV ||
            ha_guarded_read(good_page, got, 4, NULL, NULL) != HA_HR_OK)
            _exit(4);
        if (session)
            ha_guard_session_end();
        atomic_fetch_add(&reads_done, 1);
    }
    return NULL;
}

/* The child tells the parent how many guarded reads it finished alive,
 * before it plants its fault: a guard that kills the process is then told
 * apart from the fault the test plants, which kills it too. */
static void tell(int fd, long n)
{
    char line[32];
    int len = snprintf(line, sizeof line, "%ld\n", n);
    if (write(fd, line, (size_t)len) != len)
        _exit(7);
    close(fd);
}

static long heard(int fd)
{
    char line[32] = "";
    ssize_t got = read(fd, line, sizeof line - 1);
    close(fd);
    return got > 0 ? strtol(line, NULL, 10) : -1;
}

/* A genuine fault: a store to a page nobody may touch, outside any guard. */
static void fault_now(void) { *(volatile int *)bad_page = 1; }

/* How a child ended: 0 it died of SIGSEGV, else a description. */
static const char *died_of_segv(pid_t pid)
{
    int ws = 0;
    waitpid(pid, &ws, 0);
    if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGSEGV)
        return NULL;
    if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGALRM)
        return "hung (killed by its alarm)";
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 3)
        return "the handlers were not the ones found";
    if (WIFEXITED(ws) && WEXITSTATUS(ws) == 4)
        return "a guarded read gave the wrong answer";
    return "ended otherwise";
}

/* Eight threads guard at once, then a genuine fault still kills the
 * process with SIGSEGV, and the handler left is the one found. */
static void guards_from_eight_threads_leave_signals_as_found(void **s)
{
    (void)s;
    bad_page = map_prot(PROT_NONE);
    good_page = map_prot(PROT_READ);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        alarm(20);
        signal(SIGSEGV, SIG_DFL);
        signal(SIGBUS, SIG_DFL);
        pthread_t t[8];
        for (long i = 0; i < 8; i++)
            pthread_create(&t[i], NULL, guard_loop, (void *)i);
        for (int i = 0; i < 8; i++)
            pthread_join(t[i], NULL);
        tell(fds[1], atomic_load(&reads_done));
        struct sigaction now;
        sigaction(SIGSEGV, NULL, &now);
        if (now.sa_handler != SIG_DFL || (now.sa_flags & SA_SIGINFO))
            _exit(3);
        sigaction(SIGBUS, NULL, &now);
        if (now.sa_handler != SIG_DFL || (now.sa_flags & SA_SIGINFO))
            _exit(3);
        fault_now();
        _exit(0);
    }
    close(fds[1]);
    long n = heard(fds[0]);
    const char *why = died_of_segv(pid);
    if (n != 8L * GUARD_LOOPS)
        fail_msg("8 threads of guarded reads ended after %ld of %ld: the guards themselves failed (%s)", n,
                 8L * GUARD_LOOPS, why ? why : "then died of the planted fault");
    if (why)
        fail_msg("after guards on 8 threads, a real fault: %s", why);
}

/* A fault outside any guard, taken while other threads are guarding,
 * kills the process: it never spins in the guard's handler. */
static void a_fault_beside_running_guards_still_kills(void **s)
{
    (void)s;
    bad_page = map_prot(PROT_NONE);
    good_page = map_prot(PROT_READ);
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        alarm(20);
        signal(SIGSEGV, SIG_DFL);
        keep_going = 1;
        pthread_t t[8];
        for (long i = 0; i < 8; i++)
            pthread_create(&t[i], NULL, guard_loop, (void *)i);
        while (atomic_load(&reads_done) < 8L * GUARD_LOOPS)
            usleep(1000);
        tell(fds[1], atomic_load(&reads_done));
        fault_now();
        _exit(0);
    }
    close(fds[1]);
    long n = heard(fds[0]);
    const char *why = died_of_segv(pid);
    if (n < 8L * GUARD_LOOPS)
        fail_msg("the guards alone did not last %ld reads (%ld): the guards themselves failed (%s)",
                 8L * GUARD_LOOPS, n, why ? why : "then died of the planted fault");
    if (why)
        fail_msg("a real fault beside running guards: %s", why);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readable_page_reads_and_matches),
        cmocka_unit_test(prot_none_is_contained_as_sigsegv),
        cmocka_unit_test(read_only_page_refuses_writes),
        cmocka_unit_test(unmapped_address_is_contained),
        cmocka_unit_test(past_end_of_file_is_sigbus),
        cmocka_unit_test(previous_handlers_are_restored),
        cmocka_unit_test(a_handler_installed_while_guards_run_survives_them),
        cmocka_unit_test(a_plain_handler_found_before_gets_a_fault_outside_the_guards),
        cmocka_unit_test(fork_mode_reports_the_childs_fate),
        cmocka_unit_test(a_fork_read_that_never_completes_times_out),
        cmocka_unit_test(guards_from_eight_threads_leave_signals_as_found),
        cmocka_unit_test(a_fault_beside_running_guards_still_kills),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
