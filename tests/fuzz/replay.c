/* Replays a fuzz corpus through the fuzz target without libFuzzer, so CI
 * (gcc, ASan) runs every saved input on each change. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int n = 0;
    for (int a = 1; a < argc; a++) {
        DIR *d = opendir(argv[a]);
        if (!d) {
            fprintf(stderr, "fuzz_replay: %s: not a folder\n", argv[a]);
            return 2;
        }
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char p[1024];
            snprintf(p, sizeof p, "%s/%s", argv[a], e->d_name);
            FILE *f = fopen(p, "rb");
            if (!f)
                continue;
            fseek(f, 0, SEEK_END);
            long len = ftell(f);
            rewind(f);
            uint8_t *buf = malloc(len > 0 ? (size_t)len : 1);
            size_t got = fread(buf, 1, (size_t)(len > 0 ? len : 0), f);
            fclose(f);
            LLVMFuzzerTestOneInput(buf, got);
            free(buf);
            n++;
        }
        closedir(d);
    }
    printf("fuzz_replay: %d inputs replayed, no crash\n", n);
    return n ? 0 : 1;
}
