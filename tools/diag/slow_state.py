"""Does dividing by the syscall loop take a slow state of the host core out
of a family's rows? For every plain run of the given campaign folders
(results/gate-proc-h200/mN), each process's syscall loop and each row's
value are taken against the run's steadiest process (the smallest); per
family, the rows' excess is tabulated by the loop's excess, and the slope
of log row on log loop is printed: 1 means the division takes the state
out, more means the rows slow by more than the loop (compare's steady
margin, --steady-margin, report/derive/rowest.h, leaves such processes out
of those families).
  python3 tools/diag/slow_state.py results/gate-proc-h200/m5 ..."""
import glob
import gzip
import json
import math
import os
import statistics as st
import sys

FAMILIES = ("guarded", "query", "hardened", "fault")


def load(path):
    with (gzip.open(path) if path.endswith(".gz") else open(path)) as f:
        return json.load(f)


def process_values(row):
    return {p["process"]: st.median(p["block_medians_ns"]) for p in row.get("by_process") or [] if p["block_medians_ns"]}


def points(campaigns):
    """(family, loop excess, row excess) on the log scale, per process and row."""
    for camp in campaigns:
        for rec in sorted(glob.glob(os.path.join(camp, "*", "bench_discriminator.json*"))):
            d = load(rec)
            if d.get("test_slowdown"):
                continue
            loop = next((process_values(r) for r in d["rows"] if r["path"] == "syscall" and r["repeat"] == 1), {})
            if len(loop) < 2:
                continue
            low = min(loop.values())
            for r in d["rows"]:
                # os_proc_maps follows the mapping's place, not the core (never gated)
                if r["skipped"] or r["family"] not in FAMILIES or "proc_maps" in (r["candidate"] or ""):
                    continue
                v = {k: x for k, x in process_values(r).items() if k in loop}
                if len(v) < 4:
                    continue
                row_low = min(v.values())
                for k, x in v.items():
                    yield r["family"], math.log(loop[k] / low), math.log(x / row_low)


def main(campaigns):
    by = {}
    for fam, lx, ly in points(campaigns):
        by.setdefault(fam, []).append((lx, ly))
    if not by:
        sys.exit("slow_state.py: no plain run with per-process values in %s" % " ".join(campaigns))
    print("| family | points | slope | " + " | ".join("loop +%d-%d %%" % (b, b + 5) for b in range(0, 35, 5)) + " |")
    print("|---|---|---|" + "---|" * 7)
    for fam in FAMILIES:
        pts = by.get(fam, [])
        if len(pts) < 2:
            continue
        mx, my = st.mean(p[0] for p in pts), st.mean(p[1] for p in pts)
        slope = sum((x - mx) * (y - my) for x, y in pts) / sum((x - mx) ** 2 for x, _ in pts)
        cells = []
        for b in range(0, 35, 5):
            ys = [y for x, y in pts if math.log1p(b / 100) <= x < math.log1p((b + 5) / 100)]
            cells.append("+%.0f %% (%d)" % (100 * math.expm1(st.median(ys)), len(ys)) if ys else "-")
        print("| %s | %d | %.2f | %s |" % (fam, len(pts), slope, " | ".join(cells)))
    print("\nEach cell: the rows' median excess over the run's steadiest process (count), for processes whose loop ran that far above the steadiest's.")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: slow_state.py CAMPAIGN_FOLDER ... (results/gate-proc-h200/mN)")
    main(sys.argv[1:])
