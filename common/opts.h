/* One option table per tool, one parser for all of them: each option is a
 * row (name, type, range, destination, help), the usage text is made from
 * the rows, and a bad value gets one line naming the option, what it
 * takes and the value given. Part of the base library. */
#ifndef HA_OPTS_H
#define HA_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

typedef enum ha_opt_type {
    HA_OPT_FLAG,   /* bool *: set when given */
    HA_OPT_STRING, /* const char **: the value (non-empty) */
    HA_OPT_LONG,   /* long *: a whole number within [min, max] */
    HA_OPT_REAL,   /* double *: a number within [min, max] */
    HA_OPT_SIZE,   /* unsigned long long *: a byte count (ha_parse_size) within [min, max] */
    HA_OPT_LIST,   /* ha_opt_list *: every value of a repeatable option, in order */
} ha_opt_type;

/* A value's own rule beyond its type (a known name, a power of two): 0, or
 * -1 with what the option takes in why ("a backend: auto, hip, cuda, sim"). */
typedef int (*ha_opt_check)(const char *value, char *why, size_t n);

typedef struct ha_opt_list {
    const char *v[32];
    int n;
} ha_opt_list;

typedef struct ha_opt {
    const char *name; /* the long name, without "--"; NULL ends a table */
    ha_opt_type type;
    double min, max;  /* HA_OPT_LONG, HA_OPT_REAL */
    void *dest;
    const char *arg;  /* the value's name in the usage ("FILE", "N") */
    const char *help;
    ha_opt_check check; /* NULL: the type and range are the whole rule */
} ha_opt;

typedef struct ha_cli {
    const char *tool;     /* "compare" */
    const char *synopsis; /* positionals, as the usage line shows them ("OLD_RUN NEW_RUN") */
    const char *about;    /* one line on what the tool does, for --help */
    const ha_opt *opts;
    int min_pos, max_pos; /* how many positional arguments */
    const ha_opt *shared; /* options every GPU tool takes (tool.h), listed first; NULL none */
} ha_cli;

/* Every tool's first step. Puts stdout and stderr behind the terminal
 * guard (termguard.h), then parses argv[1..]: --name VALUE or
 * --name=VALUE for the table's options, -h/--help, and positionals into
 * pos (at most cli->max_pos). Returns 0;
 * -1 when --help was served (exit 0); or HA_EXIT_USAGE after printing one
 * line, "TOOL: problem", and the usage to stderr. A flag or string given
 * twice is refused; a list takes every value. */
int ha_cli_parse(const ha_cli *cli, int argc, char **argv, const char **pos, int *npos);

/* For a tool of one positional argument (a folder): parses, and puts it in
 * *arg. Returns -1 to go on, or the status to exit with (0 after --help,
 * HA_EXIT_USAGE after one line). */
int ha_cli_parse_one(const ha_cli *cli, int argc, char **argv, const char **arg);

/* One line to stderr, "TOOL: problem (TOOL --help lists the options)";
 * returns HA_EXIT_USAGE. The parser's own errors take this shape, and so
 * does what only the tool can check after parsing. */
int ha_usage_error(const char *tool, const char *problem);

/* Range-checked integer parsing: digits only, with an optional minus (no
 * "+5", " 5", "5x"); 0 on success. */
int ha_parse_long(const char *s, long min, long max, long *out);

/* A byte count: a whole number with an optional unit B, K/KiB, M/MiB,
 * G/GiB (powers of 1024; KB, MB, GB are read as 1000s). Range-checked; 0 on
 * success. */
int ha_parse_size(const char *s, unsigned long long min, unsigned long long max,
                  unsigned long long *out);

#endif
