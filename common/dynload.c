#include "dynload.h"

#include "log.h"
#include "rtwatch.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* What is wrong with the ELF file at path for this process, or NULL when
 * nothing is: not ELF, another class or machine, or shorter than its own
 * headers say (a truncated copy). *foreign is set for a file dlopen would
 * skip (wrong class or machine) rather than crash on. */
static const char *ha_elf_problem(const char *path, bool *foreign, char *buf, size_t n)
{
    *foreign = false;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        snprintf(buf, n, "cannot be opened: %s", strerror(errno));
        return buf;
    }
    struct stat st;
    ElfW(Ehdr) eh;
    const char *bad = NULL;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
        bad = "not a regular file";
    else if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
        bad = "not an ELF shared library";
    if (bad) {
        close(fd);
        snprintf(buf, n, "%s", bad);
        return buf;
    }
    if (eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
#if defined(__x86_64__)
        eh.e_machine != EM_X86_64
#elif defined(__aarch64__)
        eh.e_machine != EM_AARCH64
#else
        0
#endif
    ) {
        close(fd);
        *foreign = true;
        snprintf(buf, n, "built for another machine or word size (ELF class %d, machine %d)", eh.e_ident[EI_CLASS],
                 eh.e_machine);
        return buf;
    }
    /* Everything the headers point at must be inside the file. */
    unsigned long long need = (unsigned long long)eh.e_shoff + (unsigned long long)eh.e_shnum * eh.e_shentsize;
    unsigned long long ph_end = (unsigned long long)eh.e_phoff + (unsigned long long)eh.e_phnum * eh.e_phentsize;
    if (ph_end > need)
        need = ph_end;
    for (int i = 0; i < eh.e_phnum && ph_end <= (unsigned long long)st.st_size; i++) {
        ElfW(Phdr) ph;
        if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (unsigned long long)i * eh.e_phentsize)) != (ssize_t)sizeof ph)
            break;
        if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > need)
            need = ph.p_offset + ph.p_filesz;
    }
    close(fd);
    if (need > (unsigned long long)st.st_size) {
        snprintf(buf, n, "truncated or corrupt: %lld bytes, its own headers need %llu", (long long)st.st_size, need);
        return buf;
    }
    return NULL;
}

/* The files named soname in the LD_LIBRARY_PATH folders, in search order:
 * the ones dlopen looks at before the system's. */
static int check_search_path(const char *soname, char *why, size_t n)
{
    const char *lp = getenv("LD_LIBRARY_PATH");
    for (const char *p = lp; p && *p;) {
        size_t len = strcspn(p, ":");
        char file[4096];
        if (len && len + strlen(soname) + 2 < sizeof file) {
            snprintf(file, sizeof file, "%.*s/%s", (int)len, p, soname);
            if (access(file, F_OK) == 0) {
                bool foreign;
                char buf[256];
                const char *bad = ha_elf_problem(file, &foreign, buf, sizeof buf);
                if (!bad)
                    return 0;
                if (foreign) {
                    ha_log(HA_LOG_WARN, "%s is passed over: %s", file, bad);
                } else {
                    snprintf(why, n, "%s is %s: reinstall it or take its folder off LD_LIBRARY_PATH", file, bad);
                    return -1;
                }
            }
        }
        p += len + (p[len] == ':');
    }
    return 0;
}

/* How long a trial load may take before it counts as hung: real runtimes
 * load in seconds; $HOSTACCESS_LOAD_TIMEOUT_S (1 to 600) sets it. */
static unsigned load_timeout_s(void) { return ha_env_seconds("HOSTACCESS_LOAD_TIMEOUT_S", 30); }

/* Waits for pid up to timeout_s; kills it past that. Returns 1 when it
 * ended (status in *st), 0 when it had to be killed. */
static int wait_bounded(pid_t pid, unsigned timeout_s, int *st)
{
    for (unsigned long waited_ms = 0;; waited_ms += 10) {
        pid_t r = waitpid(pid, st, WNOHANG);
        if (r == pid)
            return 1;
        if (r < 0 && errno != EINTR)
            return 1; /* nothing to wait for: take it as ended */
        if (waited_ms >= timeout_s * 1000ul) {
            kill(pid, SIGKILL);
            while (waitpid(pid, st, 0) < 0 && errno == EINTR)
                ;
            return 0;
        }
        usleep(10000);
    }
}

/* dlopen in a child first: a library that crashes the loader, ends the
 * process from its initialiser or never returns costs the child, not the
 * tool. 0 loaded, 1 not found, -1 misbehaved (why says how). */
