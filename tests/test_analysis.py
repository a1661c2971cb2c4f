#!/usr/bin/env python3
"""Tests of the studies' analysis (experiments/analysis.py, the shared
modules beside it and each study's analysis.py): its statistics by hand,
and every committed study summary regenerated from the committed data alone."""
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import types

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, os.path.join(ROOT, "experiments"))
import analysis  # noqa: E402  (the studies' modules by name)
import evidence  # noqa: E402
import plans  # noqa: E402
import platforms  # noqa: E402
import records  # noqa: E402

large_analysis, links_analysis, scale_analysis, simulation_analysis, threads_analysis, tune_analysis = (
    analysis.study_module(s) for s in ("large", "links", "scale", "simulation", "threads", "tune"))

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


def said(command, **args):
    """What an analysis command prints, given its arguments."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        command(types.SimpleNamespace(**args))
    return out.getvalue()


def printed(command, docs, values=None, **paths):
    """What an analysis command prints, given 'docs' (file name: JSON) written
    in a scratch folder and its arguments naming them (argument=file name),
    and other arguments ('values')."""
    with tempfile.TemporaryDirectory() as tmp:
        for name, doc in docs.items():
            with open(os.path.join(tmp, name), "w") as f:
                json.dump(doc, f)
        return said(command, **{k: os.path.join(tmp, v) for k, v in paths.items()}, **(values or {}))


# ranks: ties share their average rank
check(records.ranks([10, 20, 20, 30]) == [1, 2.5, 2.5, 4], "ranks with a tie")
check(records.ranks([3, 1, 2]) == [3, 1, 2], "ranks without ties")
# Spearman: monotone = 1, reversed = -1, a hand-computed case
check(near(records.spearman([1, 2, 3, 4], [10, 20, 30, 40]), 1.0), "spearman monotone")
check(near(records.spearman([1, 2, 3, 4], [4, 3, 2, 1]), -1.0), "spearman reversed")
# ranks (1,2,3,4) vs (1,3,2,4): d^2 = 0+1+1+0 = 2, rho = 1 - 6*2/(4*15) = 0.8
check(near(records.spearman([1, 2, 3, 4], [1, 3, 2, 4]), 0.8), "spearman by hand")
# MAPE: |2-1|/1 and |3-4|/4 -> (100% + 25%) / 2
check(near(records.mape([2, 3], [1, 4]), 62.5), "mape by hand")

# core-part: the core's part of a link's t_w as calibrate writes it (the
# same-processor t_w, only below the link's own), and removed again
def core_part(platform, remove):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(platform, f)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        evidence.core_part(types.SimpleNamespace(platform=f.name, remove=remove))
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
stats = plans.group_stats(rows)
check(stats[0]["rivals"] == {"grid:GPTM": 2.5}, "rivals: the rival's measured time")
table = plans.rivals_summary(stats, "panel")
check("| lu-9 | grid:GPTM | 2.5 | 3.125 | 0.400 |" in table, "rivals: its plan/best and the ratio of plans")
check(plans.rivals_summary(plans.group_stats(rows[:1]), "panel") == "", "rivals: none, no table")

# Every committed study of plans regenerates its committed summary from
# its committed data alone (study.json, plans.tsv, runs.jsonl, its platform):
# the summary is what the data says, and nothing else is needed to redo it.
os.environ["PATH"] = ""          # no gnuplot: tables only
dirs = evidence.study_dirs()
check(len(dirs) >= 7, "the committed studies of plans are found (%d)" % len(dirs))
for study in dirs:
    with tempfile.TemporaryDirectory() as tmp:
        for name in os.listdir(study):
            src = os.path.join(study, name)
            if name in ("summary.md", "predicted-vs-measured.png"):
                continue
            (shutil.copytree if os.path.isdir(src) else shutil.copy)(src, os.path.join(tmp, name))
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            plans.summarize(types.SimpleNamespace(dir=tmp))
        with open(os.path.join(tmp, "summary.md")) as a, open(os.path.join(study, "summary.md")) as b:
            check(a.read() == b.read(), "summary of %s regenerated" % os.path.relpath(study, ROOT))

# The models' scores compiled into 'hetmap models' (models/evidence.tsv) are
# what the committed runs give, every model predicting every measured
# configuration again; and the default is the model that errs least on the
# real runs (models/README.md, "Status": real runs choose it).
rows = evidence.evidence_rows(dirs)
with open(evidence.EVIDENCE) as f:
    check(f.read() == evidence.evidence_text(rows),
          "models/evidence.tsv is what the committed runs give (python3 experiments/analysis.py models --write)")
models = json.loads(records.subprocess.run([records.HETMAP, "models", "-f", "json"], capture_output=True,
                                            text=True, check=True).stdout)
default = next(m["name"] for m in models if m["status"] == "default")
real_mape = {m["name"]: sum(r[4] for r in rows if r[1] == "real" and r[2] == m["name"]) for m in models}
check(all(real_mape[default] <= v for v in real_mape.values()),
      "the default (%s) errs least on the real runs: %s" % (default, real_mape))
check(any(r[1] == "real" for r in rows) and any(r[1] == "simulated" for r in rows),
      "real and simulated sets both scored")

# SimGrid's options screen: a set is kept within 1 % of base's simulated
# time, >= 5 % less wall than base beside it and <= 1.2x its memory; a
# failure keeps its reason
with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "runs.tsv"), "w") as f:
        f.write("job\tset\tpair\tsimulated_s\twall_s\tpeak_pss_kB\tfailure\n")
        for pair, (name, sim, wall, pss, why) in enumerate([
                ("fast", "1.005", "90", "1100", ""), ("moving", "1.02", "50", "1000", ""),
                ("slow", "1.0", "99", "1000", ""), ("greedy", "1.0", "80", "2500", ""),
                ("broken", "failed", "", "", "bus")], 1):
            f.write("j\tbase\t%d\t1.0\t100\t1000\t\n" % pair)
            f.write("j\t%s\t%d\t%s\t%s\t%s\t%s\n" % (name, pair, sim, wall, pss, why))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        scale_analysis.engine_options(types.SimpleNamespace(dir=tmp, elapsed="1", command="x",
                                                      options="fast|--a\nmoving|--b\nslow|--c\ngreedy|X=1\nbroken|--d"))
    verdicts = {line.split("|")[2].strip(): line.split("|")[-2].strip() for line in out.getvalue().splitlines()
                if line.startswith("| j |")}
    check(verdicts == {"fast": "keep", "moving": "moves time", "slow": "no gain", "greedy": "faster, 2.5x the memory",
                       "broken": "failed: bus", "base": ""}, "engine options' verdicts: %s" % verdicts)

# The large-cluster study's summary, from its committed tables alone
large = os.path.join(ROOT, "experiments", "large", "results")
with tempfile.TemporaryDirectory() as tmp:
    for name in ("platform.tsv", "runs.tsv", "launch.tsv", "scaling.tsv"):
        shutil.copy(os.path.join(large, name), tmp)
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        large_analysis.large(types.SimpleNamespace(dir=tmp, limit="20"))
    with open(os.path.join(tmp, "summary.md")) as a, open(os.path.join(large, "summary.md")) as b:
        check(a.read() == b.read(), "summary of experiments/large/results regenerated")

# The links study's summary, from its table and study.json
links = os.path.join(ROOT, "experiments", "links", "results")
with tempfile.TemporaryDirectory() as tmp:
    for name in ("links.tsv", "study.json"):
        shutil.copy(os.path.join(links, name), tmp)
    with contextlib.redirect_stdout(io.StringIO()):
        links_analysis.links(types.SimpleNamespace(dir=tmp))
    with open(os.path.join(tmp, "summary.md")) as a, open(os.path.join(links, "summary.md")) as b:
        check(a.read() == b.read(), "summary of experiments/links/results regenerated")


# The simulation study's tables from two comparisons: worst and mean ratio
# per method over the reference platforms, the random family left out.
def comparison(name, ratios):
    return {"platform_name": name, "n": 100, "depth": 30,
            "results": [{"method": m, "ratio": r, "d": [1, 1], "search": {"seconds": 0.01, "level_reached": 2}}
                        for m, r in ratios.items()]}


with tempfile.TemporaryDirectory() as tmp:
    with open(os.path.join(tmp, "all.jsonl"), "w") as f:
        for doc in (comparison("TORC", {"exact": 1.0, "GU": 2.0}), comparison("SUNEt", {"exact": 1.0, "GU": 1.5}),
                    comparison("random-25", {"exact": 1.0, "GU": 9.0})):
            f.write(json.dumps(doc) + "\n")
    with contextlib.redirect_stderr(io.StringIO()):
        simulation_analysis.simulation(types.SimpleNamespace(dir=tmp, elapsed="1", budget="20"))
    with open(os.path.join(tmp, "summary.md")) as f:
        text = f.read()
    check("| GU | 2.0000 | 1.7500 |" in text, "simulation: GU's worst and mean ratio, random family left out")
    check("| random-25 | 2 | 100 | 1.000 / 0.01 / 2 | 9.000 / 0.01 / 2 |" in text, "simulation: the depth-30 row")

# kernels: a described type gets the calibrated type's kernel models, each
# scaled by the ratio of the types' k (dgemm's for dgemm, the panel's for dger)
cal = {"types": {"T1": {"k3_dgemm": {"64": 2e-11}, "k3_dtrsm": {"64": 4e-11}, "k2_dgetf2": 1e-10,
                        "kernels": {"dgemm": {"mnk": 4e-11, "mn": 1e-10}, "dtrsm": {"ttr": 4e-11},
                                    "dger": {"mn": 1e-10, "1": 3e-8}}}}}
desc = {"types": {"slow": {"k3_dgemm": {"64": 6e-11}, "k3_dtrsm": {"64": 4e-11}, "k2_dgetf2": "5GFLOP/s"}},
        "processors": [{"name": "a", "type": "slow", "cores": 4}], "block_sizes": [64]}
derived = json.loads(printed(platforms.kernels, {"cal.json": cal, "p.json": desc}, platform="p.json",
                             calibrated="cal.json"))["types"]["slow"]
k = derived["kernels"]
check(near(k["dgemm"]["mnk"], 12e-11) and near(k["dgemm"]["mn"], 3e-10), "kernels: dgemm 3x slower")
check(near(k["dtrsm"]["ttr"], 4e-11), "kernels: dtrsm as fast")
check(near(k["dger"]["mn"], 2e-10) and near(k["dger"]["1"], 6e-8), "kernels: dger at the panel's ratio (2x)")
rank32 = derived["k3_dgemm"]["32"]
check(rank32 == "%.4gGFLOP/s" % (2 * 2048.0 ** 2 * 32 / (12e-11 * 2048.0 ** 2 * 32 + 3e-10 * 2048.0 ** 2) / 1e9),
      "kernels: k3_dgemm at pdgemm's rank 32 from the kernel model (%s)" % rank32)

# dgemm_rates: the cores a plan uses (min(d, cores)) and all cores, at its b
plat = {"types": {"f": {"k3_dgemm": {"64": 1e-10, "128": 5e-11}}, "s": {"k3": 2e-10}},
        "processors": [{"type": "f", "cores": 4}, {"type": "s", "cores": 2}, {"type": "s"}]}
used, every = platforms.dgemm_rates(plat, {"b": 128, "d": [6, 1, 0]})
check(near(used, 4 * 2e10 + 5e9) and near(every, 4 * 2e10 + 3 * 5e9), "dgemm_rates: used and all cores")

# the judge's labels as plan labels; a modeled run's checks
check([scale_analysis.judge_label(x) for x in ("GPTM", "GPTM #3", "GU", "EU")] == ["GPTM", "top3", "GU", "EU"],
      "judge labels")
check(records.checks_cell([None, None]) == "modeled" and records.checks_cell([True, False]) == "1/2"
      and records.checks_cell([]) == "0/0", "checks: modeled runs have none")

# ranks x threads: a plan's split; speed-ups derived per doubling up to a
# socket; the real check's verdict (the pick within 5 % of the fastest)
check(threads_analysis.split_of({"processes": [{"count": 2, "threads": 4}, {"count": 3}]}) == "5 x 1/4", "split_of")
plat = {"name": "p", "types": {"a": {"k3": 1e-10, "k2_dgetf2": 1e-9}},
        "processors": [{"name": "x", "type": "a", "cores": 16, "sockets": 2}, {"name": "y", "type": "a", "cores": 32}]}
meas = {"calibration": {"thread_speedups": [{"threads": 2, "dgemm": 1.8, "dtrsm": 1.5, "panel": 1.2}]}}
th = json.loads(printed(threads_analysis.thread_speedups, {"p.json": plat, "m.json": meas}, platform="p.json",
                        measured="m.json"))["types"]["a"]["threads"]
check(sorted(th, key=int) == ["2", "4", "8"] and near(th["8"]["dgemm"], 5.832) and near(th["4"]["panel"], 1.44),
      "thread speed-ups per doubling, up to the smallest socket (8 cores): %s" % th)
meas = {"calibration": {"thread_speedups": [{"threads": 2, "dgemm": {"32": 1.5, "256": 1.8}, "dtrsm": {"32": 1.5},
                                             "panel": {"32": 0.5, "256": 1.1}}]}}
th = json.loads(printed(threads_analysis.thread_speedups, {"p.json": plat, "m.json": meas}, platform="p.json",
                        measured="m.json"))["types"]["a"]["threads"]
check(near(th["8"]["dgemm"]["256"], 5.832) and near(th["4"]["panel"]["32"], 0.25) and near(th["2"]["panel"]["256"], 1.1),
      "thread speed-ups by block size, per doubling at each b: %s" % th)
with tempfile.TemporaryDirectory() as tmp:
    os.mkdir(os.path.join(tmp, "plans"))
    one = {"processes": [{"count": 2}], "predicted": {"total_s": 1.0}}
    two = {"processes": [{"count": 1, "threads": 2}], "predicted": {"total_s": 1.2}}
    for name, plan in (("lu-100-driver-GU", one), ("lu-100-driver-HU", two), ("lu-100-driver-GPTM", two),
                       ("gemm-100-driver-GU", one), ("gemm-100-driver-HU", two), ("gemm-100-driver-GPTM", one)):
        with open(os.path.join(tmp, "plans", name + ".json"), "w") as f:
            json.dump({"plan": plan}, f)
    with open(os.path.join(tmp, "runs.jsonl"), "w") as f:
        for routine, plan, t in (("lu", one, 1.0), ("lu", one, 1.02), ("lu", two, 1.04), ("lu", two, 1.06),
                                 ("gemm", one, 2.0), ("gemm", two, 1.5)):
            f.write(json.dumps({"inputs": {"routine": routine, "n": 100}, "plan": plan, "measured_s": t,
                                "predicted_s": plan["predicted"]["total_s"],
                                "program": {"profile": "driver", "verdict": "passed"}}) + "\n")
    text = said(threads_analysis.threads_real, dir=tmp)
    # LU: the pick (1 x 2, median 1.05) within 5 % of the fastest (2 x 1, 1.01); GEMM: the pick 2 x 1 is 33 % slower
    check("Met in 1 of 2 groups" in text and "missed (33.3 % slower)" in text and "| met |" in text,
          "threads-real verdicts: %s" % text)

# the emulated cluster's pairs: beside the plan's other nodes, every node, none
plat = {"processors": [{"name": "duo", "cores": 2}, {"name": "half", "cores": 1}, {"name": "q", "cores": 1}]}
gptm = {"plan": {"processes": [{"processor": "duo", "count": 2}, {"processor": "half", "count": 1}]}}
pairs = printed(threads_analysis.thread_pairs, {"p.json": plat, "g.json": gptm}, {"node": "duo"}, platform="p.json",
                plan="g.json")
check(pairs == "plan 2 half=1\nall 2 half=1,q=1\nalone 2 -\n", "thread pairs: %r" % pairs)

# the emulated cluster's verdicts: the pick is the lower prediction; GPTM's plan marked
with tempfile.TemporaryDirectory() as tmp:
    os.mkdir(os.path.join(tmp, "plans"))
    wide = {"processes": [{"processor": "duo", "count": 2}], "predicted": {"total_s": 1.0}}
    deep = {"processes": [{"processor": "duo", "count": 1, "threads": 2}], "predicted": {"total_s": 1.2}}
    for name, plan in (("lu-100-driver-GPTM", wide), ("lu-100-driver-alone-2x1", wide),
                       ("lu-100-driver-alone-1x2", deep)):
        with open(os.path.join(tmp, "plans", name + ".json"), "w") as f:
            json.dump({"plan": plan}, f)
    with open(os.path.join(tmp, "runs.jsonl"), "w") as f:
        for plan, t in ((wide, 2.0), (wide, 2.2), (wide, 2.1), (deep, 1.6), (deep, 1.7), (deep, 9.0)):
            f.write(json.dumps({"inputs": {"routine": "lu", "n": 100}, "plan": plan, "measured_s": t,
                                "program": {"profile": "driver", "verdict": "passed"}}) + "\n")
    text = said(threads_analysis.threads_vcluster, dir=tmp)
    # the pick 2x1 (median 2.1) against 1x2's 1.7: 23.5 % slower
    check("Met in 0 of 1 pairs" in text and "missed (23.5 % slower)" in text and "2x1 (GPTM's plan)" in text,
          "threads-vcluster verdicts: %s" % text)

# the ranks x threads studies' summaries, from their committed plans and runs
for name, command in (("real", threads_analysis.threads_real), ("vcluster", threads_analysis.threads_vcluster),
                      ("vcluster-hpcc", threads_analysis.threads_vcluster)):
    study = os.path.join(ROOT, "experiments", "threads", "results", name)
    with open(os.path.join(study, "summary.md")) as f:
        check(said(command, dir=study) == f.read(), "summary of experiments/threads/results/%s regenerated" % name)

# the tune studies' summaries, from their committed records (experiments/tune/analysis.py)
for name in ("here", "mc4"):
    study = os.path.join(ROOT, "experiments", "tune", "results", name)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tune_analysis.bench(study)
    with open(os.path.join(study, "summary.md")) as f:
        check(out.getvalue() == f.read(), "summary of experiments/tune/results/%s regenerated" % name)
# tune's rounds replayed: its leader after each run, the first within 5 %
recs = [{"exit_code": 0, "measured_s": t, "plan": {"d": [d], "r": 1, "c": d, "b": 32,
                                                    "processes": [{"processor": "x", "count": d}]}}
        for d, t in ((1, 2.0), (2, 1.0), (1, 2.2), (2, 1.1))]
picks = tune_analysis.tune_picks(recs)
check(picks[0] == ((1,), (1,), 1, 1, 32) and picks[1] == ((2,), (1,), 1, 2, 32) and len(picks) == 4,
      "tune's leader replayed: %s" % picks)
check(tune_analysis.first_within(picks, lambda k: 1.0 if k[0] == (2,) else 2.0) == 2, "first within 5 %")

print("test_analysis: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
