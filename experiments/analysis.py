#!/usr/bin/env python3
"""The analysis of hetmap's studies: tables, statistics and plots.

The study scripts only orchestrate (they run hetmap and collect its JSON);
everything computed from the outputs is here, once. Python 3 standard
library only; plots are drawn by gnuplot when it is installed (the setup
script installs it).

    analysis.py simulation DIR [--elapsed S] [--budget S]
        DIR/all.jsonl (one 'hetmap compare -f json' document a line) ->
        DIR/summary.md, DIR/ratio.png, DIR/time.png
    analysis.py distinct PLANDIR [--skip RUNS]
        print the plan files of PLANDIR (NNN-GROUP-LABEL.json, from
        'hetmap plan/predict -f json') that are distinct configurations,
        one per line: the ones a study of plans runs (less those the
        records RUNS hold: a study resumed)
    analysis.py record PLANDIR OUT --study vcluster|smpi --model M --elapsed S
                       --cluster NAME --command TEXT
        the end of a study of plans: OUT/plans.tsv (what ran, who chose it)
        and OUT/study.json (how it ran)
    analysis.py summarize DIR
        a study of plans from its folder alone (study.json, plans.tsv,
        runs.jsonl, its platform) -> DIR/table.tsv, DIR/table.md,
        DIR/summary.md, DIR/predicted-vs-measured.png, and DIR/cause.md
        where DIR/nodes.jsonl is (the emulated nodes' CPU and throttled time)
    analysis.py rescore MODEL DIR [--platform FILE]
        MAPE and Spearman of MODEL on a study of plans' measurements, every
        configuration predicted again by 'build/hetmap predict'
    analysis.py models [DIR...]
        every model of 'hetmap models' rescored on every committed study of
        plans (or the DIRs): the evidence table of experiments/README.md
    analysis.py config PLAN
        print 'D RxC B' of a plan file, for the shell to predict the same
        configuration with another model
    analysis.py clients RUNS
        the records of 'hetmap run' of user programs (RUNS, JSON Lines) ->
        a Markdown summary on stdout: per program, size and choice, the
        program's own time (median, min-max), verdicts, placement checks
    analysis.py nodestat BEFORE AFTER RUNS
        one JSON line: what each virtual node used between two
        'hetmap-vcluster stat' outputs, for the last record of RUNS
    analysis.py scale PLATFORM [--factor F | --fastest RATE]
        the platform with every host and link F times faster (SMPI study)
    analysis.py sweep PLATFORM [--max N] [--one-row-max D]
        configurations beside the methods' plans, 'procs:RxC:b' lines
    analysis.py trust NATIVE SMPI
        SMPI's simulated times against the native runs' (smpi/trust.sh)
    analysis.py modeled DIR [--elapsed S] [--command TEXT]
        DIR/runs.jsonl (smpi/modeled.sh: every configuration simulated with
        kernels executed and modeled) -> a Markdown summary on stdout
    analysis.py measured-plans DIR OUTDIR
        a study's distinct measured configurations as plan files in OUTDIR
    analysis.py against RUNS DIR... [--elapsed S] [--command TEXT]
        simulated records (RUNS) against the median measured runs of the
        studies DIR... -> a Markdown summary on stdout (smpi/against_runs.sh)
    analysis.py judged PLAN [JUDGEDIR RUNS] [--plans PREFIX]
        after 'hetmap plan --judge': its candidates' records into RUNS, or
        their plan files PREFIX-LABEL.json (scale/study.sh)
    analysis.py targets DIR PLATFORMS [--elapsed S] [--command TEXT]
        scale/targets.sh's jobs (DIR/cost.tsv, DIR/runs.jsonl, platforms in
        PLATFORMS) -> a Markdown summary on stdout
    analysis.py derive CALIBRATED DESCRIPTION
        a generator description whose types say {"like": T, "slower": F},
        made concrete from CALIBRATED's type T (k tables, kernel models)
    analysis.py kernels PLATFORM CALIBRATED
        PLATFORM with kernel models for the simulator on every type lacking
        them: CALIBRATED's, scaled by the ratio of the types' k values
    analysis.py core-part PLATFORM [--remove 1]
        the calibrated PLATFORM with t_w_core on its links between
        processors as 'hetmap calibrate' writes it (or without, the
        thesis's rule), on stdout: to rescore a study under either rule
    analysis.py stacking DIR [--elapsed S]
        DIR/runs.jsonl (experiments/cores/stacking.sh: k ranks stacked on
        one core) -> DIR/summary.md: measured against predicted, and the
        slowdown from one rank against the model's
    analysis.py blocks DIR [--elapsed S]
        DIR/runs.jsonl (experiments/cores/gemm_blocks.sh: GEMM at several b
        per placement) -> DIR/summary.md: each b's time against the
        smallest b's, measured and predicted
    analysis.py stacked-plans DIR [--stacked TEXT]
        DIR/runs.jsonl (experiments/vcluster/stacked_plans.sh: runs of plan
        files named ROUTINE-N-LABEL.json) -> DIR/summary.md: per job, each
        label's configuration, predicted and measured time, and its speed
        against EU's choice
    analysis.py speed DIR [--elapsed S] [--repeats K]
        DIR/runs.jsonl (experiments/simulation/speed.sh: one 'hetmap plan
        -f json' a line, with its problem) -> DIR/summary.md: exact against
        BTM per problem (medians), and the searches at scale
"""
import argparse
import csv
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
METHODS = ["exact", "BTM", "BGRM", "GRM", "GCTM", "GPTM", "GU", "CU", "EU"]
PLAN_METHOD = "GPTM"        # the plan a user gets by default
TARGETS = ("plan >= 1.25x faster than GU, not slower than CU or EU, within 10% of the best\n"
           "measured; model error < 20%, rank correlation >= 0.8.")


# ---- statistics -------------------------------------------------------------

# the hetmap that rescoring asks (HETMAP=PATH: another build, e.g. a model being tried)
HETMAP = os.environ.get("HETMAP") or os.path.join(ROOT, "build", "hetmap")


def mape(predicted, measured):
    """Mean absolute percentage error of the predictions, in percent."""
    return 100.0 * statistics.fmean(abs(p - m) / m for p, m in zip(predicted, measured))


def ranks(values):
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return out


def spearman(x, y):
    """Spearman's rank correlation (Pearson's on the ranks); nan if undefined."""
    rx, ry = ranks(x), ranks(y)
    n = len(x)
    sx, sy = sum(rx), sum(ry)
    sxx = sum(a * a for a in rx)
    syy = sum(b * b for b in ry)
    sxy = sum(a * b for a, b in zip(rx, ry))
    den = math.sqrt((n * sxx - sx * sx) * (n * syy - sy * sy))
    return (n * sxy - sx * sy) / den if den > 0 else float("nan")


# ---- output -----------------------------------------------------------------

def write_atomic(path, text):
    """Write 'text' to 'path' through a temporary file in the same folder."""
    folder = os.path.dirname(path) or "."
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".analysis-")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.chmod(tmp, 0o644)
    os.replace(tmp, path)


def markdown_table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def gnuplot(script):
    """Run gnuplot on 'script'; False (and a message) when it is missing."""
    if not shutil.which("gnuplot"):
        print("analysis: gnuplot not found: no plots (sh tests/setup.sh installs it)",
              file=sys.stderr)
        return False
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    return True


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


# ---- the simulation study ---------------------------------------------------

def simulation_rows(docs):
    """One row per (comparison, method)."""
    rows = []
    for doc in docs:
        for r in doc["results"]:
            s = r.get("search", {})
            rows.append({
                "platform": doc["platform_name"], "n": doc["n"], "depth": doc["depth"],
                "processors": len(r["d"]), "method": r["method"], "ratio": r["ratio"],
                "time": s.get("seconds", 0.0), "level": s.get("level_reached", 0),
                "stopped": s.get("stopped", "complete"),
            })
    return rows


def simulation(args):
    rows = simulation_rows(read_jsonl(os.path.join(args.dir, "all.jsonl")))
    methods = [m for m in METHODS if any(r["method"] == m for r in rows)]
    ref = [r for r in rows if not r["platform"].startswith("random")]
    summary = []
    for m in methods:
        mine = [r for r in ref if r["method"] == m]
        if mine:
            summary.append([m, "%.4f" % max(r["ratio"] for r in mine),
                            "%.4f" % statistics.fmean(r["ratio"] for r in mine),
                            "%.3g" % max(r["time"] for r in mine),
                            sum(r["stopped"] != "complete" for r in mine)])
    keys = []
    cells = {}
    for r in rows:
        if r["depth"] != 30:
            continue
        key = (r["platform"], r["processors"], r["n"])
        if key not in cells:
            keys.append(key)
            cells[key] = {}
        cells[key][r["method"]] = "%.3f / %.2g / %d%s" % (
            r["ratio"], r["time"], r["level"], "" if r["stopped"] == "complete" else " (stopped)")
    depth30 = [[k[0], k[1], k[2]] + [cells[k].get(m, "") for m in methods] for k in keys]
    text = ("# Simulation study\n\n"
            "Generated by `sh experiments/simulation/study.sh` in %s s on %d cores; every\n"
            "method and user, ratio = predicted time / the exact optimum within the depth limit\n"
            "(users ignore the depth limit, so their ratio can fall below 1), time to solution in\n"
            "seconds, level = deepest level reached. Budget %s s per method; 'stopped' marks a run "
            "cut by it.\n\n"
            "## Worst and mean ratio per method over the reference platforms (all depths, both "
            "TORC sizes)\n\n" % (args.elapsed, os.cpu_count() or 1, args.budget)
            + markdown_table(["method", "worst ratio", "mean ratio", "slowest time (s)",
                              "runs stopped"], summary)
            + "\n## Depth 30, every platform: ratio / time to solution (s) / level\n\n"
            + markdown_table(["platform", "P", "n"] + methods, depth30)
            + "\nPlots: ratio.png and time.png (depth 30, against the number of processors).\n")
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    simulation_plots(args.dir, rows, methods)


def simulation_plots(out, rows, methods):
    """ratio.png and time.png against P: the random family as lines, the
    reference platforms as points (TORC at n = 2048)."""
    with tempfile.TemporaryDirectory() as tmp:
        plots = []
        for i, m in enumerate(methods, 1):
            for kind in ("rnd", "ref"):
                sel = [r for r in rows if r["depth"] == 30 and r["method"] == m and
                       r["platform"].startswith("random") == (kind == "rnd") and
                       not (r["platform"] == "TORC" and r["n"] == 4096)]
                path = os.path.join(tmp, "%s.%s" % (m, kind))
                with open(path, "w") as f:
                    for r in sorted(sel, key=lambda r: r["processors"]):
                        f.write("%d %r %r\n" % (r["processors"], r["ratio"], max(r["time"], 1e-6)))
            plots.append((i, m, os.path.join(tmp, m)))

        def plot(col):
            return ", ".join(
                "'%s.rnd' using 1:%d with linespoints lt %d pt %d title '%s', "
                "'%s.ref' using 1:%d with points lt %d pt %d ps 1.6 notitle"
                % (p, col, i, i, m, p, col, i, i) for i, m, p in plots)

        gnuplot("""set terminal pngcairo size 1100,650
set logscale x
set xlabel "processors (lines: random family; points: the 8 reference platforms) - depth 30"
set key outside right
set grid
set output "%s"
set logscale y
set ylabel "predicted time / exact optimum (log)"
set yrange [0.3:15]
set title "Ratio to the exact model optimum"
plot %s
set output "%s"
set yrange [*:*]
set ylabel "time to solution (s, log)"
set title "Time to solution"
plot %s
""" % (os.path.join(out, "ratio.png"), plot(2), os.path.join(out, "time.png"), plot(3)))


# ---- the emulated-cluster study ----------------------------------------------

def plan_config(doc):
    """(platform, routine, n, d, r, c, b) and the predicted time of a plan
    document (or of a run's record, which holds its plan)."""
    p = doc["plan"]
    key = (doc["inputs"].get("platform_name", ""), doc["inputs"]["routine"], int(doc["inputs"]["n"]),
           tuple(p["d"]), p["r"], p["c"], p["b"])
    threads = tuple(e.get("threads", 1) for e in p["processes"])
    if any(t > 1 for t in threads):         # ranks of threads: another configuration
        key += (threads,)
    return key, p["predicted"]["total_s"]


def read_plans(plandir):
    """[(group, label, key, predicted, path)] in file-name order."""
    out = []
    for name in sorted(os.listdir(plandir)):
        if not name.endswith(".json"):
            continue
        rest = name[:-5].split("-", 1)[1]          # drop NNN
        group, label = rest.rsplit("-", 1)          # groups hold a '-': lu-1500
        with open(os.path.join(plandir, name)) as f:
            key, pred = plan_config(json.load(f))
        out.append((group, label, key, pred, os.path.join(plandir, name)))
    return out


def distinct(args):
    seen = set()
    if args.skip and os.path.exists(args.skip):        # measured: a time, not a failure
        seen = {key for key, runs in measurements(args.skip).items() if any(not math.isnan(t) for t, _ in runs)}
    for group, label, key, pred, path in read_plans(args.plandir):
        if key not in seen:
            seen.add(key)
            print(path)


PLAN_LIST = ["group", "label", "platform", "routine", "n", "d", "r", "c", "b", "predicted_s"]


