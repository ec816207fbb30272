#!/usr/bin/env python3
"""What an A/B session's "clean" bounds: this tree's compare on re-labelled
and scaled copies of recorded A/A sessions.

   report/evidence/ab_scale.py [--compare PATH] [--relabel K] [--seed N]
                               [--markdown FILE] SESSION_FOLDER...

Each SESSION_FOLDER is a run_all.sh --ab folder whose side B changed nothing
(spec env:HOSTACCESS_AB_SIDE=b): an A/A session on real hardware; or one
whose side B slowed one path on purpose (env:HOSTACCESS_TEST_SLOWDOWN=PATH=N),
its rows of that path left out: the others are an A/A session's. From each,
K more A/A copies are made by swapping the two sides of each round with
probability 1/2 (the rounds randomise which side ran when, so any relabelling
is a session that could have happened). Every copy is then given each
scenario of SCENARIOS: side B's processes' values of some rows multiplied by
a factor, as a B that changed them would have measured. A copy is judged as
the sequential rule would have judged it: at 8, 16 and 24 paired rounds and
at the rounds recorded (the budget's end), stopping at the first look where
every row is settled (compare's "session" says so), each look on the rounds
up to it; the copy is resealed and judged by `compare --json`.

Prints one line a scenario (Markdown with --markdown FILE, a new file):
sessions, how many clean, rows flagged of those slowed, other rows flagged,
the rows shown the same, and the goal's outcome. Exit: 0 every goal held,
1 a goal did not, 2 bad usage or unreadable input.
"""
import argparse
import copy
import gzip
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LOOKS = (8, 16, 24, 39)  # common/abgate.c ha_ab_look_rounds
AA_SPEC = "env:HOSTACCESS_AB_SIDE=b"
INSTRUMENTS = ("syscall", "canary")
RUN_BOUND = lambda r: r.get("candidate") == "os_proc_maps" or r.get("family") == "memory"


def timed(r):
    return r["repeat"] == 1 and not r["skipped"] and r["path"] not in INSTRUMENTS + ("harness",)


# A scenario: (name, which rows of side B to scale and by what, the goal).
# The goal reads the judgement j (compare's JSON) and the slowed rows' names.
def scenario_list(rows):
    paths = sorted({r["path"] for r in rows if timed(r)})
    out = [("A/A", [], "aa")]
    for p in paths:
        out.append((f"{p} +10 %", [(lambda r, p=p: r["path"] == p and timed(r), 1.10)], "all_flagged"))
    for p in paths:
        out.append((f"{p} +5 %", [(lambda r, p=p: r["path"] == p and timed(r), 1.05)], "bound_covers:1.05"))
    out.append(("one row +10 %", "one_row", "never_clean"))
    out.append(("syscall ×0.9 alone", [(lambda r: r["path"] == "syscall", 0.90)], "aa"))
    out.append(("syscall ×1.1, hardened +10 %",
                [(lambda r: r["path"] == "syscall", 1.10), (lambda r: r["path"] == "hardened" and timed(r), 1.10)],
                "all_flagged"))
    out.append(("fast_cold and os_proc_maps +15 %", [(lambda r: timed(r) and RUN_BOUND(r), 1.15)], "all_flagged"))
    out.append(("every row and both instruments +15 %", [(lambda r: r["path"] != "harness", 1.15)], "never_clean"))
    return out


def load(folder):
    for name, op in (("bench_discriminator.json", open), ("bench_discriminator.json.gz", gzip.open)):
        f = os.path.join(folder, name)
        if os.path.exists(f):
            with op(f, "rt") as h:
                return json.load(h), name
    sys.exit(f"ab_scale: {folder}: no bench_discriminator.json: not a run folder")


def sides(rec):
    return {p["index"]: (p["side"], p["round"]) for p in rec["processes"]["list"] if p["ok"]}


def relabel(rec, rng):
    """Swaps the sides of each round with probability 1/2."""
    rec = copy.deepcopy(rec)
    swap = {rd for rd in range(1, rec["ab_session"]["rounds_started"] + 1) if rng.random() < 0.5}
    for p in rec["processes"]["list"]:
        if p["round"] in swap:
            p["side"] = "b" if p["side"] == "a" else "a"
    return rec


