/* The runs below a folder: each folder holding a run's first record is one
 * (its name relative to the folder given), to the depth the caller asks. */
#include "model.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "readfile.h"

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static bool has_record(const char *dir, const char *name)
{
    static const char *const marks[] = {"env.json", "env.json.gz", "probe_discriminator.json",
                                        "probe_discriminator.json.gz"};
    struct stat st;
    for (size_t i = 0; i < sizeof marks / sizeof marks[0]; i++) {
        char *p = rf_printf("%s/%s/%s", dir, name, marks[i]);
        if (!p)
            rf_out_of_memory("listing the runs");
        bool there = stat(p, &st) == 0;
        free(p);
        if (there)
            return true;
    }
    return false;
}

typedef struct name_list {
    char **v;
    long n, cap;
} name_list;

static void add_name(name_list *l, char *name)
{
    if (name && l->n == l->cap) {
        long cap = l->cap ? 2 * l->cap : 64;
        char **g = realloc(l->v, (size_t)cap * sizeof *g);
        l->v = g ? g : l->v;
        l->cap = g ? cap : l->cap;
    }
    if (!name || l->n == l->cap)
        rf_out_of_memory("listing the runs");
    l->v[l->n++] = name;
}

/* The runs in root/sub (sub "" for root itself), and below it to depth. */
static int list_below(const char *root, const char *sub, int depth, name_list *l)
{
    char *here = *sub ? rf_join(root, sub) : rf_printf("%s", root);
    if (!here)
        rf_out_of_memory("listing the runs");
    DIR *d = opendir(here);
    if (!d) {
        free(here);
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.')
            continue;
        char *name = *sub ? rf_printf("%s/%s", sub, e->d_name) : rf_printf("%s", e->d_name);
        char *path = name ? rf_join(root, name) : NULL;
        if (!path)
            rf_out_of_memory("listing the runs");
        struct stat st;
        bool folder = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
        free(path);
        if (has_record(root, name))
            add_name(l, name);
        else {
            if (folder && depth > 0)
                list_below(root, name, depth - 1, l);
            free(name);
        }
    }
    closedir(d);
    free(here);
    return 0;
}

long m_list_runs_below(const char *dir, int depth, char ***names)
{
    name_list l = {0};
    int rc = list_below(dir, "", depth, &l);
    *names = l.v;
    if (rc != 0)
        return -1;
    if (l.n)
        qsort(l.v, (size_t)l.n, sizeof *l.v, by_name);
    return l.n;
}

long m_list_runs(const char *dir, char ***names) { return m_list_runs_below(dir, 0, names); }

void m_free_names(char **names, long n)
{
    for (long i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