static int trial_load(const char *soname, char *why, size_t n)
{
    int fd[2];
    if (pipe(fd) != 0)
        return 0; /* cannot try first: load directly, as before */
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return 0;
    }
    if (pid == 0) {
        close(fd[0]);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0)
            dup2(null, 2);
        void *h = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        /* Only a dlopen that came back says so: an initialiser that calls
         * exit() ends the child without a word. A refusal carries the
         * loader's reason after its letter. */
        const char *err = h ? "" : dlerror();
        char said[600];
        int len = snprintf(said, sizeof said, "%c%s", h ? 'L' : 'N', err ? err : "");
        len = len < 0 ? 1 : len >= (int)sizeof said ? (int)sizeof said - 1 : len;
        _exit(write(fd[1], said, (size_t)len) == len ? 0 : 2);
    }
    close(fd[1]);
    unsigned timeout = load_timeout_s();
    int st = 0;
    int ended = wait_bounded(pid, timeout, &st);
    char reason[600] = "";
    ssize_t got = ended ? read(fd[0], reason, sizeof reason - 1) : 0;
    reason[got > 0 ? got : 0] = 0;
    char said = reason[0];
    close(fd[0]);
    if (!ended) {
        snprintf(why, n, "loading %s did not finish in %u s (its initialiser blocks, or it is not a file that "
                 "can be read through): fix or remove that library", soname, timeout);
        return -1;
    }
    if (said == 'L')
        return 0;
    if (said == 'N') {
        snprintf(why, n, "%s", reason + 1);
        return 1;
    }
    if (WIFSIGNALED(st))
        snprintf(why, n, "loading %s crashed the dynamic loader (%s): the installed library is corrupt; reinstall "
                 "it or take it off LD_LIBRARY_PATH", soname, strsignal(WTERMSIG(st)));
    else
        snprintf(why, n, "loading %s ended the process from its initialiser (exit status %d): that is not a GPU "
                 "runtime this tool can use; reinstall it or take it off the library path", soname,
                 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    return -1;
}

/* A name with a '/' is a file the user chose: it must be one. 0 fine, 1
 * not there, -1 not a library (why says which). */
static int check_named_file(const char *path, char *why, size_t n)
{
    if (!strchr(path, '/'))
        return 0;
    struct stat st;
    if (stat(path, &st) != 0) {
        snprintf(why, n, "%s not found (%s)", path, strerror(errno));
        return errno == ENOENT || errno == ENOTDIR ? 1 : -1;
    }
    bool foreign;
    char buf[256];
    const char *bad = ha_elf_problem(path, &foreign, buf, sizeof buf);
    if (bad) {
        snprintf(why, n, "%s is %s", path, bad);
        return -1;
    }
    return 0;
}

void *ha_dlopen_checked(const char *const names[], bool *broken, char *why, size_t n)
{
    *broken = false;
    char first_err[512] = "";
    for (int i = 0; names[i]; i++) {
        int named = check_named_file(names[i], why, n);
        if (named > 0) {
            if (!names[i + 1])
                return NULL; /* why says it is not there */
            continue;
        }
        if (named < 0 || check_search_path(names[i], why, n) != 0 || trial_load(names[i], why, n) < 0) {
            *broken = true;
            return NULL;
        }
        void *h = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
        if (h)
            return h;
        if (!first_err[0])
            snprintf(first_err, sizeof first_err, "%s", dlerror());
    }
    /* "not found" only when the loader says so: a library that is there
     * but does not load is named with the loader's reason. */
    if (strstr(first_err, "No such file"))
        snprintf(why, n, "%s not found (%s)", names[0], first_err);
    else
        snprintf(why, n, "%s is there but does not load: %s", names[0], first_err);
    return NULL;
}

int ha_dlopen_try(const char *path, char *why, size_t n)
{
    char reason[512] = "";
    int named = check_named_file(path, why, n);
    if (named)
        return -1;
    int rc = trial_load(path, reason, sizeof reason);
    if (rc > 0)
        snprintf(why, n, "%s does not load here: %s", path, reason[0] ? reason : "the loader refused it");
    else if (rc < 0)
        snprintf(why, n, "%s", reason);
    return rc ? -1 : 0;
}

struct find { const void *p; bool code; };

static int in_segment(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    struct find *f = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (uintptr_t)f->p >= lo && (uintptr_t)f->p < lo + ph->p_memsz) {
            f->code = (ph->p_flags & PF_X) != 0;
            return 1;
        }
    }
    return 0;
}

bool ha_is_code(const void *p)
{
    struct find f = {p, false};
    dl_iterate_phdr(in_segment, &f);
    return f.code;
}
