#include "envinfo.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#ifndef HA_VERSION
#define HA_VERSION "unknown"
#endif

#define PCI_BAR_MEM 0x200ULL /* IORESOURCE_MEM */
#define PCI_BAR_PREFETCH 0x2000ULL

static void cpu_model(char *out, size_t n)
{
    snprintf(out, n, "unknown");
    FILE *f = fopen("/proc/cpuinfo", "r");
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "model name", 10) == 0) {
            const char *c = strchr(line, ':');
            if (c) {
                c++;
                while (*c == ' ')
                    c++;
                snprintf(out, n, "%.*s", (int)strcspn(c, "\n"), c);
            }
            break;
        }
    }
    fclose(f);
}

void ha_env_init(ha_env *e, const char *backend, bool simulated)
{
    memset(e, 0, sizeof *e);
    snprintf(e->tool_version, sizeof e->tool_version, "%s", HA_VERSION);
    snprintf(e->backend, sizeof e->backend, "%s", backend);
    e->simulated = simulated;
    e->large_bar_runtime = -1;
    e->large_bar_sysfs = -1;
    e->amdgpu_vis_vram = -1;
    e->amdgpu_vram = -1;
    e->kfd_heap_type = -1;
    e->vmm_supported = -1;
    e->device_count = -1;
    struct utsname u;
    if (uname(&u) == 0)
        snprintf(e->kernel, sizeof e->kernel, "%.20s %.100s %.20s", u.sysname, u.release, u.machine);
    cpu_model(e->cpu, sizeof e->cpu);
    /* HOSTACCESS_HOST: the name a survey files this node under (the
     * scheduler's node name), where it differs from the kernel's. */
    const char *h = getenv("HOSTACCESS_HOST");
    if (h && *h)
        snprintf(e->host, sizeof e->host, "%s", h);
    else if (gethostname(e->host, sizeof e->host - 1) != 0)
        snprintf(e->host, sizeof e->host, "unknown");
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(e->time_utc, sizeof e->time_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int64_t ha_sysfs_read_u64(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    unsigned long long v;
    int ok = fscanf(f, "%llu", &v) == 1;
    fclose(f);
    return ok ? (int64_t)v : -1;
}

int ha_sysfs_read_bars(const char *root, const char *bdf, ha_pci_bar *bars, int max)
{
    char path[512];
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/%s/resource", root, bdf);
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    int n = 0;
    char line[256];
    /* Lines 0-5 are the BARs; the rest (ROM, bridge windows) are not. */
    for (int idx = 0; idx < 6 && fgets(line, sizeof line, f); idx++) {
        unsigned long long s, t, fl;
        if (sscanf(line, "%llx %llx %llx", &s, &t, &fl) != 3)
            continue;
        if (t <= s || !(fl & PCI_BAR_MEM) || n >= max)
            continue;
        bars[n].index = idx;
        bars[n].size = t - s + 1;
        bars[n].flags = fl;
        n++;
    }
    fclose(f);
    return n;
}

/* KFD names its GPUs by PCI location: location_id = bus<<8 | dev<<3 | fn. */
int ha_sysfs_kfd_heap_type(const char *root, const char *bdf)
{
    unsigned dom, bus, dev, fn;
    if (sscanf(bdf, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
        return -1;
    unsigned want = bus << 8 | dev << 3 | fn;
    char path[512];
    snprintf(path, sizeof path, "%s/sys/class/kfd/kfd/topology/nodes", root);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int heap = -1;
    struct dirent *de;
    while (heap < 0 && (de = readdir(d))) {
        if (de->d_name[0] == '.')
            continue;
        char p[1200], line[256];
        snprintf(p, sizeof p, "%s/%s/properties", path, de->d_name);
        FILE *f = fopen(p, "r");
        if (!f)
            continue;
        long loc = -1, domain = 0;
        while (fgets(line, sizeof line, f)) {
            sscanf(line, "location_id %ld", &loc);
            sscanf(line, "domain %ld", &domain);
        }
        fclose(f);
        if (loc != (long)want || domain != (long)dom)
            continue;
        for (int b = 0; b < 8 && heap < 0; b++) {
            snprintf(p, sizeof p, "%s/%s/mem_banks/%d/properties", path, de->d_name, b);
            f = fopen(p, "r");
            if (!f)
                break;
            while (fgets(line, sizeof line, f)) {
                int h;
                if (sscanf(line, "heap_type %d", &h) == 1 && h != 0) {
                    heap = h; /* 0 is system memory; the first VRAM bank decides */
                }
            }
            fclose(f);
        }
    }
    closedir(d);
    return heap;
}

/* sysfs spells bus ids dddd:bb:dd.f in lower case; HIP may use capitals
 * and CUDA an 8-digit domain. */
static int normalize_bdf(const char *in, char out[16])
{
    unsigned dom, bus, dev, fn;
    if (sscanf(in, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) == 4)
        ;
    else if (sscanf(in, "%x:%x.%x", &bus, &dev, &fn) == 3)
        dom = 0;
    else
        return -1;
    if (dom > 0xffff || bus > 0xff || dev > 0x1f || fn > 7)
        return -1;
    snprintf(out, 16, "%04x:%02x:%02x.%x", dom, bus, dev, fn);
    return 0;
}

void ha_env_sysfs(ha_env *e, const char *root)
{
    if (!e->pci_bus_id[0]) {
        snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note, "no PCI bus id");
        return;
    }
    char bdf[16];
    if (normalize_bdf(e->pci_bus_id, bdf) != 0) {
        snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note,
                 "PCI bus id '%.32s' not understood", e->pci_bus_id);
        return;
    }
    char path[512];
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/%s/mem_info_vis_vram_total", root, bdf);
    e->amdgpu_vis_vram = ha_sysfs_read_u64(path);
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/%s/mem_info_vram_total", root, bdf);
    e->amdgpu_vram = ha_sysfs_read_u64(path);
    e->kfd_heap_type = ha_sysfs_kfd_heap_type(root, bdf);
    int n = ha_sysfs_read_bars(root, bdf, e->bars, HA_MAX_BARS);
    e->nbars = n > 0 ? n : 0;
    for (int i = 0; i < e->nbars; i++)
        if (e->bars[i].size > e->largest_bar)
            e->largest_bar = e->bars[i].size;

    if (e->amdgpu_vis_vram > 0 && e->amdgpu_vram > 0) {
        e->large_bar_sysfs = e->amdgpu_vis_vram >= e->amdgpu_vram;
        snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note,
                 "amdgpu mem_info_vis_vram_total %" PRId64 " vs mem_info_vram_total %" PRId64,
                 e->amdgpu_vis_vram, e->amdgpu_vram);
    } else if (e->nbars > 0 && e->vram_bytes > 0) {
        e->large_bar_sysfs = e->largest_bar >= e->vram_bytes;
        snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note,
                 "largest PCI memory BAR %" PRIu64 " bytes vs VRAM %" PRIu64 " bytes",
                 e->largest_bar, e->vram_bytes);
    } else if (n < 0) {
        snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note,
                 "no sysfs entry for PCI device %s", bdf);
    } else {
        snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note,
                 "no memory BARs or VRAM size");
    }
}

