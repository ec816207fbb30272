/* Real records for the report unit tests: the committed H200 run that
 * README.md shows (schema 3, every tool), read into jansson documents that
 * a test edits before handing them to the loader, and copied into scratch
 * run folders that a test changes after the fact. */
#ifndef HA_RECFIX_H
#define HA_RECFIX_H

#include <jansson.h>
#include <stdbool.h>

#include "derive.h"

#define RECFIX_RUN "results/2026-12-02T130224Z-vm-cuda-dev0"

/* RECFIX_RUN's record NAME ("probe_discriminator.json"), parsed; fails the
 * test when it cannot be read. */
json_t *recfix_load(const char *name);

/* Loads the document as one record (m_load_buffer); 0 or -1 with *err. */
int recfix_read(m_run *r, const json_t *rec, char **err);

/* The document is refused as a record, and the reason names where (and
 * why, unless NULL); fails the test otherwise. */
void recfix_refused(const json_t *rec, const char *where, const char *why);

/* The element of array whose "name" (or key) is value; fails the test if none. */
json_t *recfix_find(json_t *array, const char *key, const char *value);

/* A scratch copy of RECFIX_RUN (MANIFEST.json and its records) at a new
 * folder under /tmp, written into dir; fails the test if it cannot. */
void recfix_copy_run(char *dir, size_t n);
void recfix_remove(const char *dir);

#endif
