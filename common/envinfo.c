#include "envinfo.h"
#include "units.h"

#include "recw.h"

#include <ctype.h>
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

/* The first line of a small file, without its newline; "" when absent. */
static void first_line(const char *path, char *out, size_t n)
{
    out[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (!fgets(out, (int)n, f))
        out[0] = 0;
    fclose(f);
    out[strcspn(out, "\n")] = 0;
}

int ha_env_host(char *out, size_t n, char *why, size_t whylen)
{
    out[0] = 0;
    const char *h = getenv("HOSTACCESS_HOST");
    if (!h || !*h)
        return 0;
    size_t l = strlen(h);
    bool ok = l <= 63 && l < n;
    for (size_t i = 0; ok && i < l; i++)
        ok = isalnum((unsigned char)h[i]) || h[i] == '.' || h[i] == '_' || h[i] == '-';
    if (!ok) {
        snprintf(why, whylen, "HOSTACCESS_HOST takes 1 to 63 letters, digits, '.', '_' or '-' (a host name for "
                              "folders and records); the value given is not one");
        return -1;
    }
    memcpy(out, h, l + 1);
    return 0;
}

/* The kernel command line's options that set the IOMMU up. */
static void iommu_cmdline(char *out, size_t n)
{
    char line[4096];
    out[0] = 0;
    FILE *f = fopen("/proc/cmdline", "r");
    if (!f)
        return;
    if (!fgets(line, sizeof line, f))
        line[0] = 0;
    fclose(f);
    size_t w = 0;
    for (char *save = NULL, *tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
        if (strncmp(tok, "iommu", 5) && strncmp(tok, "amd_iommu", 9) && strncmp(tok, "intel_iommu", 11))
            continue;
        size_t l = strlen(tok);
        if (w + l + 2 >= n) /* a list that does not fit says so instead of ending mid-option */
            break;
        w += (size_t)snprintf(out + w, n - w, "%s%s", w ? " " : "", tok);
    }
}

/* The IOMMU units the kernel set up (/sys/class/iommu). */
static void iommu_units(char *out, size_t n)
{
    out[0] = 0;
    DIR *d = opendir("/sys/class/iommu");
    if (!d)
        return;
    int count = 0;
    for (struct dirent *de; (de = readdir(d));)
        count += de->d_name[0] != '.';
    closedir(d);
    snprintf(out, n, "%d IOMMU unit(s) in /sys/class/iommu", count);
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
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    e->cpu_count = ncpu > 0 && ncpu < 65536 ? (int)ncpu : 0;
    first_line("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor", e->cpu_governor, sizeof e->cpu_governor);
    first_line("/sys/devices/system/clocksource/clocksource0/current_clocksource", e->clocksource,
               sizeof e->clocksource);
    iommu_cmdline(e->iommu_cmdline, sizeof e->iommu_cmdline);
    first_line("/proc/sys/kernel/random/boot_id", e->boot_id, sizeof e->boot_id);
    iommu_units(e->iommu_sysfs, sizeof e->iommu_sysfs);
    char p[600];
    const char *rocm = getenv("ROCM_PATH");
    snprintf(p, sizeof p, "%.500s/.info/version", rocm && *rocm ? rocm : "/opt/rocm");
    first_line(p, e->rocm_version, sizeof e->rocm_version);
    /* HOSTACCESS_HOST: the name a survey files this node under (the
     * scheduler's node name), where it differs from the kernel's; the
     * tools refuse a bad one before this (ha_env_host). */
    char why[160];
    if (ha_env_host(e->host, sizeof e->host, why, sizeof why) != 0 || !e->host[0]) {
        if (gethostname(e->host, sizeof e->host - 1) != 0)
            snprintf(e->host, sizeof e->host, "unknown");
        e->host[sizeof e->host - 1] = 0;
    }
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(e->time_utc, sizeof e->time_utc, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The device's VBIOS as amdgpu's sysfs or the NVIDIA driver's procfs gives it. */
static void ha_sysfs_firmware(const char *root, const char *bdf, char *out, size_t n)
{
    char path[512], line[256];
    out[0] = 0;
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/%s/vbios_version", root, bdf);
    first_line(path, line, sizeof line);
    if (line[0]) {
        snprintf(out, n, "VBIOS %.100s", line);
        return;
    }
    /* The NVIDIA driver's own file: "Video BIOS:      96.00.xx.00.01". */
    snprintf(path, sizeof path, "%s/proc/driver/nvidia/gpus/%s/information", root, bdf);
    FILE *f = fopen(path, "r");
    while (f && fgets(line, sizeof line, f)) {
        if (strncmp(line, "Video BIOS:", 11))
            continue;
        char *v = line + 11;
        while (*v == ' ' || *v == '\t')
            v++;
        v[strcspn(v, "\n")] = 0;
        snprintf(out, n, "VBIOS %.100s", v);
        break;
    }
    if (f)
        fclose(f);
}

static int64_t ha_sysfs_read_u64(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    unsigned long long v;
    int ok = fscanf(f, "%llu", &v) == 1;
    fclose(f);
    return ok ? (int64_t)v : -1;
}

static int ha_sysfs_read_bars(const char *root, const char *bdf, ha_pci_bar *bars, int max)
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
static int ha_sysfs_kfd_heap_type(const char *root, const char *bdf)
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
    char line[256];
    snprintf(path, sizeof path, "%s/sys/bus/pci/devices/%s/iommu_group/type", root, bdf);
    first_line(path, line, sizeof line);
    if (line[0]) {
        size_t l = strlen(e->iommu_sysfs);
        snprintf(e->iommu_sysfs + l, sizeof e->iommu_sysfs - l, "%sdevice %s: IOMMU group type %.40s%s",
                 l ? "; " : "", bdf, line, !strcmp(line, "identity") ? " (passthrough)" : "");
    }
    ha_sysfs_firmware(root, bdf, e->firmware, sizeof e->firmware);
    int n = ha_sysfs_read_bars(root, bdf, e->bars, HA_MAX_BARS);
    e->nbars = n > 0 ? n : 0;
    for (int i = 0; i < e->nbars; i++)
        if (e->bars[i].size > e->largest_bar)
            e->largest_bar = e->bars[i].size;

    if (e->amdgpu_vis_vram > 0 && e->amdgpu_vram > 0) {
        e->large_bar_sysfs = e->amdgpu_vis_vram >= e->amdgpu_vram;
        char vis[32], all[32];
        ha_bytes_text((double)e->amdgpu_vis_vram, vis, sizeof vis);
        ha_bytes_text((double)e->amdgpu_vram, all, sizeof all);
        snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note,
                 "amdgpu mem_info_vis_vram_total %s vs mem_info_vram_total %s", vis, all);
    } else if (e->nbars > 0 && e->vram_bytes > 0) {
        e->large_bar_sysfs = e->largest_bar >= e->vram_bytes;
        char bar[32], vram[32];
        ha_bytes_text((double)e->largest_bar, bar, sizeof bar);
        ha_bytes_text((double)e->vram_bytes, vram, sizeof vram);
        snprintf(e->large_bar_sysfs_note, sizeof e->large_bar_sysfs_note, "largest PCI memory BAR %s vs VRAM %s",
                 bar, vram);
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

static const char *or_null(const char *s) { return s[0] ? s : NULL; }

void ha_env_json(jw *w, const ha_env *e)
{
    jw_obj(w);
    hw_str(w, HF_ENV_TOOL_VERSION, e->tool_version);
    hw_str(w, HF_ENV_BACKEND, e->backend);
    hw_bool(w, HF_ENV_SIMULATED, e->simulated);
    hw_str(w, HF_ENV_SIM_PROFILE, or_null(e->sim_profile));
    hw_str(w, HF_ENV_GUARDS, or_null(e->guards));
    hw_str(w, HF_ENV_HEADER_VERSION, e->header_version);
    hw_str(w, HF_ENV_RUNTIME_VERSION, e->runtime_version);
    hw_str(w, HF_ENV_DRIVER_VERSION, e->driver_version);
    hw_str(w, HF_ENV_KERNEL_DRIVER, or_null(e->kernel_driver));
    hw_str(w, HF_ENV_VERSION_WARNING, or_null(e->version_warning));
    hw_str(w, HF_ENV_LAYOUT_SKEW, or_null(e->layout_skew));
    hw_int(w, HF_ENV_DEVICE, e->device);
    hw_int(w, HF_ENV_DEVICE_COUNT, e->device_count);
    hw_str(w, HF_ENV_DEVICE_NAME, e->device_name);
    hw_str(w, HF_ENV_ARCH, e->arch);
    hw_uint(w, HF_ENV_VRAM_BYTES, e->vram_bytes);
    hw_str(w, HF_ENV_PCI_BUS_ID, or_null(e->pci_bus_id));
    hw_tri(w, HF_ENV_VMM_SUPPORTED, e->vmm_supported);
    hw_str(w, HF_ENV_FIRMWARE, or_null(e->firmware));
    hw_str(w, HF_ENV_ROCM_VERSION, or_null(e->rocm_version));
    hw_arr(w, HF_ENV_ATTRS);
    for (int i = 0; i < e->nattrs; i++) {
        jw_obj(w);
        hw_str(w, HF_ENV_ATTR_NAME, e->attrs[i].name);
        hw_int(w, HF_ENV_ATTR_STATUS, e->attrs[i].status);
        if (e->attrs[i].status == 0)
            hw_int(w, HF_ENV_ATTR_VALUE, e->attrs[i].value);
        else
            hw_null(w, HF_ENV_ATTR_VALUE);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    hw_obj(w, HF_ENV_LARGE_BAR);
    hw_tri(w, HF_LB_RUNTIME, e->large_bar_runtime);
    hw_str(w, HF_LB_RUNTIME_NOTE, e->large_bar_runtime_note);
    hw_tri(w, HF_LB_SYSFS, e->large_bar_sysfs);
    hw_str(w, HF_LB_SYSFS_NOTE, e->large_bar_sysfs_note);
    hw_arr(w, HF_LB_BARS);
    for (int i = 0; i < e->nbars; i++) {
        jw_obj(w);
        hw_int(w, HF_BAR_INDEX, e->bars[i].index);
        hw_uint(w, HF_BAR_SIZE, e->bars[i].size);
        hw_bool(w, HF_BAR_PREFETCH, (e->bars[i].flags & PCI_BAR_PREFETCH) != 0);
        jw_obj_end(w);
    }
    jw_arr_end(w);
    const int64_t sizes[] = {e->amdgpu_vis_vram, e->amdgpu_vram, e->kfd_heap_type};
    const int ids[] = {HF_LB_VIS_VRAM, HF_LB_VRAM, HF_LB_KFD_HEAP};
    for (int i = 0; i < 3; i++) {
        if (sizes[i] < 0)
            hw_null(w, ids[i]);
        else
            hw_int(w, ids[i], sizes[i]);
    }
    jw_obj_end(w);
    hw_obj(w, HF_ENV_IOMMU);
    hw_str(w, HF_IOMMU_SYSFS, or_null(e->iommu_sysfs));
    hw_str(w, HF_IOMMU_CMDLINE, or_null(e->iommu_cmdline));
    jw_obj_end(w);
    hw_str(w, HF_ENV_KERNEL, e->kernel);
    hw_str(w, HF_ENV_CPU, e->cpu);
    hw_int(w, HF_ENV_CPU_COUNT, e->cpu_count);
    hw_str(w, HF_ENV_CPU_GOVERNOR, or_null(e->cpu_governor));
    hw_str(w, HF_ENV_CLOCKSOURCE, or_null(e->clocksource));
    hw_str(w, HF_ENV_HOST, e->host);
    hw_str(w, HF_ENV_BOOT_ID, or_null(e->boot_id));
    hw_str(w, HF_ENV_TIME_UTC, e->time_utc);
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
    if (e->guards[0])
        printf("guards       %s\n", e->guards);
    if (e->firmware[0] || e->rocm_version[0])
        printf("firmware     %s%s%s\n", e->firmware[0] ? e->firmware : "-", e->rocm_version[0] ? " | ROCm " : "",
               e->rocm_version);
    printf("iommu        %s%s%s\n", e->iommu_sysfs[0] ? e->iommu_sysfs : "no sysfs entry",
           e->iommu_cmdline[0] ? " | cmdline " : "", e->iommu_cmdline);
    printf("host         %s | %s | %s (%d CPUs, governor %s, clock %s) | %s | tool %s\n", e->host, e->kernel,
           e->cpu, e->cpu_count, e->cpu_governor[0] ? e->cpu_governor : "-",
           e->clocksource[0] ? e->clocksource : "-", e->time_utc, e->tool_version);
}
