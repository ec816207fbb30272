#!/usr/bin/env python3
"""make mutants: every mutation in the catalogue must be caught by its tests.

   tools/mutants.py [--catalogue FILE] [--only ID,...] [--list] [--scratch DIR] [--jobs N]

Each entry of the catalogue (tests/mutants.md; its head says the format) is
a change a developer could make by mistake: exact text in one file and what
replaces it, the tests that must fail because of it, and why it matters.
In a scratch copy of this tree (DIR, default build-mutants/tree; the tree
itself is never touched) it applies one mutation at a time, rebuilds
incrementally (the copy starts from this tree's BUILD folder, default
build), runs only the named tests, and puts the file back. With --jobs N
(default: one per CPU) N copies (DIR, DIR-2, ...) each take the next
mutation as they finish the last: one mutation is one build and one test
run, mostly on one core.

Before any mutation it runs every named test once on the unmutated copy: a
test that fails there would "catch" every mutation. With --after-check it
does not: make check has just run every test on the same tree and build
(CI runs it first, and stops if it fails). An entry marked
`expect: survive` is a control (a change no test can see, such as a
comment): if its tests fail, the runner or a test is broken. Entries marked
`equivalent:` are listed with their reason and not run.

Exit: 0 every mutation caught; 1 a mutation survived (each is listed);
2 the catalogue is wrong (stale text, a mutation that does not build, a
test that matches nothing, skips or fails unmutated, a control that was
caught) or bad usage.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

FIELDS = ("file", "find", "replace", "tests", "why")
TEST_TIMEOUT_S = 300


def fail_usage(msg):
    print(f"mutants: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_catalogue(path):
    """Entries in order: '### ID: title' then '- key: `value`' lines (the
    value is what lies between the first and the last backtick, so code may
    hold backticks) or '- key: text' for prose."""
    entries, cur, errors = [], None, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = re.match(r"^### ([a-z0-9][a-z0-9-]*): (.+)$", line)
            if m:
                cur = {"id": m.group(1), "title": m.group(2), "line": n}
                entries.append(cur)
                continue
            m = re.match(r"^- (file|find|replace|tests|why|expect|equivalent): (.*)$", line)
            if m and cur is not None:
                key, val = m.group(1), m.group(2)
                if key in ("file", "find", "replace"):
                    a, b = val.find("`"), val.rfind("`")
                    if a < 0 or b <= a:
                        errors.append(f"{path}:{n}: {key} needs its text between backticks")
                        continue
                    val = val[a + 1:b]
                if key in cur:
                    errors.append(f"{path}:{n}: {cur['id']} has {key} twice")
                cur[key] = val
    seen = set()
    for e in entries:
        if e["id"] in seen:
            errors.append(f"{path}:{e['line']}: id {e['id']} used twice")
        seen.add(e["id"])
        for k in FIELDS:
            if k not in e:
                errors.append(f"{path}:{e['line']}: {e['id']} has no {k}")
        if e.get("expect", "caught") not in ("caught", "survive"):
            errors.append(f"{path}:{e['line']}: {e['id']}: expect is 'caught' or 'survive'")
        if e.get("find") == e.get("replace"):
            errors.append(f"{path}:{e['line']}: {e['id']}: replace is the same as find")
        e["test_specs"] = e.get("tests", "").replace("`", "").split()
    return entries, errors


def check_texts(entries, root):
    """Every find text occurs exactly once in its file: a stale entry (the
    code moved on) is an error, never a silently skipped mutation."""
    errors = []
    for e in entries:
        p = os.path.join(root, e["file"])
        if not os.path.isfile(p):
            errors.append(f"{e['id']}: {e['file']} does not exist")
            continue
        with open(p, encoding="utf-8") as f:
            n = f.read().count(e["find"])
        if n != 1:
            errors.append(f"{e['id']}: the text to replace occurs {n} times in {e['file']} (must be once)")
    return errors


def copy_tree(src, dst, build):
    """The working tree as git sees it (tracked and not ignored), and the
    build folder, mtimes kept so the first make is incremental."""
    if os.path.exists(dst):
        shutil.rmtree(dst)
    os.makedirs(dst)
    files = subprocess.run(["git", "ls-files", "-z", "-c", "-o", "--exclude-standard"], cwd=src,
                           check=True, capture_output=True).stdout.split(b"\0")
    for rel in (f.decode() for f in files if f):
        s = os.path.join(src, rel)
        if not os.path.isfile(s):   # deleted but still tracked
            continue
        d = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d, follow_symlinks=False)
    if os.path.isdir(os.path.join(src, build)):
        shutil.copytree(os.path.join(src, build), os.path.join(dst, build), symlinks=True)


def binaries(specs):
    return sorted({s.split(":", 1)[0] for s in specs})


def make(tree, build, version, specs):
    """Builds the named test binaries, and the tools only where an
    integration suite is named: the unit suites run no tool, and relinking
    every tool after a change to a library was most of a unit mutant's time."""
    bins = binaries(specs)
    targets = [f"{build}/tests/{b}" for b in bins]
    if any(b.startswith("integration_") for b in bins):
        targets.insert(0, "test-tools")
    r = subprocess.run(["make", "-s", f"BUILD={build}", f"HA_VERSION={version}"] + targets, cwd=tree,
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


# A mutation of the report tools alone cannot change what run_all.sh's
# tools record: its integration suites copy their fixture run from the one
# the first such mutant made in that scratch copy (it_run_all in
# tests/integration/itest.c), and the mutated report renders it again.
FIXTURE_CACHE = ".mutants-fixtures"


def reuses_fixtures(e):
    return e["file"].startswith("report/")


def run_test(tree, build, spec, cache=False):
    """(failed, why): True when the test failed, False when it passed, None
    when it judged nothing (no test matched, or it skipped)."""
    binary, _, pattern = spec.partition(":")
    env = dict(os.environ, BUILD=build)
    env.pop("HA_TEST_FILTER", None)
    env.pop("HA_IT_RUN_CACHE", None)
    if cache:
        env["HA_IT_RUN_CACHE"] = os.path.join(tree, FIXTURE_CACHE)
    if pattern:
        env["HA_TEST_FILTER"] = pattern
    try:
        r = subprocess.run([os.path.join(build, "tests", binary)], cwd=tree, env=env, capture_output=True,
                           text=True, errors="replace", timeout=TEST_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return True, f"{spec} ran past {TEST_TIMEOUT_S} s"
    out = r.stdout + r.stderr
    if re.search(r"Running 0 test\(s\)", out) or "test(s) run" not in out:
        return None, f"{spec} ran no test (its pattern matches nothing)"
    if re.search(r"^\[  SKIPPED \]|^\[  SKIP    \]", out, re.M):
        return None, f"{spec} skipped here, so it judges nothing: {out[out.find('SKIP'):][:200].splitlines()[0]}"
    failed = re.findall(r"\[  FAILED  \] (\w+)$", out, re.M)
    if r.returncode != 0:
        return True, f"{spec}: {', '.join(sorted(set(failed))) or 'exit ' + str(r.returncode)}"
    return False, ""


def mutate(tree, build, version, e):
    """One mutation in its own copy: (status, survived, broken, seconds)."""
    t = time.monotonic()
    path = os.path.join(tree, e["file"])
    with open(path, encoding="utf-8") as f:
        original = f.read()
    survived, broken = False, ""
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original.replace(e["find"], e["replace"], 1))
        rc, out = make(tree, build, version, e["test_specs"])
        if rc != 0:
            broken = f"{e['id']}: the mutation does not build: {out.strip().splitlines()[-1:]}"
            status = "does not build"
        else:
            status, caught = "SURVIVED", False
            for s in e["test_specs"]:
                failed, why = run_test(tree, build, s, reuses_fixtures(e))
                if failed is None:
                    broken = f"{e['id']}: {why}"
                    status = "test matches nothing"
                    break
                if failed:
                    status, caught = f"caught by {why}", True
                    break
            if e.get("expect") == "survive":
                if caught:
                    broken = (f"{e['id']}: a control mutation was caught ({status}): a test is flaky "
                              "or the runner is wrong")
                else:
                    status = "survived, as a control must"
            elif not caught and status == "SURVIVED":
                survived = True
    finally:
        with open(path, "w", encoding="utf-8") as f:
            f.write(original)
    return status, survived, broken, time.monotonic() - t


def main():
    ap = argparse.ArgumentParser(description="Applies each mutation of the catalogue and runs its tests.")
    ap.add_argument("--catalogue", default="tests/mutants.md")
    ap.add_argument("--only", default="", help="comma-separated ids")
    ap.add_argument("--list", action="store_true", help="list the entries and exit")
    ap.add_argument("--scratch", default="build-mutants/tree")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="copies at work at once")
    ap.add_argument("--after-check", action="store_true",
                    help="make check has just passed on this tree and BUILD (CI runs it first): the named tests are "
                         "not run once more unmutated")
    args = ap.parse_args()
    root = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
    build = os.environ.get("BUILD", "build")
    cat = args.catalogue if os.path.isabs(args.catalogue) else os.path.join(root, args.catalogue)
    if not os.path.isfile(cat):
        fail_usage(f"no catalogue at {cat}")
    entries, errors = parse_catalogue(cat)
    errors += check_texts(entries, root)
    if args.only:
        want = set(args.only.split(","))
        unknown = want - {e["id"] for e in entries}
        if unknown:
            fail_usage(f"--only names ids the catalogue lacks: {', '.join(sorted(unknown))}")
        entries = [e for e in entries if e["id"] in want]
    if errors:
        for e in errors:
            print(f"mutants: {e}", file=sys.stderr)
        fail_usage(f"{len(errors)} error(s) in the catalogue: fix them first")
    if args.list:
        for e in entries:
            tag = " (equivalent)" if "equivalent" in e else " (control)" if e.get("expect") == "survive" else ""
            print(f"{e['id']}{tag}\t{e['file']}\t{' '.join(e['test_specs'])}")
        return 0

    if args.jobs < 1:
        fail_usage(f"--jobs must be 1 or more, not {args.jobs}")
    run = [e for e in entries if "equivalent" not in e]
    jobs = min(args.jobs, max(len(run), 1))
    t0 = time.monotonic()
    tree = os.path.abspath(args.scratch if os.path.isabs(args.scratch) else os.path.join(root, args.scratch))
    print(f"mutants: {len(run)} to run, {len(entries) - len(run)} equivalent; {jobs} scratch cop{'y' if jobs == 1 else 'ies'} "
          f"from {tree}", flush=True)
    copy_tree(root, tree, build)
    version = "mutants"
    specs = sorted({s for e in run for s in e["test_specs"]})
    rc, out = make(tree, build, version, specs)
    if rc != 0:
        print(out[-4000:], file=sys.stderr)
        fail_usage("the unmutated copy does not build")
    bad = []
    if args.after_check:
        specs = []  # make check ran every one of them on this build, and passed
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        for s, (failed, why) in zip(specs, pool.map(lambda s: run_test(tree, build, s), specs)):
            if failed is None or failed:
                bad.append(why or s)
    if bad:
        for b in bad:
            print(f"mutants: unmutated, {b}", file=sys.stderr)
        fail_usage("tests fail (or match nothing) before any mutation: they cannot judge one")
    if args.after_check:
        print(f"mutants: the unmutated copy builds; its tests passed in make check ({time.monotonic() - t0:.0f} s)",
              flush=True)
    else:
        print(f"mutants: the unmutated copy passes its {len(specs)} test(s) ({time.monotonic() - t0:.0f} s)",
              flush=True)

    trees = [tree] + [f"{tree}-{k}" for k in range(2, jobs + 1)]
    for t in trees[1:]:  # the first copy as built and tested, whole
        if os.path.exists(t):
            shutil.rmtree(t)
        shutil.copytree(tree, t, symlinks=True)
    for t in trees:  # fixtures of this tree alone, made afresh
        shutil.rmtree(os.path.join(t, FIXTURE_CACHE), ignore_errors=True)
    free = list(trees)
    lock = threading.Lock()
    outcome = {}

    def one(e):
        with lock:
            t = free.pop()
        try:
            result = mutate(t, build, version, e)
        finally:
            with lock:
                free.append(t)
        with lock:
            outcome[e["id"]] = result
            print(f"  {e['id']:<40} {result[0]} ({result[3]:.0f} s)", flush=True)

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(one, run))
    survivors = [e for e in run if outcome[e["id"]][1]]
    broken = [outcome[e["id"]][2] for e in run if outcome[e["id"]][2]]
    for e in entries:
        if "equivalent" in e:
            print(f"  {e['id']:<40} equivalent, not run: {e['equivalent']}")
    print(f"mutants: {len(run) - len(survivors) - len(broken)} of {len(run)} judged as expected, "
          f"{len(survivors)} survived, {len(broken)} broken, in {time.monotonic() - t0:.0f} s")
    for b in broken:
        print(f"mutants: {b}", file=sys.stderr)
    for e in survivors:
        print(f"mutants: SURVIVED {e['id']} ({e['file']}): {e['title']}", file=sys.stderr)
    if broken:
        return 2
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
