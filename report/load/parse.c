#include "parse.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "readfile.h"
#include "validate.h"

int ld_parse_checked(const char *name, const char *buf, size_t len, int want, json_t **out, int *root, char **err)
{
    json_error_t je;
    json_t *j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &je);
    /* jansson leaves the error empty when it cannot start its lexer: out of memory too */
    if (!j && (json_error_code(&je) == json_error_out_of_memory || !je.text[0]))
        rf_out_of_memory("parsing a record");
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
        (r == HF_ROOT_BENCH && v_bench_processes(j, json_integer_value(sv), &why) != 0)) {
        if (!why)
            rf_out_of_memory("checking a record");
        *err = rf_printf("%s: %s", name, why);
        free(why);
        json_decref(j);
        return -1;
    }
    *out = j;
    *root = r;
    return 0;
}