def write_plan_list(out, plans):
    """out/plans.tsv: what a study ran and who chose it, one line a choice
    (a configuration several methods chose runs once)."""
    lines = ["\t".join(PLAN_LIST)]
    for group, label, key, pred, _ in plans:
        platform, routine, n, d, r, c, b = key
        lines.append("\t".join([group, label, platform, routine, str(n), ",".join(map(str, d)),
                                str(r), str(c), str(b), repr(pred)]))
    write_atomic(os.path.join(out, "plans.tsv"), "\n".join(lines) + "\n")


def read_plan_list(out):
    """out/plans.tsv as read_plans gives plan files (no path)."""
    plans = []
    for row in read_table(os.path.join(out, "plans.tsv")):
        key = (row["platform"], row["routine"], int(row["n"]), tuple(int(x) for x in row["d"].split(",")),
               int(row["r"]), int(row["c"]), int(row["b"]))
        plans.append((row["group"], row["label"], key, float(row["predicted_s"]), None))
    return plans


def record(args):
    """The end of a study of plans (vcluster/study.sh, smpi/study.sh):
    OUT/plans.tsv from the plan files, and OUT/study.json, how it ran."""
    write_plan_list(args.out, read_plans(args.plandir))
    info = {"study": args.study, "model": args.model, "elapsed_s": int(args.elapsed),
            "cluster": args.cluster, "command": args.command}
    write_atomic(os.path.join(args.out, "study.json"), json.dumps(info, indent=1) + "\n")


def measurements(runs):
    """key -> [(measured seconds or nan, check passed; None when the
    kernels were modeled: nothing to check)] in the order run."""
    out = {}
    for rec in read_jsonl(runs):
        key, _ = plan_config(rec)
        m = rec.get("measured_s")
        # the driver's own check, else the program's verdict (HPL, the testers)
        check = rec.get("check") or {"passed": (rec.get("program") or {}).get("verdict") == "passed"}
        passed = None if rec.get("kernels") == "modeled" else bool(check.get("passed"))
        out.setdefault(key, []).append((m if isinstance(m, (int, float)) else float("nan"), passed))
    return out


def checks_cell(passed):
    """'passed/runs' of the residual checks, 'modeled' when none could run."""
    checked = [p for p in passed if p is not None]
    return "%d/%d" % (sum(checked), len(checked)) if checked or not passed else "modeled"


def vcluster_table(plans, measured):
    """Rows of the study's table: one per distinct configuration, its labels
    joined with '+' in the order they chose it."""
    rows = {}
    order = []
    for group, label, key, pred, _ in plans:
        if (group, key) in rows:
            rows[(group, key)]["labels"].append(label)
            continue
        runs = measured.get(key, [])
        times = [t for t, _ in runs]
        ok = [t for t in times if not math.isnan(t)]
        rows[(group, key)] = {"group": group, "labels": [label], "key": key, "predicted": pred,
                              "runs": times, "median": statistics.median(ok) if ok else float("nan"),
                              "checks": checks_cell([p for _, p in runs])}
        order.append((group, key))
    return [rows[k] for k in order]


def group_stats(rows):
    """Per group: MAPE, Spearman, and the measured times of what the plan,
    the users and the best configuration chose."""
    stats = []
    for g in dict.fromkeys(r["group"] for r in rows):
        mine = [r for r in rows if r["group"] == g and not math.isnan(r["median"])]
        pred = [r["predicted"] for r in mine]
        meas = [r["median"] for r in mine]

        def chosen(name):
            hit = [r["median"] for r in mine if name in r["labels"]]
            return hit[0] if hit else float("nan")
        best = min(mine, key=lambda r: r["median"])
        rivals = sorted({label for r in mine for label in r["labels"] if ":" in label})
        stats.append({"group": g, "n": len(mine), "mape": mape(pred, meas), "rho": spearman(pred, meas),
                      "plan": chosen(PLAN_METHOD), "GU": chosen("GU"), "CU": chosen("CU"),
                      "EU": chosen("EU"), "best": best["median"], "best_label": "+".join(best["labels"]),
                      "rivals": {label: chosen(label) for label in rivals}})
    return stats


# what a study's plot calls its runs, by study.json's "study"
STUDY_TITLE = {"smpi": "SMPI: ", "scale": "SMPI, kernels modeled: ", "vcluster": "Emulated cluster: ",
               "real": "Real runs: "}


def summarize(args):
    """A study of plans from its folder alone (study.json, plans.tsv,
    runs.jsonl): table.tsv and table.md (every configuration, predicted and
    measured), summary.md, predicted-vs-measured.png; and for the emulated
    cluster's, cause.md from nodes.jsonl."""
    out = args.dir
    with open(os.path.join(out, "study.json")) as f:
        info = json.load(f)
    rows = vcluster_table(read_plan_list(out), measurements(os.path.join(out, "runs.jsonl")))
    tsv = ["group\tlabel\td\tr\tc\tb\tpredicted_s\tmeasured_s\tm1\tm2\tm3\tchecks"]
    for r in rows:
        d, rr, c, b = r["key"][-4:]
        runs = (r["runs"] + [float("nan")] * 3)[:3]
        tsv.append("\t".join([r["group"], "+".join(r["labels"]), ",".join(map(str, d)), str(rr), str(c),
                              str(b), repr(r["predicted"]), "%g" % r["median"]] +
                             ["%g" % t for t in runs] + [r["checks"]]))
    write_atomic(os.path.join(out, "table.tsv"), "\n".join(tsv) + "\n")
    table = [[r["group"], "+".join(r["labels"]), "[%s]" % ",".join(map(str, r["key"][-4])),
              "%dx%d" % r["key"][-3:-1], r["key"][-1], "%.4g" % r["predicted"], "%.4g" % r["median"],
              " ".join("%.4g" % t for t in r["runs"]), r["checks"]] for r in rows]
    write_atomic(os.path.join(out, "table.md"),
                 "# Every configuration: predicted and measured (median of the runs)\n\n" +
                 markdown_table(["group", "chosen by", "d", "grid", "b", "predicted s", "measured s",
                                 "runs", "checks"], table))
    stats = group_stats(rows)
    reps = max((len(r["runs"]) for r in rows), default=0)
    text = study_summary(stats, reps, info)
    if info["study"] in ("smpi", "scale"):
        text += ("\n## The plan against what the cluster could give\n\n" +
                 efficiency_table(out, PLAN_METHOD))
    if info["study"] == "real":
        text += paired_table(rows)
    if os.path.isdir(os.path.join(out, "judge")):
        text += ("\n## What the judge changes (plan --judge)\n\n" + judge_table(out))
    write_atomic(os.path.join(out, "summary.md"), text)
    study_plot(rows, info, out)
    if os.path.exists(os.path.join(out, "nodes.jsonl")):
        write_atomic(os.path.join(out, "cause.md"), cause_table(out))
    sys.stdout.write(text)


def paired_table(rows):
    """A real study's plan against its best configuration round by round:
    the repetitions are interleaved (one run of each configuration, then
    again), so the i-th runs of two configurations shared the machine's
    mood of that moment, and their ratio is steadier than the ratio of
    medians on a machine whose speed wanders."""
    lines = []
    for g in dict.fromkeys(r["group"] for r in rows):
        mine = [r for r in rows if r["group"] == g and not math.isnan(r["median"])]
        plan = next((r for r in mine if PLAN_METHOD in r["labels"]), None)
        best = min(mine, key=lambda r: r["median"])
        if plan is None:
            continue
        ratios = [p / b for p, b in zip(plan["runs"], best["runs"]) if not (math.isnan(p) or math.isnan(b))]
        if not ratios:
            continue
        lines.append([g, "+".join(best["labels"]), len(ratios), "%.3f" % statistics.median(ratios),
                      "%.3f-%.3f" % (min(ratios), max(ratios)), sum(1 for x in ratios if x <= 1.05)])
    if not lines:
        return ""
    return ("\nThe plan against the best configuration, round by round (each round ran every\n"
            "configuration once, in turn):\n\n" +
            markdown_table(["group", "best (median)", "rounds", "plan / best, median", "range",
                            "rounds within 5 %"], lines))


def study_summary(stats, reps, info):
    lines = [[s["group"], s["n"], "%.1f%%" % s["mape"], "%.3f" % s["rho"], "%.4g" % s["plan"],
              "%.4g" % s["GU"], "%.4g" % s["CU"], "%.4g" % s["EU"],
              "%.4g (%s)" % (s["best"], s["best_label"]), "%.2fx" % (s["GU"] / s["plan"]),
              "%.2fx" % (s["CU"] / s["plan"]), "%.2fx" % (s["EU"] / s["plan"]),
              "%.3f" % (s["plan"] / s["best"])] for s in stats]
    total = sum(s["n"] for s in stats)
    simulated = info["study"] in ("smpi", "scale")
    head = {"smpi": "# Plans simulated under SMPI (real ScaLAPACK, simulated clusters)\n\n"
                    "Model: %s. Generated by `%s` (%s s of runs). One simulated\n"
                    "run per configuration; every run checked by the driver (residual).\n\n",
            "scale": "# Plans at scale, simulated under SMPI with modeled kernels\n\n"
                     "Model: %s. Generated by `%s` (%s s of runs). One simulated\n"
                     "run per configuration; the kernels modeled (no residual to check).\n\n",
            "vcluster": "# Plans measured on the emulated cluster\n\n"
                        "Model: %%s. Generated by `%%s` (%%s s of runs). Median of %d\n"
                        "runs per configuration; every run checked by the driver (residual).\n\n" % reps,
            "real": "# Plans measured for real on this machine\n\n"
                    "Model: %%s. Generated by `%%s` (%%s s of runs). Median of %d\n"
                    "runs per configuration, interleaved; every run checked by its program.\n\n" % reps}
    head = head[info["study"]]
    return (head % (info["model"], info["command"], info["elapsed_s"]) +
            markdown_table(["group", "configurations", "MAPE", "Spearman", "plan (%s) s" % PLAN_METHOD,
                            "GU s", "CU s", "EU s", "best s", "plan/GU speedup", "plan/CU",
                            "plan/EU", "plan/best"], lines) +
            "\nOver all groups: MAPE %.1f%%, mean Spearman %.3f.\nTargets: %s\n" %
            (sum(s["mape"] * s["n"] for s in stats) / total,
             statistics.fmean(s["rho"] for s in stats), SMPI_TARGETS if simulated else TARGETS) +
            rivals_summary(stats, info["model"]))


def rivals_summary(stats, model):
    """The plans of other models measured in the same runs (RIVALS=...):
    each against the best and against this model's plan."""
    lines = [[s["group"], label, "%.4g" % t, "%.3f" % (t / s["best"]), "%.3f" % (s["plan"] / t)]
             for s in stats for label, t in s["rivals"].items()]
    if not lines:
        return ""
    return ("\nPlans of other models (%s), measured in the same runs:\n\n" % PLAN_METHOD +
            markdown_table(["group", "model:method", "measured s", "its plan/best",
                            "%s's plan / its plan" % model], lines))


def study_plot(rows, info, out):
    with tempfile.TemporaryDirectory() as tmp:
        series = []
        for g in dict.fromkeys(r["group"] for r in rows):
            path = os.path.join(tmp, g + ".dat")
            with open(path, "w") as f:
                for r in rows:
                    if r["group"] == g and not math.isnan(r["median"]):
                        f.write("%r %r\n" % (r["predicted"], r["median"]))
            *cluster, routine, n = g.split("-")      # [CLUSTER-]ROUTINE-N
            series.append("'%s' title '%s%s n=%s'" % (path, " ".join(cluster + [""]), routine.upper(), n))
        title = STUDY_TITLE.get(info["study"], "Emulated cluster: ") + info["cluster"]
        gnuplot("""set terminal pngcairo size 900,750
set output "%s"
set logscale xy
set xlabel "predicted time (s)"
set ylabel "measured time (s, median of the runs)"
set title "%s: model %s vs ScaLAPACK runs"
set key top left
set grid
f(x) = x
plot %s, f(x) title 'measured = predicted' lt -1
""" % (os.path.join(out, "predicted-vs-measured.png"), title, info["model"], ", ".join(series)))


# ---- scoring a model on a study's measurements -------------------------------

