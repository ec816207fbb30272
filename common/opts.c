#include "opts.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "exitcodes.h"
#include "fields.h"
#include "termguard.h"

#ifndef HA_VERSION
#define HA_VERSION "unknown"
#endif

int ha_parse_long(const char *s, long min, long max, long *out)
{
    /* Digits only, with an optional minus: strtol would also take " 5" and "+5". */
    if (!s || !(*s == '-' ? s[1] >= '0' && s[1] <= '9' : *s >= '0' && *s <= '9'))
        return -1;
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || *end || v < min || v > max)
        return -1;
    *out = v;
    return 0;
}

int ha_parse_size(const char *s, unsigned long long min, unsigned long long max,
                  unsigned long long *out)
{
    if (!s || *s < '0' || *s > '9')
        return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return -1;
    static const struct { const char *unit; unsigned long long mul; } units[] = {
        {"", 1}, {"B", 1}, {"K", 1ull << 10}, {"KiB", 1ull << 10}, {"M", 1ull << 20},
        {"MiB", 1ull << 20}, {"G", 1ull << 30}, {"GiB", 1ull << 30}, {"KB", 1000ull},
        {"MB", 1000000ull}, {"GB", 1000000000ull},
    };
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].unit) != 0)
            continue;
        if (v > max / units[i].mul)
            return -1;
        v *= units[i].mul;
        if (v < min || v > max)
            return -1;
        *out = v;
        return 0;
    }
    return -1;
}

static void usage_rows(const ha_opt *o, FILE *f)
{
    for (; o && o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
        fprintf(f, "  %-28s %s\n", left, o->help);
    }
}

/* The usage: a synopsis line, then a line per option with its help. */
static void ha_cli_usage(const ha_cli *cli, FILE *f)
{
    fprintf(f, "usage: %s [options]%s%s\n", cli->tool, *cli->synopsis ? " " : "", cli->synopsis);
    if (cli->about)
        fprintf(f, "  %s\n", cli->about);
    usage_rows(cli->shared, f);
    usage_rows(cli->opts, f);
    fprintf(f, "  %-28s %s\n", "--version", "the tool's version");
    fprintf(f, "  %-28s %s\n", "--help", "this text");
}

int ha_usage_error(const char *tool, const char *problem)
{
    fprintf(stderr, "%s: %s (%s --help lists the options)\n", tool, problem, tool);
    return HA_EXIT_USAGE;
}

/* fmt takes the two strings a and b. */
static int usage_error(const ha_cli *cli, const char *fmt, const char *a, const char *b)
{
    char problem[400];
    snprintf(problem, sizeof problem, fmt, a, b);
    return ha_usage_error(cli->tool, problem);
}

static const ha_opt *find(const ha_opt *o, const char *name, size_t len)
{
    for (; o && o->name; o++)
        if (strlen(o->name) == len && !strncmp(o->name, name, len))
            return o;
    return NULL;
}

/* The range a numeric option takes, for its error line. */
static void range(const ha_opt *o, char *buf, size_t n)
{
    if (o->type == HA_OPT_LONG)
        snprintf(buf, n, "a whole number from %.0f to %.0f", o->min, o->max);
    else if (o->type == HA_OPT_SIZE)
        snprintf(buf, n, "a size from %.0f to %.0f bytes (units B, KiB, MiB, GiB)", o->min, o->max);
    else
        snprintf(buf, n, "a number from %g to %g", o->min, o->max);
}

/* What the option takes, and the value given. */
static int bad_value(const ha_cli *cli, const ha_opt *o, const char *want, const char *v)
{
    char problem[400];
    snprintf(problem, sizeof problem, "--%s takes %s, not '%.100s'", o->name, want, v);
    return ha_usage_error(cli->tool, problem);
}

