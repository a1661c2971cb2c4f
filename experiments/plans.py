"""A study of plans: the plan files a study runs, what ran and who chose
it (plans.tsv, study.json), and its summary from its folder alone
(real/, vcluster/, smpi/, scale/ and threads/ run studies of plans)."""
import json
import math
import os
import statistics
import sys
import tempfile

from records import (PLAN_METHOD, checks_cell, gnuplot, key_threads, mape, markdown_table, measurements,
                     plan_config, read_jsonl, read_tsv, spearman, write_atomic)
from platforms import dgemm_rates, type_k3


TARGETS = ("plan >= 1.25x faster than GU, not slower than CU or EU, within 10% of the best\n"
           "measured; model error < 20%, rank correlation >= 0.8.")


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
    (a configuration several methods chose runs once); a last column
    'threads' (each processor's BLAS threads) where some configuration has
    ranks of more than one."""
    threaded = any(key_threads(key) for _, _, key, _, _ in plans)
    lines = ["\t".join(PLAN_LIST + ["threads"] * threaded)]
    for group, label, key, pred, _ in plans:
        platform, routine, n, d, r, c, b = key[:7]
        threads = [",".join(map(str, key_threads(key) or [1] * len(d)))] if threaded else []
        lines.append("\t".join([group, label, platform, routine, str(n), ",".join(map(str, d)),
                                str(r), str(c), str(b), repr(pred)] + threads))
    write_atomic(os.path.join(out, "plans.tsv"), "\n".join(lines) + "\n")


def read_plan_list(out):
    """out/plans.tsv as read_plans gives plan files (no path)."""
    plans = []
    for row in read_tsv(os.path.join(out, "plans.tsv")):
        key = (row["platform"], row["routine"], int(row["n"]), tuple(int(x) for x in row["d"].split(",")),
               int(row["r"]), int(row["c"]), int(row["b"]))
        threads = tuple(int(x) for x in (row.get("threads") or "").split(",") if x)
        if any(t > 1 for t in threads):         # as records.plan_config keys them
            key += (threads,)
        plans.append((row["group"], row["label"], key, float(row["predicted_s"]), None))
    return plans


def record(args):
    """The end of a study of plans (vcluster/study.sh, smpi/study.sh):
    OUT/plans.tsv from the plan files, and OUT/study.json, how it ran."""
    write_plan_list(args.out, read_plans(args.plandir))
    info = {"study": args.study, "model": args.model, "elapsed_s": int(args.elapsed),
            "cluster": args.cluster, "command": args.command}
    write_atomic(os.path.join(args.out, "study.json"), json.dumps(info, indent=1) + "\n")


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
        d, rr, c, b = r["key"][3:7]
        runs = (r["runs"] + [float("nan")] * 3)[:3]
        tsv.append("\t".join([r["group"], "+".join(r["labels"]), ",".join(map(str, d)), str(rr), str(c),
                              str(b), repr(r["predicted"]), "%g" % r["median"]] +
                             ["%g" % t for t in runs] + [r["checks"]]))
    write_atomic(os.path.join(out, "table.tsv"), "\n".join(tsv) + "\n")
    table = [[r["group"], "+".join(r["labels"]), "[%s]" % ",".join(map(str, r["key"][3])),
              "%dx%d" % r["key"][4:6], r["key"][6], "%.4g" % r["predicted"], "%.4g" % r["median"],
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


def efficiency_table(out, method):
    """Per group of a simulated study (out/plans.tsv, out/runs.jsonl, the
    clusters in out/clusters/): the plan's GFLOP/s (the driver's) against
    the summed dgemm rates, at the plan's b, of the cores it uses and of
    every core of the simulated cluster (dgemm_rates)."""
    chosen = {}
    for r in read_tsv(os.path.join(out, "plans.tsv")):
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


# command: (function, [(argument, default; None: positional)], help): records.main
COMMANDS = {
    "distinct": (distinct, [("plandir", None), ("--skip", "?")],
                 "print the plan files of PLANDIR (NNN-GROUP-LABEL.json, from 'hetmap plan/predict -f json')\n"
                 "that are distinct configurations, one a line: the ones a study of plans runs (less those\n"
                 "the records SKIP hold: a study resumed)"),
    "record": (record, [("plandir", None), ("out", None), ("--study", "vcluster"), ("--model", "grid"),
                        ("--elapsed", "0"), ("--cluster", "?"), ("--command", "?")],
               "the end of a study of plans: OUT/plans.tsv (what ran, who chose it) and OUT/study.json\n"
               "(how it ran)"),
    "summarize": (summarize, [("dir", None)],
                  "a study of plans from its folder alone (study.json, plans.tsv, runs.jsonl, its platform)\n"
                  "-> DIR/table.tsv, table.md, summary.md, predicted-vs-measured.png, and cause.md where\n"
                  "DIR/nodes.jsonl is (the emulated nodes' CPU and throttled time)"),
    "config": (config_cmd, [("plan", None)],
               "print 'D RxC B' of a plan file, for the shell to predict the same configuration with\n"
               "another model"),
    "sweep": (sweep, [("platform", None), ("--max", "24"), ("--one-row-max", "100000")],
              "configurations beside the methods' plans, 'procs:RxC:b' lines"),
}

