"""What query_realloc's processes say: per (kind, query) pair and mode, the
sd of log ns
  between  processes, of each process's first round (what the bench's
           process is: one allocation)
  rounds   between the rounds of one process (median over processes)
  means    between processes, of each process's median over its rounds
then the median of each over the pairs. If a query's per-process level
follows the allocation, fresh rounds spread like processes do and their
means spread less; kept rounds agree. A line whose calls failed (the
"failed" column; files from before it had none) times an error path and
is left out, and counted.
  python3 tools/diag/query_realloc.py OUT_OF_PROCESS_1.tsv ..."""
import csv
import math
import statistics as st
import sys


def sd_log(v):
    return st.stdev(math.log(x) for x in v) * 100 if len(v) > 1 else float("nan")


def main(paths):
    by = {}  # (mode, kind, query) -> pid -> [ns by round]
    left_out = 0
    for p in paths:
        with open(p, newline="") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                if int(r.get("failed") or 0):
                    left_out += 1
                    continue
                k = (r["mode"], r["kind"], r["query"])
                by.setdefault(k, {}).setdefault(r["pid"], []).append((int(r["round"]), float(r["ns"])))
    if not by:
        sys.exit("query_realloc.py: no rows in %s: give the files query_realloc wrote" % " ".join(paths))
    if left_out:
        print("%d line(s) left out: some of their calls failed\n" % left_out)
    cols = {}
    print("| mode | kind | query | processes | between (first round) | rounds | means |")
    print("|---|---|---|---|---|---|---|")
    for (mode, kind, query), procs in sorted(by.items()):
        series = [[ns for _, ns in sorted(v)] for v in procs.values()]
        first = sd_log([s[0] for s in series])
        rounds = st.median(sd_log(s) for s in series)
        means = sd_log([st.median(s) for s in series])
        cols.setdefault(mode, []).append((first, rounds, means))
        print("| %s | %s | %s | %d | %.1f %% | %.1f %% | %.1f %% |" % (mode, kind, query, len(series), first, rounds, means))
    print()
    print("| mode | pairs | between (first round) | rounds | means |")
    print("|---|---|---|---|---|")
    for mode, v in sorted(cols.items()):
        med = [st.median(x[i] for x in v) for i in range(3)]
        print("| %s | %d | %.1f %% | %.1f %% | %.1f %% |" % (mode, len(v), *med))


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit("usage: query_realloc.py PROCESS_1.tsv PROCESS_2.tsv ... (two or more)")
    main(sys.argv[1:])
