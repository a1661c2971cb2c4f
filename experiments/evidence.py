"""The evidence behind each model's status: every model rescored on every
committed study of plans (models/evidence.tsv, which 'hetmap models'
prints)."""
import json
import math
import os
import statistics
import subprocess
import sys

from records import HETMAP, ROOT, key_threads, mape, markdown_table, measurements, predict, spearman, write_atomic
from plans import read_plan_list, study_platform, vcluster_table


def rescore_stats(model, out, platform=None):
    """{group: (MAPE, Spearman)} and the whole study's (MAPE, mean Spearman)
    of 'model' on the study's measurements: every configuration predicted
    again on the study's own platform (or 'platform')."""
    measured = measurements(os.path.join(out, "runs.jsonl"))
    by_group = {}
    for r in vcluster_table(read_plan_list(out), measured):
        if math.isnan(r["median"]):
            continue
        _, routine, n, d, rr, c, b = r["key"][:7]
        pred = predict(model, platform or study_platform(out, r["group"]), routine, n, d, rr, c, b,
                       key_threads(r["key"]))
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
    """Every committed study of plans: the folders holding a plans.tsv, in a
    study's results or one level below (a study of several sets, such as
    threads/two_cores.sh's, one per calibration)."""
    found = []
    for study in sorted(os.listdir(os.path.join(ROOT, "experiments"))):
        results = os.path.join(ROOT, "experiments", study, "results")
        if not os.path.isdir(results):
            continue
        for d in sorted(os.listdir(results)):
            top = os.path.join(results, d)
            below = [os.path.join(top, s) for s in sorted(os.listdir(top))] if os.path.isdir(top) else []
            found += [x for x in [top] + below if os.path.exists(os.path.join(x, "plans.tsv"))]
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
HPL_THREADS_PENDING = ("HPL (hpcc) on this machine's two cores with threads, calibrated before calibrate "
                       "timed the row interchanges at both strides: their k1_dswap is the aliased stride's "
                       "(PDLASWP at 1024 rows), 2.5x what most of these runs' strides cost (3000 and about 1500 "
                       "rows; HPL keeps its leading dimension off powers of two), so 'panel' errs 52-69 % "
                       "there ('grid' 14-17 %, Spearman panel 0.909 and 0.839, ring 0.881 and 0.867). The "
                       "same runs again with a calibration of both strides, threads/results/"
                       "two-cores-hpl-stride, are scored")
UNSCORED = {"real/results/localhost-xdlu": "ScaLAPACK's LU tester prints its time to 0.01 s and its work array "
                                           "holds n <= 650, where its LU takes one or two ticks: too coarse to "
                                           "score a model",
            "threads/results/two-cores-hpl/cal-1": HPL_THREADS_PENDING,
            "threads/results/two-cores-hpl/cal-2": HPL_THREADS_PENDING}


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


def one_stride(args):
    """A platform calibrated at both strides with one row interchange cost,
    its aliased one, on every type: what calibrate wrote before it timed
    both (PDLASWP at 1024 rows alone), to score what pricing each run's
    stride changes (rescore --platform)."""
    doc = json.load(open(args.platform))
    for t in doc["types"].values():
        if "k1_dswap_aliased" in t:
            t["k1_dswap"] = t.pop("k1_dswap_aliased")
    print(json.dumps(doc, indent=1))


# command: (function, [(argument, default; None: positional)], help): records.main
COMMANDS = {
    "rescore": (rescore, [("model", None), ("dir", None), ("--platform", None)],
                "MAPE and Spearman of MODEL on a study of plans' measurements, every configuration\n"
                "predicted again by 'build/hetmap predict'"),
    "models": (models, [("dirs", "*"), ("--write", "store_true")],
               "every model of 'hetmap models' rescored on every committed study of plans (or the\n"
               "DIRs): the evidence table of experiments/README.md; --write: models/evidence.tsv too"),
    "core-part": (core_part, [("platform", None), ("--remove", "0")],
                  "the calibrated PLATFORM with t_w_core on its links between processors as 'hetmap\n"
                  "calibrate' writes it (or without, the thesis's rule), on stdout: to rescore a study\n"
                  "under either rule"),
    "one-stride": (one_stride, [("platform", None)],
                   "the calibrated PLATFORM with its row interchanges at one cost, the aliased stride's\n"
                   "(as calibrate wrote before it timed both), on stdout: to rescore a study without\n"
                   "the stride"),
}

