/* compare's findings (derive/findings.h) in Markdown, JSON (through the
 * field table) and JUnit: the words, kept apart from the judgement. */
#ifndef HA_FINDINGSOUT_H
#define HA_FINDINGSOUT_H

#include <stdio.h>

#include "findings.h"
#include "jsonw.h"

void findings_markdown(FILE *out, const findings *f, const m_run *a, const m_run *b);
void findings_json(jw *w, const findings *f, const m_run *a, const m_run *b);
/* A regression is a failed test case; the rest pass or skip. */
void findings_junit(FILE *out, const findings *f, const m_run *a, const m_run *b);

/* A folder name as valid UTF-8 for JSON (malloc'd; NULL out of memory). */
char *findings_utf8(const char *s);

#endif
