/* Fuzz target for the record reader: any bytes go in, a document or a
 * one-line error comes out, and nothing crashes or leaks.
 *   libFuzzer:  make fuzz && build-fuzz/fuzz_record tests/fuzz/corpus
 *   replay:     build/tests/fuzz_replay tests/fuzz/corpus/ (CI, under ASan) */
#include <stddef.h>
#include <stdint.h>

#include "records.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    json_t *j = rec_load_buffer((const char *)data, size, err, sizeof err);
    json_decref(j);
    return 0;
}
