#!/usr/bin/env python3
"""Judges campaigns (report/evidence/campaign.sh) with this tree's compare.

   report/evidence/campaign_summary.py [--compare PATH] [--out DIR] [--threshold FAMILY=PERCENT]...
                                       [--rule steady-margin=PERCENT|contended-share=PERCENT]... CAMPAIGN_DIR...

Each CAMPAIGN_DIR is one machine start. For every pair of consecutive plain
runs (A/A: nothing changed) it prints compare's verdict, its findings and the
run-to-run spread; for every slowed run, compared with the last plain run
before the slowed ones, how many rows of each slowed path were flagged and
whether any row that was not slowed was. Then the totals: A/A pairs with no
change, inconclusive pairs, and the power table (family x stretch -> share of
rows flagged, of all slowed rows and of the gated ones), and, where
campaign.sh kept it (runs.tsv), each run_all.sh's exit status and time. With --out, compare's JSON and Markdown for each pair are kept
there (a new folder). Exit: 0 the goals hold (every A/A pair 0 regressions
and 0 improvements, at most 1 in 10 inconclusive, >= 95 % of the gated
+15 % rows flagged, no +3 % row flagged), 1 they do not, 2 bad usage or unreadable input.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

from mdtext import md  # record text and folder names as Markdown text

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOWN = 5  # findings printed per class and pair
SLOWED_NOTE = re.compile(r"HOSTACCESS_TEST_SLOWDOWN: (\S+) \+(\d+)%\): (\d+) of (\d+) rows flagged"
                         r"(?:; of the (\d+) gated \(the rest monitor-only\), (\d+) flagged)?")


def die(msg):
    print("campaign_summary: " + msg, file=sys.stderr)
    sys.exit(2)


def read_campaign(d):
    path = os.path.join(d, "campaign.tsv")
    try:
        with open(path, encoding="utf-8") as f:
            lines = [l.rstrip("\n").split("\t") for l in f if l.strip()]
    except OSError as e:
        die(f"{path}: {e.strerror}: not a campaign folder (report/evidence/campaign.sh writes it)")
    plain = [l[1] for l in lines if l[0] == "plain" and len(l) == 2]
    slowed = [(l[1], l[2]) for l in lines if l[0] == "slowed" and len(l) == 3]
    if len(plain) + len(slowed) != len(lines):
        die(f"{path}: a line is neither 'plain FOLDER' nor 'slowed SPEC FOLDER'")
    # campaign.sh leaves a plain line without a folder when run_all.sh exited
    # non-zero (a failed PyTorch pool check does that after the run was
    # sealed): such runs are taken from the folder, in time order, if compare
    # finds them whole, and said so.
    missing = sum(1 for p in plain if p == "")
    if missing:
        named = set(plain) | {s[1] for s in slowed}
        extra = sorted(n for n in os.listdir(d) if os.path.isdir(os.path.join(d, n)) and n not in named)
        print(f"\n{path}: {missing} plain run(s) with no folder named (run_all.sh exited non-zero); "
              f"taking the unnamed folder(s) {', '.join(extra) or '(none)'}, judged only if whole")
        plain = sorted([p for p in plain if p] + extra)
    for name in plain + [s[1] for s in slowed]:
        if "/" in name or name in ("", ".", ".."):
            die(f"{path}: '{name}' is not a run folder's name")
    return plain, slowed


def read_runs(d):
    """runs.tsv (campaign.sh since issue 27): [(kind, status, seconds)], or None."""
    path = os.path.join(d, "runs.tsv")
    if not os.path.exists(path):
        return None
    out = []
    with open(path, encoding="utf-8") as f:
        for l in f:
            x = l.rstrip("\n").split("\t")
            if len(x) != 4 or not re.fullmatch(r"-|\d{1,3}", x[1]) or not re.fullmatch(r"\d+(\.\d+)?", x[2]):
                die(f"{path}: a line is not 'KIND STATUS SECONDS FOLDER'")
            out.append((x[0], x[1], float(x[2])))
    return out


def families(run):
    """path -> family, from a run's bench record (compressed or not)."""
    import gzip
    for name, opener in (("bench_discriminator.json", open), ("bench_discriminator.json.gz", gzip.open)):
        p = os.path.join(run, name)
        if os.path.exists(p):
            with opener(p, "rt", encoding="utf-8") as f:
                return {r["path"]: r["family"] for r in json.load(f)["rows"]}
    die(f"{run}: no bench record")


