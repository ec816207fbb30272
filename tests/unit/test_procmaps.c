/* Finding an address in /proc/self/maps. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "procmaps.h"

static void parses_lines_with_and_without_a_path(void **s)
{
    (void)s;
    ha_map_entry e;
    assert_true(ha_maps_parse_line(
        "7f12a0000000-7f12a0200000 rw-s 00000000 00:05 1234   /dev/nvidia0\n", &e));
    assert_int_equal(e.start, 0x7f12a0000000u);
    assert_int_equal(e.end, 0x7f12a0200000u);
    assert_string_equal(e.perms, "rw-s");
    assert_string_equal(e.path, "/dev/nvidia0");
    assert_true(ha_maps_parse_line("10000-20000 ---p 00000000 00:00 0\n", &e));
    assert_string_equal(e.perms, "---p");
    assert_string_equal(e.path, "");
    assert_false(ha_maps_parse_line("garbage\n", &e));
    assert_false(ha_maps_parse_line("20000-10000 r--p 00000000 00:00 0\n", &e));
}

static void finds_the_containing_range(void **s)
{
    (void)s;
    char text[] = "1000-2000 r--p 00000000 00:00 0 [a]\n"
                  "bad line\n"
                  "3000-5000 rw-p 00000000 00:00 0 [b]\n";
    FILE *f = fmemopen(text, strlen(text), "r");
    ha_map_entry e;
    assert_int_equal(ha_maps_find_in(f, 0x4fff, &e), 1);
    assert_string_equal(e.path, "[b]");
    rewind(f);
    assert_int_equal(ha_maps_find_in(f, 0x2000, &e), 0); /* end is exclusive */
    fclose(f);
}

static void sees_live_protection(void **s)
{
    (void)s;
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    void *p = mmap(NULL, pg, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(p != MAP_FAILED);
    ha_map_entry e;
    assert_int_equal(ha_maps_find(p, &e), 1);
    assert_int_equal(e.perms[0], '-');
    mprotect(p, pg, PROT_READ);
    assert_int_equal(ha_maps_find(p, &e), 1);
    assert_int_equal(e.perms[0], 'r');
    munmap(p, pg);
    assert_int_equal(ha_maps_find(p, &e), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parses_lines_with_and_without_a_path),
        cmocka_unit_test(finds_the_containing_range),
        cmocka_unit_test(sees_live_protection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
