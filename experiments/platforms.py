"""Platforms made for the studies from others: scaled, derived from a
calibration, given kernel models; the dgemm rates a configuration uses."""
import json
import os
import re


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


# The real calibrations whose LU steps state the defaults of a type that
# gives none (models/platform/platform_load.c, "LU's steps a type lacks"):
# this machine and the 16-core node, quiet (calibrate-twice's busy runs and
# the emulated cluster's stretched BLAS are left out; a file copied into two
# studies counts once).
STEP_CALIBRATIONS = ("real/results/localhost-driver/platform.json", "real/results/localhost-hpl/platform.json",
                     "real/results/node16-driver/platform.json", "real/results/calibrate-twice/quiet-1.json",
                     "real/results/calibrate-twice/quiet-2.json", "threads/results/real/platform.json",
                     "threads/results/two-cores/cal-1/platform.json", "threads/results/two-cores/cal-2/platform.json",
                     "tune/results/here/platform.json")


def step_defaults(args):
    """Each real calibration's LU steps over its panel's s/flop at its middle block size (the
    loader's), and the medians: what a type that gives no column_step or k1_dswap is charged."""
    import statistics
    ratios = {"column_step": [], "k1_dswap": []}
    print("calibration\tb\tk2_dgetf2\tcolumn_step\tcolumn_step_ratio\tk1_dswap\tk1_dswap_ratio")
    for f in args.files or [os.path.join(os.path.dirname(os.path.abspath(__file__)), c) for c in STEP_CALIBRATIONS]:
        d = json.load(open(f))
        for t in d["types"].values():
            blocks = d.get("block_sizes") or sorted(map(int, t["k2_dgetf2"]))
            b = blocks[len(blocks) // 2]
            k2 = type_k(t, ("k2_dgetf2",), b)
            row = [os.path.relpath(f), b, "%.4g" % k2]
            for key in ratios:
                if key in t:
                    ratios[key].append(t[key] / k2)
                    row += ["%.4g" % t[key], "%.0f" % (t[key] / k2)]
                else:
                    row += ["-", "-"]
            print("\t".join(map(str, row)))
    for key, r in ratios.items():
        print("# %s: median %.0f x k2_dgetf2 over %d calibrations (%.0f-%.0f)" % (
            key, statistics.median(r), len(r), min(r), max(r)) if r else "# %s: no calibration gives it" % key)


# command: (function, [(argument, default; None: positional)], help): records.main
def faster_links(args):
    """The platform with its links between hosts (inter_node, the rules and
    pair entries; so its cards too) 'factor' times faster in t_w, all else
    as it was: what those links cost, by difference (scale/card.sh)."""
    doc = json.load(open(args.platform))
    net = doc["network"]
    factor = float(args.factor)
    for link in [net["inter_node"]] + net.get("links", []) + net.get("pairs", []):
        link["t_w"] = scale_quantity(link["t_w"], factor)
        link.pop("t_w_core", None)  # the cores' part is the cores', left as the default
    print(json.dumps(doc, indent=1))


COMMANDS = {
    "scale": (scale, [("platform", None), ("--factor", "0"), ("--fastest", "0")],
              "the platform with every host and link F times faster (SMPI study)"),
    "faster-links": (faster_links, [("platform", None), ("factor", None)],
                     "the platform with its links between hosts (and so its cards) FACTOR times faster\n"
                     "in t_w, nothing else changed (scale/card.sh)"),
    "derive": (derive, [("calibrated", None), ("description", None)],
               "a generator description whose types say {\"like\": T, \"slower\": F}, made concrete\n"
               "from CALIBRATED's type T (k tables, kernel models)"),
    "kernels": (kernels, [("platform", None), ("calibrated", None)],
                "PLATFORM with kernel models for the simulator on every type lacking them:\n"
                "CALIBRATED's, scaled by the ratio of the types' k values"),
    "step-defaults": (step_defaults, [("files", "*")],
                      "the real calibrations' LU steps (column_step, k1_dswap) over their panel's s/flop,\n"
                      "and the medians a type that gives none is charged (default: the committed ones)"),
}

