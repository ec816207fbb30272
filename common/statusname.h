/* Status names as people read them in tables: part of the base library,
 * which the report tools link without any GPU code. */
#ifndef HA_STATUSNAME_H
#define HA_STATUSNAME_H

/* A status name without the runtime's long common prefix (CUDA_ERROR_,
 * hipError, SIM_ERR_), for tables. */
const char *ha_short_status(const char *status_name);

#endif
