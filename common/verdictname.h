/* A candidate's verdict and its one spelling, shared by the probe that
 * writes it and every tool that reads it back (no GPU code: the report
 * tools link it). */
#ifndef HA_VERDICTNAME_H
#define HA_VERDICTNAME_H

typedef enum { HA_V_DISTINGUISHES, HA_V_FAILS, HA_V_UNDETERMINED } ha_verdict_kind;

/* "distinguishes", "fails" or "undetermined". */
const char *ha_verdict_name(ha_verdict_kind v);

/* The verdict a record spells; any other word (or NULL) is undetermined. */
ha_verdict_kind ha_verdict_parse(const char *name);

#endif
