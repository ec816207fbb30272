#!/usr/bin/env python3
"""Where an A/B session's spread is (docs/gate.md, "A/B sessions").

   tools/diag/ab_spread.py SESSION_DIR...

For each family of timed rows, the median over its rows of the standard
error (of log B/A) each way of judging it would have: paired on raw values,
paired on values divided by the canary to the family's clock share, paired
on values divided by the syscall loop, the same on pairs whose two
processes were both steady (syscall loop within 10 % of the session's
steadiest), and Welch over the steady processes of each side divided by
their loop (what compare does for guarded, query, hardened, fault and copy
rows). n: the median pairs, or A's steady processes. First, the range of
the processes' syscall loops and how many were steady. A diagnostic, not a
judgement: it reads the records only.
"""
import collections
import gzip
import json
import math
import os
import statistics as st
import sys

SHARES = {"read": 1, "memory": 0.7, "guarded": 1, "query": 1, "hardened": 1, "copy": 0.4, "fault": 0.65}


def load(d):
    for name, opener in (("bench_discriminator.json", open), ("bench_discriminator.json.gz", gzip.open)):
        f = os.path.join(d, name)
        if os.path.exists(f):
            with opener(f, "rt") as h:
                return json.load(h)
    sys.exit(f"ab_spread: {d}: no bench record")


def values(row):
    return {bp["process"]: st.median(bp["block_medians_ns"])
            for bp in (row.get("by_process") or []) if bp["block_medians_ns"]}


def spread(d):
    j = load(d)
    procs = {p["index"]: p for p in j["processes"]["list"]}
    rows = j["rows"]
    can = values(next(r for r in rows if r["path"] == "canary"))
    sysc = values(next(r for r in rows if r["path"] == "syscall"))
    rounds = {}
    for i, p in procs.items():
        if p.get("round"):
            rounds.setdefault(p["round"], {})[p["side"]] = i
    low = min(sysc.values())
    steady = lambda p: p in sysc and sysc[p] <= 1.1 * low
    fam = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        f = r["family"]
        if r["skipped"] or r["repeat"] != 1 or f not in SHARES or r.get("candidate") == "os_proc_maps":
            continue
        v = values(r)
        for mode in ("raw", "canary", "syscall", "steady pairs"):
            ds = []
            for s in rounds.values():
                a, b = s.get("a"), s.get("b")
                if not all(x in v and x in can and x in sysc for x in (a, b)):
                    continue
                x = math.log(v[b] / v[a])
                if mode == "canary":
                    x -= SHARES[f] * math.log(can[b] / can[a])
                elif mode != "raw":
                    x -= math.log(sysc[b] / sysc[a])
                if mode == "steady pairs" and not (steady(a) and steady(b)):
                    continue
                ds.append(x)
            if len(ds) > 3:
                fam[f][mode].append((st.stdev(ds) / math.sqrt(len(ds)), len(ds)))
        sides = {s: [math.log(v[p] / sysc[p]) for p in v if procs[p].get("round") and procs[p].get("side") == s
                     and steady(p)] for s in "ab"}
        if len(sides["a"]) > 2 and len(sides["b"]) > 2:
            se = math.sqrt(sum(st.variance(x) / len(x) for x in sides.values()))
            fam[f]["steady Welch"].append((se, len(sides["a"])))
    loops = sorted(sysc[p] for p in sysc if procs[p].get("round"))
    states = (f"syscall loop over the rounds' {len(loops)} processes with one: {loops[0]:.1f} to {loops[-1]:.1f} ns, "
              f"{sum(1 for x in loops if x <= 1.1 * low)} within 10 % of the steadiest ({low:.1f} ns)") if loops else ""
    return fam, states


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: tools/diag/ab_spread.py SESSION_DIR...")
    for d in sys.argv[1:]:
        print(f"== {d}")
        fam, states = spread(d)
        print(states)
        for f, modes in fam.items():
            print(f"{f:9s} " + "  ".join(f"{m} {st.median(x[0] for x in xs):.4f} (n {st.median(x[1] for x in xs):g})"
                                          for m, xs in modes.items()))


if __name__ == "__main__":
    main()
