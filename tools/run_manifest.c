/* run_manifest: writes DIR/MANIFEST.json, the last file of a run, through
 * the field table: which tools ran, each one's exit status, its record's
 * size and SHA-256 (of the JSON, read back from the disk), whether the run
 * is whole, and which backends auto passed over and why. report and
 * compare refuse a folder without one, one that says incomplete, or a
 * record that is not what it lists. run_all.sh calls it.
 *   run_manifest DIR --backend B --device N [--interrupted SIG] [--choice TEXT]
 *                [--fallback BACKEND:STATUS:WHY]... [--attachment torch_pool.txt]
 *                NAME:STATUS...
 * NAME is a tool's (env, probe_discriminator, ...), or b_ and a tool's for
 * an A/B session's side B (run_all.sh --ab): at most 9 steps.
 * An attachment (the PyTorch step's output, which the report quotes) is
 * sealed like a record.
 * STATUS is a number, or "-" for a tool that did not run (not built).
 * Exit 0 written, 2 bad arguments, 5 not written (it exists, or the disk). */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exitcodes.h"
#include "fields.h"
#include "jsonw.h"
#include "opts.h"
#include "record.h"
#include "recw.h"
#include "sha256.h"

#ifndef HA_VERSION
#define HA_VERSION "unknown"
#endif

static const char *backend, *interrupted, *choice;
static long device = -1;
static ha_opt_list fallbacks, attachments;

static int backend_ok(const char *v, char *why, size_t n)
{
    if (ha_field_value_ok(HF_MAN_BACKEND, v))
        return 0;
    snprintf(why, n, "hip, cuda or sim");
    return -1;
}

static int signal_ok(const char *v, char *why, size_t n)
{
    if (ha_field_value_ok(HF_MAN_INTERRUPTED, v))
        return 0;
    snprintf(why, n, "SIGINT, SIGTERM or SIGHUP");
    return -1;
}

static int attachment_ok(const char *v, char *why, size_t n)
{
    if (ha_field_value_ok(HF_ATT_NAME, v))
        return 0;
    snprintf(why, n, "torch_pool.txt");
    return -1;
}

static const ha_opt options[] = {
    {"backend", HA_OPT_STRING, 0, 0, &backend, "NAME", "the backend the run used", backend_ok},
    {"device", HA_OPT_LONG, 0, 1023, &device, "N", "the device", NULL},
    {"interrupted", HA_OPT_STRING, 0, 0, &interrupted, "SIGNAL", "the signal that stopped the run", signal_ok},
    {"choice", HA_OPT_STRING, 0, 0, &choice, "TEXT", "what auto chose and why", NULL},
    {"fallback", HA_OPT_LIST, 0, 0, &fallbacks, "BACKEND:STATUS:WHY", "a backend auto passed over (repeatable)", NULL},
    {"attachment", HA_OPT_LIST, 0, 0, &attachments, "NAME", "a file beside the records to seal (torch_pool.txt)",
     attachment_ok},
    {NULL, 0, 0, 0, NULL, NULL, NULL, NULL},
};
static const ha_cli cli = {"run_manifest", "DIR NAME:STATUS...", "writes DIR/MANIFEST.json, last, for run_all.sh",
                           options, 1, 10, NULL};

/* The record's size and digest, read back from the disk. */
static int digest(const char *path, long long *bytes, char hex[65])
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOFOLLOW);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    ha_sha256 h;
    ha_sha256_init(&h);
    char buf[1 << 16];
    long long total = 0;
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0; total += n)
        ha_sha256_add(&h, buf, (size_t)n);
    close(fd);
    ha_sha256_hex(&h, hex);
    *bytes = total;
    return 0;
}

static bool leftover(const char *dir)
{
    DIR *d = opendir(dir);
    bool found = false;
    for (struct dirent *e; d && !found && (e = readdir(d));)
        found = e->d_name[0] == '.' && strstr(e->d_name, ".json.");
    if (d)
        closedir(d);
    return found;
}

typedef struct step {
    char name[48], rec[64], status[8], hex[65];
    long long bytes;
    bool have;
} step;

typedef struct sealed {
    long long bytes;
    char hex[65];
    bool have;
} sealed;

/* Only names the tools' own table knows go in: nothing of the caller's is
 * pasted. 0, or the usage error's status. */
static int read_steps(const char *dir, const char *const *pos, int npos, step *s, bool *complete)
{
    for (int i = 1; i < npos; i++) {
        const char *colon = strchr(pos[i], ':');
        long st;
        if (!colon || (size_t)(colon - pos[i]) >= sizeof s[i].name ||
            (strcmp(colon + 1, "-") && ha_parse_long(colon + 1, 0, 255, &st)))
            return ha_usage_error("run_manifest", "a step is NAME:STATUS (a tool's name, 0 to 255 or -)");
        int len = (int)(colon - pos[i]);
        snprintf(s[i].name, sizeof s[i].name, "%.*s", len, pos[i]);
        if (!ha_field_value_ok(HF_STEP_NAME, s[i].name))
            return ha_usage_error("run_manifest", "a step names a tool run_all.sh does not run");
        snprintf(s[i].status, sizeof s[i].status, "%s", colon + 1);
        snprintf(s[i].rec, sizeof s[i].rec, "%.*s.json", len, pos[i]);
        char *p = NULL;
        s[i].have = asprintf(&p, "%s/%s", dir, s[i].rec) >= 0 && digest(p, &s[i].bytes, s[i].hex) == 0;
        free(p);
        *complete &= s[i].have;
    }
    return 0;
}

