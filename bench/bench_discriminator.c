/* bench_discriminator: what the direct host read (fast path) buys over the
 * runtime copy (slow path), and what each working discriminator costs on
 * top of it (hardened fast path). Which candidates work is decided in this
 * run, on this machine, by the probe's own logic. Every timed row is
 * sampled in several processes (procs.h). The steps are units of their
 * own (bench.h). */
#include "bench.h"

int main(int argc, char **argv)
{
    static bench b;
    bench_defaults(&b);
    int rc = bench_options(&b, argc, argv);
    if (rc)
        return rc < 0 ? HA_EXIT_OK : rc;
    double t0 = ha_now_s();
    rc = ha_tool_start(&b.t);
    if (rc)
        return rc < 0 ? HA_EXIT_OK : rc;
    double opened = ha_now_s();
    if ((rc = bench_check_started(&b)) != 0)
        return rc;
    bench_ctx c = {0};
    if ((rc = bench_prepare(&b, &c)) != 0) {
        ha_tool_abort(&b.t);
        return rc;
    }
    double prepared = ha_now_s();
    bench_measure_all(&b, &c);
    bench_procs_view pv = bench_procs_of(&b);
    bench_procs_collect_self(&pv);
    b.procs[0].open_s = opened - t0;
    b.procs[0].prepare_s = prepared - opened;
    b.procs[0].measure_s = ha_now_s() - prepared;
    b.procs[0].wall_s = ha_now_s() - t0;
    bench_release_memory(&b, &c);
    if (b.worker_out) {
        rc = bench_procs_write_worker(&pv);
        bench_release(&b, &c);
        ha_tool_abort(&b.t);
        return rc;
    }
    int ab_rc = 0;
    if (b.ab.on)
        ab_rc = bench_ab_run(&b, argc, argv);
    else
        bench_procs_run_workers(&pv, argc, argv);
    double wall = ha_now_s() - t0;
    headline hl = bench_find_headline(&b);
    bench_print(&b, &hl, wall);
    rc = bench_write_sweep_csv(&b);
    rc = rc ? rc : ab_rc;
    jw w;
    bench_record(&b, &hl, wall, &w);
    bench_release(&b, &c);
    ab_free(&b.ab);
    return ha_tool_finish(&b.t, &w, rc);
}
