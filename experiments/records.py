"""The studies' shared readers of records and scores.

Statistics (MAPE, Spearman), the readers of runs (JSON Lines, also
gzipped; TSV tables; a plan's configuration), atomic writes, Markdown
tables, gnuplot, 'hetmap predict', and main(): the command line every
analysis module is run by. Python 3 standard library only."""
import argparse
import gzip
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


METHODS = ["exact", "BTM", "BGRM", "GRM", "GCTM", "GPTM", "GU", "CU", "EU"]


PLAN_METHOD = "GPTM"        # the plan a user gets by default


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
    """The records of a JSON Lines file, or of 'path.gz' when only that is there
    (committed runs over 200 kB are compressed: experiments/README.md)."""
    if not os.path.exists(path) and os.path.exists(path + ".gz"):
        with gzip.open(path + ".gz", "rt") as f:
            return [json.loads(line) for line in f if line.strip()]
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def plan_config(doc):
    """(platform, routine, n, d, r, c, b) and the predicted time of a plan
    document (or of a run's record, which holds its plan)."""
    p = doc["plan"]
    key = (doc["inputs"].get("platform_name", ""), doc["inputs"]["routine"], int(doc["inputs"]["n"]),
           tuple(p["d"]), p["r"], p["c"], p["b"])
    # a plan without its processes (the judge's candidates) runs one thread a rank
    threads = tuple(e.get("threads", 1) for e in p.get("processes", ()))
    if any(t > 1 for t in threads):         # ranks of threads: another configuration
        key += (threads,)
    return key, p["predicted"]["total_s"]


def key_threads(key):
    """A configuration key's threads per processor (plan_config adds them
    where some rank runs more than one), or None."""
    return key[7] if len(key) > 7 else None


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


def predicted_parts(model, platform, routine, n, d, r, c, b, threads=None):
    """'hetmap predict' of one configuration (ranks of 'threads' BLAS
    threads per processor, when given): its prediction's parts, as the
    plan's "predicted" object (total_s, comm_card_s, ...)."""
    doc = subprocess.run([HETMAP, "predict", "-p", platform, "-m", model,
                          "-r", routine, "-n", str(n), "--procs", ",".join(map(str, d)),
                          "--grid", "%dx%d" % (r, c), "-b", str(b), "-f", "json"] +
                         (["--threads", ",".join(map(str, threads))] if threads else []),
                         capture_output=True, text=True, check=True).stdout
    return json.loads(doc)["plan"]["predicted"]


def predict(model, platform, routine, n, d, r, c, b, threads=None):
    """predicted_parts' total time (s)."""
    return predicted_parts(model, platform, routine, n, d, r, c, b, threads)["total_s"]


def read_tsv(path):
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        return [dict(zip(header, line.rstrip("\n").split("\t"))) for line in f if line.strip()]


def main(commands, doc, argv=None):
    """Run one command of 'commands' ({name: (function, [(argument,
    default)], help)}; default None: a positional, '?': optional, '*': any
    number, 'store_true': a flag) from the command line."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    for name, (run, arguments, text) in commands.items():
        s = sub.add_parser(name, help=" ".join(text.split()), description=text,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
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
    args = ap.parse_args(argv)
    args.run(args)