def scale(rec, changes):
    """Side B's block medians of the rows each change selects, times its factor."""
    rec = copy.deepcopy(rec)
    side = sides(rec)
    slowed = []
    for r in rec["rows"]:
        f = 1.0
        for pick, factor in changes:
            if pick(r):
                f *= factor
        if f == 1.0:
            continue
        if timed(r):
            slowed.append(name(r))
        for bp in r.get("by_process") or []:
            if side.get(bp["process"], ("a", 0))[0] == "b":
                bp["block_medians_ns"] = [v * f for v in bp["block_medians_ns"]]
    return rec, slowed


def name(r):
    return " / ".join(x for x in (r["path"], r.get("kind") or "", r.get("candidate") or "") if x)


def truncate(rec, rounds):
    """The session as it stood after `rounds` rounds, looked at there."""
    rec = copy.deepcopy(rec)
    keep = {p["index"] for p in rec["processes"]["list"] if p["round"] <= rounds}
    rec["processes"]["list"] = [p for p in rec["processes"]["list"] if p["index"] in keep]
    rec["processes"]["finished"] = sum(1 for p in rec["processes"]["list"] if p["ok"])
    for r in rec["rows"]:
        if r.get("by_process") is not None:
            r["by_process"] = [bp for bp in r["by_process"] if bp["process"] in keep]
    ab = rec["ab_session"]
    done = {}
    for p in rec["processes"]["list"]:
        if p["ok"] and p["round"] > 0:
            done.setdefault(p["round"], set()).add(p["side"])
    ab["rounds_started"] = rounds
    ab["rounds"] = sum(1 for s in done.values() if s == {"a", "b"})
    ab["looks"] = [x for x in LOOKS if x < ab["rounds"]][:3] + [ab["rounds"]]
    ab["stopped"] = f"a copy looked at after {rounds} rounds (report/evidence/ab_scale.py)"
    return rec


def reseal(src, rec, name_in, dst):
    """src's folder with rec as its bench record, the manifest's seal made for it."""
    os.makedirs(dst)
    body = json.dumps(rec).encode()
    with open(os.path.join(src, "MANIFEST.json")) as h:
        man = json.load(h)
    for s in man["steps"]:
        if s.get("record") == "bench_discriminator.json":
            s["bytes"], s["sha256"] = len(body), hashlib.sha256(body).hexdigest()
    for f in os.listdir(src):
        if f not in ("MANIFEST.json", name_in) and os.path.isfile(os.path.join(src, f)):
            shutil.copyfile(os.path.join(src, f), os.path.join(dst, f))
    with open(os.path.join(dst, "bench_discriminator.json"), "wb") as h:
        h.write(body)
    with open(os.path.join(dst, "MANIFEST.json"), "w") as h:
        json.dump(man, h)


def judge(compare, src, rec, name_in, tmp):
    """The sequential rule on rec's rounds: compare's JSON at the look it stops at."""
    recorded = rec["ab_session"]["rounds_started"]
    for n, look in enumerate([x for x in LOOKS if x < recorded] + [recorded]):
        d = os.path.join(tmp, f"look{n}")
        shutil.rmtree(d, ignore_errors=True)
        reseal(src, truncate(rec, look), name_in, d)
        out = os.path.join(tmp, f"look{n}.json")
        if os.path.exists(out):
            os.unlink(out)
        p = subprocess.run([compare, d, "--json", out], capture_output=True, text=True)
        if p.returncode not in (0, 1, 6, 7):
            sys.exit(f"ab_scale: compare on a copy of {src}: exit {p.returncode}: {p.stderr.strip()[:300]}")
        with open(out) as h:
            j = json.load(h)
        j["exit"] = p.returncode
        s = j["session"]
        if s["rows"] == s["same"] - s["same_not_within_threshold"] + s["regressions"] + s["improvements"]:
            break
    return j


