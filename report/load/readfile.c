#include "readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "exitcodes.h"

void rf_out_of_memory(const char *doing)
{
    fprintf(stderr, "%s: out of memory %s: free some memory (or give it fewer runs) and run it again\n",
            program_invocation_short_name, doing);
    exit(HA_EXIT_NO_MEMORY);
}

int (*rf_vasprintf)(char **strp, const char *fmt, va_list ap) = vasprintf;

char *rf_vprintf(const char *fmt, va_list ap)
{
    char *s = NULL;
    if (rf_vasprintf(&s, fmt, ap) < 0)
        s = NULL;
    return s;
}

char *rf_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = rf_vprintf(fmt, ap);
    va_end(ap);
    return s;
}

char *rf_join(const char *dir, const char *name) { return rf_printf("%s/%s", dir, name); }

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m) ? "a folder" : S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) || S_ISBLK(m) ? "a device"
                                                               : S_ISSOCK(m) ? "a socket" : "something else";
}

/* Inflates a gzip stream into a new buffer of at most max bytes. */
static int inflate_all(const char *path, const unsigned char *in, size_t inlen, size_t max, char **out, size_t *outlen,
                       char **err)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (inflateInit2(&z, 15 + 16) != Z_OK) {
        *err = rf_printf("%s: cannot start zlib", path);
        return -1;
    }
    size_t cap = inlen * 4 + 4096 < max ? inlen * 4 + 4096 : max + 1;
    char *buf = malloc(cap + 1);
    z.next_in = (unsigned char *)(uintptr_t)in;
    z.avail_in = (uInt)inlen;
    int rc = Z_OK;
    size_t got = 0;
    while (buf && rc == Z_OK) {
        if (got == cap) {
            if (cap > max) /* one byte past the bound is enough to know */
                break;
            size_t ncap = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *nb = realloc(buf, ncap + 1);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap = ncap;
        }
        z.next_out = (unsigned char *)buf + got;
        z.avail_out = (uInt)(cap - got);
        rc = inflate(&z, Z_NO_FLUSH);
        got = cap - z.avail_out;
    }
    inflateEnd(&z);
    if (!buf)
        rf_out_of_memory("inflating a record");
    if (got > max) {
        free(buf);
        *err = rf_printf("%s: inflates to more than %zu MiB: expected a record of at most that", path, max >> 20);
        return -1;
    }
    if (rc != Z_STREAM_END || z.avail_in != 0) {
        free(buf);
        *err = rf_printf("%s: expected one whole gzip stream (%s)", path,
                         rc == Z_STREAM_END ? "bytes after its end" : z.msg ? z.msg : "truncated");
        return -1;
    }
    buf[got] = 0;
    *out = buf;
    *outlen = got;
    return 0;
}

int rf_read(const char *path, size_t max, bool gz, char **bufp, size_t *lenp, char **err)
{
    *bufp = NULL;
    *lenp = 0;
    /* A run's files are read only as its own regular files: a link could
     * bring any file of the reader's into a report or a PR comment. */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW);
    if (fd < 0) {
        *err = errno == ELOOP ? rf_printf("%s: a symbolic link: a run's files are read only as regular files", path)
                              : rf_printf("%s: cannot be read (%s)", path, strerror(errno));
        return -1;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *err = rf_printf("%s: expected a regular file, found %s", path, kind_of(st.st_mode));
        close(fd);
        return -1;
    }
    if ((unsigned long long)st.st_size > max) {
        *err = rf_printf("%s: %lld bytes: expected at most %zu MiB", path, (long long)st.st_size, max >> 20);
        close(fd);
        return -1;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (buf && got < (size_t)st.st_size) {
        ssize_t r = read(fd, buf + got, (size_t)st.st_size - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    if (!buf)
        rf_out_of_memory("reading a record");
    if (got != (size_t)st.st_size) {
        free(buf);
        *err = rf_printf("%s: cannot be read whole", path);
        return -1;
    }
    buf[got] = 0;
    if (!gz) {
        *bufp = buf;
        *lenp = got;
        return 0;
    }
    int rc = inflate_all(path, (unsigned char *)buf, got, max, bufp, lenp, err);
    free(buf);
    return rc;
}

int rf_read_either(const char *dir, const char *name, size_t max, char **buf, size_t *len, bool *found,
                   char **which, char **err)
{
    *found = false;
    *which = NULL;
    char *plain = rf_join(dir, name), *gz = rf_printf("%s/%s.gz", dir, name);
    if (!plain || !gz)
        rf_out_of_memory("naming a record");
    struct stat st, st2;
    int rc = 0;
    if (lstat(plain, &st) == 0 && lstat(gz, &st2) == 0) {
        *found = true;
        *err = rf_printf("%s: both it and its .gz are there: expected one", plain);
        rc = -1;
    } else if (lstat(plain, &st) == 0) {
        *found = true;
        *which = plain;
        plain = NULL;
        rc = rf_read(*which, max, false, buf, len, err);
    } else if (lstat(gz, &st) == 0) {
        *found = true;
        *which = gz;
        gz = NULL;
        rc = rf_read(*which, max, true, buf, len, err);
    }
    free(plain);
    free(gz);
    return rc;
}
