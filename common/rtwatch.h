/* Calls into a GPU runtime, bounded. A runtime library is code the tool
 * does not control: a call that never returns would hang the tool (and
 * run_all.sh behind it), and one that calls exit() would end the tool
 * with the runtime's status (0 passes for success) and its temporary
 * record left behind. Between ha_rtwatch_begin and ha_rtwatch_end:
 * - a call still running after $HOSTACCESS_CALL_TIMEOUT_S seconds (1 to
 *   600, default 60) ends the tool with one line naming the library and
 *   the call, its temporary files removed, exit status 3 (a runtime that
 *   cannot be used);
 * - exit() from inside the call does the same ("ended the process");
 * - what the runtime prints on stdout goes to stderr, so a tool's output
 *   (--list-devices, a record on stdout) is never mixed with it.
 * Inert until ha_rtwatch_enable() (the tools call it; the pool library,
 * loaded into PyTorch, never does). One call at a time, from one thread. */
#ifndef HA_RTWATCH_H
#define HA_RTWATCH_H

void ha_rtwatch_enable(const char *tool);
void ha_rtwatch_begin(const char *library, const char *call);
void ha_rtwatch_end(void);

/* Seconds from the environment variable name (1 to 600), else dflt; a
 * value that is not one is said on stderr, never silently ignored. */
unsigned ha_env_seconds(const char *name, unsigned dflt);

#endif
