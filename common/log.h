/* Levelled messages on stderr, "TOOL: message" ("TOOL: warning: ..."),
 * for everything a tool says besides its output and its one-line usage
 * errors. HOSTACCESS_LOG=error|warn|info|debug (default info) chooses how
 * much: progress lines are info, a runtime call that failed on the way out
 * is a warning, what stops the tool is an error. Part of the base library. */
#ifndef HA_LOG_H
#define HA_LOG_H

typedef enum ha_log_level { HA_LOG_ERROR, HA_LOG_WARN, HA_LOG_INFO, HA_LOG_DEBUG } ha_log_level;

/* The prefix of every line: the tool's name (default "hostaccess"). */
void ha_log_name(const char *tool);

void ha_log(ha_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
