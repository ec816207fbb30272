/* The link from a page to a file beside it on disk: a relative URL path,
 * so a page published with its results folder (or opened on another
 * machine) still reaches its runs' reports. */
#ifndef HA_PAGELINK_H
#define HA_PAGELINK_H

/* The relative path from folder `from` to `to`, both absolute and
 * canonical (realpath), each byte outside A-Z a-z 0-9 - . _ ~ / written as
 * %XX: a folder name holding '#', '?', '%' or a space is a path, never a
 * fragment or a query. NULL when out of memory or a path is not absolute. */
char *page_link(const char *from, const char *to);

#endif