static int take(const ha_cli *cli, const ha_opt *o, const char *v, bool *seen)
{
    char want[96];
    if (o->type != HA_OPT_LIST && *seen)
        return usage_error(cli, "--%s is given twice%s", o->name, "");
    *seen = true;
    if (o->check && o->check(v, want, sizeof want) != 0)
        return bad_value(cli, o, want, v);
    range(o, want, sizeof want);
    switch (o->type) {
    case HA_OPT_FLAG: *(bool *)o->dest = true; return 0;
    case HA_OPT_STRING:
        if (!*v)
            return usage_error(cli, "--%s takes a value, not '%s'", o->name, v);
        *(const char **)o->dest = v;
        return 0;
    case HA_OPT_LIST: {
        ha_opt_list *l = o->dest;
        if (!*v || l->n == (int)(sizeof l->v / sizeof l->v[0]))
            return usage_error(cli, "--%s: an empty value or too many of them ('%s')", o->name, v);
        l->v[l->n++] = v;
        return 0;
    }
    case HA_OPT_SIZE:
        if (ha_parse_size(v, (unsigned long long)o->min, (unsigned long long)o->max, o->dest) != 0)
            return bad_value(cli, o, want, v);
        return 0;
    case HA_OPT_LONG:
        if (ha_parse_long(v, (long)o->min, (long)o->max, o->dest) != 0)
            return bad_value(cli, o, want, v);
        return 0;
    case HA_OPT_REAL: {
        /* strtod takes " 5" and "+5": refused, as ha_parse_long refuses them */
        char *end;
        errno = 0;
        double d = strtod(v, &end);
        if (!*v || *end || errno || *v == ' ' || *v == '+' || !isfinite(d) || d < o->min || d > o->max)
            return bad_value(cli, o, want, v);
        *(double *)o->dest = d;
        return 0;
    }
    }
    return HA_EXIT_USAGE;
}

int ha_cli_parse(const ha_cli *cli, int argc, char **argv, const char **pos, int *npos)
{
    ha_term_guard(); /* before the first line a tool prints, an argument quoted in an error included */
    bool seen[2][64] = {{false}};
    *npos = 0;
    bool only_pos = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_pos && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            ha_cli_usage(cli, stdout);
            return -1;
        }
        if (!only_pos && !strcmp(a, "--version")) {
            printf("%s %s (record schema version %d)\n", cli->tool, HA_VERSION, HA_SCHEMA_VERSION);
            return -1;
        }
        if (!only_pos && !strcmp(a, "--")) {
            only_pos = true;
            continue;
        }
        if (!only_pos && a[0] == '-' && a[1]) {
            if (a[1] != '-')
                return usage_error(cli, "unknown option '%s'%s", a, "");
            const char *name = a + 2, *eq = strchr(name, '=');
            size_t len = eq ? (size_t)(eq - name) : strlen(name);
            const ha_opt *o = find(cli->shared, name, len);
            int table = 0;
            if (!o) {
                o = find(cli->opts, name, len);
                table = 1;
            }
            if (!o)
                return usage_error(cli, "unknown option '%s'%s", a, "");
            const char *v = "";
            if (o->type == HA_OPT_FLAG) {
                if (eq)
                    return usage_error(cli, "--%s takes no value%s", o->name, "");
            } else if (eq) {
                v = eq + 1;
            } else if (i + 1 < argc) {
                v = argv[++i];
            } else {
                return usage_error(cli, "--%s needs a value%s", o->name, "");
            }
            int rc = take(cli, o, v, &seen[table][(o - (table ? cli->opts : cli->shared)) & 63]);
            if (rc)
                return rc;
            continue;
        }
        if (*npos == cli->max_pos)
            return usage_error(cli, "unexpected argument '%s'%s", a, "");
        pos[(*npos)++] = a;
    }
    if (*npos < cli->min_pos)
        return usage_error(cli, "%s%s", *npos ? "too few arguments" : "missing arguments", "");
    return 0;
}

int ha_cli_parse_one(const ha_cli *cli, int argc, char **argv, const char **arg)
{
    const char *pos[1] = {NULL};
    int npos;
    int rc = ha_cli_parse(cli, argc, argv, pos, &npos);
    *arg = pos[0];
    return rc == 0 ? -1 : rc < 0 ? HA_EXIT_OK : rc;
}
