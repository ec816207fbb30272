/* compare's configuration: each path family's threshold, from
 * families.def's traits, and --threshold's changes to them. */
#include "regress.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The thresholds, in %: 5 for every family. A +15 % change must be caught
 * and a +3 % one never (the gate issue's goal); docs/gate.md says how the
 * processes' spread on the H200 put it there. */
void regress_defaults(regress_cfg *c)
{
    int n = 0;
    for (size_t i = 0; i < HA_NFAMILIES; i++) {
        const ha_family *t = &ha_families[i];
        if (!t->instrument)
            c->thr[n++] = (family_threshold){t->name, 5, t->clock_share, t->state_bound, t->steady_only};
    }
    c->same_machine = false;
    c->rules = m_est_default_rules;
}

int regress_set_threshold(regress_cfg *c, const char *spec, char *err, size_t n)
{
    const char *eq = strchr(spec, '=');
    char *end;
    double v = eq ? strtod(eq + 1, &end) : NAN;
    if (!eq || eq[1] == 0 || *end || !(v >= 0.1 && v <= 1000)) {
        snprintf(err, n, "--threshold takes FAMILY=PERCENT (0.1 to 1000), not '%.80s'", spec);
        return -1;
    }
    size_t fl = (size_t)(eq - spec);
    bool all = fl == 3 && !strncmp(spec, "all", 3), found = false;
    for (int i = 0; i < REGRESS_NFAM; i++)
        if (all || (strlen(c->thr[i].family) == fl && !strncmp(spec, c->thr[i].family, fl))) {
            c->thr[i].pct = v;
            found = true;
        }
    if (!found) {
        snprintf(err, n, "--threshold: unknown family '%.*s' (%sall)", (int)(fl < 40 ? fl : 40), spec,
                 ha_family_path_names);
        return -1;
    }
    return 0;
}

family_threshold regress_family(const regress_cfg *c, const char *family)
{
    m_family_traits t = m_family_traits_of(family);
    family_threshold loosest = {family, 0, t.clock_share, t.state_bound, t.steady_only};
    for (int i = 0; i < REGRESS_NFAM; i++) {
        if (!strcmp(c->thr[i].family, family))
            return c->thr[i];
        loosest.pct = fmax(loosest.pct, c->thr[i].pct);
    }
    return loosest;
}
