#include "statusname.h"

#include <string.h>

const char *ha_short_status(const char *s)
{
    static const char *const prefixes[] = {"CUDA_ERROR_", "hipError", "SIM_ERR_", NULL};
    for (int i = 0; prefixes[i]; i++) {
        size_t l = strlen(prefixes[i]);
        if (strncmp(s, prefixes[i], l) == 0)
            return s + l;
    }
    return s;
}
