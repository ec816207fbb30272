#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "readfile.h"
#include "validate.h"

/* Empties every raw-samples array in place (its key: [numbers]):
 * the report needs the statistics, and the samples are most of a bench
 * record. An array holding anything but number characters is left for the
 * parse, which then refuses it. Strings are stepped over whole. */
static size_t drop_samples(char *buf, size_t len)
{
    char key[64];
    snprintf(key, sizeof key, "\"%s\"", ha_fkey(HF_ROW_SAMPLES));
    const size_t klen = strlen(key);
    static bool numeric[256];
    if (!numeric['0'])
        for (const char *c = "0123456789.eE+-, \n\tnul"; *c; c++)
            numeric[(unsigned char)*c] = true;
    size_t w = 0;
    for (size_t i = 0; i < len;) {
        if (buf[i] != '"') {
            buf[w++] = buf[i++];
            continue;
        }
        if (len - i > klen && !memcmp(buf + i, key, klen)) {
            size_t j = i + klen;
            while (j < len && (buf[j] == ' ' || buf[j] == ':' || buf[j] == '\n'))
                j++;
            size_t k = j + 1;
            while (j < len && buf[j] == '[' && k < len && numeric[(unsigned char)buf[k]])
                k++;
            if (j < len && buf[j] == '[' && k < len && buf[k] == ']') {
                memmove(buf + w, buf + i, j + 1 - i);
                w += j + 1 - i;
                i = k;
                continue;
            }
        }
        buf[w++] = buf[i++];
        while (i < len && buf[i] != '"') {
            if (buf[i] == '\\' && i + 1 < len)
                buf[w++] = buf[i++];
            buf[w++] = buf[i++];
        }
        if (i < len)
            buf[w++] = buf[i++];
    }
    return w;
}

int ld_parse_checked(const char *name, char *buf, size_t len, bool summary, int want, json_t **out, int *root,
                     char **err)
{
    if (summary)
        len = drop_samples(buf, len);
    json_error_t je;
    json_t *j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    if (!j) {
        *err = rf_printf("%s: line %d, column %d: expected valid JSON (%s)", name, je.line, je.column, je.text);
        return -1;
    }
    const json_t *sv = ld_get(j, HF_SCHEMA_VERSION);
    if (!json_is_object(j) || !json_is_integer(sv) || json_integer_value(sv) < 1 ||
        json_integer_value(sv) > HA_SCHEMA_VERSION) {
        *err = rf_printf("%s: $.%s: expected 1 to %d (the schema versions this reader knows), found %s", name,
                         ha_fkey(HF_SCHEMA_VERSION), HA_SCHEMA_VERSION,
                         !json_is_object(j) ? "no record" : !sv ? "none" : "another");
        json_decref(j);
        return -1;
    }
    const char *tool = json_string_value(ld_get(j, HF_TOOL));
    int r = ha_field_root(tool);
    /* env.json from before tool 4e468fe names the probe that wrote it */
    if (want == HF_ROOT_ENV && r == HF_ROOT_PROBE)
        r = HF_ROOT_ENV;
    bool run_record = r != HF_ROOT_COMPARE && r != HF_ROOT_CHANGES;
    if (r == HF_NONE || (want != HF_NONE && r != want) || (want == HF_NONE && !run_record)) {
        *err = rf_printf("%s: $.%s: expected \"%s\"", name, ha_fkey(HF_TOOL),
                         want != HF_NONE ? ha_fields[want].key : "the name of a hostaccess tool");
        json_decref(j);
        return -1;
    }
    char *why = NULL;
    if (v_check(j, r, json_integer_value(sv), &why) != 0 ||
        (r == HF_ROOT_BENCH && v_bench_processes(j, &why) != 0)) {
        *err = rf_printf("%s: %s", name, why ? why : "out of memory");
        free(why);
        json_decref(j);
        return -1;
    }
    *out = j;
    *root = r;
    return 0;
}
