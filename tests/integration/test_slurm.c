/* The survey through a real Slurm: a one-node cluster started for the test
 * (fleet/slurm-local.sh), the survey submitted as array tasks posing as
 * four hosts (HOSTACCESS_HOST=ci-%a), task 3 on a small-BAR model; then
 * report/fleet must name exactly ci-3, and stopping the cluster must leave
 * no daemon behind. Skips, saying why, without Slurm, munge or root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "itest.h"

static char tmp[256];

#define FAST "--backend sim --bench-args \"--processes 2 --iterations 100 --rounds 2 --no-sweep --row-seconds 0.01\" " \
             "--pool-args \"--cycles 2 --throughput-sizes 1MiB\""

static void the_survey_runs_through_slurm_and_finds_the_departing_host(void **s)
{
    (void)s;
    if (it_sh("PATH=$PATH:/usr/sbin; command -v slurmctld && command -v slurmd && command -v sbatch && "
              "command -v munged") != 0)
        it_skip("Slurm or munge is not installed (apt-get install slurmctld slurmd slurm-client munge)");
    if (geteuid() != 0)
        it_skip("the test cluster's daemons run as root, and this is not root");
    if (!it_backend_compiled("sim") || it_sh("test -x %s/bin/fleet", it_build()) != 0)
        it_skip("the sim backend or the report tools are not built");
    assert_int_equal(it_tmpdir(tmp, sizeof tmp, "slurm"), 0);
    if (it_sh("fleet/slurm-local.sh start %s/cluster", tmp) != 0)
        fail_msg("the test cluster did not start: %s", it_out);
    int rc = it_sh("export SLURM_CONF=%s/cluster/slurm.conf BUILD=%s; "
                   "HOSTACCESS_HOST='ci-%%a' sbatch --array=0-2 --output=%s/job-%%A_%%a.out fleet/survey.sbatch %s/res "
                   FAST " && HOSTACCESS_HOST='ci-%%a' HA_SIM_LARGE_BAR=0 sbatch --array=3 --output=%s/job-%%A_%%a.out "
                   "fleet/survey.sbatch %s/res " FAST " && for i in $(seq 300); do "
                   "[ -z \"$(squeue -h)\" ] && exit 0; sleep 1; done; exit 1",
                   tmp, it_build(), tmp, tmp, tmp, tmp);
    static char out[1 << 16];
    snprintf(out, sizeof out, "%.2000s", it_out);
    int fleet = rc == 0 ? it_sh("report/fleet %s/res", tmp) : -1;
    if (rc == 0)
        snprintf(out, sizeof out, "%s", it_out); /* the page, kept past the stop */
    it_sh("fleet/slurm-local.sh stop %s/cluster", tmp);
    /* [r]: the pattern must not match the shell that runs pgrep */
    assert_int_not_equal(it_sh("pgrep -f '%s/cluste[r]'", tmp), 0); /* nothing left running */
    if (rc != 0)
        fail_msg("the survey jobs did not finish: %s", out);
    assert_int_equal(fleet, 1);
    const char *d = strstr(out, "## Departures");
    assert_non_null(d);
    assert_non_null(strstr(d, "- ci-3 device 0, plain-readable: faults"));
    assert_null(strstr(d, "- ci-0 device"));
    assert_null(strstr(d, "- ci-1 device"));
    assert_null(strstr(d, "- ci-2 device"));
    assert_non_null(strstr(out, "4 host/device pair(s)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_survey_runs_through_slurm_and_finds_the_departing_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
