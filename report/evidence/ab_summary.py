#!/usr/bin/env python3
"""Judges A/B campaigns (report/evidence/ab_campaign.sh) with this tree's compare.

   report/evidence/ab_summary.py [--compare PATH] CAMPAIGN_DIR...

Each CAMPAIGN_DIR is one machine start; its ab.tsv names each session's
spec and folder. For every session: compare's verdict and exit status, the
timed rows it shows the same within +-10 %, the rows it flags, and for a
spec that slows a path (env:HOSTACCESS_TEST_SLOWDOWN=PATH=PERCENT) how many
of that path's rows it flags and whether a row of another path was flagged;
and what compare found in side B's probes and pool against side A's.
Then the totals against the issue's goals. Exit: 0 the goals hold (every
A/A session 0 flags and >= 90 % of rows same; every row of a +10 % path
flagged and nothing else; nothing flagged at +3 %), 1 they do not, 2 bad
usage or unreadable input.
"""
import argparse
import os
import re
import subprocess
import sys

from mdtext import md as cell  # a record's string as Markdown: it cannot end a cell

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COUNTS = re.compile(r"(\d+) row\(s\): (\d+) same, (\d+) regression\(s\), (\d+) improvement\(s\)")
FLAGGED = re.compile(r"^- timing (\S+) / ", re.M)
# side B's untimed findings (its kinds, candidates and pool against A's)
UNTIMED = re.compile(r"^- (?:kind|candidate|status|pool_check|throughput|record) ", re.M)
SLOWED = re.compile(r"^env:HOSTACCESS_TEST_SLOWDOWN=([a-z_]+)=(\d+)$")


def judge(compare, folder):
    p = subprocess.run([compare, folder], capture_output=True, text=True)
    if p.returncode not in (0, 1, 6, 7):
        sys.exit(f"ab_summary: compare {folder}: exit {p.returncode}: {p.stderr.strip()[:300]}")
    m = COUNTS.search(p.stdout)
    if not m:
        sys.exit(f"ab_summary: compare {folder} gave no row counts")
    rows, same, reg, imp = map(int, m.groups())
    verdict = p.stdout.split("\n", 1)[0].replace("## hostaccess compare: ", "")
    head, _, _ = p.stdout.partition("### How it was judged")
    flagged = [x.replace("\\_", "_") for x in FLAGGED.findall(head.split("### Regression", 1)[-1])] if reg else []
    side_b = ("not run (a run_all.sh before side B's steps)" if "side B ran the bench only" in p.stdout
              else f"{len(UNTIMED.findall(head))} finding(s)")
    return p.returncode, verdict, rows, same, reg, imp, flagged, side_b


def path_rows(folder, path):
    """The rows of a path a session judges, from the record itself: repeat 1 and timed, as
    regress_row_session_judged says (the cold read and os_proc_maps included)."""
    import gzip
    import json
    for name, opener in (("bench_discriminator.json", open), ("bench_discriminator.json.gz", gzip.open)):
        f = os.path.join(folder, name)
        if os.path.exists(f):
            with opener(f, "rt") as h:
                rec = json.load(h)
            return sum(1 for r in rec["rows"] if r["path"] == path and r["repeat"] == 1 and not r["skipped"])
    sys.exit(f"ab_summary: {folder}: no bench record")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compare", default=os.path.join(HERE, "build", "bin", "compare"))
    ap.add_argument("campaigns", nargs="+")
    a = ap.parse_args()
    ok = True
    tot = {"aa": 0, "aa_flag": 0, "aa_rows": 0, "aa_same": 0, "p10_rows": 0, "p10_hit": 0, "p10_other": 0,
           "p3": 0, "p3_flag": 0}
    print("| machine | B | compare | rows same | flagged | of the slowed path | B's probes and pool |")
    print("|---|---|---|---|---|---|---|")
    for c in a.campaigns:
        try:
            lines = [ln.rstrip("\n").split("\t") for ln in open(os.path.join(c, "ab.tsv")) if ln.strip()]
        except OSError as e:
            sys.exit(f"ab_summary: {c}: {e.strerror}: expected an ab_campaign.sh folder")
        for spec, rc, secs, _crc, folder in lines:
            if rc != "0" or not folder:
                print(f"| {cell(os.path.basename(c))} | {cell(spec)} | run_all.sh exit {cell(rc)} | | | | |")
                ok = False
                continue
            crc, verdict, rows, same, reg, imp, flagged, side_b = judge(a.compare, os.path.join(c, folder))
            m = SLOWED.match(spec)
            note = ""
            if m:
                path, pct = m.group(1), int(m.group(2))
                n = path_rows(os.path.join(c, folder), path)
                hit = sum(1 for f in flagged if f == path)
                other = len(flagged) - hit + imp
                note = f"{hit} of {n}" + (f"; {other} other" if other else "")
                if pct >= 10:
                    tot["p10_rows"] += n
                    tot["p10_hit"] += hit
                    tot["p10_other"] += other
                else:
                    tot["p3"] += 1
                    tot["p3_flag"] += reg + imp > 0
            else:
                tot["aa"] += 1
                tot["aa_flag"] += reg + imp > 0
                tot["aa_rows"] += rows
                tot["aa_same"] += same
            print(f"| {cell(os.path.basename(c))} | {cell(spec)} | {verdict} ({crc}) | {same} of {rows} | {reg + imp} | {note} "
                  f"| {side_b} |")
    print()
    aa_share = tot["aa_same"] / tot["aa_rows"] if tot["aa_rows"] else 0
    print(f"A/A: {tot['aa']} session(s), {tot['aa_flag']} with a flag; {tot['aa_same']} of {tot['aa_rows']} rows "
          f"same ({100 * aa_share:.0f} %; goal >= 90 %).")
    print(f"+10 % on one path: {tot['p10_hit']} of {tot['p10_rows']} rows of the slowed paths flagged (goal: all), "
          f"{tot['p10_other']} other row(s) flagged.")
    print(f"+3 %: {tot['p3_flag']} of {tot['p3']} session(s) flagged a row (goal: none).")
    ok &= tot["aa_flag"] == 0 and aa_share >= 0.9 and tot["p10_hit"] == tot["p10_rows"] and not tot["p10_other"]
    ok &= tot["p3_flag"] == 0
    print("goals:", "met" if ok else "NOT met")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
