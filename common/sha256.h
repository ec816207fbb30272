/* SHA-256 (FIPS 180-4): run_all's manifest names each record's digest and
 * the report tools check it, with no library beyond libc on either side. */
#ifndef HA_SHA256_H
#define HA_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct ha_sha256 {
    uint32_t h[8];
    uint64_t bytes;
    unsigned char buf[64];
    size_t used;
} ha_sha256;

void ha_sha256_init(ha_sha256 *s);
void ha_sha256_add(ha_sha256 *s, const void *data, size_t n);
/* The digest as 64 lower-case hex digits and a NUL. */
void ha_sha256_hex(ha_sha256 *s, char out[65]);
/* Whether blocks go through the CPU's SHA instructions (x86 SHA-NI, used
 * where the CPU has them) or the portable rounds: want 0 forces the
 * portable ones (a test compares the two). Returns 1 when the SHA
 * instructions are used from now on. Not for use while another thread
 * hashes. */
int ha_sha256_fast_path(int want);

#endif
