#include "verdict.h"

#include <stdio.h>
#include <string.h>

static void append(char *buf, size_t n, const char *s)
{
    size_t l = strlen(buf);
    if (l < n - 1)
        snprintf(buf + l, n - l, "%s%s", l ? ", " : "", s);
}

void ha_verdict_compute(const ha_vcell *cells, size_t n, ha_verdict *out)
{
    memset(out, 0, sizeof *out);
    size_t readable = 0, unreadable = 0;
    char unanswered[200] = "";
    for (size_t i = 0; i < n && i < HA_MAX_KINDS; i++) {
        if (cells[i].truth == HA_TRUTH_UNKNOWN)
            continue;
        if (!cells[i].answered)
            append(unanswered, sizeof unanswered, cells[i].kind);
        else if (cells[i].truth == HA_TRUTH_YES)
            readable++;
        else
            unreadable++;
    }
    /* A query that cannot be asked of some pointer cannot decide at read
     * time, when the caller does not know which kind it holds. */
    if (unanswered[0]) {
        out->v = HA_V_UNDETERMINED;
        snprintf(out->why, sizeof out->why, "no answer on: %s", unanswered);
        return;
    }
    if (readable == 0 || unreadable == 0) {
        out->v = HA_V_UNDETERMINED;
        snprintf(out->why, sizeof out->why, "needs both readable and unreadable kinds (%zu, %zu)",
                 readable, unreadable);
        return;
    }
    out->v = HA_V_DISTINGUISHES;
    for (size_t i = 0; i < n && i < HA_MAX_KINDS; i++) {
        if (cells[i].truth == HA_TRUTH_UNKNOWN)
            continue;
        size_t r = 0, u = 0;
        for (size_t j = 0; j < n && j < HA_MAX_KINDS; j++) {
            if (cells[j].truth == HA_TRUTH_UNKNOWN || strcmp(cells[j].outcome, cells[i].outcome))
                continue;
            if (cells[j].truth == HA_TRUTH_YES)
                r++;
            else
                u++;
        }
        bool is_readable = cells[i].truth == HA_TRUTH_YES;
        if (cells[i].says != HA_SAYS_INFER && (cells[i].says == HA_SAYS_READABLE) != is_readable)
            r = u = 1; /* wrong by its own meaning, whatever else shares the outcome */
        if (r == 0 || u == 0)
            continue;
        out->v = HA_V_FAILS;
        bool says_readable = cells[i].says != HA_SAYS_INFER ? cells[i].says == HA_SAYS_READABLE : r > u;
        if (says_readable != is_readable) {
            ha_wrong *w = &out->wrong[out->nwrong++];
            w->kind = cells[i].kind;
            w->false_positive = says_readable;
            w->outcome = cells[i].outcome;
        }
    }
    if (out->v == HA_V_FAILS && out->nwrong == 0)
        snprintf(out->why, sizeof out->why, "outcomes overlap");
}
