"""The release history page (tools/release_history.sh): for each stand-in
release, compare's findings against the release before, kinds, candidates
and pool checks only, with the release's notes. Reads the profiles listing
and WORK/NAME.json (compare --json); writes Markdown to stdout."""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "report", "evidence"))
from mdtext import md as md_text  # noqa: E402  record text as Markdown text, as report writes it

profiles, work = sys.argv[1], sys.argv[2]
rows = []
for line in open(profiles):
    # NAME ROCm R HIP H runtime V headers E[ (this build)]: what
    head, _, what = line.partition(": ")
    f = head.split()
    rows.append({"name": f[0], "rocm": f[2], "hip": f[4], "what": what.strip()})

CLASSES = (("regressions", "regression"), ("improvements", "improvement"), ("inconclusive", "inconclusive"),
           ("changes", "change"))
print("# What each ROCm release changed for host access (the stand-in: SIMULATED)\n")
print("Made by `tools/release_history.sh` from this tree: one run of the stand-in ROCm runtime per release "
      "(`run_all.sh --sim-profile NAME`, each release's tools built against headers of its era), each compared "
      "with the release before by `compare`. Listed: the kinds that became readable, faulting or unmakeable, "
      "the candidates whose verdict moved, the host reads of the MemGetAccess matrix (each kind's stages) and "
      "the pool checks whose outcome moved; the query answers that moved are counted (compare lists them). Every answer is the stand-in's, as ROCm's sources say the "
      "release gives it (common/rocm_profiles.h, from ../shared/FACTS.md \"HIP across versions\"): none was "
      "measured on an AMD GPU. `tests/integration/test_journeys.c` checks this page is what the tree makes.\n")
for prev, cur in zip(rows, rows[1:]):
    print(f"## ROCm {prev['rocm']} → ROCm {cur['rocm']} (HIP {cur['hip']})\n")
    print(f"The release, as its profile reads its sources: {md_text(cur['what'])}.\n")
    found = json.load(open(os.path.join(work, cur["name"] + ".json")))
    said, statuses = 0, 0
    for key, word in CLASSES:
        for x in found.get(key, []):
            # a query's answer, or a MemGetAccess cell other than the host read: counted
            if x["what"] == "status" or (x["what"] == "memgetaccess" and not x["detail"].startswith("host read")):
                statuses += 1
                continue
            if x["what"] not in ("kind", "candidate", "pool_check", "memgetaccess"):
                continue
            detail = x["detail"]
            if x["what"] == "pool_check":  # the outcome, not the figures it printed
                detail = detail.split(":")[0]
            print(f"- {word}: {x['what']} {md_text(x['name'])}: {md_text(detail)}")
            said += 1
    if not said:
        print("- no kind, candidate verdict or pool check moved")
    if statuses:
        print(f"- {statuses} query answer(s) moved")
    print()
