/* results/SCHEMA.md, written from the field declarations (fields.def), so
 * the documented schema is the one the tools write and the reports read. */
#ifndef HA_SCHEMADOC_H
#define HA_SCHEMADOC_H

#include <stdio.h>

void ha_schema_markdown(FILE *f);

#endif
