/* The ROCm releases the stand-in runtime (standin/hip_standin.c) can act
 * as, each with the behaviour that differs from the others — read from the
 * CLR/ROCr sources and the Debian binaries (../shared/FACTS.md, "HIP across
 * versions"), not measured on hardware. One table, read by the stand-in
 * and by the tools (--sim-profile, --list-sim-profiles). */
#ifndef HA_ROCM_PROFILES_H
#define HA_ROCM_PROFILES_H

#include <stddef.h>
#include <string.h>

typedef struct ha_rocm_profile {
    const char *name; /* as given to --sim-profile */
    const char *rocm; /* the ROCm release */
    const char *hip;  /* the HIP version it ships (ROCm 10.x keeps HIP's own 7.x numbering) */
    int version;      /* HIP_VERSION numbering: what hipRuntimeGetVersion answers */
    const char *what; /* how this release differs, one line */
} ha_rocm_profile;

/* version: the patch digits where a release's own number is known
 * (FACTS.md); 7.15 and 7.16 (ROCm 10.1) are known by major.minor only,
 * so their patch is 0. */
static const ha_rocm_profile ha_rocm_profiles[] = {
    {"5.2", "5.2", "5.2", 50221153, "ROCm's VMM calls answer success without acting: reserve and retain write no output, map "
                      "and SetAccess change nothing; hipPointerGetAttributes fails on unknown pointers"},
    {"6.0", "6.0", "6.0", 60032830, "ROCclr has no VMM yet: reserve succeeds and writes NULL, a map on it fails, "
                      "the VMM attribute is 0; SetAccess/GetAccess answer without acting; retain is safe (InvalidValue)"},
    {"6.1", "6.1", "6.1", 60140091, "SetAccess with count > 1 reads garbage past the first descriptor; a map covers the whole "
                      "reservation; POSIX-fd handles NotSupported; {Host, 0} read as device 0; unaligned reserve "
                      "hipErrorMemoryAllocation"},
    {"6.4", "6.4", "6.4", 60443483, "SetAccess ignores location.type and uses id as a device index: {Host, 0} grants device 0; "
                      "retain crashes on every non-VMM pointer"},
    {"7.1", "7.1", "7.1", 70151830, "Host descriptors accepted, but refused on device-backed memory (hipErrorInvalidValue); "
                      "hipMemCreate takes Host; retain crashes on every non-VMM pointer"},
    {"7.2", "7.2", "7.2", 70253211, "a Host descriptor maps device-backed memory for the CPU; retain crashes on every non-VMM "
                      "pointer and takes no reference"},
    {"7.14", "7.14", "7.14", 71460850, "as 7.2; retain returns hipErrorInvalidValue on non-VMM memory and takes a reference "
                      "(from 7.12); IS_LEGACY_HIP_IPC_CAPABLE answers (from 7.11)"},
    {"7.15", "7.15", "7.15", 71500000, "as 7.14, but a Host SetAccess on an imported handle fails with hipErrorInvalidValue "
                      "(rocm-systems#11185)"},
    {"10.1", "10.1", "7.16", 71600000, "ROCm 10.1 (HIP 7.16): hipMemCreate and SetAccess accept Host, HostNuma and "
                      "HostNumaCurrent, the Host id is ignored; hipPointerGetAttributes(NULL) succeeds as Unregistered"},
    {NULL, NULL, NULL, 0, NULL},
};

/* The header lines a build must not cross to act as a release: a header
 * and a runtime on two sides of one give wrong answers, not errors
 * (backend_hip.c refuses what depends on them), and a header before the
 * last line lacks the Host location types the newer profiles grant. Each
 * era names the HIP release make hip-matrix fetches inside it: the headers
 * run_all.sh builds a profile's tools against (FACTS.md, "HIP across
 * versions"). */
#define HA_HIP_ALLOC_PROP_REORDERED 50300000 /* hipMemAllocationProp */
#define HA_HIP_MEMORY_TYPE_RENUMBERED 60000000 /* hipMemoryType */
#define HA_HIP_HOST_LOCATION 70100000 /* hipMemLocationTypeHost and its kin */
static const struct ha_hip_era {
    int from;             /* HIP_VERSION numbering */
    const char *matrix;   /* the release of tools/hip-releases.txt inside it */
} ha_hip_eras[] = {
    {0, "5.2"}, {HA_HIP_ALLOC_PROP_REORDERED, "5.7"}, {HA_HIP_MEMORY_TYPE_RENUMBERED, "6.4"}, {HA_HIP_HOST_LOCATION, "7.2"},
};
#define HA_HIP_NERAS (sizeof ha_hip_eras / sizeof ha_hip_eras[0])

static inline const struct ha_hip_era *ha_hip_era_of(int version)
{
    size_t i = HA_HIP_NERAS - 1;
    while (i && version < ha_hip_eras[i].from)
        i--;
    return &ha_hip_eras[i];
}

/* Whether tools built against headers of header_version (0: none) act as
 * profile p without crossing a line. */
static inline int ha_rocm_profile_fits(const ha_rocm_profile *p, int header_version)
{
    return header_version > 0 && ha_hip_era_of(header_version) == ha_hip_era_of(p->version);
}

/* The profile named name, or NULL. */
static inline const ha_rocm_profile *ha_rocm_profile_find(const char *name)
{
    for (const ha_rocm_profile *p = ha_rocm_profiles; name && p->name; p++)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

/* The environment variable the stand-in reads its profile from. */
#define HA_STANDIN_PROFILE_ENV "HOSTACCESS_STANDIN_PROFILE"
#define HA_STANDIN_DEFAULT_PROFILE "7.14"
/* Set, the stand-in reports this version (HIP_VERSION numbering) while
 * acting as its profile: how a test shows the tools a runtime newer than
 * every profile. */
#define HA_STANDIN_REPORT_VERSION_ENV "HOSTACCESS_STANDIN_REPORT_VERSION"

/* Set to a library path, the hip backend loads that one alone. */
#define HA_HIP_LIBRARY_ENV "HOSTACCESS_HIP_LIBRARY"
/* Where an A/B session's side builds live (run_all.sh makes them; default
 * BUILD/side), and the headers make hip-matrix fetched (default
 * build/hip-matrix): bench/ab.c reads both. */
#define HA_SIDE_BUILDS_ENV "HOSTACCESS_SIDE_BUILDS"
#define HA_HIP_MATRIX_ENV "HOSTACCESS_HIP_MATRIX"

#endif