def outcome(goal, j, slowed):
    """Whether one judgement meets its goal, and the flagged rows of the slowed and the others."""
    flagged = {f["name"] for f in j["regressions"] + j["improvements"] if f["what"] == "timing"}
    hit, other = len(flagged & set(slowed)), len(flagged - set(slowed))
    clean = j["exit"] == 0
    if goal == "aa":
        ok = not flagged
    elif goal == "all_flagged":
        ok = hit == len(slowed) and not other
    elif goal == "never_clean":
        ok = not clean
    else:  # bound_covers:X: never clean at a margin that excludes X
        ok = not clean or j["session"]["bound_high"] >= float(goal.split(":")[1])
    return ok, clean, hit, other


def main():
    ap = argparse.ArgumentParser(usage=__doc__.split("\n\n")[1].strip())
    ap.add_argument("--compare", default=os.path.join(HERE, "build/bin/compare"))
    ap.add_argument("--relabel", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--markdown")
    ap.add_argument("folders", nargs="+")
    a = ap.parse_args()
    if a.relabel < 0 or (a.markdown and os.path.exists(a.markdown)):
        sys.exit("ab_scale: --relabel takes 0 or more; --markdown a file that does not exist yet")
    rng = random.Random(a.seed)
    tally = {}
    order = []
    with tempfile.TemporaryDirectory(prefix="ab_scale-") as tmp:
        for folder in a.folders:
            rec, name_in = load(folder)
            spec = (rec.get("ab_session") or {}).get("spec") or ""
            slowed = re.fullmatch(r"env:HOSTACCESS_TEST_SLOWDOWN=([a-z_]+)=\d+", spec)
            if slowed:  # its other rows are an A/A session's
                rec["rows"] = [r for r in rec["rows"] if r["path"] != slowed.group(1)]
            elif spec != AA_SPEC:
                sys.exit(f"ab_scale: {folder}: side B {spec}: give A/A sessions ({AA_SPEC}) or sessions that slowed "
                         "one path (HOSTACCESS_TEST_SLOWDOWN=PATH=N), whose other rows are")
            copies = [rec] + [relabel(rec, rng) for _ in range(a.relabel)]
            for c in copies:
                for sname, changes, goal in scenario_list(c["rows"]):
                    if changes == "one_row":
                        r = rng.choice([r for r in c["rows"] if timed(r)])
                        scaled, slowed = scale(c, [(lambda x, n=name(r): name(x) == n, 1.10)])
                    else:
                        scaled, slowed = scale(c, changes)
                    if goal != "aa" and not slowed:
                        continue  # the base left that path out: nothing of it to slow
                    j = judge(a.compare, folder, scaled, name_in, tmp)
                    ok, clean, hit, other = outcome(goal, j, slowed)
                    t = tally.setdefault(sname, {"goal": goal, "n": 0, "ok": 0, "clean": 0, "hit": 0, "slowed": 0,
                                                 "other": 0, "same": 0, "rows": 0, "zone": 0})
                    if sname not in order:
                        order.append(sname)
                    s = j["session"]
                    t.setdefault("rounds_seen", []).append(s["rounds_judged"])
                    if clean:
                        t.setdefault("bounds", []).append(100 * max(1 - s["bound_low"], s["bound_high"] - 1))
                    for k, v in (("n", 1), ("ok", ok), ("clean", clean), ("hit", hit), ("slowed", len(slowed)),
                                 ("other", other), ("same", s["same"]), ("rows", s["rows"]),
                                 ("zone", s["same_not_within_threshold"])):
                        t[k] += v
    lines = ["| scenario | goal | sessions | goal met | clean | clean's bound, median (widest) | rounds judged | "
             "slowed rows flagged | other rows flagged | rows same (of them not within ±4 %) |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for sname in order:
        t = tally[sname]
        b = sorted(t.get("bounds", []))
        bound = f"±{statistics.median(b):.1f} % (±{b[-1]:.1f} %)" if b else "–"
        r = sorted(t["rounds_seen"])
        lines.append(f"| {sname} | {t['goal']} | {t['n']} | {t['ok']} | {t['clean']} | {bound} | {r[0]}–{r[-1]} | "
                     f"{t['hit']} of {t['slowed']} | {t['other']} | {t['same']} of {t['rows']} ({t['zone']}) |")
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if a.markdown:
        with open(a.markdown, "x") as h:
            h.write(text)
    return 0 if all(t["ok"] == t["n"] for t in tally.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
