/* Sizes as people read them: 2 to 3 significant digits in B, KiB, MiB,
 * GiB, TiB (records keep the raw numbers; text and Markdown use these). */
#ifndef HA_UNITS_H
#define HA_UNITS_H

#include <stddef.h>

/* b bytes as "512 B", "64 KiB", "139.8 GiB"; "n/a" when negative or not finite. */
void ha_bytes_text(double b, char *out, size_t n);

#endif
