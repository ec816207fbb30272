#include "termguard.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "utf8.h"

size_t ha_term_clean(unsigned char *buf, size_t n, size_t *held)
{
    size_t out = 0, i = 0;
    *held = 0;
    while (i < n) {
        unsigned char c = buf[i];
        if (c < 0x80) { /* NUL passes: terminals ignore it, and machine output (--ab-side-b) separates by it */
            buf[out++] = (c < 0x20 && c != '\t' && c != '\n' && c != 0) || c == 0x7f ? '?' : c;
            i++;
            continue;
        }
        size_t want = ha_utf8_announced(c);
        if (want && i + want > n) { /* cut short here: held if what is there may still become valid */
            bool may = true;
            for (size_t k = i + 1; k < n; k++)
                may = may && (buf[k] & 0xc0) == 0x80;
            if (may) {
                *held = n - i;
                return out;
            }
        }
        /* ha_utf8_len reads no further than the first byte that is not a
         * continuation: within buf, since the sequence is not cut short */
        size_t len = want && i + want <= n ? ha_utf8_len(buf + i) : 0;
        if (!len || ha_utf8_hidden_at(buf + i, len)) {
            buf[out++] = '?';
            i += len ? len : 1;
            continue;
        }
        memmove(buf + out, buf + i, len);
        out += len;
        i += len;
    }
    return out;
}

typedef struct guard {
    int fd;
    unsigned char held[4];
    size_t nheld;
} guard;

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t size)
{
    guard *g = cookie;
    unsigned char chunk[4096 + sizeof g->held];
    for (size_t done = 0; done < size;) {
        size_t m = size - done < 4096 ? size - done : 4096;
        memcpy(chunk, g->held, g->nheld);
        memcpy(chunk + g->nheld, buf + done, m);
        size_t held, n = ha_term_clean(chunk, g->nheld + m, &held);
        if (write_all(g->fd, chunk, n) != 0)
            return -1;
        memcpy(g->held, chunk + (g->nheld + m - held), held);
        g->nheld = held;
        done += m;
    }
    return (ssize_t)size;
}

static guard out_guard = {.fd = 1}, err_guard = {.fd = 2};

/* A character cut short at the very end is said as one '?', not dropped:
 * stdio's own flush at exit comes after this, so flush first. */
static void say_held(void)
{
    fflush(stdout);
    fflush(stderr);
    guard *gs[] = {&out_guard, &err_guard};
    for (int i = 0; i < 2; i++)
        if (gs[i]->nheld) {
            gs[i]->nheld = 0;
            (void)write_all(gs[i]->fd, (const unsigned char *)"?", 1);
        }
}

static FILE *guarded(guard *g, int mode)
{
    cookie_io_functions_t io = {.write = guard_write};
    FILE *f = fopencookie(g, "w", io);
    if (f && setvbuf(f, NULL, mode, 0) != 0) {
        fclose(f);
        return NULL;
    }
    return f;
}

void ha_term_guard(void)
{
    static bool done;
    if (done)
        return;
    done = true;
    fflush(stdout);
    fflush(stderr);
    FILE *o = guarded(&out_guard, isatty(1) ? _IOLBF : _IOFBF), *e = guarded(&err_guard, _IONBF);
    if (!o || !e) { /* out of memory at the start: the tool runs, and says it is unguarded */
        if (o)
            fclose(o);
        if (e)
            fclose(e);
        fputs("warning: out of memory for the terminal guard: what follows is printed unfiltered\n", stderr);
        return;
    }
    stdout = o;
    stderr = e;
    atexit(say_held);
}
