#include "rundir.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "records.h"

const char *const run_files[RUN_NREC] = {"env.json", "probe_discriminator.json",
                                         "probe_memgetaccess.json", "bench_discriminator.json",
                                         "pool_check.json"};
const char *const run_tools[RUN_NREC] = {"env", "probe_discriminator", "probe_memgetaccess",
                                         "bench_discriminator", "pool_check"};

int rundir_load(rundir *r, const char *path, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: expected a run folder (results/<run>/)", path);
        return -1;
    }
    int found = 0;
    for (int i = 0; i < RUN_NREC; i++) {
        char f[700];
        snprintf(f, sizeof f, "%s/%s", path, run_files[i]);
        if (stat(f, &st) != 0)
            continue;
        r->rec[i] = rec_load_summary(f, run_tools[i], err, errlen);
        if (!r->rec[i]) {
            rundir_free(r);
            return -1;
        }
        found++;
        if (!r->env)
            r->env = json_object_get(r->rec[i], "env");
    }
    if (!found) {
        snprintf(err, errlen, "%s: no records: expected env.json, probe_discriminator.json, ...",
                 path);
        return -1;
    }
    return 0;
}

void rundir_free(rundir *r)
{
    for (int i = 0; i < RUN_NREC; i++)
        json_decref(r->rec[i]);
    memset(r->rec, 0, sizeof r->rec);
    r->env = NULL;
}

bool rundir_simulated(const rundir *r)
{
    for (int i = 0; i < RUN_NREC; i++)
        if (r->rec[i] && json_is_true(json_object_get(r->rec[i], "simulated")))
            return true;
    return false;
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

int rundir_list(const char *dir, char (*names)[256], int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < max) {
        if (e->d_name[0] == '.')
            continue;
        char p[800];
        struct stat st;
        snprintf(p, sizeof p, "%.500s/%.255s/env.json", dir, e->d_name);
        bool has = stat(p, &st) == 0;
        snprintf(p, sizeof p, "%.500s/%.255s/probe_discriminator.json", dir, e->d_name);
        if (has || stat(p, &st) == 0)
            snprintf(names[n++], 256, "%.255s", e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)n, 256, by_name);
    return n;
}

void rundir_group(const rundir *r, char *buf, size_t n)
{
    snprintf(buf, n, "%s / %s%s", rec_str(r->env, "device_name"), rec_str(r->env, "backend"),
             rundir_simulated(r) ? " (SIMULATED)" : "");
}
