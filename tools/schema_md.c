/* Writes results/SCHEMA.md's text to stdout (make schema); with --keys,
 * every record key the table declares, one per line (the test that keeps
 * each key spelled once in the tree reads them). */
#include <stdio.h>
#include <string.h>

#include "fields.h"
#include "schemadoc.h"

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "--keys")) {
        for (int i = 1; i < HF_COUNT; i++)
            if (!(ha_fields[i].types & (F_ROOT | F_GROUP)))
                printf("%s\n", ha_fields[i].key);
        return 0;
    }
    if (argc > 1) {
        fprintf(stderr, "usage: schema_md [--keys]\n");
        return 2;
    }
    ha_schema_markdown(stdout);
    return 0;
}