def compare(exe, a, b, out, tag, thresholds=(), rules=()):
    keep = out or tempfile.mkdtemp(prefix="campaign-")
    j, md = os.path.join(keep, tag + ".json"), os.path.join(keep, tag + ".md")
    extra = [x for t in thresholds for x in ("--threshold", t)]
    extra += [x for r in rules for x in ("--" + r.split("=", 1)[0], r.split("=", 1)[1])]
    rc = subprocess.run([exe, a, b, "--json", j, "--md", md] + extra, stdout=subprocess.DEVNULL).returncode
    if rc not in (0, 1, 6, 7):
        die(f"compare {a} {b} failed with status {rc}")
    with open(j, encoding="utf-8") as f:
        res = json.load(f)
    if not out:
        os.remove(j)
        os.remove(md)
        os.rmdir(keep)
    return rc, res


def rule(spec):
    name, eq, value = spec.partition("=")
    if name not in ("steady-margin", "contended-share") or not eq or not value:
        raise argparse.ArgumentTypeError(f"'{spec}': expected steady-margin=PERCENT or contended-share=PERCENT")
    return spec


def main():
    ap = argparse.ArgumentParser(description="judge campaigns with compare")
    ap.add_argument("--compare", default=os.path.join(os.environ.get("BUILD", os.path.join(HERE, "build")), "bin", "compare"))
    ap.add_argument("--out")
    ap.add_argument("--threshold", action="append", default=[], help="FAMILY=PERCENT, passed to compare")
    ap.add_argument("--rule", action="append", default=[], type=rule,
                    help="steady-margin=PERCENT or contended-share=PERCENT, passed to compare")
    ap.add_argument("campaigns", nargs="+")
    o = ap.parse_args()
    if not os.access(o.compare, os.X_OK):
        die(f"{o.compare} is missing: run 'make probes' (needs libjansson-dev)")
    if o.out:
        if os.path.exists(o.out):
            die(f"{o.out} exists: results are never overwritten; name a new folder")
        os.makedirs(o.out)

    runs = []     # (kind, run_all status, seconds) over every campaign that kept them
    aa = []       # (campaign, a, b, rc, result)
    power = {}    # (family, percent) -> [flagged, tried]
    stray = 0     # rows flagged in a slowed comparison that were not slowed
    for c in o.campaigns:
        plain, slowed = read_campaign(c)
        runs += read_runs(c) or []
        cname = os.path.basename(os.path.normpath(c))
        print(f"\n## {md(cname)}: {len(plain)} plain runs, {len(slowed)} slowed")
        print("| pair | verdict | regressions | improvements | inconclusive | p90 |Δ median| normalised | exit |")
        print("|---|---|---|---|---|---|---|")
        for i in range(len(plain) - 1):
            a, b = os.path.join(c, plain[i]), os.path.join(c, plain[i + 1])
            rc, r = compare(o.compare, a, b, o.out, f"{cname}-aa{i + 1}", o.threshold, o.rule)
            aa.append((cname, plain[i], plain[i + 1], rc, r))
            rr = r.get("run_to_run") or {}
            p90 = rr.get("normalised_pct_p90")
            print(f"| {md(plain[i])} → {md(plain[i + 1])} | {r['verdict']} | {len(r['regressions'])} | {len(r['improvements'])} "
                  f"| {len(r['inconclusive'])} | {'%.1f %%' % p90 if p90 is not None else '-'} | {rc} |")
            for what in ("regressions", "improvements", "inconclusive"):
                for f in r[what][:SHOWN]:
                    print(f"  - {what[:-1] if what != 'inconclusive' else what}: {md(f['what'])} {md(f['name'])}: "
                          f"{md(f['detail'])}")
                if len(r[what]) > SHOWN:
                    print(f"  - and {len(r[what]) - SHOWN} more {what} (compare's own report lists them)")
        if not slowed:
            continue
        base = os.path.join(c, plain[-1])
        fam = families(base)
        print("\n| slowed run | path | family | stretch | rows flagged | gated rows flagged | other rows flagged |")
        print("|---|---|---|---|---|---|---|")
        for k, (spec, folder) in enumerate(slowed):
            rc, r = compare(o.compare, base, os.path.join(c, folder), o.out, f"{cname}-slowed{k + 1}", o.threshold, o.rule)
            paths = {}
            for n in r["notes"]:
                m = SLOWED_NOTE.search(n)
                if m:
                    # compare from before the gated count: every row counts as gated
                    gated = int(m.group(5)) if m.group(5) else int(m.group(4))
                    gated_got = int(m.group(6)) if m.group(6) else int(m.group(3))
                    paths[m.group(1)] = (int(m.group(2)), int(m.group(3)), int(m.group(4)), gated_got, gated)
            slowed_paths = set(paths)
            others = [f for f in r["regressions"] if f["what"] == "timing" and f["name"].split(" / ")[0] not in slowed_paths]
            stray += len(others)
            for p, (pct, got, rows, ggot, grows) in sorted(paths.items()):
                cell = power.setdefault((fam.get(p, "?"), pct), [0, 0, 0, 0])
                for i, v in enumerate((got, rows, ggot, grows)):
                    cell[i] += v
                print(f"| {md(folder)} | {md(p)} | {md(fam.get(p, '?'))} | +{pct} % | {got} of {rows} | {ggot} of {grows} "
                      f"| {len(others)} |")

    quiet = sum(1 for x in aa if not x[4]["regressions"] and not x[4]["improvements"])
    inconclusive = sum(1 for x in aa if x[4]["verdict"] == "inconclusive")
    unresolved = sum(1 for x in aa if x[4]["verdict"] == "unresolved")
    print(f"\n## Totals\n\nA/A pairs: {len(aa)} from {len(o.campaigns)} machine start(s); "
          f"{quiet} with 0 regressions and 0 improvements; {inconclusive} inconclusive; {unresolved} unresolved "
          f"(fewer than 90 % of their rows decided: not clean).")
    ok = quiet == len(aa) and inconclusive * 10 <= len(aa) and len(aa) > 0
    if runs:
        secs = sorted(x[2] for x in runs)
        zero = sum(1 for x in runs if x[1] == "0")
        print(f"\nrun_all.sh: {len(runs)} run(s), {zero} exit 0"
              + "".join(f", {sum(1 for x in runs if x[1] == st)} exit {st}" for st in sorted({x[1] for x in runs} - {"0"}))
              + f"; {secs[0]:.0f}–{secs[-1]:.0f} s, median {secs[len(secs) // 2]:.0f} s")
    if power:
        pcts = sorted({p for _, p in power})
        fams = sorted({f for f, _ in power})
        print("\nRows flagged of all slowed rows, and of the gated ones (the pair resolves ±15 %; the "
              "rest are monitor-only: reported with their detectable change, never gated).\n")
        print("| family | " + " | ".join(f"+{p} % all | +{p} % gated" for p in pcts) + " |")
        print("|---|" + "---|---|" * len(pcts))

        def cell(got, rows):
            return f"{got}/{rows} ({100.0 * got / rows:.0f} %)" if rows else "-"
        for f in fams:
            cells = []
            for p in pcts:
                got, rows, ggot, grows = power.get((f, p), [0, 0, 0, 0])
                cells += [cell(got, rows), cell(ggot, grows)]
            print(f"| {md(f)} | " + " | ".join(cells) + " |")
        hi = [power[k] for k in power if k[1] >= 15]
        lo = [power[k] for k in power if k[1] <= 3]
        hi_got, hi_rows = sum(x[0] for x in hi), sum(x[1] for x in hi)
        hig_got, hig_rows = sum(x[2] for x in hi), sum(x[3] for x in hi)
        lo_got = sum(x[0] for x in lo)
        print(f"\n+15 % rows flagged: {hi_got} of {hi_rows} ({hig_got} of the {hig_rows} gated); +3 % rows flagged: "
              f"{lo_got}; rows flagged that were not slowed: {stray}")
        ok = ok and hig_rows > 0 and hig_got * 100 >= 95 * hig_rows and lo_got == 0
    print("\ngoals " + ("hold" if ok else "NOT met"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
