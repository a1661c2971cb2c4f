#!/usr/bin/env python3
"""Tests of experiments/analysis.py: its statistics by hand, and the study
tables it writes from the committed measurements equal the committed ones."""
import os
import shutil
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import analysis  # noqa: E402

failed = passed = 0


def check(ok, what):
    global failed, passed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAILED:", what)


def near(a, b, tol=1e-12):
    return abs(a - b) <= tol * max(1.0, abs(b))


# ranks: ties share their average rank
check(analysis.ranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4], "ranks with a tie")
check(analysis.ranks([3, 1, 2]) == [3, 1, 2], "ranks without ties")
# Spearman: monotone = 1, reversed = -1, a hand-computed case
check(near(analysis.spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1.0), "spearman monotone")
check(near(analysis.spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1.0), "spearman reversed")
# ranks (1,2,3,4) vs (1,3,2,4): d^2 = 0+1+1+0 = 2, rho = 1 - 6*2/(4*15) = 0.8
check(near(analysis.spearman([1, 2, 3, 4], [1, 3, 2, 4]), 0.8), "spearman by hand")
# MAPE: |2-1|/1 and |3-4|/4 -> (100% + 25%) / 2
check(near(analysis.mape([2, 3], [1, 4]), 62.5), "mape by hand")

# core-part: the core's part of a link's t_w as calibrate writes it (the
# same-processor t_w, only below the link's own), and removed again
def core_part(platform, remove):
    import contextlib
    import io
    import json
    import types
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(platform, f)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        analysis.core_part(types.SimpleNamespace(platform=f.name, remove=remove))
    os.unlink(f.name)
    return json.loads(out.getvalue())["network"]


net = {"same_processor": {"t_s": 1e-6, "t_w": 2e-9}, "same_node": {"t_s": 1e-6, "t_w": 1e-9},
       "inter_node": {"t_s": 1e-5, "t_w": 6e-7},
       "pairs": [{"between": ["a", "b"], "t_s": 1e-5, "t_w": 6e-8, "t_w_core": 1e-8}]}
got = core_part({"network": net}, "0")
check("t_w_core" not in got["same_node"] and "t_w_core" not in got["same_processor"],
      "core-part: no core's part where the copy is the dearer")
check(got["inter_node"]["t_w_core"] == 2e-9 and got["pairs"][0]["t_w_core"] == 2e-9,
      "core-part: the same-processor t_w on slower links")
got = core_part({"network": net}, "1")
check(all("t_w_core" not in l for l in [got["inter_node"]] + got["pairs"]), "core-part --remove")

# a rival model's plan (RIVALS=grid: label grid:GPTM) against the best and
# against the study model's plan, measured in the same runs
rows = [{"group": "lu-9", "labels": ["GPTM", "EU"], "predicted": 1.0, "median": 1.0},
        {"group": "lu-9", "labels": ["grid:GPTM", "GU"], "predicted": 2.0, "median": 2.5},
        {"group": "lu-9", "labels": ["CU", "s1"], "predicted": 0.8, "median": 0.8}]
stats = analysis.group_stats(rows)
check(stats[0]["rivals"] == {"grid:GPTM": 2.5}, "rivals: the rival's measured time")
table = analysis.rivals_summary(stats, "panel")
check("| lu-9 | grid:GPTM | 2.5 | 3.125 | 0.400 |" in table, "rivals: its plan/best and the ratio of plans")
check(analysis.rivals_summary(analysis.group_stats(rows[:1]), "panel") == "", "rivals: none, no table")

# The simulation table from the committed comparisons equals the committed
# table (but for the timing line, which names how long the study took).
sim = os.path.join(ROOT, "experiments", "results", "simulation")
with tempfile.TemporaryDirectory() as tmp:
    shutil.copy(os.path.join(sim, "all.jsonl"), tmp)
    os.environ["PATH"] = ""          # no gnuplot: tables only
    analysis.simulation(type("A", (), {"dir": tmp, "elapsed": "24", "budget": "20"}))
    with open(os.path.join(tmp, "table.md")) as a, open(os.path.join(sim, "table.md")) as b:
        mine, theirs = a.read().splitlines(), b.read().splitlines()
    check(mine[6:] == theirs[6:] and len(mine) > 20, "simulation table reproduced")

print("test_analysis: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
