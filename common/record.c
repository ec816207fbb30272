#include "record.h"

#include "cleanup.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ha_record_open(ha_record *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    if (!path || !*path || strlen(path) + 16 >= sizeof r->path) {
        snprintf(err, errlen, "record path is empty or too long");
        return -1;
    }
    struct stat st;
    if (lstat(path, &st) == 0) {
        snprintf(err, errlen, "%s already exists; results are never overwritten: choose a new path",
                 path);
        return -1;
    }
    snprintf(r->path, sizeof r->path, "%s", path);
    /* Same folder as the final file, so link() stays on one filesystem. */
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(r->tmp, sizeof r->tmp, "%.*s/.%s.XXXXXX", (int)(slash - path), path, slash + 1);
    else
        snprintf(r->tmp, sizeof r->tmp, ".%s.XXXXXX", path);
    int fd = mkstemp(r->tmp);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        r->tmp[0] = 0;
        return -1;
    }
    ha_cleanup_add(r->tmp);
    fchmod(fd, 0644);
    r->f = fdopen(fd, "w");
    if (!r->f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        ha_record_abort(r);
        return -1;
    }
    return 0;
}

int ha_record_commit(ha_record *r, char *err, size_t errlen)
{
    if (!r->f) {
        snprintf(err, errlen, "%s: record was not open", r->path);
        return -1;
    }
    int bad = fflush(r->f) != 0 || ferror(r->f) || (!r->derived && fsync(fileno(r->f)) != 0);
    int saved = errno;
    if (fclose(r->f) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    r->f = NULL;
    if (bad) {
        snprintf(err, errlen, "cannot write %s: %s", r->path, strerror(saved));
        ha_record_abort(r);
        return -1;
    }
    /* link() fails with EEXIST instead of replacing: nothing earlier is lost
     * even if another run took the name in the meantime. */
    if (link(r->tmp, r->path) != 0) {
        snprintf(err, errlen, "cannot write %s: %s", r->path,
                 errno == EEXIST ? "it appeared meanwhile; not overwritten" : strerror(errno));
        ha_record_abort(r);
        return -1;
    }
    unlink(r->tmp);
    ha_cleanup_del(r->tmp);
    r->tmp[0] = 0;
    return 0;
}

void ha_record_abort(ha_record *r)
{
    if (r->f) {
        fclose(r->f);
        r->f = NULL;
    }
    if (r->tmp[0]) {
        unlink(r->tmp);
        ha_cleanup_del(r->tmp);
        r->tmp[0] = 0;
    }
}

/* The folder part resolved, the name kept: the file need not exist yet. */
static void canonical(const char *p, char *out, size_t n)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(p, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - p), p);
    else
        snprintf(dir, sizeof dir, ".");
    if (!dir[0])
        snprintf(dir, sizeof dir, "/");
    if (!realpath(dir, real))
        snprintf(real, sizeof real, "%s", dir);
    snprintf(out, n, "%s/%s", real, slash ? slash + 1 : p);
}

bool ha_same_file(const char *a, const char *b)
{
    char x[2 * PATH_MAX + 2], y[2 * PATH_MAX + 2];
    canonical(a, x, sizeof x);
    canonical(b, y, sizeof y);
    return strcmp(x, y) == 0;
}
