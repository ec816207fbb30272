/* A stand-in libamdhip64.so for CI: what the hip backend needs to open and
 * one allocation kind backed by host memory; every other entry point is
 * missing. FAKE_NO_DEVICE=1 makes it report no device (hipErrorNoDevice,
 * 100). Built without HIP headers: the ABI's types only. Built with
 * -DFAKE_DATA_HIPINIT, hipInit is data, not a function; with
 * -DFAKE_INIT_EXIT its initialiser ends the process, with -DFAKE_INIT_HANG
 * it never returns: libraries a loader must survive. Misbehaving calls,
 * chosen at run time: FAKE_COUNT_MISBEHAVES=hang (hipGetDeviceCount never
 * returns), exit (it calls exit(0)) or print (it writes on stdout, as a
 * chatty runtime does); FAKE_INIT_FORK=1 makes the initialiser leave a
 * child that sleeps for a minute, holding whatever the process's stdout is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(FAKE_INIT_EXIT)
__attribute__((constructor)) static void end_it(void) { exit(0); }
#elif defined(FAKE_INIT_HANG)
__attribute__((constructor)) static void hang(void)
{
    for (;;)
        pause();
}
#endif

__attribute__((constructor)) static void leave_a_child(void)
{
    const char *e = getenv("FAKE_INIT_FORK");
    if (e && *e == '1' && fork() == 0) {
        /* it keeps stdout, as a runtime's helper might; not stderr, which
         * would hold the test's own pipe */
        FILE *null = freopen("/dev/null", "w", stderr);
        (void)null;
        sleep(60);
        _exit(0);
    }
}

static int no_device(void)
{
    const char *e = getenv("FAKE_NO_DEVICE");
    return e && *e == '1';
}

#ifdef FAKE_DATA_HIPINIT
int hipInit[4] = {1, 2, 3, 4}; /* a library that only looks like the runtime */
#else
int hipInit(unsigned flags) { (void)flags; return no_device() ? 100 : 0; }
#endif
/* FAKE_DEVICE_COUNT=N: the count a broken runtime reports (-1) */
int hipGetDeviceCount(int *n)
{
    const char *how = getenv("FAKE_COUNT_MISBEHAVES");
    if (how && !strcmp(how, "hang"))
        for (;;)
            pause();
    if (how && !strcmp(how, "exit"))
        exit(0);
    if (how && !strcmp(how, "print"))
        printf("hip runtime: %d devices found\n", 1), fflush(stdout);
    const char *e = getenv("FAKE_DEVICE_COUNT");
    *n = e ? atoi(e) : no_device() ? 0 : 1;
    return no_device() ? 100 : 0;
}
int hipSetDevice(int d) { (void)d; return 0; }
/* 7.2 unless FAKE_HIP_VERSION says otherwise (HIP_VERSION numbering): the
 * backend's version guards and its header/runtime skew checks read it. */
int hipRuntimeGetVersion(int *v)
{
    const char *e = getenv("FAKE_HIP_VERSION");
    if (e && !strcmp(e, "fail"))
        return 999; /* a runtime that will not say */
    *v = e ? atoi(e) : 70200000;
    return 0;
}
/* A memory type for every pointer: 2, hipMemoryTypeDevice from 6.0 on. */
typedef struct { int type, device; void *dp, *hp; int managed; unsigned flags; } fake_attr;
int hipPointerGetAttributes(fake_attr *a, const void *p)
{
    memset(a, 0, sizeof *a);
    a->type = 2;
    a->dp = (void *)p;
    return 0;
}
int hipMemcpy(void *dst, const void *src, size_t n, int kind) { (void)kind; memcpy(dst, src, n); return 0; }
int hipMemGetInfo(size_t *f, size_t *t) { *f = 1u << 30; *t = 2u << 30; return 0; }
int hipMalloc(void **p, size_t n) { *p = calloc(1, n); return *p ? 0 : 2; }
int hipFree(void *p) { free(p); return 0; }