/* A named attachment that is not a regular file of the run (a link, a
 * folder) is not sealed, and the run is not whole. */
static void read_attachments(const char *dir, sealed *att, bool *complete)
{
    for (int i = 0; i < attachments.n; i++) {
        char *p = NULL;
        att[i].have = asprintf(&p, "%s/%s", dir, attachments.v[i]) >= 0 && digest(p, &att[i].bytes, att[i].hex) == 0;
        if (!att[i].have)
            fprintf(stderr, "run_manifest: %s/%s is not a regular file: not sealed\n", dir, attachments.v[i]);
        free(p);
        *complete &= att[i].have;
    }
}

static void write_fallbacks(jw *w)
{
    hw_arr(w, HF_MAN_FALLBACKS);
    for (int i = 0; i < fallbacks.n; i++) {
        const char *f = fallbacks.v[i], *c1 = strchr(f, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        char be[16], num[8];
        long st;
        if (!c1 || !c2 || (size_t)(c1 - f) >= sizeof be)
            continue;
        snprintf(be, sizeof be, "%.*s", (int)(c1 - f), f);
        snprintf(num, sizeof num, "%.*s", (int)(c2 - c1 - 1 < 7 ? c2 - c1 - 1 : 7), c1 + 1);
        if (!ha_field_value_ok(HF_FALLBACK_BACKEND, be) || ha_parse_long(num, 0, 255, &st))
            continue;
        jw_obj(w);
        hw_str(w, HF_FALLBACK_BACKEND, be);
        hw_int(w, HF_FALLBACK_STATUS, st);
        hw_str(w, HF_FALLBACK_WHY, c2 + 1);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void write_steps(jw *w, const step *s, int npos)
{
    hw_arr(w, HF_STEPS);
    for (int i = 1; i < npos; i++) {
        jw_obj(w);
        hw_str(w, HF_STEP_NAME, s[i].name);
        hw_str(w, HF_STEP_RECORD, s[i].have ? s[i].rec : NULL);
        long st;
        if (ha_parse_long(s[i].status, 0, 255, &st) == 0)
            hw_int(w, HF_STEP_EXIT, st);
        else
            hw_null(w, HF_STEP_EXIT);
        if (s[i].have) {
            hw_int(w, HF_STEP_BYTES, s[i].bytes);
            hw_str(w, HF_STEP_SHA256, s[i].hex);
        } else {
            hw_null(w, HF_STEP_BYTES);
            hw_null(w, HF_STEP_SHA256);
        }
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

static void write_attachments(jw *w, const sealed *att)
{
    hw_arr(w, HF_MAN_ATTACH);
    for (int i = 0; i < attachments.n; i++) {
        if (!att[i].have)
            continue;
        jw_obj(w);
        hw_str(w, HF_ATT_NAME, attachments.v[i]);
        hw_int(w, HF_ATT_BYTES, att[i].bytes);
        hw_str(w, HF_ATT_SHA256, att[i].hex);
        jw_obj_end(w);
    }
    jw_arr_end(w);
}

int main(int argc, char **argv)
{
    const char *pos[10];
    int npos;
    int rc = ha_cli_parse(&cli, argc, argv, pos, &npos);
    if (rc)
        return rc < 0 ? HA_EXIT_OK : rc;
    if (!backend || device < 0)
        return ha_usage_error("run_manifest", "--backend and --device are needed");
    if (attachments.n > 4)
        return ha_usage_error("run_manifest", "at most 4 --attachment");
    const char *dir = pos[0];
    /* Looked at before the manifest's own temporary file exists. */
    bool complete = !interrupted;
    step s[10];
    sealed att[4] = {{0}};
    rc = read_steps(dir, pos, npos, s, &complete);
    if (rc)
        return rc;
    complete &= !leftover(dir);
    read_attachments(dir, att, &complete);
    char *out = NULL, err[1200];
    ha_record rec;
    if (asprintf(&out, "%s/MANIFEST.json", dir) < 0)
        return HA_EXIT_OUTPUT;
    if (ha_record_open(&rec, out, err, sizeof err) != 0) {
        fprintf(stderr, "run_manifest: %s\n", err);
        free(out);
        return HA_EXIT_OUTPUT;
    }
    jw w;
    jw_init(&w, rec.f, true);
    jw_obj(&w);
    hw_ident(&w, "run_all");
    hw_bool(&w, HF_MAN_COMPLETE, complete);
    hw_str(&w, HF_MAN_INTERRUPTED, interrupted);
    hw_str(&w, HF_MAN_BACKEND, backend);
    hw_int(&w, HF_MAN_DEVICE, device);
    hw_str(&w, HF_MAN_TOOL_VERSION, HA_VERSION);
    hw_str(&w, HF_MAN_CHOICE, choice ? choice : backend);
    write_fallbacks(&w);
    write_steps(&w, s, npos);
    write_attachments(&w, att);
    jw_obj_end(&w);
    if (jw_finish(&w) != 0) {
        ha_record_abort(&rec);
        fprintf(stderr, "run_manifest: cannot write %s\n", out);
        free(out);
        return HA_EXIT_OUTPUT;
    }
    if (ha_record_commit(&rec, err, sizeof err) != 0) {
        fprintf(stderr, "run_manifest: %s\n", err);
        free(out);
        return HA_EXIT_OUTPUT;
    }
    free(out);
    return HA_EXIT_OK;
}
