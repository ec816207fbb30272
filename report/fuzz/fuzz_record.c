/* Fuzz target for the record loader: any bytes go in, a typed run or a
 * one-line error comes out, and nothing crashes or leaks; the same bytes
 * then as changes' record (trend --changes reads one people attach).
 *   libFuzzer:  make fuzz && build-fuzz/fuzz_record tests/fuzz/corpus
 *   replay:     build/tests/fuzz_replay tests/fuzz/corpus/ (make check, under ASan too) */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "changesrec.h"
#include "derive.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    m_run r;
    char *err = NULL;
    if (m_load_buffer(&r, (const char *)data, size, &err) == 0)
        m_free_run(&r);
    else
        m_free_run(&r);
    free(err);
    err = NULL;
    char *copy = malloc(size + 1);
    if (!copy)
        return 0;
    memcpy(copy, data, size);
    chg_record c;
    if (chg_read_buffer("(fuzz)", copy, size, &c, &err) == 0)
        chg_free(&c);
    free(err);
    free(copy);
    return 0;
}
