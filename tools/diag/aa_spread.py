"""Per-family run-to-run spread over every pair of runs in a folder (all of
one build, one machine): |new/old - 1| of each row's figure (median of its
block medians), as measured and after the canary raised to a clock share
(copies 1/2, the rest 1). compare's one-process threshold (8 %, gone with
its block bootstrap on 2026-12-07) came from it.
  python3 tools/diag/aa_spread.py results/aa-calibration"""
import glob
import itertools
import os
import statistics as st
import sys

from slow_state import load as load_record


def load(run):
    # make compact-results stores the record compressed; either form is read
    d = load_record(next(iter(glob.glob(os.path.join(run, "bench_discriminator.json*"))), ""))
    blocks, fam = {}, {}
    for r in d["rows"]:
        if r["skipped"] or "block_samples" not in r:
            continue
        k = (r["path"], r["kind"], r["candidate"])
        bs, s = r["block_samples"], r["samples_ns"]
        blocks.setdefault(k, []).extend(st.median(s[i:i + bs]) for i in range(0, len(s), bs))
        fam[k] = r["family"]
    return {k: st.median(v) for k, v in blocks.items()}, fam


runs = sorted(p for p in glob.glob(os.path.join(sys.argv[1], "*")) if os.path.isdir(p))
R = [load(r) for r in runs]
for share_copy in (0.0, 0.5, 1.0, None):
    res = {}
    for a, b in itertools.combinations(range(len(R)), 2):
        fa, fb, fam = R[a][0], R[b][0], R[a][1]
        c = fb[("canary", None, None)] / fa[("canary", None, None)]
        for k in fa:
            if k not in fb or fam[k] in ("harness", "canary"):
                continue
            share = 0 if share_copy is None else (share_copy if fam[k] == "copy" else 1)
            res.setdefault(fam[k], []).append(abs(fb[k] / fa[k] / c ** share - 1) * 100)
    label = "as measured" if share_copy is None else "after the canary, copy share %.1f" % share_copy
    print("%d runs, %d pairs, %s:" % (len(R), len(R) * (len(R) - 1) // 2, label))
    for f, v in sorted(res.items()):
        v.sort()
        print("  %-9s p90 %5.1f%%  max %5.1f%%" % (f, v[int(0.9 * (len(v) - 1))], v[-1]))