static int major_minor(const char *s, int *maj, int *min)
{
    return sscanf(s, "%d.%d", maj, min) == 2 ? 0 : -1;
}

void ha_env_check_versions(ha_env *e, const char *what_a, const char *a, const char *what_b,
                           const char *b)
{
    int a1, a2, b1, b2;
    if (major_minor(a, &a1, &a2) || major_minor(b, &b1, &b2))
        return;
    if (a1 != b1 || a2 != b2)
        snprintf(e->version_warning, sizeof e->version_warning,
                 "%s %d.%d differs from %s %d.%d: results describe the runtime, not the header",
                 what_a, a1, a2, what_b, b1, b2);
}

void ha_env_json(jw *w, const ha_env *e)
{
    jw_obj(w);
    jw_kstr(w, "tool_version", e->tool_version);
    jw_kstr(w, "backend", e->backend);
    jw_kbool(w, "simulated", e->simulated);
    jw_kstr(w, "sim_profile", e->sim_profile[0] ? e->sim_profile : NULL);
    jw_kstr(w, "header_version", e->header_version);
    jw_kstr(w, "runtime_version", e->runtime_version);
    jw_kstr(w, "driver_version", e->driver_version);
    jw_kstr(w, "kernel_driver", e->kernel_driver[0] ? e->kernel_driver : NULL);
    jw_kstr(w, "version_warning", e->version_warning[0] ? e->version_warning : NULL);
    jw_kstr(w, "layout_skew", e->layout_skew[0] ? e->layout_skew : NULL);
    jw_kint(w, "device", e->device);
    jw_kint(w, "device_count", e->device_count);
    jw_kstr(w, "device_name", e->device_name);
    jw_kstr(w, "arch", e->arch);
    jw_kuint(w, "vram_bytes", e->vram_bytes);
    jw_kstr(w, "pci_bus_id", e->pci_bus_id[0] ? e->pci_bus_id : NULL);
    jw_ktri(w, "vmm_supported", e->vmm_supported);
    jw_key(w, "device_attributes");
    jw_arr(w);
    for (int i = 0; i < e->nattrs; i++) {
        jw_obj(w);
        jw_kstr(w, "name", e->attrs[i].name);
        jw_kint(w, "status", e->attrs[i].status);
        jw_key(w, "value");
        if (e->attrs[i].status == 0)
            jw_int(w, e->attrs[i].value);
        else
            jw_null(w);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_key(w, "large_bar");
    jw_obj(w);
    jw_ktri(w, "runtime", e->large_bar_runtime);
    jw_kstr(w, "runtime_note", e->large_bar_runtime_note);
    jw_ktri(w, "sysfs", e->large_bar_sysfs);
    jw_kstr(w, "sysfs_note", e->large_bar_sysfs_note);
    jw_key(w, "pci_bars");
    jw_arr(w);
    for (int i = 0; i < e->nbars; i++) {
        jw_obj(w);
        jw_kint(w, "index", e->bars[i].index);
        jw_kuint(w, "size", e->bars[i].size);
        jw_kbool(w, "prefetchable", (e->bars[i].flags & PCI_BAR_PREFETCH) != 0);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    jw_key(w, "amdgpu_vis_vram_total");
    if (e->amdgpu_vis_vram < 0) jw_null(w); else jw_int(w, e->amdgpu_vis_vram);
    jw_key(w, "amdgpu_vram_total");
    if (e->amdgpu_vram < 0) jw_null(w); else jw_int(w, e->amdgpu_vram);
    jw_key(w, "kfd_heap_type");
    if (e->kfd_heap_type < 0) jw_null(w); else jw_int(w, e->kfd_heap_type);
    jw_obj_end(w);
    jw_kstr(w, "kernel", e->kernel);
    jw_kstr(w, "cpu", e->cpu);
    jw_kstr(w, "host", e->host);
    jw_kstr(w, "time_utc", e->time_utc);
    jw_obj_end(w);
}

void ha_env_attr(ha_env *e, const char *name, long long value, int status)
{
    if (e->nattrs >= HA_MAX_ATTRS)
        return;
    snprintf(e->attrs[e->nattrs].name, sizeof e->attrs[0].name, "%s", name);
    e->attrs[e->nattrs].value = value;
    e->attrs[e->nattrs].status = status;
    e->nattrs++;
}

static const char *tri(int v) { return v < 0 ? "unknown" : v ? "yes" : "no"; }

void ha_env_print(const ha_env *e)
{
    printf("backend      %s%s%s%s\n", e->backend, e->simulated ? "  (SIMULATED - not evidence)" : "",
           e->sim_profile[0] ? ": stand-in ROCm runtime, profile " : "", e->sim_profile);
    printf("versions     header %s | runtime %s | driver %s%s%s\n", e->header_version,
           e->runtime_version, e->driver_version, e->kernel_driver[0] ? " | " : "",
           e->kernel_driver);
    if (e->version_warning[0])
        printf("WARNING      %s\n", e->version_warning);
    if (e->layout_skew[0])
        printf("SKEW         %s\n", e->layout_skew);
    printf("device       %d of %d: %s (%s), %.1f GiB, PCI %s\n", e->device, e->device_count,
           e->device_name, e->arch, (double)e->vram_bytes / (1 << 30),
           e->pci_bus_id[0] ? e->pci_bus_id : "-");
    printf("large BAR    runtime: %s (%s); sysfs: %s (%s)\n", tri(e->large_bar_runtime),
           e->large_bar_runtime_note, tri(e->large_bar_sysfs), e->large_bar_sysfs_note);
    if (e->nattrs) {
        printf("attributes  ");
        for (int i = 0; i < e->nattrs; i++) {
            if (e->attrs[i].status == 0)
                printf(" %s=%lld", e->attrs[i].name, e->attrs[i].value);
            else
                printf(" %s=?(status %d)", e->attrs[i].name, e->attrs[i].status);
        }
        printf("\n");
    }
    printf("host         %s | %s | %s | %s | tool %s\n", e->host, e->kernel, e->cpu, e->time_utc,
           e->tool_version);
}
