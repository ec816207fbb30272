/* Opening a GPU runtime must not be able to take the tool down. A library
 * on LD_LIBRARY_PATH that is truncated or corrupt makes dlopen itself die
 * (SIGBUS) and a wrong-architecture one is passed over in silence; a symbol
 * of the right name may be data. So: the files dlopen would look at are
 * checked and named first, the load is tried in a short-lived child, and
 * every resolved entry point must lie in executable code. */
#ifndef HA_DYNLOAD_H
#define HA_DYNLOAD_H

#include <stdbool.h>
#include <stddef.h>

/* Opens the first of names (a NULL-ended list of sonames) that loads.
 * Returns the handle, or NULL with why saying what to do — "NAME not found"
 * when none is installed, or the file and what is wrong with it when one is
 * broken (*broken set: the caller reports that, and auto goes on). Warnings
 * for files passed over go to stderr, one line each. */
void *ha_dlopen_checked(const char *const names[], bool *broken, char *why, size_t n);

/* Whether the library file at path would load in this process (tried in
 * a child, never here): 0, or -1 with why naming the file and the
 * loader's reason (another architecture, a newer glibc, a crash). */
int ha_dlopen_try(const char *path, char *why, size_t n);

/* Whether p lies in an executable segment of a loaded object: a function,
 * not data that merely carries a function's name. */
bool ha_is_code(const void *p);

#endif
