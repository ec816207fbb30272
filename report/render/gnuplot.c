#include "gnuplot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "utf8.h"

bool gp_available(void)
{
    const char *path = getenv("PATH");
    if (!path)
        return false;
    char dir[4096];
    while (*path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && n < sizeof dir - 10) {
            memcpy(dir, path, n);
            strcpy(dir + n, "/gnuplot");
            if (access(dir, X_OK) == 0)
                return true;
        }
        path += n + (path[n] == ':');
    }
    return false;
}

/* gnuplot's first complaint in the log in dir (else its last line), into
 * buf: callers remove a failed plot's folder, log included, so the
 * message must carry what gnuplot said. */
static void complaint(const char *dir, char *buf, size_t n)
{
    buf[0] = 0;
    char path[4200], line[300];
    FILE *f = (size_t)snprintf(path, sizeof path, "%s/gnuplot.log", dir) < sizeof path ? fopen(path, "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
        size_t k = strcspn(line, "\r\n"), j = 0;
        line[k] = 0;
        if (k == 0 || strspn(line, " ^") == k)
            continue;
        for (size_t i = 0; line[i] && j + 1 < n; i++)
            buf[j++] = (unsigned char)line[i] < 0x20 || line[i] == 0x7f ? '?' : line[i];
        buf[j] = 0;
        if (strstr(line, "rror") || strstr(line, "arning") || strstr(line, "undefined"))
            break;
    }
    if (f)
        fclose(f);
}

int gp_run(const char *dir, const char *script, char *err, size_t errlen)
{
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, errlen, "cannot start gnuplot: %s", strerror(errno));
        return -1;
    }
    if (pid == 0) {
        if (chdir(dir) != 0)
            _exit(126);
        int log = open("gnuplot.log", O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
        int null = open("/dev/null", O_RDWR | O_CLOEXEC);
        if (log < 0 || null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(log, 2) < 0)
            _exit(126);
        execlp("gnuplot", "gnuplot", script, (char *)NULL);
        _exit(127);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) {
            snprintf(err, errlen, "gnuplot: %s", strerror(errno));
            return -1;
        }
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return 0;
    char said[200];
    complaint(dir, said, sizeof said);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
        snprintf(err, errlen, "gnuplot could not be started (apt-get install gnuplot-nox)");
    else if (WIFEXITED(st))
        snprintf(err, errlen, "gnuplot exited %d on %s: %s", WEXITSTATUS(st), script, said[0] ? said : "it said nothing");
    else
        snprintf(err, errlen, "gnuplot died of signal %d on %s: %s", WTERMSIG(st), script,
                 said[0] ? said : "it said nothing");
    return -1;
}

static void quoted(FILE *f, const char *s, char q, const char *doubled)
{
    fputc(q, f);
    for (const unsigned char *u = (const unsigned char *)(s ? s : ""); *u;) {
        size_t n = ha_utf8_len(u);
        if (n == 1 && *u == (unsigned char)q && doubled)
            fputs(doubled, f);
        else if (!n || *u < 0x20 || *u == 0x7f || *u == (unsigned char)q || ha_utf8_hidden_at(u, n))
            fputc('?', f);
        else
            fwrite(u, 1, n, f);
        u += n ? n : 1;
    }
    fputc(q, f);
}

void gp_quote(FILE *f, const char *s) { quoted(f, s, '\'', "''"); }

void gp_data_str(FILE *f, const char *s) { quoted(f, s, '"', NULL); }
