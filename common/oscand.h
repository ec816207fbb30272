/* Candidates the operating system answers, on every backend: the kernel
 * knows what is mapped even when the runtime will not say. */
#ifndef HA_OSCAND_H
#define HA_OSCAND_H

#include "gpu.h"

extern const ha_query ha_os_queries[];

/* errno's symbolic name ("EFAULT"). */
const char *ha_errno_name(int e);

/* The kernel-mediated reads, exposed for the bench: 0 or an errno. */
int ha_pipe_read(const void *src, void *dst, size_t n);
int ha_vm_read(const void *src, void *dst, size_t n);

#endif
