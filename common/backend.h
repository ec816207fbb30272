/* Choosing and opening a backend at run time. */
#ifndef HA_BACKEND_H
#define HA_BACKEND_H

/* A device count above this is a broken runtime, not a machine: the
 * largest nodes hold tens of GPUs, and run_all.sh makes a folder per one. */
#define HA_MAX_DEVICES 256

#include <stdbool.h>
#include <stdio.h>

#include "gpu.h"

extern const ha_backend_ops ha_backend_hip;
extern const ha_backend_ops ha_backend_cuda;
extern const ha_backend_ops ha_backend_sim;

/* hip, cuda, sim: the order auto tries them in. NULL-terminated. */
extern const ha_backend_ops *const ha_all_backends[];
/* "auto, hip, cuda or sim": what --backend takes, from ha_all_backends (n of 64 holds it). */
const char *ha_backend_names(char *buf, size_t n);

const ha_backend_ops *ha_backend_find(const char *name);

/* Opens "auto", "hip", "cuda" or "sim" on a device. Returns an HA_EXIT_*
 * code; on failure msg holds one line saying what is missing. For auto,
 * msg holds which backend was chosen and why the others were not. */
int ha_backend_open(const char *want, int device, ha_backend *be, char *msg, size_t msglen);

/* A backend auto tried and did not use. */
typedef struct ha_fallback {
    const char *backend;
    int status; /* HA_EXIT_NO_RUNTIME or HA_EXIT_NO_DEVICE */
    char why[256];
} ha_fallback;

typedef struct ha_fallbacks {
    ha_fallback v[4];
    int n;
} ha_fallbacks;

/* The same, keeping each backend auto passed over and why (fb may be
 * NULL). require_gpu (--require-gpu, HOSTACCESS_REQUIRE_GPU=1): the
 * simulation is never a fallback; without a GPU backend the status is
 * HA_EXIT_NO_DEVICE when one loaded but saw no device, else
 * HA_EXIT_NO_RUNTIME, and asking for sim is a usage error. */
int ha_backend_open_ex(const char *want, int device, bool require_gpu, ha_backend *be, char *msg, size_t msglen,
                       ha_fallbacks *fb);

void ha_backend_close(ha_backend *be);

/* --list-backends: each backend, how it was built and whether it opens. */
void ha_backend_list(FILE *out);

#endif
