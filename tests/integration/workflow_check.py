"""What the README promises of its CI job, read with a real YAML parser:
run on pull requests, a session that needs a GPU, compare's verdict and
the PR comment, the folder kept, and a gate that passes on 0 alone."""
import sys

import yaml

w = yaml.safe_load(open(sys.argv[1]))
steps = w["jobs"]["session"]["steps"]
runs = "\n".join(s.get("run", "") for s in steps)
uses = [s.get("uses", "") for s in steps]
# YAML 1.1 reads the key "on" as true
assert "pull_request" in w[True], "not run on pull requests"
assert "--require-gpu" in runs and "--ab" in runs, "the session may fall back to the simulation"
assert "build/bin/compare" in runs and "report --pr" in runs and "gh pr comment" in runs, "no verdict or comment"
assert any(u.startswith("actions/upload-artifact") for u in uses), "the folder is not kept"
gate = [s for s in steps if s.get("name") == "Gate"][0]["run"]
assert "0) echo" in gate and all(f"{c}) echo" in gate for c in (1, 6, 7)), "the gate does not name every verdict"
assert gate.count("exit 1") >= 4, "the gate passes on something other than 0"
print("workflow: parsed and judged")
