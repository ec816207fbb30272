#include "backend.h"

#include <stdio.h>
#include <string.h>


const ha_backend_ops *const ha_all_backends[] = {&ha_backend_hip, &ha_backend_cuda,
                                                 &ha_backend_sim, NULL};

const ha_backend_ops *ha_backend_find(const char *name)
{
    for (int i = 0; ha_all_backends[i]; i++)
        if (strcmp(ha_all_backends[i]->name, name) == 0)
            return ha_all_backends[i];
    return NULL;
}

const char *ha_backend_names(char *buf, size_t n)
{
    size_t at = (size_t)snprintf(buf, n, "auto");
    for (int i = 0; ha_all_backends[i] && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", ha_all_backends[i + 1] ? ", " : " or ",
                               ha_all_backends[i]->name);
    return buf;
}

static int open_one(const ha_backend_ops *ops, int device, ha_backend *be, char *why, size_t n)
{
    memset(be, 0, sizeof *be);
    be->ops = ops;
    be->device = device;
    if (!ops->compiled) {
        snprintf(why, n, "%s backend %s", ops->name, ops->build_note); /* it says what to do */
        return HA_EXIT_NO_RUNTIME;
    }
    return ops->open(be, device, why, n);
}

int ha_backend_open(const char *want, int device, ha_backend *be, char *msg, size_t msglen)
{
    return ha_backend_open_ex(want, device, false, be, msg, msglen, NULL);
}

int ha_backend_open_ex(const char *want, int device, bool require_gpu, ha_backend *be, char *msg, size_t msglen,
                       ha_fallbacks *fb)
{
    msg[0] = 0;
    if (fb)
        fb->n = 0;
    if (strcmp(want, "auto") != 0) {
        const ha_backend_ops *ops = ha_backend_find(want);
        if (!ops) {
            char names[64];
            snprintf(msg, msglen, "unknown backend '%s' (%s)", want, ha_backend_names(names, sizeof names));
            return HA_EXIT_USAGE;
        }
        if (require_gpu && ops->simulated) {
            snprintf(msg, msglen, "--require-gpu (or HOSTACCESS_REQUIRE_GPU=1) refuses the %s backend, which is a "
                                  "simulation: give hip, cuda or auto", want);
            return HA_EXIT_USAGE;
        }
        return open_one(ops, device, be, msg, msglen);
    }
    char skipped[700] = "";
    int worst = HA_EXIT_NO_RUNTIME;
    for (int i = 0; ha_all_backends[i]; i++) {
        const ha_backend_ops *ops = ha_all_backends[i];
        if (require_gpu && ops->simulated)
            break;
        char why[256] = "";
        int rc = open_one(ops, device, be, why, sizeof why);
        if (rc == HA_EXIT_OK) {
            snprintf(msg, msglen, "backend auto: chose %s%s%s", ops->name, skipped[0] ? " because " : "", skipped);
            return rc;
        }
        /* A bad device index is the user's mistake on a backend that
         * exists: say so instead of quietly falling back. */
        if (rc == HA_EXIT_USAGE) {
            snprintf(msg, msglen, "%s", why);
            return rc;
        }
        if (rc == HA_EXIT_NO_DEVICE)
            worst = rc;
        if (fb && fb->n < (int)(sizeof fb->v / sizeof fb->v[0])) {
            fb->v[fb->n].backend = ops->name;
            fb->v[fb->n].status = rc;
            snprintf(fb->v[fb->n++].why, sizeof fb->v[0].why, "%s", why);
        }
        size_t l = strlen(skipped);
        snprintf(skipped + l, sizeof skipped - l, "%s%s", l ? "; " : "", why);
    }
    if (require_gpu) {
        snprintf(msg, msglen, "no GPU backend could be opened and --require-gpu (or HOSTACCESS_REQUIRE_GPU=1) "
                              "refuses the simulation: %s", skipped);
        return worst;
    }
    snprintf(msg, msglen, "no backend could be opened: %s", skipped);
    return HA_EXIT_NO_RUNTIME;
}

void ha_backend_close(ha_backend *be)
{
    if (be->ops && be->ops->close)
        be->ops->close(be);
    be->priv = NULL;
    be->sim_profile = NULL;
}

void ha_backend_list(FILE *out)
{
    for (int i = 0; ha_all_backends[i]; i++) {
        const ha_backend_ops *ops = ha_all_backends[i];
        ha_backend be;
        char why[256] = "";
        int rc = open_one(ops, 0, &be, why, sizeof why);
        int n = 0;
        if (rc == HA_EXIT_OK) {
            if (ops->device_count(&be, &n) != HA_ST_OK)
                n = 0;
            ha_backend_close(&be);
            snprintf(why, sizeof why, "available, %d device(s)", n);
        }
        /* A compiled-out backend's reason is its build note: say it once. */
        if (ops->compiled)
            fprintf(out, "%-5s %-9s %s; %s\n", ops->name, "compiled", ops->build_note, why);
        else
            fprintf(out, "%-5s %-9s %s\n", ops->name, "absent", ops->build_note);
    }
}
