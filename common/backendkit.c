#include "backendkit.h"

#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "dynload.h"
#include "exitcodes.h"
#include "log.h"

int ha_bind_entries(void *lib, const ha_entry *e, size_t n, const ha_runtime_words *w, char *why, size_t wn)
{
    const char *missing = NULL, *not_code = NULL;
    for (size_t i = 0; i < n; i++) {
        void *f = dlsym(lib, e[i].name);
        /* POSIX's word for it: a function pointer holds what dlsym returns */
        memcpy(e[i].slot, &f, sizeof f);
        if (!f && e[i].required && !missing)
            missing = e[i].name;
        if (f && !ha_is_code(f) && !not_code)
            not_code = e[i].name;
    }
    if (not_code) {
        snprintf(why, wn, "%s: %s's %s is not a function (it is data): this is not %s", w->backend, w->lib, not_code,
                 w->not_it);
        return HA_EXIT_NO_RUNTIME;
    }
    if (missing) {
        snprintf(why, wn, "%s: %s lacks %s: %s is older than this tool needs", w->backend, w->lib, missing,
                 w->component);
        return HA_EXIT_NO_RUNTIME;
    }
    return HA_EXIT_OK;
}

int ha_check_devices(const ha_runtime_words *w, const char *call, int st, const char *st_name, int count, int device,
                     char *why, size_t wn)
{
    if (!st && (count < 0 || count > HA_MAX_DEVICES)) {
        char more[80] = "";
        if (count > HA_MAX_DEVICES)
            snprintf(more, sizeof more, ", more than any machine holds (%d here)", HA_MAX_DEVICES);
        snprintf(why, wn, "%s: %s reported %d devices%s: %s is broken; reinstall it", w->backend, call, count, more,
                 w->component);
        return HA_EXIT_NO_RUNTIME;
    }
    if (st || count == 0) {
        snprintf(why, wn, "%s: %s (%s: %s, %d device(s))", w->backend, w->no_gpu, call, st_name, count);
        return HA_EXIT_NO_DEVICE;
    }
    if (device >= count) {
        snprintf(why, wn, "device %d does not exist: %s has %d device(s)", device, w->backend, count);
        return HA_EXIT_USAGE;
    }
    return HA_EXIT_OK;
}

int ha_kind_result(ha_alloc *a, void *p, size_t size, int st, const char *st_name, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(a->detail, sizeof a->detail, fmt, ap);
    va_end(ap);
    if (k >= 0 && (size_t)k < sizeof a->detail)
        snprintf(a->detail + k, sizeof a->detail - (size_t)k, ": %s", st_name);
    a->ptr = p;
    a->size = size;
    return st;
}

void ha_warn_failed(const char *call, int st, const char *st_name)
{
    if (st)
        ha_log(HA_LOG_WARN, "%s: %s", call, st_name);
}
