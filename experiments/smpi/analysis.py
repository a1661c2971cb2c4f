#!/usr/bin/env python3
"""The SMPI studies: the engine (engine.sh), modeled against executed
kernels (modeled.sh), the simulator against real runs (trust.sh,
against_runs.sh)."""
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # experiments/: the shared modules
from records import ROOT, main, markdown_table, plan_config, read_jsonl, spearman, write_atomic  # noqa: E402


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


# command: (function, [(argument, default; None: positional)], help): records.main
COMMANDS = {
    "engine": (engine, [("dir", None)],
               "DIR/runs.jsonl (engine.sh) -> a Markdown summary on stdout: the modeled engine quiet and\n"
               "beside a busy process, against full execution, the old engine and real runs"),
    "modeled": (modeled, [("dir", None), ("--elapsed", "?"), ("--command", "?")],
                "DIR/runs.jsonl (modeled.sh: every configuration simulated with kernels executed and\n"
                "modeled) -> a Markdown summary on stdout"),
    "measured-plans": (measured_plans, [("dir", None), ("outdir", None)],
                       "a study's distinct measured configurations as plan files in OUTDIR"),
    "against": (against, [("runs", None), ("dirs", "*"), ("--elapsed", "?"), ("--command", "?")],
                "simulated records (RUNS) against the median measured runs of the studies DIR... -> a\n"
                "Markdown summary on stdout (against_runs.sh)"),
    "trust": (trust, [("native", None), ("smpi", None)],
              "SMPI's simulated times against the native runs' (trust.sh)"),
}


if __name__ == "__main__":
    main(COMMANDS, __doc__)
