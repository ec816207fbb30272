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
            int pl = snprintf(p, sizeof p, "%s/%s", argv[a], e->d_name);
            if (pl < 0 || (size_t)pl >= sizeof p) {
                fprintf(stderr, "fuzz_replay: %s/%s: path longer than %zu bytes: not replayed\n", argv[a], e->d_name,
                        sizeof p - 1);
                closedir(d);
                return 2;
            }
            FILE *f = fopen(p, "rb");
            if (!f)
                continue;
            long len = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
            uint8_t *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
            size_t got = buf && fseek(f, 0, SEEK_SET) == 0 ? fread(buf, 1, (size_t)len, f) : 0;
            fclose(f);
            if (!buf || got != (size_t)len) {
                fprintf(stderr, "fuzz_replay: %s: cannot be read whole\n", p);
                free(buf);
                closedir(d);
                return 2;
            }
            LLVMFuzzerTestOneInput(buf, got);
            free(buf);
            n++;
        }
        closedir(d);
    }
    printf("fuzz_replay: %d inputs replayed, no crash\n", n);
    return n ? 0 : 1;
}
