#!/usr/bin/env python3
"""Real programs nobody here wrote, run through 'hetmap run' (study.sh)."""
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # experiments/: the shared modules
from records import main, markdown_table, read_jsonl  # noqa: E402


def clients(args):
    groups = {}
    for rec in read_jsonl(args.runs):
        prog = rec.get("program") or {}
        plan = rec.get("plan") or {}
        key = (os.path.basename(prog.get("path", "?")), rec["inputs"]["n"], plan.get("method", "?"))
        groups.setdefault(key, []).append(rec)
    rows = []
    for (name, n, method), recs in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        times = [r["measured_s"] for r in recs if r.get("measured_s") is not None]
        plan = recs[0]["plan"]
        walls = [r["wall_s"] for r in recs]
        passed = sum(1 for r in recs if (r.get("program") or {}).get("verdict") == "passed")
        placed = sum(1 for r in recs if r.get("placement_as_planned"))
        rows.append([name, str(n), method, "%d on %dx%d, b=%d" % (plan["D"], plan["r"], plan["c"], plan["b"]),
                     "%.3g" % recs[0]["predicted_s"],
                     "%.3g" % statistics.median(times) if times else "-",
                     "%.3g-%.3g" % (min(times), max(times)) if times else "-",
                     "%.3g" % statistics.median(walls),
                     "%d/%d" % (passed, len(recs)), "%d/%d" % (placed, len(recs))])
    print(markdown_table(["program", "n", "choice", "configuration", "predicted s",
                          "own time s (median)", "min-max", "job wall s (median)",
                          "verdict passed", "placed as planned"], rows))


# command: (function, [(argument, default; None: positional)], help): records.main
COMMANDS = {
    "clients": (clients, [("runs", None)],
                "the records of 'hetmap run' of user programs (RUNS, JSON Lines) -> a Markdown summary\n"
                "on stdout: per program, size and choice, the program's own time (median, min-max),\n"
                "verdicts, placement checks"),
}


if __name__ == "__main__":
    main(COMMANDS, __doc__)
