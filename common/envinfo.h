/* The environment a result was measured in. Header, runtime and driver
 * versions are kept apart: a mismatch between them is itself a finding. */
#ifndef HA_ENVINFO_H
#define HA_ENVINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jsonw.h"

#define HA_MAX_BARS 6
#define HA_MAX_ATTRS 12

typedef struct ha_pci_bar {
    int index;
    uint64_t size;
    uint64_t flags;
} ha_pci_bar;

struct ha_env {
    char tool_version[64];
    char backend[16];
    bool simulated;
    char sim_profile[16]; /* the stand-in runtime's ROCm profile, or empty */
    char header_version[64];  /* what the backend was compiled against */
    char runtime_version[64];
    char driver_version[64];
    char kernel_driver[128];  /* e.g. NVRM or amdgpu module version */
    char version_warning[160];
    /* Header and runtime disagree on a struct layout or an enum's numbering:
     * what depends on it was refused (HA_ST_SKEW). Empty when they agree. */
    char layout_skew[320];
    char device_name[128];
    char arch[64];
    int device;
    int device_count;
    uint64_t vram_bytes;
    char pci_bus_id[32];
    int large_bar_runtime;    /* -1: the runtime does not say */
    char large_bar_runtime_note[96];
    ha_pci_bar bars[HA_MAX_BARS];
    int nbars;
    uint64_t largest_bar;
    int large_bar_sysfs;      /* -1: unknown */
    char large_bar_sysfs_note[128];
    int64_t amdgpu_vis_vram;  /* -1: absent */
    int64_t amdgpu_vram;
    int kfd_heap_type;        /* -1: absent */
    int vmm_supported;        /* -1: unknown */
    /* Device attributes that bear on host access, as the runtime reports them. */
    struct { char name[64]; long long value; int status; } attrs[HA_MAX_ATTRS];
    int nattrs;
    char firmware[128];       /* VBIOS / firmware version, or empty */
    char rocm_version[64];    /* /opt/rocm/.info/version, or empty */
    char iommu_sysfs[200];    /* IOMMU units and the device's group type, or empty */
    char iommu_cmdline[200];  /* the kernel command line's iommu options, or empty */
    /* hip: the release whose guards apply, and a warning when the runtime
     * is newer than any release the guards know. */
    char guards[256];
    char kernel[160];
    char cpu[128];
    int cpu_count;
    char cpu_governor[32];
    char clocksource[32];
    char host[64];
    char boot_id[40];
    char time_utc[32];
};
typedef struct ha_env ha_env;

/* Host facts and the tool version; backends fill the rest. host is the
 * name to record (NULL: the kernel's; see ha_env_host). */
void ha_env_init(ha_env *e, const char *backend, bool simulated);

/* HOSTACCESS_HOST, the name a survey files this node under, checked as
 * run_all.sh checks it: letters, digits, '.', '_' and '-', 1 to 63 of
 * them. 0 with out set (empty when unset), or -1 with why. */
int ha_env_host(char *out, size_t n, char *why, size_t whylen);

/* Reads PCI BARs, amdgpu VRAM visibility and KFD heap type for a PCI bus
 * id, under root ("" for the live system; a fixture folder in tests), and
 * sets large_bar_sysfs from them. */
void ha_env_sysfs(ha_env *e, const char *root);

/* Compares major.minor of two "X.Y..." strings; sets version_warning when
 * they differ. */
void ha_env_check_versions(ha_env *e, const char *what_a, const char *a, const char *what_b,
                           const char *b);

/* Records one device attribute (status 0 when the query succeeded). */
void ha_env_attr(ha_env *e, const char *name, long long value, int status);

void ha_env_json(jw *w, const ha_env *e);
void ha_env_print(const ha_env *e);

#endif
