/* Each open of a backend holds its own state (be->priv): closing one leaves
 * another open of the same runtime working. Run on the hip backend over the
 * stand-in ROCm runtime beside the test (BUILD/standin/libamdhip64.so). */
#include <libgen.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "backend.h"
#include "rocm_profiles.h"

static char standin[4096];

static void two_opens_do_not_share_state(void **s)
{
    (void)s;
    ha_backend a, b;
    char msg[512];
    assert_int_equal(ha_backend_open("hip", 0, &a, msg, sizeof msg), HA_EXIT_OK);
    assert_int_equal(ha_backend_open("hip", 0, &b, msg, sizeof msg), HA_EXIT_OK);
    assert_non_null(a.priv);
    assert_non_null(b.priv);
    assert_ptr_not_equal(a.priv, b.priv);
    ha_backend_close(&a);
    assert_null(a.priv);
    assert_non_null(b.priv);
    a.ops->close(&a); /* a second close of a closed open is harmless */
    assert_null(a.priv);
    /* b's stream and pinned memory still work after a is gone */
    void *host = NULL;
    assert_int_equal(b.ops->host_alloc_pinned(&b, &host, 4096), HA_ST_OK);
    memset(host, 7, 4096);
    /* the runtime's own device memory (hipMalloc): no VMM layout to skew */
    const ha_kind *k = &b.ops->kinds[0];
    ha_alloc m = {0};
    m.kind = k;
    assert_int_equal(k->create(&b, &m), HA_ST_OK);
    assert_true(m.size >= 4096);
    assert_int_equal(b.ops->copy_h2d_enqueue(&b, m.ptr, host, 4096), HA_ST_OK);
    assert_int_equal(b.ops->stream_sync(&b), HA_ST_OK);
    unsigned char back[16] = {0};
    assert_int_equal(b.ops->copy_d2h_async(&b, back, m.ptr, sizeof back), HA_ST_OK);
    assert_int_equal(back[15], 7);
    k->destroy(&b, &m);
    b.ops->host_free_pinned(&b, host);
    ha_backend_close(&b);
}

int main(int argc, char **argv)
{
    (void)argc;
    char exe[4096];
    snprintf(exe, sizeof exe, "%s", argv[0]);
    /* BUILD/tests/test_backend_state -> BUILD/standin/libamdhip64.so */
    snprintf(standin, sizeof standin, "%s/../standin/libamdhip64.so", dirname(exe));
    if (!ha_backend_hip.compiled) {
        printf("[  SKIP    ] because the hip backend is compiled out (no HIP headers)\n");
        return 0;
    }
    if (access(standin, R_OK) != 0) {
        printf("[  SKIP    ] because the stand-in runtime is not built (%s; make probes builds it)\n", standin);
        return 0;
    }
    setenv(HA_HIP_LIBRARY_ENV, standin, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(two_opens_do_not_share_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