def read_table(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def config_cmd(args):
    with open(args.plan) as f:
        _, _, _, d, r, c, b = plan_config(json.load(f))[0]
    print(",".join(map(str, d)), "%dx%d" % (r, c), b)


def study_platform(out, group):
    """The platform a study of plans predicted on: the emulated cluster's
    calibration (platform.json), the SMPI group's (clusters/NAME-measured.json),
    or the cluster as described (clusters/NAME.json: the study at scale)."""
    if os.path.exists(os.path.join(out, "platform.json")):
        return os.path.join(out, "platform.json")
    name = os.path.join(out, "clusters", "-".join(group.split("-")[:-2]))
    return name + "-measured.json" if os.path.exists(name + "-measured.json") else name + ".json"


def predict(model, platform, routine, n, d, r, c, b):
    """'hetmap predict' of one configuration: its total time (s)."""
    doc = subprocess.run([HETMAP, "predict", "-p", platform, "-m", model,
                          "-r", routine, "-n", str(n), "--procs", ",".join(map(str, d)),
                          "--grid", "%dx%d" % (r, c), "-b", str(b), "-f", "json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(doc)["plan"]["predicted"]["total_s"]


def rescore_stats(model, out, platform=None):
    """{group: (MAPE, Spearman)} and the whole study's (MAPE, mean Spearman)
    of 'model' on the study's measurements: every configuration predicted
    again on the study's own platform (or 'platform')."""
    measured = measurements(os.path.join(out, "runs.jsonl"))
    by_group = {}
    for r in vcluster_table(read_plan_list(out), measured):
        if math.isnan(r["median"]):
            continue
        _, routine, n, d, rr, c, b = r["key"]
        pred = predict(model, platform or study_platform(out, r["group"]), routine, n, d, rr, c, b)
        by_group.setdefault(r["group"], []).append((pred, r["median"]))
    groups = {g: (mape([p for p, _ in pm], [m for _, m in pm]), spearman([p for p, _ in pm], [m for _, m in pm]))
              for g, pm in by_group.items()}
    allp = [p for pm in by_group.values() for p, _ in pm]
    allm = [m for pm in by_group.values() for _, m in pm]
    return groups, (mape(allp, allm), statistics.fmean(rho for _, rho in groups.values()))


def rescore(args):
    groups, whole = rescore_stats(args.model, args.dir, args.platform)
    lines = [[g, "%.1f%%" % e, "%.3f" % rho] for g, (e, rho) in groups.items()]
    lines.append(["all", "%.1f%%" % whole[0], "%.3f (mean)" % whole[1]])
    sys.stdout.write("model %s on the measurements of %s\n" % (args.model, args.dir) +
                     markdown_table(["group", "MAPE", "Spearman"], lines))


def study_dirs():
    """Every committed study of plans: the folders holding a plans.tsv."""
    found = []
    for study in sorted(os.listdir(os.path.join(ROOT, "experiments"))):
        results = os.path.join(ROOT, "experiments", study, "results")
        if os.path.isdir(results):
            found += [os.path.join(results, d) for d in sorted(os.listdir(results))
                      if os.path.exists(os.path.join(results, d, "plans.tsv"))]
    return found


# Real runs (a machine, the emulated cluster, the thesis's measurements)
# judge the models first; simulated ones (SMPI) after: by study.json's "study"
REAL_STUDIES = ("real", "vcluster")

EVIDENCE = os.path.join(ROOT, "models", "evidence.tsv")
EVIDENCE_HEAD = ("# Each model scored on every committed set of runs: MAPE (%) and mean Spearman over the\n"
                 "# set's groups, every model predicting the same measured configurations on the set's\n"
                 "# platform. Written by 'python3 experiments/analysis.py models --write'; compiled into\n"
                 "# 'hetmap models'; tests/test_analysis.py checks it against the committed runs.\n"
                 "set\tkind\tmodel\tconfigurations\tmape\tspearman\n")


# Sets kept but not scored, and why
UNSCORED = {"real/results/localhost-xdlu": "ScaLAPACK's LU tester prints its time to 0.01 s and its work array "
                                           "holds n <= 650, where its LU takes one or two ticks: too coarse to "
                                           "score a model"}


def set_kind(out):
    with open(os.path.join(out, "study.json")) as f:
        return "real" if json.load(f)["study"] in REAL_STUDIES else "simulated"


def evidence_rows(dirs):
    """[(set, kind, model, configurations, MAPE, mean Spearman)], real sets
    first, every model as 'hetmap models' lists them."""
    names = [m["name"] for m in json.loads(subprocess.run(
        [HETMAP, "models", "-f", "json"], capture_output=True, text=True, check=True).stdout)]
    rows = []
    dirs = [d for d in dirs if os.path.relpath(d, os.path.join(ROOT, "experiments")) not in UNSCORED]
    for out in sorted(dirs, key=lambda d: (set_kind(d) != "real", d)):
        configs = sum(1 for r in vcluster_table(read_plan_list(out), measurements(os.path.join(out, "runs.jsonl")))
                      if not math.isnan(r["median"]))
        for name in names:
            _, (err, rho) = rescore_stats(name, out)
            rows.append((os.path.relpath(out, os.path.join(ROOT, "experiments")), set_kind(out), name,
                         configs, err, rho))
    return rows


def evidence_text(rows):
    return EVIDENCE_HEAD + "".join("%s\t%s\t%s\t%d\t%.1f\t%.3f\n" % r for r in rows)


def models(args):
    """Every model (as 'hetmap models' lists them) scored on every study of
    plans, on the same measurements, real runs first: the evidence behind
    each model's status. --write also writes models/evidence.tsv."""
    rows = evidence_rows(args.dirs or study_dirs())
    names = list(dict.fromkeys(r[2] for r in rows))
    lines = []
    for s in dict.fromkeys((r[0], r[1]) for r in rows):
        cells = {r[2]: "%.1f %%, %.3f" % (r[4], r[5]) for r in rows if (r[0], r[1]) == s}
        lines.append([s[0], s[1]] + [cells[n] for n in names])
    sys.stdout.write("Each cell: MAPE, mean Spearman over the set's groups, every model\n"
                     "predicting the same measured configurations on the set's platform.\n\n" +
                     markdown_table(["measurements", "kind"] + names, lines) +
                     "".join("\nNot scored: %s: %s.\n" % kv for kv in UNSCORED.items()))
    if args.write:
        write_atomic(EVIDENCE, evidence_text(rows))


def engine(args):
    """experiments/smpi/engine.sh's summary: per configuration, the modeled
    engine's simulated times quiet and beside a busy process, their spread,
    zero pivots, against full execution, the old engine and real runs."""
    recs = read_jsonl(os.path.join(args.dir, "runs.jsonl"))
    real = {}
    for rec in read_jsonl(os.path.join(ROOT, "experiments", "real", "results", "localhost-driver", "runs.jsonl")):
        key, _ = plan_config(rec)
        if isinstance(rec.get("measured_s"), (int, float)):
            real.setdefault(key[1:], []).append(rec["measured_s"])
    for rec in read_jsonl(os.path.join(ROOT, "experiments", "real", "results", "torc-thesis", "runs.jsonl")):
        key, _ = plan_config(rec)
        real.setdefault(key[1:], []).append(rec["measured_s"])
    by = {}
    for r in recs:
        t = r.get("measured_s")
        by.setdefault(r["config"], {}).setdefault((r["engine"], r["beside"]), []).append(
            t if isinstance(t, (int, float)) else float("nan"))
        by[r["config"]]["key"] = plan_config(r)[0][1:]
        by[r["config"]].setdefault("pivots", [])
        if r["inputs"]["routine"] == "lu":
            by[r["config"]]["pivots"].append((r["engine"], (r.get("driver") or {}).get("info")))

    def med(v):
        v = [x for x in v if not math.isnan(x)]
        return statistics.median(v) if v else float("nan")

    def cell(v):
        return " ".join("%.4g" % x for x in v) if v else "-"
    lines, spreads, zeros = [], [], {}
    for name, d in by.items():
        quiet, busy = d.get(("modeled", "no"), []), d.get(("modeled", "yes"), [])
        both = [x for x in quiet + busy if not math.isnan(x)]
        spread = max(both) / min(both) - 1 if both else float("nan")
        spreads.append(spread)
        oq, ob = d.get(("old-panel-rate", "no"), []), d.get(("old-panel-rate", "yes"), [])
        ex = d.get(("executed", "no"), [])
        ref = real.get(d["key"], [])
        for eng, info in d["pivots"]:
            zeros.setdefault(eng, [0, 0])
            zeros[eng][0] += 1
            zeros[eng][1] += bool(info)
        lines.append([name, cell(quiet), cell(busy), "%.2f %%" % (100 * spread), cell(ex), cell(oq), cell(ob),
                      "%.4g" % med(ref) if ref else "-",
                      "%.2f" % (med(quiet + busy) / med(ref)) if ref else "-",
                      "%.2f" % (med(oq + ob) / med(ref)) if ref and oq + ob else "-"])
    text = ("# The simulator's engine: modeled kernels, nothing timed here\n\n"
            "Simulated seconds (each run); 'busy': beside a process spinning on this machine. Real: the\n"
            "median of this machine's real runs (real/results/localhost-driver) or the thesis's\n"
            "measurement (real/torc-thesis.tsv).\n\n" +
            markdown_table(["configuration", "modeled, quiet", "modeled, busy", "spread", "full execution",
                            "old engine, quiet", "old engine, busy", "real s", "modeled / real",
                            "old / real"], lines) +
            "\nLargest spread of the modeled engine between its runs: %.2f %%.\n" % (100 * max(spreads)) +
            "".join("%s: %d of %d LU runs met a zero pivot.\n" % (eng, z, n) for eng, (n, z) in sorted(zeros.items())))
    sys.stdout.write(text)


# subcommand: (function, [(argument, default or None for a positional)])
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


def nodestat(args):
    def read(path):
        return {d["node"]: d for d in (json.loads(l) for l in open(path) if l.strip())}
    before, after = read(args.before), read(args.after)
    lines = open(args.runs).read().splitlines()
    nodes = [{"node": k, "share": after[k]["share"],
              "cpu_s": after[k]["cpu_s"] - before[k]["cpu_s"],
              "throttled_s": after[k]["throttled_s"] - before[k]["throttled_s"],
              "throttled_periods": after[k]["throttled_periods"] - before[k]["throttled_periods"]}
             for k in after]
    print(json.dumps({"run": len(lines) - 1, "nodes": nodes}))


def cause_table(out):
    """Per configuration of an emulated-cluster study: measured / predicted,
    and per node the CPU time used and the time throttled, as shares of the
    run's wall time (out/runs.jsonl, out/nodes.jsonl); then the median ratio
    by kind of configuration."""
    runs = read_jsonl(os.path.join(out, "runs.jsonl"))
    stats = {d["run"]: d["nodes"] for d in read_jsonl(os.path.join(out, "nodes.jsonl"))}
    groups = {}
    for i, rec in enumerate(runs):
        if rec.get("measured_s") is None or i not in stats:
            continue
        plan = rec["plan"]
        used = tuple(p["processor"] for p in plan["processes"])
        key = (rec["inputs"]["routine"], rec["inputs"]["n"], tuple(plan["d"]), plan["r"], plan["c"], plan["b"])
        groups.setdefault(key, []).append((rec, stats[i], used))
    rows = []
    for key, items in sorted(groups.items()):
        rec = items[0][0]
        ratio = statistics.median(r["measured_s"] / r["predicted_s"] for r, _, _ in items)
        wall = statistics.median(r["wall_s"] for r, _, _ in items)
        cells = []
        for node in items[0][1]:
            cpu = statistics.median(next(n for n in st if n["node"] == node["node"])["cpu_s"] for _, st, _ in items)
            thr = statistics.median(next(n for n in st if n["node"] == node["node"])["throttled_s"] for _, st, _ in items)
            mark = "*" if node["node"] in items[0][2] else ""
            cells.append("%s%.2f/%.2f" % (mark, cpu / wall, thr / wall))
        rows.append(["%s %d" % (key[0], key[1]), ",".join(map(str, key[2])), "%dx%d" % (key[3], key[4]),
                     str(key[5]), "%.2f" % ratio, "%.2f" % wall] + cells)
    nodes = [n["node"] for n in next(iter(stats.values()))] if stats else []
    text = markdown_table(["group", "d", "grid", "b", "measured / predicted", "job wall s"] +
                          ["%s cpu/throttled" % n for n in nodes], rows)
    # the pattern: configurations that mix speeds against those on one node
    share = {n["node"]: n["share"] for n in next(iter(stats.values()))} if stats else {}
    kinds = {}
    for key, items in groups.items():
        used = items[0][2]
        kind = ("one node" if len(used) == 1 else
                "nodes of one speed" if len({share[u] for u in used}) == 1 else "mixed speeds")
        ratio = statistics.median(r["measured_s"] / r["predicted_s"] for r, _, _ in items)
        kinds.setdefault((key[0], kind), []).append(ratio)
    return text + "\n" + markdown_table(
        ["routine", "configurations", "count", "measured / predicted: median", "min-max"],
        [[k[0], k[1], str(len(v)), "%.2f" % statistics.median(v), "%.2f-%.2f" % (min(v), max(v))]
         for k, v in sorted(kinds.items())])


# ---- the SMPI study (experiments/smpi/study.sh) ----

UNIT_TIME = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}
PREFIX = {"": 1.0, "k": 1e3, "K": 1e3, "M": 1e6, "G": 1e9, "T": 1e12}


def scale_quantity(v, factor):
    """A platform quantity (a time, or a rate in a string) for hosts and
    links 'factor' times faster: times divided, rates multiplied."""
    if isinstance(v, (int, float)):
        return v / factor
    if isinstance(v, dict):
        return {k: scale_quantity(x, factor) for k, x in v.items()}
    m = re.match(r"^\s*([0-9.eE+-]+)\s*(\S*)\s*$", v)
    num, unit = float(m.group(1)), m.group(2)
    return "%.9g%s" % (num / factor if unit in UNIT_TIME else num * factor, unit)


def seconds_per_flop(v):
    """A k value (number, time string or rate string) in s/flop."""
    if isinstance(v, dict):
        v = v[sorted(v, key=int)[len(v) // 2]]
    if isinstance(v, (int, float)):
        return float(v)
    m = re.match(r"^\s*([0-9.eE+-]+)\s*(\S*)\s*$", v)
    num, unit = float(m.group(1)), m.group(2)
    if unit in UNIT_TIME:
        return num * UNIT_TIME[unit]
    return 1.0 / (num * PREFIX.get(unit[:1], 1.0))


def type_k3(t):
    return seconds_per_flop(t.get("k3_dgemm", t.get("k3")))


def scale(args):
    """The platform with every host and link 'factor' times faster (or, with
    --fastest RATE, as fast as makes its fastest dgemm RATE flop/s): the
    same balance of computation and communication, times divided."""
    doc = json.load(open(args.platform))
    factor = float(args.factor) or float(args.fastest) * min(type_k3(t) for t in doc["types"].values())
    for t in doc["types"].values():
        for k in ("k3", "k3_dgemm", "k3_dtrsm", "k2_dgetf2"):
            if k in t:
                t[k] = scale_quantity(t[k], factor)

    def links(o):
        if isinstance(o, dict):
            for k in list(o):
                if k in ("t_s", "t_w", "t_w_core"):
                    o[k] = scale_quantity(o[k], factor)
                else:
                    links(o[k])
        elif isinstance(o, list):
            for x in o:
                links(x)
    links(doc.get("network", {}))
    doc["description"] = "%s (every speed x%.4g)" % (doc.get("description", ""), factor)
    print(json.dumps(doc, indent=1))


# ---- kernel models for described platforms (smpi/modeled.sh, scale/study.sh) ----

KERNEL_RATIO = {"dgemm": ("k3_dgemm", "k3"), "dtrsm": ("k3_dtrsm", "k3"), "dger": ("k2_dgetf2",)}


def type_k(t, keys, b):
    """A type's k (s/flop) of the first of 'keys' it has, at block size b."""
    v = next(t[k] for k in keys if k in t)
    if isinstance(v, dict):
        v = v.get(str(b), v[sorted(v, key=int)[len(v) // 2]])
    return seconds_per_flop(v)


def scaled_type(t, factor):
    """Type t 'factor' times slower: every k and kernel coefficient times factor."""
    out = {}
    for k, v in t.items():
        if k in ("k3", "k3_dgemm", "k3_dtrsm", "k2_dgetf2"):
            out[k] = {b: x * factor for b, x in v.items()} if isinstance(v, dict) else v * factor
        elif k == "kernels":
            out[k] = {kern: {term: c * factor for term, c in m.items()} for kern, m in v.items()}
        elif k != "busy_cores_scale":
            out[k] = v
    return out


def derive(args):
    """A generator description whose types read {"like": TYPE, "slower": F}
    made concrete from a calibrated platform: TYPE's k tables and kernel
    models, all F times slower. Its kernels are then this machine's, scaled,
    so that executed and modeled kernels charge the same (smpi/modeled.sh)."""
    cal = json.load(open(args.calibrated))
    desc = json.load(open(args.description))
    for name, t in desc["types"].items():
        if "like" in t:
            desc["types"][name] = scaled_type(cal["types"][t["like"]], float(t.get("slower", 1)))
    print(json.dumps(desc, indent=1))


def kernels(args):
    """The platform with kernel models on every type that has none: the
    calibrated platform's first type's, each kernel scaled by the ratio of
    its k (dgemm, dtrsm, the panel's for dger) at the platform's middle
    block size: a described cluster's kernels shaped like this machine's."""
    cal = json.load(open(args.calibrated))
    doc = json.load(open(args.platform))
    ref = next(iter(cal["types"].values()))
    blocks = doc.get("block_sizes") or [64]
    b = blocks[len(blocks) // 2]
    for t in doc["types"].values():
        if "kernels" in t:
            continue
        t["kernels"] = {kern: {term: c * type_k(t, keys, b) / type_k(ref, keys, b)
                               for term, c in ref["kernels"][kern].items()}
                        for kern, keys in KERNEL_RATIO.items()}
        add_pblas_block(t)
    print(json.dumps(doc, indent=1))


PBLAS_BLOCK = 32


def add_pblas_block(t):
    """pdgemm's local updates have rank 32 whatever b (models/README.md,
    'panel'), so a model reads k3_dgemm at 32: a described table without
    that entry gets the kernel model's rate there (an update of 2048 x 2048
    by rank 32), the rate the simulator charges, where clamping to the
    table's smallest b would read the rate of a wider update."""
    table = t.get("k3_dgemm")
    if not isinstance(table, dict) or str(PBLAS_BLOCK) in table:
        return
    g, m, k = t["kernels"]["dgemm"], 2048.0, PBLAS_BLOCK
    seconds = sum(g.get(term, 0.0) * size for term, size in
                  (("mnk", m * m * k), ("mn", m * m), ("mk", m * k), ("nk", m * k), ("1", 1.0)))
    table[str(PBLAS_BLOCK)] = "%.4gGFLOP/s" % (2 * m * m * k / seconds / 1e9)


def modeled(args):
    """smpi/modeled.sh: per group (platform, routine, n), each configuration
    simulated with its kernels executed and with them modeled: the ratio,
    the largest error, the Spearman correlation of the two rankings, and
    what each cost in wall time."""
    runs = {}
    for rec in read_jsonl(os.path.join(args.dir, "runs.jsonl")):
        key, pred = plan_config(rec)
        if isinstance(rec.get("measured_s"), (int, float)):
            runs.setdefault(key, {})[rec.get("kernels", "executed")] = (rec["measured_s"], rec["wall_s"], pred)
    groups = {}
    for key, by in runs.items():
        if "executed" in by and "modeled-as-executed" in by:
            groups.setdefault("%s %s %d" % key[:3], []).append((key, by["executed"], by["modeled-as-executed"]))
    rows, detail, worst = [], [], 0.0
    for g, items in groups.items():
        ex = [e[0] for _, e, _ in items]
        mo = [m[0] for _, _, m in items]
        err = [abs(m / e - 1) * 100 for e, m in zip(ex, mo)]
        worst = max([worst] + err)
        rows.append([g, len(items), "%.1f%%" % statistics.fmean(err), "%.1f%%" % max(err),
                     "%.3f" % spearman(ex, mo), "%.0f s / %.0f s" % (sum(e[1] for _, e, _ in items),
                                                                     sum(m[1] for _, _, m in items))])
        for (key, e, m) in items:
            detail.append([g, "[%s]" % ",".join(map(str, key[3])), "%dx%d" % key[4:6], key[6],
                           "%.4g" % e[2], "%.4g" % e[0], "%.4g" % m[0], "%+.1f%%" % ((m[0] / e[0] - 1) * 100)])
    print("# Modeled kernels against full execution (SMPI)\n")
    print("Generated by `%s` (%s s of runs). Same platform, same host speed; the kernels executed\n"
          "(residual checked) or modeled, everything else charged alike (`--kernels\n"
          "modeled-as-executed`). Targets: every configuration within 5 %%, Spearman >= 0.95.\n"
          % (args.command, args.elapsed))
    print(markdown_table(["group", "configurations", "mean error", "largest error", "Spearman",
                          "wall: executed / modeled"], rows))
    print("\nLargest error over all configurations: %.1f%%.\n" % worst)
    print(markdown_table(["group", "d", "grid", "b", "predicted s", "executed s", "modeled s", "modeled / executed"],
                         detail))


ROUTINE_FLOPS = {"lu": lambda n: 2.0 * n ** 3 / 3, "gemm": lambda n: 2.0 * n ** 3}


def dgemm_rates(platform, plan):
    """The summed dgemm rates (flop/s, at the plan's b) of the cores the plan
    uses (a processor's min(d, cores)) and of all the platform's cores."""
    used = every = 0.0
    b = plan["b"]
    for proc, d in zip(platform["processors"], plan["d"]):
        rate = 1.0 / type_k(platform["types"][proc["type"]], ("k3_dgemm", "k3"), b)
        cores = proc.get("cores", 1)
        used += rate * min(d, cores)
        every += rate * cores
    return used, every


def targets(args):
    """scale/targets.sh: each job's simulated time and rate, its share of
    the summed dgemm rates, and what simulating it cost (wall, memory)."""
    cost = list(csv.DictReader(open(os.path.join(args.dir, "cost.tsv")), delimiter="\t"))
    rows = []
    for c in cost:
        platform = json.load(open(os.path.join(args.platforms, c["platform"] + ".json")))
        if c["simulated_s"] in ("", "None"):
            rows.append([c["platform"], c["routine"], c["n"], c["method"], "failed"] + [""] * 6)
            continue
        plan = {"b": int(c["b"]), "d": [int(x) for x in c["d"].split(",")]}
        used, every = dgemm_rates(platform, plan)
        rate = ROUTINE_FLOPS[c["routine"]](float(c["n"])) / float(c["simulated_s"])
        rows.append([c["platform"], c["routine"], c["n"], c["method"],
                     "%s (%sx%s, b %s)" % (c["D"], c["r"], c["c"], c["b"]), "%.2f" % float(c["simulated_s"]),
                     "%.0f" % (rate / 1e9), "%.0f%% / %.0f%%" % (100 * rate / used, 100 * rate / every),
                     "%.1f min" % (float(c["wall_s"]) / 60), "%.2f GB" % (float(c["peak_pss_kB"]) / 1e6),
                     "%.2f GB" % (float(c["used_rise_kB"]) / 1e6)])
    print("# Simulating at the user's scale: what it costs\n")
    print("Generated by `%s` (%s s). Kernels modeled, one simulation at a time on one core of\n"
          "this machine. Rate: the routine's flops over the simulated time; 'of dgemm': that rate over\n"
          "the summed dgemm rates (at b) of the cores the configuration uses / of all the platform's\n"
          "cores. Memory: the simulator's peak PSS (the shared matrix counted once) and the rise of\n"
          "the machine's used memory. Targets: LU n=50000 on 320 ranks <= 10 min and <= 4 GB; n=30000\n"
          "on 1024 ranks <= 20 min; the plan >= 70 %% of its cores' dgemm rate at n=50000.\n"
          % (args.command, args.elapsed))
    print(markdown_table(["platform", "routine", "n", "method", "D (grid, b)", "simulated s", "GFLOP/s",
                          "of dgemm: used / all", "wall", "peak PSS", "used memory rise"], rows))


def engine_options(args):
    """scale/engine_options.sh: for each job and option set, its simulated
    time against today's options (base) and the wall ratio of the pair
    that ran side by side; a set is kept within 1 % of base's time."""
    rows = read_tsv(os.path.join(args.dir, "runs.tsv"))
    options = dict(line.split("|", 1) for line in args.options.splitlines() if "|" in line)
    # the simulator's peak PSS; an earlier version of the script read /usr/bin/time's RSS
    memory = "peak_pss_kB" if "peak_pss_kB" in rows[0] else "peak_rss_kB"
    table = []
    for job in dict.fromkeys(r["job"] for r in rows):
        runs = [r for r in rows if r["job"] == job]
        base = [float(r["simulated_s"]) for r in runs if r["set"] == "base" and r["simulated_s"] != "failed"]
        base_s = statistics.median(base)
        spread = (max(base) - min(base)) / base_s
        for pair in dict.fromkeys(r["pair"] for r in runs):
            both = {r["set"]: r for r in runs if r["pair"] == pair}
            tried = [k for k in both if k != "base"][0]
            t, b = both[tried], both["base"]
            if "failed" in (t["simulated_s"], b["simulated_s"]):
                table.append([job, tried, "`%s`" % options.get(tried, "?"), "failed", "", "", "", "",
                              "failed: %s" % (t.get("failure") or b.get("failure") or "?")])
                continue
            moved = float(t["simulated_s"]) / base_s - 1
            wall = float(t["wall_s"]) / float(b["wall_s"])
            grown = float(t[memory]) / float(b[memory])
            verdict = "moves time" if abs(moved) > 0.01 else "no gain" if wall >= 0.95 else (
                "keep" if grown <= 1.2 else "faster, %.1fx the memory" % grown)
            table.append([job, tried, "`%s`" % options.get(tried, "?"), "%.6g" % float(t["simulated_s"]),
                          "%+.3f %%" % (100 * moved), "%.0f / %.0f s" % (float(t["wall_s"]), float(b["wall_s"])),
                          "%.2f" % wall, "%.2f / %.2f GB" % (float(t[memory]) / 1e6, float(b[memory]) / 1e6)
                          ]+[verdict])
        table.append([job, "base", "", "%.6g" % base_s, "spread %.3f %%" % (100 * spread), "", "", "", ""])
    print("# SimGrid's options against one simulation's cost\n")
    print("Generated by `%s` (%s s). Each set simulated beside today's options (base), one on each\n"
          "core; 'time moved': its simulated time against base's median; 'wall ratio': its wall over\n"
          "base's in the same pair; peak PSS: the simulator's (the shared matrix counted once; RSS,\n"
          "where a run read that, counts it once per rank's mapping). Kept:\n"
          "within 1 %% of base's simulated time, at least 5 %% less wall time (on a shared machine a pair's\n"
          "ratio moves by several %% on its own) and at most 1.2x the memory.\n" % (args.command, args.elapsed))
    print(markdown_table(["job", "set", "options", "simulated s", "time moved", "wall (set / base)",
                          "wall ratio", "peak %s (set / base)" % memory[5:8].upper(), "verdict"], table))


JUDGE_LABELS = {"GU": "GU", "CU": "CU", "EU": "EU"}


def judge_label(label):
    """A judge candidate's label as a study's plan label: the model's plan
    'GPTM', its next best 'GPTM #2' -> 'top2', the users as they are."""
    return JUDGE_LABELS.get(label) or ("top" + label.split("#")[1] if "#" in label else label)


def judged(args):
    """scale/study.sh, after 'hetmap plan --judge K': with JUDGEDIR and RUNS,
    the candidates' simulated records (JUDGEDIR/cNN.jsonl) appended to RUNS;
    with --plans PREFIX, a plan file PREFIX-LABEL.json per candidate and
    PREFIX-judged.json for what the judge chose."""
    doc = json.load(open(args.plan))
    if args.judgedir:
        with open(args.runs, "a") as out:
            for name in sorted(os.listdir(args.judgedir)):
                if name.endswith(".jsonl"):
                    out.write(open(os.path.join(args.judgedir, name)).read())
    if args.plans:
        for c in doc["judge"]["candidates"] + [dict(doc["plan"], label="judged", predicted_s=doc["plan"]["predicted"]["total_s"])]:
            plan = {"method": c["method"], "d": c["d"], "r": c["r"], "c": c["c"], "b": c["b"],
                    "predicted": {"total_s": c["predicted_s"]}}
            write_atomic("%s-%s.json" % (args.plans, judge_label(c["label"])),
                         json.dumps({"hetmap_plan": 1, "inputs": doc["inputs"], "plan": plan}) + "\n")


def judge_table(out):
    """Per group of a study at scale (out/judge/GROUP.json, the plans
    'hetmap plan --judge' wrote): the model's choice and the judge's, their
    simulated times, and both against the group's best simulated."""
    best = {}
    for r in vcluster_table(read_plan_list(out), measurements(os.path.join(out, "runs.jsonl"))):
        if not math.isnan(r["median"]):
            best[r["group"]] = min(best.get(r["group"], float("inf")), r["median"])
    rows = []
    for name in sorted(os.listdir(os.path.join(out, "judge"))):
        if not name.endswith(".json"):
            continue
        group = name[:-5]
        j = json.load(open(os.path.join(out, "judge", name)))["judge"]
        sim = {c["label"]: c.get("simulated_s") for c in j["candidates"]}
        for c in j["candidates"]:
            if c.get("same_as"):
                sim[c["label"]] = sim.get(c["same_as"])
        model, chosen = sim.get(j["model_choice"]), sim.get(j["chosen"])
        b = best.get(group)
        rows.append([group, j["model_choice"], "%.4g" % model if model else "-", j["chosen"],
                     "%.4g" % chosen if chosen else "-", j["decided_by"],
                     "%.3f" % (model / b) if model and b else "-", "%.3f" % (chosen / b) if chosen and b else "-",
                     "%d" % sum(1 for c in j["candidates"] if c.get("simulated_s") is not None)])
    return markdown_table(["group", "model's choice", "simulated s", "judge's choice", "simulated s",
                           "decided by", "model / best", "judge / best", "simulated"], rows)


def measured_plans(args):
    """A study's distinct measured configurations as plan files in OUTDIR
    (NNN.json; 'measured_s', the median of its runs, kept beside the plan):
    what smpi/against_runs.sh simulates."""
    by = {}
    for rec in read_jsonl(os.path.join(args.dir, "runs.jsonl")):
        if isinstance(rec.get("measured_s"), (int, float)) and (rec.get("check") or {}).get("passed"):
            key, _ = plan_config(rec)
            by.setdefault(key, (rec, []))[1].append(rec["measured_s"])
    for i, (rec, times) in enumerate(by.values()):
        doc = {"hetmap_plan": 1, "inputs": rec["inputs"], "plan": rec["plan"],
               "measured_s": statistics.median(times), "study": os.path.basename(os.path.normpath(args.dir))}
        write_atomic(os.path.join(args.outdir, "%03d.json" % i), json.dumps(doc) + "\n")


def against(args):
    """smpi/against_runs.sh: each simulated configuration against the
    median of its measured runs, per study and kernels mode."""
    measured = {}
    for d in args.dirs:
        study = os.path.basename(os.path.normpath(d))
        for rec in read_jsonl(os.path.join(d, "runs.jsonl")):
            if isinstance(rec.get("measured_s"), (int, float)) and (rec.get("check") or {}).get("passed"):
                measured.setdefault((study, plan_config(rec)[0]), []).append(rec["measured_s"])
    errors = {}
    for rec in read_jsonl(args.runs):
        if not isinstance(rec.get("measured_s"), (int, float)):
            continue
        study = os.path.basename(os.path.dirname(rec["simulated_platform"]))
        real = measured.get((study, plan_config(rec)[0]))
        if real:
            e = (rec["measured_s"] / statistics.median(real) - 1) * 100
            errors.setdefault((study, rec.get("kernels", "executed")), []).append(e)
    modes = sorted({m for _, m in errors})
    rows = []
    for study in dict.fromkeys(s for s, _ in errors):
        cells = []
        for m in modes:
            e = errors.get((study, m), [])
            cells.append("%.1f%% (%+.1f%%, n=%d)" % (statistics.fmean(abs(x) for x in e), statistics.fmean(e), len(e))
                         if e else "-")
        rows.append([study] + cells)
    allm = {m: [abs(x) for (s, mm), v in errors.items() if mm == m for x in v] for m in modes}
    rows.append(["all"] + ["%.1f%% (n=%d)" % (statistics.fmean(v), len(v)) if v else "-" for v in allm.values()])
    print("# SMPI against the emulated cluster's measured runs\n")
    print("Generated by `%s` (%s s of runs). Each distinct configuration that ran on a study's\n"
          "emulated cluster, simulated on the platform the study calibrated there; the error is\n"
          "|simulated - median measured| / median measured, mean over the configurations (in\n"
          "parentheses the mean signed error and their number). Target for modeled kernels: mean <= 10 %%.\n"
          % (args.command, args.elapsed))
    print(markdown_table(["study"] + ["kernels %s" % m for m in modes], rows))


def core_part(args):
    """A calibrated platform's links between processors with t_w_core as
    'hetmap calibrate' writes it (the same-processor t_w, when below the
    link's t_w), or with --remove 1 without it (the thesis's rule): to score
    measurements taken under the other rule (rescore.sh PLATFORM=...)."""
    doc = json.load(open(args.platform))
    net = doc["network"]
    core = net["same_processor"]["t_w"]
    for link in [net["same_node"], net["inter_node"]] + net.get("pairs", []) + net.get("links", []):
        link.pop("t_w_core", None)
        if args.remove == "0" and core < link["t_w"]:
            link["t_w_core"] = core
    print(json.dumps(doc, indent=1))


def sweep(args):
    """Configurations beside the methods' plans, as 'procs:RxC:b' lines:
    the k fastest processors (all their cores), for several k, on the
    squarest grid and on 1 x D while D <= --one-row-max, at b = 64, and a
    few other b and stackings. (At scale, 1 x D grids of hundreds of
    processes came out 2.7-2.9x the best and took 3-5x a square grid's
    wall time to simulate: experiments/README.md, "At scale".)"""
    doc = json.load(open(args.platform))
    procs = doc["processors"]
    order = sorted(range(len(procs)), key=lambda i: type_k3(doc["types"][procs[i]["type"]]))
    P = len(procs)
    ks = sorted({k for k in (1, 2, 3, 4, 6, 8, 12, 16, P // 2, P) if 1 <= k <= P})
    out = []

    def add(d, b, square):
        D = sum(d)
        if D < 1 or (not square and D > int(args.one_row_max)):
            return
        r = max(x for x in range(1, int(D ** 0.5) + 1) if D % x == 0) if square else 1
        line = "%s:%dx%d:%d" % (",".join(map(str, d)), r, D // r, b)
        if line not in out:
            out.append(line)
    for k in ks:
        d = [0] * P
        for i in order[:k]:
            d[i] = procs[i].get("cores", 1)
        add(d, 64, False)
        add(d, 64, True)
        if k in (ks[len(ks) // 2], P):
            for b in (32, 128):
                add(d, b, False)
                add(d, b, True)
    # two processes on each of the fastest type's processors
    fastest = procs[order[0]]["type"]
    d = [2 * p.get("cores", 1) if p["type"] == fastest else 0 for p in procs]
    add(d, 64, False)
    add(d, 64, True)
    print("\n".join(out[:int(args.max)]))


def trust(args):
    """Per configuration: the median native time, and each SMPI
    configuration's simulated time over it."""
    native = {}
    for rec in read_jsonl(args.native):
        if isinstance(rec.get("measured_s"), (int, float)):
            native.setdefault(plan_config(rec)[0], []).append(rec["measured_s"])
    sim = {}
    for rec in read_jsonl(args.smpi):
        if isinstance(rec.get("measured_s"), (int, float)):
            sim.setdefault(plan_config(rec)[0], {})[rec.get("smpi_config", "default")] = rec["measured_s"]
    configs = sorted({c for v in sim.values() for c in v})
    rows, errors = [], {c: [] for c in configs}
    for key in native:
        med = statistics.median(native[key])
        cells = []
        for c in configs:
            t = sim.get(key, {}).get(c, float("nan"))
            cells.append("%.4g (%.2f)" % (t, t / med))
            if not math.isnan(t):
                errors[c].append(abs(t - med) / med * 100)
        rows.append(["%s %d" % key[1:3], "[%s]" % ",".join(map(str, key[3])), "%dx%d" % key[4:6], key[6],
                     "%.4g (%.4g-%.4g)" % (med, min(native[key]), max(native[key]))] + cells)
    print("# SMPI against real runs on this machine\n")
    print(markdown_table(["routine n", "d", "grid", "b", "native s: median (range)"] +
                         ["simulated s (/native), %s" % c for c in configs], rows))
    print()
    for c in configs:
        if errors[c]:
            print("- %s: mean |simulated - native| / native = %.1f%% over %d configurations (max %.1f%%)"
                  % (c, sum(errors[c]) / len(errors[c]), len(errors[c]), max(errors[c])))


def efficiency_table(out, method):
    """Per group of a simulated study (out/plans.tsv, out/runs.jsonl, the
    clusters in out/clusters/): the plan's GFLOP/s (the driver's) against
    the summed dgemm rates, at the plan's b, of the cores it uses and of
    every core of the simulated cluster (dgemm_rates)."""
    chosen = {}
    for r in read_table(os.path.join(out, "plans.tsv")):
        if r["label"] == method:
            chosen[(r["group"], r["d"], int(r["r"]), int(r["c"]), int(r["b"]))] = r["group"]
    rows = []
    for rec in read_jsonl(os.path.join(out, "runs.jsonl")):
        inp, plan = rec["inputs"], rec["plan"]
        group = "%s-%s-%d" % (inp["platform_name"].replace("-measured", ""), inp["routine"], inp["n"])
        if (group, ",".join(map(str, plan["d"])), plan["r"], plan["c"], plan["b"]) not in chosen:
            continue
        cluster = rec.get("simulated_platform") or inp["platform"]
        with open(os.path.join(out, "clusters", os.path.basename(cluster))) as f:
            used, every = dgemm_rates(json.load(f), plan)
        got = (rec.get("driver") or {}).get("gflops", float("nan"))
        rows.append([group, "%.1f" % got, "%.1f" % (used / 1e9), "%.1f%%" % (100e9 * got / used),
                     "%.1f" % (every / 1e9), "%.1f%%" % (100e9 * got / every)])
    return markdown_table(["group", "plan (%s) GFLOP/s" % method, "its cores' dgemm GFLOP/s", "fraction",
                           "all cores' dgemm GFLOP/s", "fraction"], rows)

SMPI_TARGETS = ("plan >= 1.25x faster than GU, not slower than CU or EU, within 5% of the best\n"
                "simulated; model error < 15%, rank correlation >= 0.9.")

# ---- search speed (experiments/simulation/speed.sh) -------------------------

def speed_runs(path):
    """{(group, platform, n, depth, method): [plan documents]} in file order."""
    runs = {}
    for doc in read_jsonl(path):
        key = (doc["group"], doc["platform"], doc["n"], doc["depth"], doc["plan"]["plan"]["method"])
        runs.setdefault(key, []).append(doc["plan"])
    return runs


def speed_cell(plans):
    """Median seconds, range, and whether every run proved its answer."""
    secs = sorted(p["plan"]["search"]["seconds"] for p in plans)
    proved = all(p["plan"]["search"]["stopped"] == "complete" for p in plans)
    return statistics.median(secs), secs[0], secs[-1], proved


def speed(args):
    runs = speed_runs(os.path.join(args.dir, "runs.jsonl"))
    problems = []
    for (group, platform, n, depth, method) in runs:
        if group == "study" and (platform, n, depth) not in problems:
            problems.append((platform, n, depth))
    rows, ratios = [], []
    for platform, n, depth in problems:
        ex = speed_cell(runs[("study", platform, n, depth, "exact")])
        bt = speed_cell(runs[("study", platform, n, depth, "BTM")])
        same = {p["plan"]["predicted"]["total_s"] for p in runs[("study", platform, n, depth, "exact")]
                + runs[("study", platform, n, depth, "BTM")]}
        ratio = ex[0] / bt[0]
        ratios.append((ratio, bt[0], platform, depth))
        rows.append([platform, n, depth, "%.3g" % ex[0], "%.3g" % bt[0], "%.2f" % ratio,
                     "yes" if ex[3] and bt[3] and max(same) <= min(same) * (1 + 1e-12) else "NO"])
    worst = max(ratios)
    worst_ms = max((r for r in ratios if r[1] > 1e-3), default=None)
    scale_rows = []
    for (group, platform, n, depth, method), plans in runs.items():
        if group != "scale":
            continue
        med, lo, hi, proved = speed_cell(plans)
        last = plans[-1]["plan"]
        scale_rows.append([platform, n, depth if depth != "-" else plans[-1]["inputs"]["depth"],
                           method, len(plans), "%.3g [%.3g, %.3g]" % (med, lo, hi),
                           ("proved" if method in ("exact", "BTM") else "complete") if proved
                           else "stopped", "%.6g" % last["predicted"]["total_s"],
                           last["D"]])
    seeds = [(platform, p) for (group, platform, n, depth, method), plans in runs.items()
             if group == "seeds" for p in plans]
    seed_text = ""
    if seeds:
        secs = sorted(p["plan"]["search"]["seconds"] for _, p in seeds)
        proved = sum(p["plan"]["search"]["stopped"] == "complete" for _, p in seeds)
        slowest = max(seeds, key=lambda sp: sp[1]["plan"]["search"]["seconds"])
        seed_text = ("\nMore members of the random families (seeds 12-20, one and eight per host, "
                     "depth 1000, exact once each): %d of %d proved; seconds median %.3g, max %.3g "
                     "(%s).\n" % (proved, len(seeds), statistics.median(secs), secs[-1], slowest[0]))
    text = ("# Search speed\n\n"
            "Generated by `sh experiments/simulation/speed.sh %s` in %s s on %d cores. Every\n"
            "search runs in a process of its own; exact and BTM alternate.\n\n"
            "## exact against BTM on the simulation study's problems (reference model)\n\n"
            "Median seconds over %s runs each. Worst ratio exact / BTM: %.2f (%s, depth %s, BTM %.3g s);\n"
            "worst where BTM takes over 1 ms: %s. Target: at most 2.\n\n"
            % (args.repeats, args.elapsed, os.cpu_count() or 1, args.repeats, worst[0], worst[2],
               worst[3], worst[1],
               "%.2f (%s, depth %s)" % (worst_ms[0], worst_ms[2], worst_ms[3]) if worst_ms else "none")
            + markdown_table(["platform", "n", "depth", "exact (s)", "BTM (s)", "exact / BTM",
                              "same optimum, proved"], rows)
            + "\n## At scale (default model; depth: the platform's cores when not given)\n\n"
            + markdown_table(["platform", "n", "depth", "method", "runs", "seconds: median [min, max]",
                              "answer", "predicted (s)", "D"], scale_rows)
            + seed_text)
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)


# ---- ranks stacked on one core (experiments/cores/stacking.sh) ----------

def stacking(args):
    groups = {}
    for rec in read_jsonl(os.path.join(args.dir, "runs.jsonl")):
        plan = rec["plan"]
        key = (rec["inputs"]["routine"], rec["inputs"]["n"], tuple(plan["d"]))
        g = groups.setdefault(key, {"plan": plan, "measured": []})
        if rec.get("measured_s") is not None:
            g["measured"].append(rec["measured_s"])
    rows, fitted = [], {}
    for (routine, n, d), g in groups.items():
        plan, meas = g["plan"], sorted(g["measured"])
        one = groups.get((routine, n, (1,) + (0,) * (len(d) - 1)))
        med = statistics.median(meas) if meas else float("nan")
        pred = plan["predicted"]["total_s"]
        slow = slow_pred = ""
        if one and one["measured"] and meas:
            slow = "%.2f" % (med / statistics.median(one["measured"]))
            slow_pred = "%.2f" % (pred / one["plan"]["predicted"]["total_s"])
            if sum(1 for x in d if x) == 1 and sum(d) > 1:
                fitted.setdefault(routine, []).append(float(slow) / float(slow_pred))
        rows.append(["%s %d" % (routine, n), "+".join(str(x) for x in d if x) +
                     (" (one core)" if sum(1 for x in d if x) == 1 else " (both cores)"),
                     "%dx%d b=%d" % (plan["r"], plan["c"], plan["b"]), len(meas),
                     "%.4g [%.4g, %.4g]" % (med, meas[0], meas[-1]) if meas else "-",
                     "%.4g" % pred, "%.2f" % (med / pred) if meas else "-", slow, slow_pred])
    text = ("# Ranks stacked on one core\n\n"
            "Generated by `sh experiments/cores/stacking.sh` in %s s. Measured: the program's own\n"
            "time, median [min, max]; slowdown: against one rank alone, measured and as the model\n"
            "predicts it.\n\n" % args.elapsed
            + markdown_table(["job", "ranks", "grid, b", "runs", "measured s", "predicted s",
                              "measured / predicted", "slowdown measured", "slowdown predicted"],
                             rows)
            + "\nStacking factor (a shared core's cost against the rule's: the median over the\n"
            "stacked placements of slowdown measured / slowdown predicted), to give a type as\n"
            "`\"stacked\": %s`.\n" % json.dumps({r: round(statistics.median(v), 2)
                                                 for r, v in sorted(fitted.items())}))
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)


def blocks(args):
    """gemm_blocks.sh: per job and placement, each b's measured time
    (median [min, max]) and prediction, both relative to the smallest b's."""
    groups = {}
    for rec in read_jsonl(os.path.join(args.dir, "runs.jsonl")):
        plan = rec["plan"]
        key = (rec["inputs"]["n"], tuple(plan["d"]), plan["r"], plan["c"])
        g = groups.setdefault(key, {}).setdefault(plan["b"], {"plan": plan, "measured": []})
        if rec.get("measured_s") is not None:
            g["measured"].append(rec["measured_s"])
    rows = []
    for (n, d, r, c), by_b in sorted(groups.items()):
        first = by_b[min(by_b)]
        base_meas = statistics.median(first["measured"]) if first["measured"] else float("nan")
        base_pred = first["plan"]["predicted"]["total_s"]
        for b, g in sorted(by_b.items()):
            meas, pred = sorted(g["measured"]), g["plan"]["predicted"]["total_s"]
            med = statistics.median(meas) if meas else float("nan")
            rows.append(["gemm %d" % n, "+".join(str(x) for x in d if x) +
                         (" (one core)" if sum(1 for x in d if x) == 1 else " (both cores)"),
                         "%dx%d" % (r, c), b, len(meas),
                         "%.4g [%.4g, %.4g]" % (med, meas[0], meas[-1]) if meas else "-",
                         "%.4g" % pred, "%.2f" % (med / base_meas), "%.2f" % (pred / base_pred)])
    text = ("# pdgemm against its block size\n\n"
            "Generated by `sh experiments/cores/gemm_blocks.sh` in %s s. Measured: the program's\n"
            "own time, median [min, max] of the runs (taken in turn); 'vs smallest b': the time\n"
            "over the same placement's at the smallest b, measured and as the model predicts it.\n\n"
            % args.elapsed
            + markdown_table(["job", "ranks", "grid", "b", "runs", "measured s", "predicted s",
                              "measured vs smallest b", "predicted vs smallest b"], rows))
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)


# ---- plans with and without stacking factors (stacked_plans.sh) ------------

def stacked_plans(args):
    jobs = {}
    for rec in read_jsonl(os.path.join(args.dir, "runs.jsonl")):
        name = os.path.basename(rec["plan_file"])[:-len(".json")]
        job, label = name.rsplit("-", 1)
        g = jobs.setdefault(job, {}).setdefault(label, {"plan": rec["plan"], "measured": []})
        if rec.get("measured_s") is not None:
            g["measured"].append(rec["measured_s"])
    rows = []
    for job, labels in jobs.items():
        eu = statistics.median(labels["EU"]["measured"]) if labels.get("EU", {}).get("measured") else None
        for label in ("plan", "stacked", "EU"):
            if label not in labels:
                continue
            g = labels[label]
            p, meas = g["plan"], sorted(g["measured"])
            med = statistics.median(meas) if meas else float("nan")
            rows.append([job, label, "[%s] %dx%d b=%d" % (",".join(map(str, p["d"])), p["r"], p["c"], p["b"]),
                         "%.4g" % p["predicted"]["total_s"],
                         "%.4g [%.4g, %.4g]" % (med, meas[0], meas[-1]) if meas else "-",
                         "%.2fx" % (eu / med) if eu and meas else "-"])
    text = ("# Plans with and without the stacking factor\n\n"
            "Generated by `sh experiments/vcluster/stacked_plans.sh`; stacking factor %s.\n"
            "'plan': hetmap's plan on the study's calibrated platform (platform.json); 'stacked':\n"
            "the same with the factor; EU: the expert user's choice. Measured: median [min, max]\n"
            "of the runs, taken in turn; speed vs EU > 1 means faster than EU.\n\n" % args.stacked
            + markdown_table(["job", "plan", "configuration", "predicted s", "measured s",
                              "speed vs EU"], rows))
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)

# ---- large clusters (experiments/large/large.sh) -----------------------------

def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def large_targets(runs, limit):
    """Rows of the target table and the misses, per platform, routine and n."""
    rows, misses = [], []
    for r in runs:
        search, wall, mb = r["search_s"], float(r["wall_s"]), int(r["peak_MB"])
        budget_ok = (search == "-" or float(search) <= 1.1 * limit) and wall <= 1.1 * limit + 1
        # 3: refused at once, 5: stopped by the budget, 6: no configuration fits
        ok = budget_ok and mb <= 1024 and r["exit"] in ("0", "3", "5", "6")
        if r["method"] == "GPTM" and search != "-" and float(search) > 1:
            misses.append("GPTM %s s (%s %s n=%s)" % (search, r["platform"], r["routine"], r["n"]))
        if r["method"] == "exact" and (r["stopped"] != "complete" or float(search) > 10):
            misses.append("exact %s (%s s, %s %s n=%s)" % (r["stopped"], search, r["platform"],
                                                           r["routine"], r["n"]))
        if not ok:
            misses.append("%s over budget or 1 GB (%s s, %s MB, exit %s; %s %s n=%s)"
                          % (r["method"], r["wall_s"], r["peak_MB"], r["exit"], r["platform"],
                             r["routine"], r["n"]))
        rows.append([r["platform"], r["routine"], r["n"], r["method"],
                     "%s x %s = %s, b %s" % (r["r"], r["c"], r["D"], r["b"]) if r["D"] != "-" else
                     {"3": "refused", "5": "none found", "6": "none fits"}.get(r["exit"], "-"),
                     r["predicted_s"], r["search_s"], r["stopped"], r["wall_s"], r["peak_MB"], r["exit"],
                     "yes" if ok else "NO"])
    return rows, misses


def large_scaling(rows):
    """{(routine, cores): {method: row}} of the scaling runs."""
    out = {}
    for r in rows:
        out.setdefault((r["routine"], int(r["cores"])), {})[r["method"]] = r
    return out


def large_plot(out, scaling):
    for routine in ("lu", "gemm"):
        with open(os.path.join(out, ".scaling-%s.dat" % routine), "w") as f:
            for (rt, cores), m in sorted(scaling.items()):
                if rt == routine and all(m[k]["D"] != "-" for k in ("GPTM", "GU", "CU", "EU")):
                    f.write("%d %s %s %s %s %s\n" % (cores, m["GPTM"]["D"], m["GPTM"]["predicted_s"],
                                                    m["GU"]["predicted_s"], m["CU"]["predicted_s"],
                                                    m["EU"]["predicted_s"]))
    dat = lambda rt: os.path.join(out, ".scaling-%s.dat" % rt)
    ok = gnuplot("""set terminal pngcairo size 1200,520
set output "%s"
set multiplot layout 1,2
set logscale xy
set xrange [800:160000]
set format x "%%g"
set format y "%%g"
set grid
set key top left
set xlabel "cluster's cores (family: 8 to 1000 nodes of 64, 128 and 192 cores)"
set ylabel "processes"
set title "The plan's D (GPTM, n = 200000)"
plot '%s' using 1:2 with linespoints title 'LU', '%s' using 1:2 with linespoints title 'GEMM', x with lines lt 0 title 'D = cores'
set ylabel "predicted time (s)"
set key top right
set title "Predicted time, n = 200000"
plot '%s' using 1:3 with linespoints lt 1 title 'LU plan', '%s' using 1:4 with lines lt 1 dt 2 title 'LU GU', \
     '%s' using 1:3 with linespoints lt 2 title 'GEMM plan', '%s' using 1:4 with lines lt 2 dt 2 title 'GEMM GU'
unset multiplot
""" % (os.path.join(out, "scaling.png"), dat("lu"), dat("gemm"), dat("lu"), dat("lu"), dat("gemm"), dat("gemm")))
    for routine in ("lu", "gemm"):
        os.remove(dat(routine))
    return ok


def large(args):
    limit = float(args.limit)
    runs = read_tsv(os.path.join(args.dir, "runs.tsv"))
    launch = read_tsv(os.path.join(args.dir, "launch.tsv"))
    platform_rows = [[r["step"], r["wall_s"], r["peak_MB"], r["exit"],
                      "yes" if float(r["wall_s"]) < 1 and r["exit"] == "0" else "NO"]
                     for r in read_tsv(os.path.join(args.dir, "platform.tsv"))]
    scaling = large_scaling(read_tsv(os.path.join(args.dir, "scaling.tsv")))
    rows, misses = large_targets(runs, limit)
    launch_rows = [[r["launcher"], r["ranks"], r["wall_s"], r["peak_MB"], r["files_MB"], r["exit"],
                    "yes" if float(r["wall_s"]) <= 2 and r["exit"] == "0" else "NO"] for r in launch]
    misses += ["launch files for %s: %s s" % (r[0], r[2]) for r in launch_rows if r[-1] != "yes"]
    misses += ["%s: %s s" % (r[0], r[1]) for r in platform_rows if r[-1] != "yes"]
    scale_rows = []
    for (routine, cores), m in sorted(scaling.items()):
        g = m["GPTM"]
        if g["D"] == "-":
            scale_rows.append([routine.upper(), cores] + ["-"] * 7)
            continue
        t = float(g["predicted_s"])
        sp = lambda u: "%.2fx" % (float(m[u]["predicted_s"]) / t) if m[u]["predicted_s"] != "-" else "-"
        scale_rows.append([routine.upper(), cores, "%s x %s = %s" % (g["r"], g["c"], g["D"]),
                           "%.0f %%" % (100.0 * int(g["D"]) / cores), g["predicted_s"], sp("GU"), sp("CU"),
                           sp("EU"), g["search_s"]])
    large_plot(args.dir, scaling)
    text = ("# Large clusters\n\n"
            "Generated by `sh experiments/large/large.sh` (--max-time %g s per run, one run at a\n"
            "time). Exit 5: stopped by the budget, its best plan so far; exit 3: the method\n"
            "refuses the problem at once. Wall time includes reading the platform.\n\n"
            "Targets: GPTM <= 1 s, exact proves the optimum in <= 10 s, every run within --max-time\n"
            "+ 10 %% and 1 GB, launch files for 128000 ranks <= 2 s, the 1000-node platform generated\n"
            "and loaded in under a second.\n\n%s\n"
            "## Every method and user\n\n" % (limit, "Missed: " + "; ".join(misses) + "." if misses else
                                               "Every target met.")
            + markdown_table(["platform", "routine", "n", "method", "configuration", "predicted (s)",
                              "search (s)", "stopped", "wall (s)", "peak MB", "exit", "ok"], rows)
            + "\n## The 1000-node platform\n\n"
            + markdown_table(["step", "wall (s)", "peak MB", "exit", "< 1 s"], platform_rows)
            + "\n## Launch files (plan -M GU --launcher L -o DIR, family-128000)\n\n"
            + markdown_table(["launcher", "ranks", "wall (s)", "peak MB", "files MB", "exit", "<= 2 s"],
                             launch_rows)
            + "\n## The plan against the cluster's size (n = 200000, GPTM; users' predicted time / "
              "the plan's)\n\n"
            + markdown_table(["routine", "cores", "plan", "cores used", "predicted (s)", "GU", "CU", "EU",
                              "search (s)"], scale_rows)
            + "\n![D and predicted time against the cluster's size](scaling.png)\n")
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)


# Links per host (links/links.sh): a described cluster, its calibration
# compared pair by pair, the growth with the hosts.
LINK_RATES = {"fast": (50e-6, 64e-9), "mid": (100e-6, 160e-9), "slow": (200e-6, 640e-9)}


def link_rate(h, pattern):
    """The links study's rate of host h. mixed: every 7th from the second slow, every
    11th from the sixth mid, the rest fast; mostly-slow: every 5th fast, the rest slow."""
    if pattern == "mostly-slow":
        return "fast" if h % 5 == 0 else "slow"
    return "slow" if h % 7 == 1 else "mid" if h % 11 == 5 else "fast"


def links_cluster(args):
    """A cluster of N single-core hosts, each behind its link_rate (SI units)."""
    n, rate_of = int(args.n), lambda h: link_rate(h, args.pattern)
    hosts = ["n%03d" % h for h in range(n)]
    link = lambda ts_tw, **kw: dict(t_s=ts_tw[0], t_w=ts_tw[1], **kw)
    rules = [link(LINK_RATES[rate], between=[[h for i, h in enumerate(hosts) if rate_of(i) == rate], "*"])
             for rate in ("slow", "mid") if any(rate_of(i) == rate for i in range(n))]
    doc = {"name": "links-%d" % n, "block_sizes": [64],
           "description": "%d single-core hosts behind links of several rates, %s (links/links.sh)"
                          % (n, args.pattern),
           "types": {"node": {"k3_dgemm": "20Gf", "k3_dtrsm": "15Gf", "k2_dgetf2": "1Gf"}},
           "processors": [{"name": h, "host": h, "type": "node"} for h in hosts],
           "network": {"same_processor": {"t_s": 2e-6, "t_w": 1.6e-9}, "same_node": {"t_s": 2e-6, "t_w": 1.6e-9},
                       "inter_node": link(LINK_RATES["fast"])}}
    if rules:
        doc["network"]["links"] = rules
    print(json.dumps(doc, indent=1))


def platform_link(net, a, b):
    """(t_s, t_w) between processors a and b on different hosts (links in SI numbers), as hetmap resolves
    it (one processor per host): a pair override, else the first rule whose ends
    match (an end: a pattern or a list of them), else inter_node."""
    import fnmatch
    for p in net.get("pairs", []):
        if sorted(p["between"]) == sorted([a, b]):
            return p["t_s"], p["t_w"]
    end = lambda pat, x: any(fnmatch.fnmatchcase(x, q) for q in (pat if isinstance(pat, list) else [pat]))
    for r in net.get("links", []):
        p, q = r["between"]
        if (end(p, a) and end(q, b)) or (end(p, b) and end(q, a)):
            return r["t_s"], r["t_w"]
    return net["inter_node"]["t_s"], net["inter_node"]["t_w"]


def links_compare(args):
    """One line of links.tsv: the calibration of a described cluster against it."""
    desc, cal = (json.load(open(f)) for f in (args.desc, args.cal))
    hosts = [p["name"] for p in desc["processors"]]
    worst_w = worst_s = 1.0
    within = total = 0
    for i, a in enumerate(hosts):
        for b in hosts[i + 1:]:
            (ds, dw), (cs, cw) = platform_link(desc["network"], a, b), platform_link(cal["network"], a, b)
            rw, rs = cw / dw, cs / ds
            worst_w = max(worst_w, rw, 1 / rw)
            worst_s = max(worst_s, rs, 1 / rs)
            within += abs(rw - 1) <= 0.2 and abs(rs - 1) <= 0.2
            total += 1
    done = [l for l in open(args.err) if "links between hosts:" in l]
    m = re.search(r"(\d+) pairs in (\d+) rounds, (\d+) s", done[-1]) if done else None
    pairs, rounds, secs = m.groups() if m else ("0", "0", "0")
    rates = [link_rate(i, args.pattern) for i in range(len(hosts))]
    print("\t".join(map(str, [args.pattern, len(hosts), rates.count("slow"), rates.count("mid"), pairs, rounds, secs,
                              args.wall, args.kb, "%d/%d" % (within, total), "%.3f" % worst_w,
                              "%.3f" % worst_s])))


def links(args):
    rows = read_tsv(os.path.join(args.dir, "links.tsv"))
    with open(os.path.join(args.dir, "study.json")) as f:
        info = json.load(f)
    misses = []
    for r in rows:
        w, t = r["pairs_within_20pc"].split("/")
        if w != t:
            misses.append("%s, %s hosts: %s pairs within 20 %%" % (r["cluster"], r["hosts"], r["pairs_within_20pc"]))
        if int(r["hosts"]) >= 100 and float(r["simulated_links_s"]) > 600:
            misses.append("%s, %s hosts: %s s of measurement" % (r["cluster"], r["hosts"], r["simulated_links_s"]))
    table = markdown_table(["cluster", "hosts", "slow / mid hosts", "pairs measured (of all)", "rounds",
                            "simulated measurement (s)", "wall (s)", "peak MB",
                            "pairs within 20 %", "worst t_w ratio", "worst t_s ratio"],
                           [[r["cluster"], r["hosts"], "%s / %s" % (r["slow_hosts"], r["mid_hosts"]),
                             "%s (%d)" % (r["pairs"], int(r["hosts"]) * (int(r["hosts"]) - 1) // 2), r["rounds"],
                             r["simulated_links_s"], r["wall_s"], "%.0f" % (int(r["peak_kB"]) / 1024.0),
                             r["pairs_within_20pc"], r["worst_t_w_ratio"], r["worst_t_s_ratio"]] for r in rows])
    text = ("# Links per host: calibration against the described cluster\n\n"
            "Generated by `%s` (%s s). Each cluster: single-core hosts; `mixed`: every 7th from\n"
            "the second behind 100 Mbit/s (200 us), every 11th from the sixth behind 400 Mbit/s\n"
            "(100 us), the rest on 1 Gbit/s (50 us); `mostly-slow`: every 5th on 1 Gbit/s, the\n"
            "rest behind 100 Mbit/s. Calibrated under SMPI (`calibrate --launcher\n"
            "smpi`, kernels at one block size), then every pair of hosts compared: the link the\n"
            "calibrated platform gives against the described one (ratio, worse of both ways).\n\n"
            "Targets: every pair within 20 %%; 100 hosts in <= 10 minutes of simulated measurement.\n"
            "%s\n\n%s" % (info["command"], info["elapsed_s"],
                          "Missed: " + "; ".join(misses) + "." if misses else "Every target met.", table))
    write_atomic(os.path.join(args.dir, "summary.md"), text)
    print(text)


def split_of(plan):
    """A plan's split of its processors' cores: 'R x T' (ranks x threads), ranks summed."""
    procs = plan["processes"]
    threads = sorted({e.get("threads", 1) for e in procs})
    return "%d x %s" % (sum(e["count"] for e in procs), "/".join(map(str, threads)))


def split_rows(head, splits, picked, mark, label=str):
    """A group's rows of splits ({split: {"predicted", "runs"}}): each one's
    prediction, runs, median, range and ratio, 'mark' on the picked one
    and its verdict (within 5 % of the fastest median or not); and whether
    the pick is within."""
    medians = {s: statistics.median(v["runs"]) for s, v in splits.items()}
    fastest = min(medians, key=medians.get)
    within = picked in medians and medians[picked] <= 1.05 * medians[fastest]
    verdict = "met" if within else "missed (%.1f %% slower)" % (
        100 * (medians[picked] / medians[fastest] - 1)) if picked in medians else ""
    rows = []
    for s in sorted(splits):
        v, predicted = splits[s]["runs"], splits[s]["predicted"]
        rows.append(head + [label(s), "%.3f" % predicted, len(v), "%.3f" % medians[s],
                            "%.3f-%.3f" % (min(v), max(v)), "%.2f" % (medians[s] / predicted),
                            mark if s == picked else "", "fastest" if s == fastest else "",
                            verdict if s == picked else ""])
    return rows, within


def split_table(head, pick, rows):
    """split_rows' rows under their heading ('head': the group's columns)."""
    return markdown_table(head + ["predicted s", "runs", "median s", "range s", "measured / predicted", pick, "",
                                  "target (pick within 5 %)"], rows)


def threads_real(args):
    """Ranks x threads on this machine: per group (routine, n, program) each
    split's prediction and measured runs, GPTM's pick and the 5 % target."""
    runs = read_jsonl(os.path.join(args.dir, "runs.jsonl"))
    plans = {}
    for f in sorted(os.listdir(os.path.join(args.dir, "plans"))):
        routine, n, program, method = f[:-len(".json")].split("-")
        plans[(routine, int(n), program, method)] = json.load(open(os.path.join(args.dir, "plans", f)))["plan"]
    groups = {}
    for r in runs:
        if r.get("measured_s") is None or r["program"].get("verdict") != "passed":
            continue
        key = (r["inputs"]["routine"], int(r["inputs"]["n"]), r["program"]["profile"])
        split = split_of(r["plan"])
        groups.setdefault(key, {}).setdefault(split, {"predicted": r["predicted_s"], "runs": []})
        groups[key][split]["runs"].append(r["measured_s"])
    rows, met, total = [], 0, 0
    for (routine, n, program), splits in sorted(groups.items()):
        pick = plans.get((routine, n, program, "GPTM"))
        group_rows, within = split_rows([routine, n, program], splits, split_of(pick) if pick else "?", "**plan**")
        rows += group_rows
        met += within
        total += 1
    table = split_table(["routine", "n", "program", "ranks x threads"], "GPTM's pick", rows)
    print("# Ranks x threads on this machine: 2 x 1 against 1 x 2\n\n"
          "Each group's two splits run in turn, REPS rounds (`experiments/threads/real.sh`); the\n"
          "prediction is the plan's (GU's for 2 ranks of one thread, HU's for one rank of two),\n"
          "the pick GPTM's, which prices both. Target: the pick is the faster split or within\n"
          "5 %% of it. Met in %d of %d groups.\n\n%s" % (met, total, table))


def thread_pairs(args):
    """The emulated cluster's pairs of splits (experiments/threads/vcluster.sh):
    per line LABEL CORES OTHERS, OTHERS the other nodes' processes by name
    ('-' for none) beside NODE's CORES x 1 or 1 x CORES: the plan's other
    nodes, every node with one process, and NODE alone."""
    platform = json.load(open(args.platform))
    plan = json.load(open(args.plan))["plan"]
    cores = next(q["cores"] for q in platform["processors"] if q["name"] == args.node)
    beside = ["%s=%d" % (e["processor"], e["count"]) for e in plan["processes"] if e["processor"] != args.node]
    every = ["%s=1" % q["name"] for q in platform["processors"] if q["name"] != args.node]
    for label, others in (("plan", beside), ("all", every), ("alone", [])):
        print(label, cores, ",".join(others) or "-")


def threads_vcluster(args):
    """Ranks x threads on the emulated cluster: per group (routine, n,
    program) and pair (the multi-core node's C x 1 and 1 x C beside the
    same other nodes) each split's prediction and measured runs, the model's
    pick (the lower prediction) and the 5 % target; GPTM's plan marked."""
    def key(plan):
        return tuple(sorted((e["processor"], e["count"], e.get("threads", 1)) for e in plan["processes"]))
    runs = read_jsonl(os.path.join(args.dir, "runs.jsonl"))
    configs, gptm = {}, {}
    for f in sorted(os.listdir(os.path.join(args.dir, "plans"))):
        routine, n, program, label = f[:-len(".json")].split("-", 3)
        group = (routine, int(n), program)
        plan = json.load(open(os.path.join(args.dir, "plans", f)))["plan"]
        if label == "GPTM":
            gptm[group] = key(plan)
            continue
        pair, split = label.rsplit("-", 1)
        configs[group + (key(plan),)] = (pair, split, plan["predicted"]["total_s"])
    cells = {}
    for r in runs:
        group = (r["inputs"]["routine"], int(r["inputs"]["n"]), r["program"]["profile"])
        c = configs.get(group + (key(r["plan"]),))
        if c and r.get("measured_s") is not None and r["program"].get("verdict") == "passed":
            cell = cells.setdefault(group + (c[0],), {})
            cell.setdefault(c[1], {"predicted": c[2], "runs": [], "gptm": gptm.get(group) == key(r["plan"])})
            cell[c[1]]["runs"].append(r["measured_s"])
    rows, met, total = [], 0, 0
    for (routine, n, program, pair), splits in sorted(cells.items()):
        picked = min(splits, key=lambda s: splits[s]["predicted"])
        group_rows, within = split_rows([routine, n, program, pair], splits, picked, "**pick**",
                                        lambda s: s + (" (GPTM's plan)" if splits[s]["gptm"] else ""))
        rows += group_rows
        met += within and len(splits) == 2
        total += len(splits) == 2
    table = split_table(["routine", "n", "program", "beside", "node's ranks x threads"], "model's pick", rows)
    print("# Ranks x threads on the emulated cluster\n\n"
          "The multi-core node's two splits (C ranks of one thread, one rank of C threads) beside\n"
          "the same other nodes: GPTM's plan's (`plan`), every node with one rank (`all`: GU's\n"
          "and HU's choices) and none (`alone`), run in turn, REPS rounds\n"
          "(`experiments/threads/vcluster.sh`). The pick is the split the model predicts faster.\n"
          "Target: the pick is the faster split or within 5 %% of it. Met in %d of %d pairs.\n\n%s"
          % (met, total, table))


def thread_speedups(args):
    """A platform whose types get thread speed-ups derived from a measured
    platform's (its calibration's thread_speedups at t = 2, the median over
    its types): per doubling of the threads the gain measured for one,
    s(2^k) = s(2)^k, at every power of two up to the type's smallest
    socket (its processors' cores / sockets)."""
    p = json.load(open(args.platform))
    measured = json.load(open(args.measured))["calibration"]["thread_speedups"]
    groups = ("dgemm", "dtrsm", "panel")
    two = {g: statistics.median(m[g] for m in measured if m["threads"] == 2) for g in groups}
    for name, t in p["types"].items():
        socket = min(q.get("cores", 1) // q.get("sockets", 1) for q in p["processors"] if q["type"] == name)
        t["threads"] = {}
        k = 1
        while 2 ** k <= socket and k <= 8:
            t["threads"][str(2 ** k)] = {g: round(two[g] ** k, 4) for g in groups}
            k += 1
    p["name"] = p["name"] + "-threads"
    p["description"] = (p.get("description", "") + "; thread speed-ups per doubling %s (measured here at t = 2, "
                        "analysis.py thread-speedups)" % ", ".join("%s %.3f" % (g, two[g]) for g in groups))
    json.dump(p, sys.stdout, indent=1)


def threads_node(args):
    """Each measured split of one node (runs with 'ranks' and 'threads')
    predicted by hetmap predict --threads on PLATFORM; ranks compared."""
    runs = read_jsonl(args.runs)
    groups = {}
    for r in runs:
        if r.get("check", {}).get("passed"):
            groups.setdefault((r["routine"], r["n"]), {}).setdefault(
                (r["ranks"], r["threads"], r["r"], r["c"], r["b"]), []).append(r["seconds"])
    rows, notes = [], []
    for (routine, n), splits in sorted(groups.items()):
        pred, meas = {}, {}
        for (ranks, t, pr, pc, b), times in sorted(splits.items(), key=lambda kv: -kv[0][0]):
            doc = json.loads(subprocess.run([HETMAP, "predict", "-p", args.platform, "-r", routine, "-n", str(n),
                                             "--procs", str(ranks), "--threads", str(t), "--grid",
                                             "%dx%d" % (pr, pc), "-b", str(b), "-f", "json"],
                                            capture_output=True, text=True, check=True).stdout)
            key = "%d x %d" % (ranks, t)
            pred[key], meas[key] = doc["plan"]["predicted"]["total_s"], statistics.median(times)
            rows.append([routine, n, key, "%d x %d" % (pr, pc), b, "%.3f" % pred[key], len(times),
                         "%.3f" % meas[key], "%.2f" % (meas[key] / pred[key])])
        keys = list(pred)
        model_best, real_best = min(pred, key=pred.get), min(meas, key=meas.get)
        notes.append("%s n = %d: Spearman %.2f; the model's best split %s measured %.3f s, the fastest %s %.3f s "
                     "(%s)" % (routine, n, spearman([pred[k] for k in keys], [meas[k] for k in keys]), model_best,
                               meas[model_best], real_best, meas[real_best],
                               "within 5 %" if meas[model_best] <= 1.05 * meas[real_best]
                               else "%.1f %% slower" % (100 * (meas[model_best] / meas[real_best] - 1))))
    print("# Ranks x threads on a 16-core node: predicted against measured\n\n"
          "Generated by `sh experiments/threads/node16.sh`. The node's calibration (one thread a rank)\n"
          "with the speed-ups measured on this 2-core machine, derived per doubling (`platform.json`'s\n"
          "description); the runs are the node's own (`experiments/real/results/threads-node16`).\n\n%s\n\n%s"
          % ("\n".join("- " + x for x in notes),
             markdown_table(["routine", "n", "ranks x threads", "grid", "b", "predicted s", "runs", "median s",
                             "measured / predicted"], rows)))


def threads_scale(args):
    """Per group: the one-thread plan, the plan with threads and HU's,
    predicted and simulated; the targets."""
    sims = {}
    for r in read_jsonl(os.path.join(args.dir, "runs.jsonl")):
        key, _ = plan_config(r)
        if r.get("measured_s") is not None:
            sims[key[1:]] = r["measured_s"]        # the platform's name differs with threads
    groups = {}
    for group, label, key, pred, path in read_plans(os.path.join(args.dir, "plans")):
        plan = json.load(open(path))["plan"]
        groups.setdefault(group, {})[label] = (pred, sims.get(key[1:]), split_of(plan), plan)
    rows, misses, notes = [], [], []
    for group, g in groups.items():
        one, thr, hu = g.get("1t"), g.get("threads"), g.get("HU")
        for label in ("1t", "threads", "HU"):
            if label not in g:
                continue
            pred, sim, split, plan = g[label]
            rows.append([group, label, split, "%d x %d, b %d" % (plan["r"], plan["c"], plan["b"]), "%.3f" % pred,
                         "%.3f" % sim if sim else "not simulated",
                         "%.3f" % (sim / one[1]) if sim and one and one[1] else ""])
        if one and thr and one[1] and thr[1]:
            if thr[1] > 1.02 * one[1]:
                misses.append("%s: the plan with threads simulated %.1f %% slower than the one-thread plan"
                              % (group, 100 * (thr[1] / one[1] - 1)))
            model_gain = 1 - thr[0] / one[0]
            sim_gain = 1 - thr[1] / one[1]
            if model_gain >= 0.10:
                verdict = "agrees" if sim_gain >= model_gain / 2 else "disagrees"
                notes.append("%s: the model says threads win by %.1f %%, the simulation %.1f %%: %s"
                             % (group, 100 * model_gain, 100 * sim_gain, verdict))
                if verdict == "disagrees":
                    misses.append(notes[-1])
    table = markdown_table(["group", "plan", "ranks x threads", "grid", "predicted s", "simulated s",
                            "simulated / one-thread"], rows)
    print("# Ranks x threads at scale, simulated (SMPI, kernels modeled)\n\n"
          "Generated by `sh experiments/threads/scale.sh` (%s s of simulation). `1t`: GPTM's plan without\n"
          "threads; `threads`: GPTM's plan pricing every split of each type's cores; `HU`: one rank per\n"
          "socket, the socket's cores its threads. The types' speed-ups are derived from this machine's\n"
          "(`platforms/*-threads.json`, their descriptions say how).\n\n"
          "Targets: the plan with threads never simulated more than 2 %% slower than the one-thread\n"
          "plan; where the model says threads win by >= 10 %%, the simulation gains at least half of that.\n"
          "%s\n%s\n\n%s" % (args.elapsed or "?",
                              ("Missed: " + "; ".join(misses) + ".") if misses else "Every target met.",
                              "\n".join("- " + n for n in notes), table))


COMMANDS = {
    "simulation": (simulation, [("dir", None), ("--elapsed", "?"), ("--budget", "?")]),
    "distinct": (distinct, [("plandir", None), ("--skip", "?")]),
    "record": (record, [("plandir", None), ("out", None), ("--study", "vcluster"), ("--model", "grid"),
                        ("--elapsed", "0"), ("--cluster", "?"), ("--command", "?")]),
    "summarize": (summarize, [("dir", None)]),
    "clients": (clients, [("runs", None)]),
    "nodestat": (nodestat, [("before", None), ("after", None), ("runs", None)]),
    "config": (config_cmd, [("plan", None)]),
    "rescore": (rescore, [("model", None), ("dir", None), ("--platform", None)]),
    "models": (models, [("dirs", "*"), ("--write", "store_true")]),
    "engine": (engine, [("dir", None)]),
    "scale": (scale, [("platform", None), ("--factor", "0"), ("--fastest", "0")]),
    "core-part": (core_part, [("platform", None), ("--remove", "0")]),
    "modeled": (modeled, [("dir", None), ("--elapsed", "?"), ("--command", "?")]),
    "measured-plans": (measured_plans, [("dir", None), ("outdir", None)]),
    "against": (against, [("runs", None), ("dirs", "*"), ("--elapsed", "?"), ("--command", "?")]),
    "derive": (derive, [("calibrated", None), ("description", None)]),
    "kernels": (kernels, [("platform", None), ("calibrated", None)]),
    "judged": (judged, [("plan", None), ("judgedir", "?"), ("runs", "?"), ("--plans", None)]),
    "engine-options": (engine_options, [("dir", None), ("--elapsed", "?"), ("--options", ""), ("--command", "?")]),
    "targets": (targets, [("dir", None), ("platforms", None), ("--elapsed", "?"), ("--command", "?")]),
    "trust": (trust, [("native", None), ("smpi", None)]),
    "sweep": (sweep, [("platform", None), ("--max", "24"), ("--one-row-max", "100000")]),
    "speed": (speed, [("dir", None), ("--elapsed", "?"), ("--repeats", "?")]),
    "stacking": (stacking, [("dir", None), ("--elapsed", "?")]),
    "blocks": (blocks, [("dir", None), ("--elapsed", "?")]),
    "stacked-plans": (stacked_plans, [("dir", None), ("--stacked", "?")]),
    "large": (large, [("dir", None), ("--limit", "20")]),
    "links-cluster": (links_cluster, [("n", None), ("--pattern", "mixed")]),
    "links-compare": (links_compare, [("desc", None), ("cal", None), ("err", None), ("wall", None), ("kb", None),
                                      ("--pattern", "mixed")]),
    "links": (links, [("dir", None)]),
    "threads-real": (threads_real, [("dir", None)]),
    "thread-pairs": (thread_pairs, [("platform", None), ("plan", None), ("node", None)]),
    "threads-vcluster": (threads_vcluster, [("dir", None)]),
    "thread-speedups": (thread_speedups, [("platform", None), ("measured", None)]),
    "threads-scale": (threads_scale, [("dir", None), ("--elapsed", "?")]),
    "threads-node": (threads_node, [("runs", None), ("platform", None)]),
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name, (run, arguments) in COMMANDS.items():
        s = sub.add_parser(name)
        for arg, default in arguments:
            if default == "*":
                s.add_argument(arg, nargs="*")
            elif default == "?" and not arg.startswith("--"):
                s.add_argument(arg, nargs="?")
            elif default is None and not arg.startswith("--"):
                s.add_argument(arg)
            elif default == "store_true":
                s.add_argument(arg, action="store_true")
            else:
                s.add_argument(arg, default=default)
        s.set_defaults(run=run)
    args = ap.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
