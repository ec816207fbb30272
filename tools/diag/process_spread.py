"""How far apart a run's processes are, per family: for every plain run of
the given campaign folders (results/gate-proc-h200/...), each timed row's
per-process values (the median of a process's block medians) divided by
that process's instrument and thinned as compare does it
(report/stats/regress.c: leaving out of every row a process that kept
blocks in fewer than 70 % of the rows the run's most complete process
kept; the syscall loop for the state-bound families, leaving out of
guarded, query and hardened rows the processes whose loop ran more than
10 % above the run's steadiest; the canary for read and copy), then per row the sd of their logs, the processes kept and
the standard error sd/sqrt(n) that a pair's interval is built on. Prints
per folder each family's median over its rows and runs. The os_proc_maps
rows (not gated) and the memory family are left out.
  python3 tools/diag/process_spread.py results/gate-proc-h200/m24 results/gate-proc-h200/m28"""
import glob
import math
import os
import statistics as st
import sys

from slow_state import FAMILIES as STATE_BOUND, load, process_values

STEADY_ONLY = ("guarded", "query", "hardened")
# compare's default rules (report/derive/rowest.c, m_est_default_rules)
STEADY_MARGIN = 0.10
CONTENDED_ROWS_SHARE = 0.7


def contended(bench):
    kept = {}
    for r in bench["rows"]:
        for p in r.get("by_process") or []:
            if p["block_medians_ns"]:
                kept[p["process"]] = kept.get(p["process"], 0) + 1
    top = max(kept.values(), default=0)
    return {k for k, n in kept.items() if n < CONTENDED_ROWS_SHARE * top}


def instruments(bench):
    return {r["path"]: process_values(r) for r in bench["rows"]
            if r["path"] in ("syscall", "canary") and r["repeat"] == 1}


def row_spreads(bench, acc):
    inst = instruments(bench)
    out = contended(bench)
    if "syscall" not in inst or "canary" not in inst or not inst["syscall"]:
        return
    low = min((v for k, v in inst["syscall"].items() if k not in out), default=math.inf)
    for r in bench["rows"]:
        fam = r["family"]
        if r["skipped"] or fam not in STATE_BOUND + ("read", "copy") or not r.get("by_process"):
            continue
        if r["candidate"] and "proc_maps" in r["candidate"]:
            continue
        by = inst["syscall" if fam in STATE_BOUND else "canary"]
        logs = []
        for k, x in process_values(r).items():
            c = by.get(k)
            if not x or not c or k in out:
                continue
            if fam in STEADY_ONLY and inst["syscall"].get(k, math.inf) > (1 + STEADY_MARGIN) * low:
                continue
            logs.append(math.log(x / c))
        if len(logs) >= 2:
            sd = st.stdev(logs)
            acc.setdefault(fam, []).append((sd / math.sqrt(len(logs)), sd, len(logs)))


def main(folders):
    for folder in folders:
        acc = {}
        for path in sorted(glob.glob(os.path.join(folder, "*", "bench_discriminator.json*"))):
            bench = load(path)
            if not bench.get("test_slowdown"):
                row_spreads(bench, acc)
        cells = ["%s se %.1f %% sd %.1f %% n %g" % (fam, 100 * st.median(v[0] for v in rows),
                                                    100 * st.median(v[1] for v in rows), st.median(v[2] for v in rows))
                 for fam, rows in sorted(acc.items())]
        print("%-8s %s" % (os.path.basename(folder.rstrip("/")), "  ".join(cells) or "no plain run with by_process rows"))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.splitlines()[-1].strip())
    main(sys.argv[1:])
