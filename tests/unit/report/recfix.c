#include "recfix.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "readfile.h"

json_t *recfix_load(const char *name)
{
    char *buf = NULL, *which = NULL, *err = NULL;
    size_t len = 0;
    bool found = false;
    if (rf_read_either(RECFIX_RUN, name, (size_t)64 << 20, &buf, &len, &found, &which, &err) != 0 || !found)
        fail_msg("%s/%s: %s", RECFIX_RUN, name, err ? err : "not there");
    json_error_t je;
    json_t *j = json_loadb(buf, len, 0, &je);
    if (!j)
        fail_msg("%s: %s", which, je.text);
    free(buf);
    free(which);
    return j;
}

int recfix_read(m_run *r, const json_t *rec, char **err)
{
    char *text = json_dumps(rec, JSON_COMPACT);
    assert_non_null(text);
    int rc = m_load_buffer(r, text, strlen(text), err);
    free(text);
    return rc;
}

void recfix_refused(const json_t *rec, const char *where, const char *why)
{
    m_run r;
    char *err = NULL;
    if (recfix_read(&r, rec, &err) == 0) {
        m_free_run(&r);
        fail_msg("accepted; expected a refusal at %s", where);
    }
    if (!err || !strstr(err, where) || (why && !strstr(err, why)))
        fail_msg("refused for another reason: %s (expected %s%s%s)", err ? err : "(none)", where, why ? ": " : "",
                 why ? why : "");
    free(err);
}

json_t *recfix_find(json_t *array, const char *key, const char *value)
{
    size_t i;
    json_t *e;
    json_array_foreach(array, i, e) {
        const char *v = json_string_value(json_object_get(e, key));
        if (v && !strcmp(v, value))
            return e;
    }
    fail_msg("no element with %s %s", key, value);
    return NULL;
}

void recfix_copy_run(char *dir, size_t n)
{
    snprintf(dir, n, "/tmp/ha-recfix-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "cp %s/MANIFEST.json %s/*.json.gz %s/", RECFIX_RUN, RECFIX_RUN, dir);
    assert_int_equal(system(cmd), 0);
}

void recfix_remove(const char *dir)
{
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    assert_int_equal(system(cmd), 0);
}
