#include "rundir.h"

#include <dirent.h>
#include <errno.h>
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

static const rec_field manifest_fields[] = {
    {"schema_version", RT_INT, 1, 1},
    {"tool", RT_STR, 0, 0},
    {"complete", RT_BOOL, 0, 0},
    {"interrupted", RT_STR | RT_NULL, 0, 0},
    {"steps", RT_ARR, 0, 0},
    {"steps[].name", RT_STR, 0, 0},
    {"steps[].record", RT_STR | RT_NULL, 0, 0},
    {"steps[].exit_status", RT_INT | RT_NULL, 0, 255},
    {"steps[].bytes", RT_INT | RT_NULL, 0, REC_MAX_BYTES},
    {NULL, 0, 0, 0},
};

/* A tool's temporary record (".NAME.json.XXXXXX") means it never finished. */
static int leftover(const char *path, char *why, size_t n)
{
    DIR *d = opendir(path);
    if (!d)
        return 0;
    int found = 0;
    for (struct dirent *e; !found && (e = readdir(d));)
        if (e->d_name[0] == '.' && strstr(e->d_name, ".json.")) {
            snprintf(why, n, "a tool's temporary file %.200s was left behind: it did not finish", e->d_name);
            found = 1;
        }
    closedir(d);
    return found;
}

int rundir_check_whole(const char *path, char *why, size_t n)
{
    char p[700], err[600];
    snprintf(p, sizeof p, "%.600s/MANIFEST.json", path);
    struct stat st;
    if (lstat(p, &st) != 0) {
        snprintf(why, n, "no MANIFEST.json (run_all.sh writes it last: the run was cut short, or it is older "
                         "than the manifest)");
        return -1;
    }
    json_t *m = rec_load_json(p, err, sizeof err);
    if (!m) {
        snprintf(why, n, "%s", err);
        return -1;
    }
    int rc = -1;
    if (rec_check_fields(m, manifest_fields, err, sizeof err) != 0) {
        snprintf(why, n, "MANIFEST.json: %s", err);
    } else if (!json_is_true(json_object_get(m, "complete"))) {
        const char *sig = json_string_value(json_object_get(m, "interrupted"));
        if (sig)
            snprintf(why, n, "interrupted by %.20s (MANIFEST.json)", sig);
        else
            snprintf(why, n, "MANIFEST.json says incomplete: a tool wrote no record");
    } else {
        rc = 0;
        size_t i;
        const json_t *s;
        json_array_foreach(json_object_get(m, "steps"), i, s) {
            const char *rec = json_string_value(json_object_get(s, "record"));
            if (!rec)
                continue;
            /* a name from the manifest: one path component, nothing else */
            if (strchr(rec, '/') || rec[0] == '.') {
                snprintf(why, n, "MANIFEST.json: $.steps[%zu].record: expected a file name", i);
                rc = -1;
                break;
            }
            char f[1000];
            snprintf(f, sizeof f, "%.600s/%.200s", path, rec);
            long long want = json_integer_value(json_object_get(s, "bytes"));
            if (stat(f, &st) != 0 || (long long)st.st_size != want) {
                snprintf(why, n, "%.200s: expected %lld bytes as MANIFEST.json says, found %s", rec, want,
                         stat(f, &st) != 0 ? "no file" : "another size");
                rc = -1;
                break;
            }
        }
    }
    json_decref(m);
    if (rc == 0 && leftover(path, why, n))
        rc = -1;
    return rc;
}

int rundir_load(rundir *r, const char *path, bool allow_incomplete, bool with_samples, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    snprintf(r->path, sizeof r->path, "%s", path);
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s: expected a run folder (results/<run>/)", path);
        return -1;
    }
    r->complete = rundir_check_whole(path, r->incomplete, sizeof r->incomplete) == 0;
    if (!r->complete && !allow_incomplete) {
        snprintf(err, errlen, "%s: not a whole run: %s; --allow-incomplete reports what is there, marked", path,
                 r->incomplete);
        return -1;
    }
    int found = 0;
    for (int i = 0; i < RUN_NREC; i++) {
        char f[700];
        snprintf(f, sizeof f, "%s/%s", path, run_files[i]);
        if (stat(f, &st) != 0)
            continue;
        r->rec[i] = with_samples ? rec_load(f, run_tools[i], err, errlen) : rec_load_summary(f, run_tools[i], err, errlen);
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
    const char *profile = rec_str(r->env, "sim_profile");
    char sim[64] = "";
    if (rundir_simulated(r))
        snprintf(sim, sizeof sim, " (SIMULATED%s%.20s)", *profile ? ", profile " : "", profile);
    snprintf(buf, n, "%s / %s%s", rec_str(r->env, "device_name"), rec_str(r->env, "backend"), sim);
}
