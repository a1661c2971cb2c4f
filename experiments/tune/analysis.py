#!/usr/bin/env python3
"""tune against the exhaustive sweep (experiments/tune/bench.sh's summary).

    python3 experiments/tune/analysis.py bench OUT
    python3 experiments/tune/analysis.py best GROUP-DIR   (the sweep's best, as predict's options)

Per group folder of OUT (ROUTINE-N-PROGRAM): the set E of every priced
configuration (list.json), tune's race (tune.json, tune.jsonl, tune.time)
and the exhaustive sweep after it (sweep.jsonl, REPS runs of each of E in
random rounds). The best configuration is the least median of the sweep.
Random choice and HPL.dat's order are replayed on the sweep's own runs at
tune's number of runs: each configuration they try is "run" once (a run
drawn from the sweep, for random over 2000 draws; the first round's for
HPL.dat's order) and the least measured is their pick. Everything is
measured time: nothing here is simulated or predicted but the model's own
plan and error.
"""
import gzip
import json
import math
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import records as common  # noqa: E402  (the studies' shared readers and scores)

WITHIN = 1.05


def config_key(d, threads, r, c, b):
    """A configuration: process counts, the threads of the used processors, grid, b."""
    return (tuple(d), tuple(t for x, t in zip(d, threads) if x), r, c, b)


def record_key(rec):
    plan = rec["plan"]
    procs = iter(plan["processes"])
    threads = [next(procs).get("threads", 1) if x else 1 for x in plan["d"]]
    return config_key(plan["d"], threads, plan["r"], plan["c"], plan["b"])


def candidate_key(c):
    return config_key(c["d"], c["threads"], c["r"], c["c"], c["b"])


def read_records(path):
    """The records of results file 'path', or of 'path.gz' (committed results are compressed)."""
    if os.path.exists(path):
        return common.read_jsonl(path)
    if os.path.exists(path + ".gz"):
        with gzip.open(path + ".gz", "rt") as f:
            return [json.loads(line) for line in f if line.strip()]
    return []


def runs_by_config(path):
    """key -> measured seconds of the records of 'path' that measured one, in order."""
    out = {}
    for rec in read_records(path):
        if rec.get("exit_code") == 0 and rec.get("measured_s"):
            out.setdefault(record_key(rec), []).append(rec["measured_s"])
    return out


def describe(key):
    d, threads, r, c, b = key
    t = "" if set(threads) <= {1} else " x%st" % "/".join(str(x) for x in sorted(set(threads)))
    return "%s%s %dx%d b%d" % (",".join(str(x) for x in d), t, r, c, b)


def first_within(picks, quality):
    """The first k (1-based) at which the pick after k runs is within 5 % of the best, else None."""
    for k, key in enumerate(picks, 1):
        if key is not None and quality(key) <= WITHIN:
            return k
    return None


def tune_picks(records):
    """tune's leader after each of its runs: the least geometric mean so far."""
    seen, picks = {}, []
    for rec in records:
        if rec.get("exit_code") == 0 and rec.get("measured_s"):
            seen.setdefault(record_key(rec), []).append(math.log(rec["measured_s"]))
        picks.append(min(seen, key=lambda k: sum(seen[k]) / len(seen[k])) if seen else None)
    return picks


def replay(order, sample):
    """The pick after each configuration of 'order' is run once (sample(key) its time)."""
    best, picks = None, []
    for key in order:
        t = sample(key)
        if t is not None and (best is None or t < best[0]):
            best = (t, key)
        picks.append(best[1] if best else None)
    return picks


def plan_key(plan):
    procs = iter(plan["processes"])
    return config_key(plan["d"], [next(procs).get("threads", 1) if x else 1 for x in plan["d"]], plan["r"],
                      plan["c"], plan["b"])


def verified(folder, label, winner, best):
    """The winner over the best by the medians of their fresh runs in turn
    (verify<label>.jsonl, bench.sh's last step); None when not run."""
    runs = runs_by_config(os.path.join(folder, "verify%s.jsonl" % label))
    if winner is None or not runs:
        return None
    if winner == best:
        return 1.0
    if winner not in runs or best not in runs:
        return None
    return statistics.median(runs[winner]) / statistics.median(runs[best])


def tune_summary(folder, label, quality, best):
    """tune's race (files tune<label>.*): its winner's quality, runs, cost, and
    the runs and seconds until its leader was within 5 % of the best; None when absent."""
    if not os.path.exists(os.path.join(folder, "tune%s.json" % label)):
        return None
    doc = json.load(open(os.path.join(folder, "tune%s.json" % label)))
    records = read_records(os.path.join(folder, "tune%s.jsonl" % label))
    winner = plan_key(doc["winner"]["plan"]) if doc.get("winner") else None
    picks = tune_picks(records)
    k = first_within(picks, quality)
    timefile = os.path.join(folder, "tune%s.time" % label)
    wall = sum(r.get("wall_s", 0) for r in records)
    tune_time = float(open(timefile).read().split()[0]) if os.path.exists(timefile) else math.nan
    fresh = verified(folder, label, winner, best)
    return {"winner": describe(winner) if winner else "-", "q": quality(winner) if winner else math.nan,
            "fresh": fresh,
            "candidates": len(doc.get("candidates", [])), "runs": len(records), "budget": doc.get("budget"),
            "stopped": doc.get("stopped", ""), "band": doc.get("band", math.nan),
            "wall": wall, "time": tune_time, "overhead": tune_time - wall,
            "k": k, "sec": sum(r.get("wall_s", 0) for r in records[:k]) if k else None}


