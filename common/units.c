#include "units.h"

#include <math.h>
#include <stdio.h>

void ha_bytes_text(double b, char *out, size_t n)
{
    if (!isfinite(b) || b < 0) {
        snprintf(out, n, "n/a");
        return;
    }
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int u = 0;
    while (b >= 1024 && u < 5) {
        b /= 1024;
        u++;
    }
    int dec = u == 0 || b == floor(b) ? 0 : b >= 100 ? 0 : b >= 10 ? 1 : 2;
    snprintf(out, n, "%.*f %s", dec, b, units[u]);
}
