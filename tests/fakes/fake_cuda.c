/* A stand-in libcuda.so.1 for CI: the entry points the cuda backend needs
 * to open, plus plain allocations backed by host memory; every other entry
 * point is missing, so the tools must say "symbol missing" and go on.
 * FAKE_NO_DEVICE=1 makes cuInit report CUDA_ERROR_NO_DEVICE (100);
 * FAKE_DEVICE_COUNT=N makes cuDeviceGetCount report N (a broken driver's -1).
 * Built with -DFAKE_DATA_CUINIT, cuInit is a data object, not a function:
 * a library that only looks like the driver. Built with
 * -DFAKE_UNDEFINED_SYMBOL, it needs a symbol nothing defines: a library
 * that is there but does not load.
 * Signatures are the ABI's (pointers, sizes, ints), not cuda.h's, so this
 * builds without CUDA. Names are the versioned ones cuda.h maps to. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef FAKE_UNDEFINED_SYMBOL
extern int ha_fake_symbol_nothing_defines(void);
int ha_fake_needs_it(void) { return ha_fake_symbol_nothing_defines(); }
#endif

#ifdef FAKE_DATA_CUINIT
int cuInit[4] = {1, 2, 3, 4};
#else
int cuInit(unsigned flags)
{
    (void)flags;
    const char *e = getenv("FAKE_NO_DEVICE");
    return e && *e == '1' ? 100 : 0;
}
#endif
int cuDriverGetVersion(int *v) { *v = 13000; return 0; }
int cuDeviceGetCount(int *n)
{
    const char *e = getenv("FAKE_DEVICE_COUNT");
    *n = e ? atoi(e) : 1;
    return 0;
}
int cuDeviceGet(int *d, int ordinal) { *d = ordinal; return 0; }
int cuDevicePrimaryCtxRetain(void **ctx, int dev) { (void)dev; *ctx = (void *)0x1; return 0; }
int cuDevicePrimaryCtxRelease_v2(int dev) { (void)dev; return 0; }
int cuCtxSetCurrent(void *ctx) { (void)ctx; return 0; }
int cuMemcpyHtoD_v2(uint64_t dst, const void *src, size_t n) { memcpy((void *)(uintptr_t)dst, src, n); return 0; }
int cuMemcpyDtoH_v2(void *dst, uint64_t src, size_t n) { memcpy(dst, (const void *)(uintptr_t)src, n); return 0; }
int cuMemGetInfo_v2(size_t *f, size_t *t) { *f = 1u << 30; *t = 2u << 30; return 0; }
int cuMemAlloc_v2(uint64_t *p, size_t n) { *p = (uintptr_t)calloc(1, n); return *p ? 0 : 2; }
int cuMemFree_v2(uint64_t p) { free((void *)(uintptr_t)p); return 0; }
