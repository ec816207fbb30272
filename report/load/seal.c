/* What makes a folder a whole run: the records it holds, MANIFEST.json's
 * word, and each record (and torch_pool.txt) being the bytes it seals. */
#include "seal.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "readfile.h"
#include "sha256.h"

/* The records a run folder holds, by tool. */
const char *const run_files[RUN_NREC] = {"env.json", "probe_discriminator.json", "probe_memgetaccess.json",
                                         "bench_discriminator.json", "pool_check.json"};
const char *const run_tools[RUN_NREC] = {"env", "probe_discriminator", "probe_memgetaccess",
                                         "bench_discriminator", "pool_check"};
/* An A/B session's side B (run_all.sh --ab): its untimed records beside
 * A's; its bench is A's record, which holds both sides. NULL: not B's. */
const char *const run_files_b[RUN_NREC] = {"b_env.json", "b_probe_discriminator.json", "b_probe_memgetaccess.json",
                                           NULL, "b_pool_check.json"};

/* A tool's temporary record (".NAME.json.XXXXXX") means it never finished. */
char *ld_leftover(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return NULL;
    char *why = NULL;
    for (struct dirent *e; !why && (e = readdir(d));)
        if (e->d_name[0] == '.' && strstr(e->d_name, ".json."))
            why = rf_printf("a tool's temporary file %s was left behind: it did not finish", e->d_name);
    closedir(d);
    return why;
}

static bool hex64(const char *s)
{
    if (strlen(s) != 64)
        return false;
    for (; *s; s++)
        if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
            return false;
    return true;
}

/* The manifest's step that lists record, or NULL. */
static const m_step *step_for(const m_manifest *m, const char *record)
{
    for (size_t i = 0; i < m->nsteps; i++)
        if (!strcmp(m->steps[i].record, record))
            return &m->steps[i];
    return NULL;
}

/* The seal of the bytes that are parsed: they are the ones the manifest's
 * size and SHA-256 name, read once (a file swapped between a check and a
 * second read cannot get in). */
char *ld_seal_check(const char *name, const char *what, long long bytes, const char *sha256, const char *buf,
                        size_t len)
{
    if (bytes < 0 || (size_t)bytes != len)
        return rf_printf("%s: %zu bytes, MANIFEST.json says %lld: it is not the %s the run wrote", name, len, bytes,
                         what);
    ha_sha256 h;
    char hex[65];
    ha_sha256_init(&h);
    ha_sha256_add(&h, buf, len);
    ha_sha256_hex(&h, hex);
    if (strcmp(hex, sha256))
        return rf_printf("%s: its SHA-256 is not the one MANIFEST.json lists: it was changed after the run", name);
    return NULL;
}

static bool known_record(const char *name)
{
    for (int i = 0; i < RUN_NREC; i++)
        if (!strcmp(run_files[i], name) || (run_files_b[i] && !strcmp(run_files_b[i], name)))
            return true;
    return false;
}

/* The manifest's own word: complete, and sealing every record it names
 * with a size and a SHA-256; the records themselves are checked against
 * it as they are read (m_read_run). */
char *ld_manifest_seals(const m_manifest *m)
{
    if (!m->complete)
        return *m->interrupted ? rf_printf("interrupted by %s (MANIFEST.json)", m->interrupted)
                               : rf_printf("MANIFEST.json says incomplete: a tool wrote no record");
    for (size_t i = 0; i < m->nsteps; i++) {
        const m_step *s = &m->steps[i];
        if (!*s->record) {
            if (s->exit_status == 0)
                return rf_printf("MANIFEST.json: $.steps[%zu]: %s exited 0 with no record", i, s->name);
            continue;
        }
        if (strchr(s->record, '/') || s->record[0] == '.' || !known_record(s->record))
            return rf_printf("MANIFEST.json: $.steps[%zu].record: expected a record's file name", i);
        if (s->bytes < 0 || !hex64(s->sha256))
            return rf_printf("MANIFEST.json: $.steps[%zu]: %s is listed without its size and SHA-256: the manifest "
                             "does not seal it", i, s->record);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(m->steps[k].record, s->record))
                return rf_printf("MANIFEST.json: $.steps[%zu]: %s is listed twice", i, s->record);
    }
    for (size_t i = 0; i < m->nattach; i++)
        if (strcmp(m->attach[i].name, "torch_pool.txt") || m->attach[i].bytes < 0 || !hex64(m->attach[i].sha256))
            return rf_printf("MANIFEST.json: $.attachments[%zu]: expected torch_pool.txt with its size and SHA-256",
                             i);
    return NULL;
}

/* A record read once: against the manifest's seal where the run is whole
 * so far; a record the manifest does not list, or one it lists that is not
 * there, makes it not whole. */
void ld_seal_record(m_run *r, const char *name, bool there, const char *buf, size_t len)
{
    if (!r->complete)
        return;
    const m_step *s = step_for(&r->manifest, name);
    char *why = NULL;
    if (there && !s)
        why = rf_printf("%s: not listed in MANIFEST.json: the run did not write it", name);
    else if (!there && s)
        why = rf_printf("%s: missing, though MANIFEST.json lists it", name);
    else if (there)
        why = ld_seal_check(name, "record", s->bytes, s->sha256, buf, len);
    if (why) {
        r->complete = false;
        free(r->incomplete);
        r->incomplete = why;
    }
}