def group_summary(folder):
    listed = json.load(open(os.path.join(folder, "list.json")))
    E = [candidate_key(c) for c in listed["candidates"]]
    origin = {candidate_key(c): c["origin"] for c in listed["candidates"]}
    predicted = {candidate_key(c): c["predicted_s"] for c in listed["candidates"]}
    sweep = runs_by_config(os.path.join(folder, "sweep.jsonl"))
    median = {k: statistics.median(v) for k, v in sweep.items() if v}
    if not median:
        return None
    best = min(median, key=median.get)
    quality = lambda k: median.get(k, math.inf) / median[best]  # noqa: E731
    plan = next((k for k in E if origin.get(k) == "GPTM"), None)
    cold, taught = tune_summary(folder, "", quality, best), tune_summary(folder, "-history", quality, best)
    runs = cold["runs"] if cold else 0
    # HPL.dat's order: E as listed, each once (the sweep's first run of it)
    first_run = {k: v[0] for k, v in sweep.items()}
    wall_of = {}
    for rec in read_records(os.path.join(folder, "sweep.jsonl")):
        if rec.get("exit_code") == 0 and rec.get("measured_s"):
            wall_of.setdefault(record_key(rec), []).append(rec.get("wall_s", 0))
    wall_of = {k: statistics.median(v) for k, v in wall_of.items()}
    hpl_picks = replay(E[:max(runs, len(E))], first_run.get)
    hpl_at_runs = hpl_picks[min(runs, len(hpl_picks)) - 1] if runs else None
    k_hpl = first_within(hpl_picks, quality)
    # random choice among E at tune's number of runs, 2000 draws
    rng = random.Random(1)
    rand_q, rand_hit, rand_k, rand_sec = [], 0, [], []
    for _ in range(2000):
        order = rng.sample(E, len(E))
        order = (order * (runs // len(E) + 1))[:max(runs, len(E))]
        ps = replay(order, lambda k: rng.choice(sweep[k]) if k in sweep else None)
        q = quality(ps[runs - 1]) if runs and ps[runs - 1] else math.inf
        rand_q.append(q)
        rand_hit += q <= WITHIN
        k = first_within(ps, quality) or len(order) + 1
        rand_k.append(k)
        rand_sec.append(sum(wall_of.get(x, 0) for x in order[:k]))
    return {
        "configurations": len(E), "sweep_runs": sum(len(v) for v in sweep.values()),
        "best": describe(best), "best_s": median[best],
        "plan": describe(plan) if plan else "-", "plan_q": quality(plan) if plan else math.nan,
        "cold": cold, "taught": taught, "runs": runs,
        "hpl_q": quality(hpl_at_runs) if hpl_at_runs else math.inf,
        "random_q": statistics.mean(q for q in rand_q if q < math.inf) if any(q < math.inf for q in rand_q) else math.inf,
        "random_hit": rand_hit / 2000,
        "k_hpl": k_hpl, "sec_hpl": sum(wall_of.get(x, 0) for x in E[:k_hpl]) if k_hpl else None,
        "k_random": statistics.mean(rand_k), "sec_random": statistics.mean(rand_sec),
        "spread": max((max(v) / min(v) - 1) for v in sweep.values() if len(v) > 1),
        "model_mape": common.mape([predicted[k] for k in median if k in predicted],
                                  [median[k] for k in median if k in predicted]),
        "model_rho": common.spearman([predicted[k] for k in median if k in predicted],
                                     [median[k] for k in median if k in predicted]),
    }


def fmt(v, spec="%.3f"):
    if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))):
        return "-"
    return spec % v


def tune_cells(t, sweep_runs):
    """candidates, runs / budget (why it stopped); the winner over the best,
    by fresh runs in turn where they were made (else the sweep's medians);
    the target met or not."""
    if not t:
        return ["-", "-", "-"]
    q = t["fresh"] if t["fresh"] is not None else t["q"]
    met = q <= WITHIN and t["runs"] * 4 <= sweep_runs
    shown = "%s (sweep %s)" % (fmt(t["fresh"]), fmt(t["q"])) if t["fresh"] is not None else fmt(t["q"])
    return ["%d, %d / %s (%s)" % (t["candidates"], t["runs"], t["budget"], t["stopped"]), shown,
            "yes" if met else "**no**"]


