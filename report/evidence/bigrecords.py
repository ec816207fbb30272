#!/usr/bin/env python3
"""Grows one record of a run folder to about MB megabytes in one shape, for
the report tools' size benchmark (report/evidence/bench_report.sh) and their memory
test: a record people attach can be long in any of its arrays, and each
shape walks a different path of the loader, the derived facts and the
renderers. The folder's manifest is left to the caller (run_manifest).

    report/evidence/bigrecords.py SHAPE RUN_DIR MB
    report/evidence/bigrecords.py --list

Exit 0 written, 2 bad arguments or a record without what the shape grows.
"""
import json
import os
import sys


def load(run, name):
    with open(os.path.join(run, name)) as f:
        return json.load(f)


def save(run, name, doc):
    with open(os.path.join(run, name), "w") as f:
        json.dump(doc, f)


def grow(items, size_of_one, budget, make):
    """make(i, template) for enough i that the list holds about budget bytes."""
    n = max(1, budget // max(1, size_of_one))
    return [make(i, items[i % len(items)]) for i in range(n)]


def bench_samples(run, budget):
    """Every row's blocks K times longer: a long live run."""
    d = load(run, "bench_discriminator.json")
    rows = [r for r in d["rows"] if r.get("samples_ns") and r.get("block_samples")]
    per_row = budget // 9 // max(1, len(rows))  # about 9 bytes a number, compact
    for r in rows:
        sm, per = r["samples_ns"], r["block_samples"]
        k = per_row // len(sm) + 1
        r["samples_ns"] = [x for b in range(len(sm) // per) for _ in range(k) for x in sm[b * per:(b + 1) * per]]
        r["block_samples"] = per * k
        if "n" in r:  # a schema-3 record carries its count; from 4 the reader derives it
            r["n"] = len(r["samples_ns"])
    save(run, "bench_discriminator.json", d)


def bench_rows(run, budget):
    """Many rows, each a copy of a real one under a candidate of its own."""
    d = load(run, "bench_discriminator.json")
    rows = d["rows"]
    one = len(json.dumps(rows[0]))

    def make(i, r):
        r = dict(r)
        r["candidate"] = "%s#%d" % (r["candidate"] or "row", i)
        return r
    d["rows"] = grow(rows, one, budget, make)
    save(run, "bench_discriminator.json", d)


def probe_kinds(run, budget):
    """Many kinds, each answered by every candidate."""
    d = load(run, "probe_discriminator.json")
    kinds, cands = d["kinds"], d["candidates"]
    per_kind = len(json.dumps(kinds[0])) + sum(len(json.dumps(c["results"][0])) for c in cands)
    n = max(1, budget // per_kind)
    names = ["%s#%d" % (kinds[i % len(kinds)]["name"], i) for i in range(n)]
    d["kinds"] = [dict(kinds[i % len(kinds)], name=names[i]) for i in range(n)]
    for c in cands:
        res = c["results"]
        c["results"] = [dict(res[i % len(res)], kind=names[i]) for i in range(n)]
        wrong = c.get("wrong_on") or []
        c["wrong_on"] = [dict(wrong[i % len(wrong)], kind=names[i]) for i in range(n) if wrong and i % len(kinds) < len(wrong)]
    save(run, "probe_discriminator.json", d)


def probe_candidates(run, budget):
    """Many candidates, each answering for every kind."""
    d = load(run, "probe_discriminator.json")
    cands = d["candidates"]

    def make(i, c):
        return dict(c, name="%s#%d" % (c["name"], i))
    d["candidates"] = grow(cands, len(json.dumps(cands[0])), budget, make)
    save(run, "probe_discriminator.json", d)


def pool_checks(run, budget):
    """Many pool checks, each named apart; the summary counts them."""
    d = load(run, "pool_check.json")
    checks = d["checks"]

    def make(i, c):
        return dict(c, name="%s_%d" % (c["name"], i))
    d["checks"] = grow(checks, len(json.dumps(checks[0])), budget, make)
    for key, status in (("passed", "PASS"), ("failed", "FAIL"), ("unsupported", "UNSUPPORTED")):
        if key in d.get("summary", {}):
            d["summary"][key] = sum(c["status"] == status for c in d["checks"])
    save(run, "pool_check.json", d)


def pool_throughput(run, budget):
    """Many pool sizes, each with long per-cycle lists."""
    d = load(run, "pool_check.json")
    tp = d["throughput"]

    def make(i, t):
        return dict(t, pool_bytes=t["pool_bytes"] + 4096 * i)
    d["throughput"] = grow(tp, len(json.dumps(tp[0])), budget, make)
    save(run, "pool_check.json", d)


SHAPES = {f.__name__.replace("_", "-"): f for f in
          (bench_samples, bench_rows, probe_kinds, probe_candidates, pool_checks, pool_throughput)}
RECORD = {"bench": "bench_discriminator.json", "probe": "probe_discriminator.json", "pool": "pool_check.json"}


def make(shape, run, budget):
    """The shape at about budget bytes: its per-item sizes are estimates, so
    a second try scales the first by what it came to."""
    path = os.path.join(run, RECORD[shape.split("-")[0]])
    with open(path, "rb") as f:
        original = f.read()
    want = budget
    for _ in range(3):
        with open(path, "wb") as f:
            f.write(original)
        SHAPES[shape](run, want)
        got = os.path.getsize(path)
        if abs(got - budget) <= budget // 20:
            return
        want = int(want * budget / max(1, got))


def main(argv):
    if argv[1:] == ["--list"]:
        print("\n".join(SHAPES))
        return 0
    if len(argv) != 4 or argv[1] not in SHAPES or not argv[3].isdigit() or not os.path.isdir(argv[2]):
        print("bigrecords: usage: bigrecords.py SHAPE RUN_DIR MB (SHAPE one of: %s)" % " ".join(SHAPES),
              file=sys.stderr)
        return 2
    try:
        make(argv[1], argv[2], int(argv[3]) * 1000 * 1000)
    except (OSError, KeyError, IndexError, ValueError, ZeroDivisionError) as e:
        print("bigrecords: %s in %s: %s" % (argv[1], argv[2], e), file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
