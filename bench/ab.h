/* An A/B session (bench_discriminator --ab SPEC): two sides measured in
 * one session on one device, one A and one B process per round, in a
 * seeded random order within each round (common/abgate.h says why and how
 * the rounds are judged). A is this build in this environment; SPEC names
 * what B changes:
 *   env:NAME=VALUE[,NAME=VALUE...]  B's processes get these variables (a
 *       comma followed by NAME= with NAME of capitals, digits and '_'
 *       starts the next variable; any other comma belongs to the value, so
 *       env:HOSTACCESS_TEST_SLOWDOWN=fast=10,disc=10 is one variable)
 *   build:DIR                       B runs another build's bench:
 *       DIR/bench_discriminator or DIR/build/bench_discriminator
 *   rocm:PREFIX                     B loads PREFIX's libamdhip64, with
 *       tools built against PREFIX's headers (a side build run_all.sh
 *       makes: $HOSTACCESS_SIDE_BUILDS/rocm-NAME-HASH)
 *   sim-profile:NAME                B acts as another stand-in release (A
 *       gives --sim-profile), with tools built against headers of its era
 *       where this build's lie across a line (rocm_profiles.h)
 * env:ROCM_PATH (or CUDA_PATH) alone is refused: no tool loads a runtime by
 * it, so such a session would set a runtime against itself.
 * Process 1 (this one) measures first as every run's does and gives the
 * record its row statistics; it is side A's and belongs to no round. The
 * session looks at its rows after the rounds abgate.h names, judging them
 * itself as compare will from the record (ha_ab_judge, on the values as
 * the record holds them), and stops at the first look at which every row
 * is settled, or when its budget would be spent. */
#ifndef HA_BENCH_AB_H
#define HA_BENCH_AB_H

#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>

#include "abgate.h"

#define AB_MAX_VARS 16
#define AB_DEFAULT_BUDGET_S 140
#define AB_MIN_BUDGET_S 20
#define AB_MAX_BUDGET_S 3600

typedef struct ab_session {
    bool on;
    const char *spec;               /* as given */
    char *b_exe;                    /* B's bench (malloc'd); NULL: this one */
    char *b_headers;                /* the headers B's side build is made against (malloc'd); NULL: none */
    const char *b_profile;          /* B acts as this stand-in release; NULL: as A */
    bool b_hip;                     /* B needs side A on the hip backend */
    bool alone;                     /* --side-plan: SPEC's tools as a side of their own, no side A to check */
    char *vars[AB_MAX_VARS];        /* B's variables, NAME=VALUE (malloc'd) */
    int nvars;
    double budget_s;                /* --ab-budget */
    unsigned long long seed;        /* --ab-seed: the order of each round */
    int rounds;                     /* rounds whose two processes both finished */
    int rounds_started;
    int looks[HA_AB_MAX_LOOKS];     /* the rounds at each look taken */
    int nlooks;
    bool decided;                   /* the last look decided every row */
    char *stopped;                  /* why the session ended (malloc'd); NULL while it runs */
} ab_session;

/* SPEC into s (0), or -1 with a one-line reason in why. a_profile: side
 * A's --sim-profile, or NULL. planning: B's side build need not exist yet
 * (run_all.sh asks for the plan before it makes it); otherwise B's bench
 * must exist and be executable. */
int ab_parse_spec(ab_session *s, const char *spec, const char *a_profile, bool planning, char *why, size_t n);
void ab_free(ab_session *s);

/* Side B as SPEC names it, for run_all.sh, which makes B's side build and
 * runs B's probes and pool after the bench with it (one reader of SPEC:
 * this one): to fd, byte for byte (never through the terminal guard),
 * pairs of NUL-ended fields: "build" DIR (B's tools, when not this
 * build's), "headers" PREFIX (DIR is a side build made against them),
 * "profile" NAME, "backend" hip, and "var" NAME=VALUE for each variable.
 * 0, or -1 when fd could not be written. */
int ab_print_side_b(const ab_session *s, int fd);


#endif