def bench(out):
    rows, learn_rows = [], []
    for name in sorted(os.listdir(out)):
        folder = os.path.join(out, name)
        if os.path.isfile(os.path.join(folder, "list.json")):
            s = group_summary(folder)
            if s:
                rows.append((name, s))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    print("# tune against the exhaustive sweep: %s\n" % os.path.relpath(os.path.abspath(out), root))
    print("Medians of the sweep (REPS runs of every configuration of E, random rounds): the best, and the model's "
          "plan (GPTM) as measured / best; tune's winner over the best by the medians of REPS fresh runs of each in "
          "turn after the tune (the sweep's ratio beside). tune cold: a results file of its "
          "own, the band from the model's evidence; taught: with --history of the other groups' sweeps (learned "
          "corrections, the band from those runs). Random choice among E and HPL.dat's order replayed on the "
          "sweep's runs at the cold tune's number of runs. Target: winner <= 1.05 with at most a quarter of the "
          "sweep's runs.\n")
    print(common.markdown_table(
        ["group", "E", "best (median s)", "plan / best", "cold: candidates, runs / budget", "winner / best", "met",
         "taught: candidates, runs / budget", "winner / best", "met", "random / best (P within 5 %)",
         "HPL.dat order / best"],
        [[n, "%d (%d runs)" % (s["configurations"], s["sweep_runs"]), "%s (%.3f)" % (s["best"], s["best_s"]),
          fmt(s["plan_q"])] + tune_cells(s["cold"], s["sweep_runs"]) + tune_cells(s["taught"], s["sweep_runs"]) +
         ["%s (%.2f)" % (fmt(s["random_q"]), s["random_hit"]), fmt(s["hpl_q"])] for n, s in rows]))
    print("\nRuns (and seconds of runs) until each held a configuration within 5 % of the best; the cold tune's "
          "cost beyond its runs (the command's wall time less its launches'):\n")
    print(common.markdown_table(
        ["group", "tune cold", "tune taught", "random (mean)", "HPL.dat order", "tune's wall s", "its runs' s",
         "overhead s", "runs' spread (max/min - 1)", "model MAPE %, Spearman"],
        [[n] + ["%s (%s s)" % (fmt(t["k"], "%d"), fmt(t["sec"], "%.1f")) if t else "-"
                for t in (s["cold"], s["taught"])] +
         ["%.1f (%.1f s)" % (s["k_random"], s["sec_random"]),
          "%s (%s s)" % (fmt(s["k_hpl"], "%d"), fmt(s["sec_hpl"], "%.1f"))] +
         ([fmt(s["cold"]["time"], "%.1f"), fmt(s["cold"]["wall"], "%.1f"), fmt(s["cold"]["overhead"], "%.2f")]
          if s["cold"] else ["-"] * 3) +
         ["%.0f %%" % (100 * s["spread"]), "%.1f, %s" % (s["model_mape"], fmt(s["model_rho"], "%.2f"))]
         for n, s in rows]))
    learn_dir = os.path.join(out, "learn")
    for name in sorted(os.listdir(learn_dir)) if os.path.isdir(learn_dir) else []:
        doc = json.load(open(os.path.join(learn_dir, name)))
        c, o = doc["corrections"], doc.get("out_of_sample", {})
        factors = ", ".join(["%s %s x%.3f" % (what, k, v) for what in ("compute", "dgemm", "dtrsm", "panel", "swaps",
                                                                        "threads")
                             for k, v in c.get(what, {}).items()] +
                            (["communication x%.3f" % c["communication"]] if c["communication"] != 1 else []))
        learn_rows.append([name[:-5], c["learned"]["terms"], factors or "none", c["learned"]["runs"],
                           "%.1f -> %.1f" % (c["learned"]["mape_before_percent"], c["learned"]["mape_after_percent"]),
                           "%.1f -> %.1f" % (o.get("mape_before_percent", math.nan), o.get("mape_after_percent", math.nan)),
                           "%s -> %s" % (fmt(o.get("spearman_before")), fmt(o.get("spearman_after")))])
    if learn_rows:
        print("\nLearned corrections (hetmap learn on one n's runs, checked on the other n's): MAPE in and out "
              "of sample, Spearman out of sample, before -> after.\n")
        print(common.markdown_table(["learned -> checked", "terms kept (AICc)", "factors", "runs",
                                     "MAPE in sample %", "MAPE out of sample %", "Spearman out of sample"],
                                    learn_rows))


def best_options(folder):
    """The sweep's best configuration as 'hetmap predict' takes it."""
    listed = json.load(open(os.path.join(folder, "list.json")))
    sweep = runs_by_config(os.path.join(folder, "sweep.jsonl"))
    median = {k: statistics.median(v) for k, v in sweep.items() if v}
    best = min(median, key=median.get)
    c = next(c for c in listed["candidates"] if candidate_key(c) == best)
    opts = "--procs %s --grid %dx%d -b %d" % (",".join(map(str, c["d"])), c["r"], c["c"], c["b"])
    if any(t > 1 for x, t in zip(c["d"], c["threads"]) if x):
        opts += " --threads " + ",".join(map(str, c["threads"]))
    print(opts)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "bench":
        bench(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "best":
        best_options(sys.argv[2])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
