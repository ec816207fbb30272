/* Choosing and opening a backend at run time. */
#ifndef HA_BACKEND_H
#define HA_BACKEND_H

#include <stdio.h>

#include "gpu.h"

extern const ha_backend_ops ha_backend_hip;
extern const ha_backend_ops ha_backend_cuda;
extern const ha_backend_ops ha_backend_sim;

/* hip, cuda, sim: the order auto tries them in. NULL-terminated. */
extern const ha_backend_ops *const ha_all_backends[];

const ha_backend_ops *ha_backend_find(const char *name);

/* Opens "auto", "hip", "cuda" or "sim" on a device. Returns an HA_EXIT_*
 * code; on failure msg holds one line saying what is missing. For auto,
 * msg holds which backend was chosen and why the others were not. */
int ha_backend_open(const char *want, int device, ha_backend *be, char *msg, size_t msglen);

void ha_backend_close(ha_backend *be);

/* --list-backends: each backend, how it was built and whether it opens. */
void ha_backend_list(FILE *out);

#endif
