/* Files a tool is in the middle of writing — temporary record names, plot
 * folders — must not outlive it. Registered paths are removed when SIGINT,
 * SIGTERM or SIGHUP arrives, then the signal takes its default course (the
 * exit status still says which signal it was). */
#ifndef HA_CLEANUP_H
#define HA_CLEANUP_H

/* Registers path (a file, or an empty-by-then folder registered before the
 * files in it). Returns 0, or -1 when the table is full or path too long. */
int ha_cleanup_add(const char *path);

/* Removes every registered path now (async-signal-safe): for a tool that
 * must end at once, as when a runtime call never returns (rtwatch.h). */
void ha_cleanup_now(void);

/* Forgets path: it was committed or removed by its owner. */
void ha_cleanup_del(const char *path);

/* Removes the files of a flat working folder, then the folder, forgetting
 * each; no shell, no recursion. 0 when the folder is gone. */
int ha_remove_flat_dir(const char *dir);

#endif
