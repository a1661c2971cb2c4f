#!/usr/bin/env python3
"""Ranks x threads: on this machine (real.sh), the emulated cluster
(vcluster.sh), a 16-core node (node16.sh), at scale (scale.sh)."""
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # experiments/: the shared modules
from records import (HETMAP, main, markdown_table, plan_config, read_jsonl, read_tsv, spearman,  # noqa: E402
                     write_atomic)
from plans import read_plans, write_plan_list  # noqa: E402

GROUPS = ("dgemm", "dtrsm", "panel")    # the kernel groups of a type's thread speed-ups


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
    socket (its processors' cores / sockets). A speed-up measured by block
    size (a table, what calibrate writes) is derived at each block size."""
    p = json.load(open(args.platform))
    measured = [m for m in json.load(open(args.measured))["calibration"]["thread_speedups"] if m["threads"] == 2]
    def median_of(g):
        if isinstance(measured[0][g], dict):
            return {b: statistics.median(m[g][b] for m in measured) for b in measured[0][g]}
        return statistics.median(m[g] for m in measured)

    def power(v, k):
        return {b: round(x ** k, 4) for b, x in v.items()} if isinstance(v, dict) else round(v ** k, 4)

    def said(v):
        return "%.3f" % v if isinstance(v, (int, float)) else "/".join("%.3f" % x for x in v.values())

    two = {g: median_of(g) for g in GROUPS}
    for name, t in p["types"].items():
        socket = min(q.get("cores", 1) // q.get("sockets", 1) for q in p["processors"] if q["type"] == name)
        t["threads"] = {}
        k = 1
        while 2 ** k <= socket and k <= 8:
            t["threads"][str(2 ** k)] = {g: power(two[g], k) for g in GROUPS}
            k += 1
    p["name"] = p["name"] + "-threads"
    p["description"] = (p.get("description", "") + "; thread speed-ups per doubling %s (measured here at t = 2, "
                        "analysis.py thread-speedups)" % ", ".join("%s %s" % (g, said(two[g])) for g in GROUPS))
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
        one, thr = g.get("1t"), g.get("threads")
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


def rank_threads(plan):
    """The most BLAS threads a rank of the plan runs."""
    return max(e.get("threads", 1) for e in plan["processes"])


def config_label(rec):
    """A run's configuration: 'R x C, T threads, b B'."""
    p = rec["plan"]
    t = rank_threads(p)
    return "%d x %d%s, b %d" % (p["r"], p["c"], ", %d threads" % t if t > 1 else "", p["b"])


def speedup_rows(args):
    """A calibration's thread speed-ups as shapes.sh's rows: ROWS, REP,
    group, b and speed-up, tab-separated, one per group and b."""
    cal = json.load(open(args.calibration))
    for m in cal["calibration"]["thread_speedups"]:
        for g in GROUPS:
            for b, s in sorted(m[g].items(), key=lambda x: int(x[0])):
                print("\t".join((args.rows, args.rep, g, b, "%.4f" % s)))


def threads_shapes(args):
    """shapes.sh's DIR/speedups.tsv -> per rows and group, the speed-up at
    each b: median (range) over the rounds."""
    rows = read_tsv(os.path.join(args.dir, "speedups.tsv"))
    by = {}
    for r in rows:
        by.setdefault((int(r["rows"]), r["group"], int(r["b"])), []).append(float(r["speedup"]))
    bs = sorted({k[2] for k in by})
    table = [[n, g] + ["%.2f (%.2f-%.2f)" % (statistics.median(v), min(v), max(v)) if v else ""
                       for v in (by.get((n, g, b), []) for b in bs)]
             for n in sorted({k[0] for k in by}) for g in GROUPS]
    sys.stdout.write("# Two BLAS threads against one, by block size and rows\n\n"
                     "Generated by `sh experiments/threads/shapes.sh` (this machine, `calibrate --threads 2 "
                     "--thread-rows ROWS`, %d rounds): median (range) of the speed-up.\n\n"
                     % max(int(r["rep"]) for r in rows) +
                     markdown_table(["rows", "group"] + ["b = %d" % b for b in bs], table))


def threads_search_cost(args):
    """search_cost.sh's DIR/cost.tsv -> a Markdown summary: each search's
    wall time, peak memory, splits priced and plan."""
    rows = read_tsv(os.path.join(args.dir, "cost.tsv"))
    table = [[r["platform"], r["method"], r["routine"], r["n"], r["threads"] or "no", r["wall_s"],
              "%.0f" % (int(r["peak_kB"]) / 1024.0), r["splits"], r["all"], r["stopped"], r["D"], r["predicted_s"]]
             for r in rows]
    sys.stdout.write("# The searches' cost with threads as a dimension\n\n"
                     "Generated by `sh experiments/threads/search_cost.sh`, one search at a time, --max-time 60.\n"
                     "Targets: GPTM <= 1 s at 128000 cores and exact proving the optimum at 10240 cores in <= 10 s,\n"
                     "threads a dimension; exact <= 1 s at 20480 cores without threads; memory within the\n"
                     "searches' bounds (1 GB).\n\n" +
                     markdown_table(["platform", "method", "routine", "n", "threads", "wall s", "peak MB",
                                     "splits priced", "all", "stopped", "D", "predicted s"], table))


def two_cores_set(args):
    """A calibration's folder of two_cores.sh as a real set of runs that
    'hetmap models' scores (experiments/evidence.py): DIR/plans.tsv, every
    configuration run (labelled by its shape, GPTM for the plan's), and
    DIR/study.json."""
    plans = {}
    for rec in read_jsonl(os.path.join(args.dir, "runs.jsonl")):
        key, pred = plan_config(rec)
        group = "%s-%d" % (rec["inputs"]["routine"], int(rec["inputs"]["n"]))
        p = rec["plan"]
        t = rank_threads(p)
        label = ("GPTM" if p["method"] != "hand" else
                 "%dx%d%sb%d" % (p["r"], p["c"], "t%d" % t if t > 1 else "", p["b"]))
        plans.setdefault((group, label, key), pred)
    write_plan_list(args.dir, [(g, label, key, pred, None) for (g, label, key), pred in sorted(plans.items())])
    info = {"study": "real", "model": "panel", "elapsed_s": int(args.elapsed), "cluster": "localhost",
            "command": args.command}
    write_atomic(os.path.join(args.dir, "study.json"), json.dumps(info, indent=1) + "\n")


def threads_two_cores(args):
    """two_cores.sh's runs: per calibration (DIR/cal-K) and group, every
    configuration's prediction and measured median (range), the plan's
    configuration and its median against the fastest median (met when
    within 5 %), and the threaded ranks' prediction error (target: within
    15 %)."""
    groups = {}
    cals = sorted(d for d in os.listdir(args.dir) if d.startswith("cal-"))
    for cal, rec in ((c, r) for c in cals for r in read_jsonl(os.path.join(args.dir, c, "runs.jsonl"))):
        if not isinstance(rec.get("measured_s"), (int, float)):
            continue
        key = (cal, rec["inputs"]["routine"], int(rec["inputs"]["n"]))
        g = groups.setdefault(key, {"configs": {}, "plan": None})
        c = g["configs"].setdefault(config_label(rec), {"predicted": rec["predicted_s"], "runs": []})
        c["runs"].append(rec["measured_s"])
        if rec["plan"]["method"] != "hand":
            g["plan"] = config_label(rec)
    out = ["# Every configuration two cores allow, against the plan\n",
           "Generated by `sh experiments/threads/two_cores.sh` (hetmap's driver unless the records say",
           "otherwise; medians over the rounds, runs interleaved). Targets: the plan within 5 % of the",
           "fastest configuration in every group; a rank of two threads predicted within 15 %.\n",
           "| calibration | group | plan | plan's median s | fastest | its median s | plan / fastest | verdict |",
           "|---|---|---|---|---|---|---|---|"]
    detail, errors = [], []
    for (cal, routine, n), g in sorted(groups.items()):
        med = {k: statistics.median(v["runs"]) for k, v in g["configs"].items()}
        fastest = min(med, key=med.get)
        plan = g["plan"]
        ratio = med[plan] / med[fastest] if plan in med else float("nan")
        out.append("| %s | %s %d | %s | %.3f | %s | %.3f | %.3f | %s |" % (
            cal, routine, n, plan, med.get(plan, float("nan")), fastest, med[fastest], ratio,
            "met" if ratio <= 1.05 else "missed"))
        for k, v in sorted(g["configs"].items()):
            err = v["predicted"] / med[k] - 1
            if ", 2 threads" in k:
                errors.append(abs(err))
            detail.append("| %s | %s %d | %s | %.3f | %.3f (%.3f-%.3f) | %+.1f %% |" % (
                cal, routine, n, k, v["predicted"], med[k], min(v["runs"]), max(v["runs"]), 100 * err))
    out += ["", "A rank of two threads: predicted within 15 %% of its median in %d of %d configurations "
            "(largest error %.1f %%).\n" % (sum(e <= 0.15 for e in errors), len(errors),
                                             100 * max(errors) if errors else 0),
            "| calibration | group | configuration | predicted s | measured median s (range) | predicted / measured - 1 |",
            "|---|---|---|---|---|---|"] + detail
    print("\n".join(out))


# command: (function, [(argument, default; None: positional)], help): records.main
COMMANDS = {
    "threads-two-cores": (threads_two_cores, [("dir", None)],
                          "DIR/cal-*/runs.jsonl (two_cores.sh) -> a Markdown summary on stdout"),
    "thread-speedup-rows": (speedup_rows, [("calibration", None), ("rows", None), ("rep", None)],
                            "a calibration's thread speed-ups as shapes.sh's rows (TSV) on stdout"),
    "threads-shapes": (threads_shapes, [("dir", None)],
                       "DIR/speedups.tsv (shapes.sh) -> a Markdown summary on stdout"),
    "threads-search-cost": (threads_search_cost, [("dir", None)],
                            "DIR/cost.tsv (search_cost.sh) -> a Markdown summary on stdout"),
    "threads-two-cores-set": (two_cores_set, [("dir", None), ("elapsed", None), ("command", None)],
                              "DIR/runs.jsonl (a calibration of two_cores.sh) -> DIR/plans.tsv and\n"
                              "DIR/study.json: a real set for 'hetmap models'"),
    "threads-real": (threads_real, [("dir", None)],
                     "DIR/runs.jsonl and plans/ (real.sh) -> a Markdown summary on stdout"),
    "thread-pairs": (thread_pairs, [("platform", None), ("plan", None), ("node", None)],
                     "the emulated cluster's pairs of splits beside NODE, one 'LABEL CORES OTHERS' a line\n"
                     "(vcluster.sh)"),
    "threads-vcluster": (threads_vcluster, [("dir", None)],
                         "DIR/runs.jsonl and plans/ (vcluster.sh) -> a Markdown summary on stdout"),
    "thread-speedups": (thread_speedups, [("platform", None), ("measured", None)],
                        "PLATFORM with thread speed-ups derived from MEASURED's, on stdout"),
    "threads-scale": (threads_scale, [("dir", None), ("--elapsed", "?")],
                      "DIR/runs.jsonl and plans/ (scale.sh) -> a Markdown summary on stdout"),
    "threads-node": (threads_node, [("runs", None), ("platform", None)],
                     "a node's measured splits (RUNS) predicted on PLATFORM (node16.sh) -> a Markdown\n"
                     "summary on stdout"),
}


if __name__ == "__main__":
    main(COMMANDS, __doc__)
