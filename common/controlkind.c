/* Large-BAR VRAM that amdgpu maps for the CPU through TTM (hipMalloc on a
 * large-BAR GPU) is a VM_IO | VM_PFNMAP mapping: a load reads it, write()
 * copies it into a pipe, but get_user_pages refuses it, so
 * process_vm_readv fails with EFAULT on memory that reads fine. The vDSO
 * data page ([vvar]) is such a mapping on every x86-64 Linux, GPU or not:
 * with it as a control, every run — the H200's too — shows which OS-level
 * candidates would misjudge the very memory the fast path reads. */
#include "controlkind.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "procmaps.h"

/* The first mapping whose /proc/self/maps name is name ("[vvar]"); 1
 * found, 0 not, -1 the file could not be read. */
static int ha_maps_find_named(const char *name, void **start, size_t *size)
{
    FILE *f = fopen("/proc/self/maps", "r");
    if (!f)
        return -1;
    char line[512];
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        ha_map_entry e;
        if (ha_maps_parse_line(line, &e) && strcmp(e.path, name) == 0) {
            *start = (void *)e.start;
            *size = e.end - e.start;
            found = 1;
        }
    }
    fclose(f);
    return found;
}

static int vvar_create(const ha_backend *be, ha_alloc *a)
{
    (void)be;
    void *p = NULL;
    size_t n = 0;
    if (ha_maps_find_named("[vvar]", &p, &n) != 1) {
        snprintf(a->detail, sizeof a->detail, "no [vvar] mapping in /proc/self/maps on this system");
        return HA_ST_UNAVAILABLE;
    }
    /* The first page holds the clock data every process reads: always
     * backed (later pages, such as a paravirtual clock's, need not be). */
    long page = sysconf(_SC_PAGESIZE);
    a->ptr = p;
    a->size = (size_t)page;
    snprintf(a->detail, sizeof a->detail,
             "the vDSO data page [vvar] (a VM_IO|VM_PFNMAP mapping, %zu bytes in all), first page", n);
    return HA_ST_OK;
}

static void vvar_destroy(const ha_backend *be, ha_alloc *a)
{
    (void)be;
    (void)a;
}

const ha_kind ha_control_kinds[] = {
    {"pfnmap-control",
     "CONTROL, not GPU memory: the vDSO data page, a VM_IO|VM_PFNMAP mapping as amdgpu gives large-BAR "
     "VRAM (hipMalloc); a load reads it, process_vm_readv cannot",
     vvar_create, vvar_destroy, {0}, true, false, false},
    {0},
};
