#!/usr/bin/env python3
"""A hostile-input campaign through the command line, as a user would
meet it: mutated platform files, plans and generator descriptions, each
given to the hetmap command that reads it. Every outcome must be one of
the command's documented exit codes, within the time limit, and a
failing command must leave nothing behind. Python 3 standard library.

    python3 tests/fuzz/mutate_cli.py [HETMAP [N [SEED]]]   (build/hetmap, 20000, 11)

Prints a table of outcomes per command and every finding (exit codes
outside the documented set, timeouts, files left behind); exits 1 if
there is a finding. Not run by CTest (it takes about 45 s); tests/README.md
gives its figures.
"""
import collections
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
TIMEOUT = 20

# command: (seed files, argv after hetmap with {in} and {out}, exit codes allowed)
COMMANDS = {
    "platform check": (glob.glob(os.path.join(ROOT, "models/platform/builtin/*.json")) +
                       glob.glob(os.path.join(ROOT, "tests/data/good/*.json")),
                       ["platform", "check", "{in}"], {0, 2}),
    "plan": (glob.glob(os.path.join(ROOT, "tests/data/good/mini.json")),
             ["plan", "-p", "{in}", "-n", "800", "-M", "BTM", "-d", "6", "--max-time", "5",
              "-o", "{out}/plan.json"], {0, 2, 3, 5, 6}),
    "run --dry-run": (glob.glob(os.path.join(ROOT, "tests/fuzz/plans/*.json")),
                      ["run", "--plan", "{in}", "--dry-run", "--mpirun", "/nonexistent", "-o", "{out}/job"],
                      {0, 2, 3}),
    "generate": (glob.glob(os.path.join(ROOT, "models/platform/examples/*.json")),
                 ["generate", "{in}", "-o", "{out}/platform.json"], {0, 2}),
}

HOSTILE_VALUES = [
    None, True, False, 0, -1, 1.5, 2.0000001, 1e308, -1e308, 4294967299, 1e-320,
    "", " ", "\t5", "5us ", "0x10", "nan", "inf", "-0", "1e999",
    "a\u0000b", "a;rm -rf /", "$(id)", "`id`", "a b", "-np", "a\nb", "\u001b[31m",
    "x" * 300, "\u00e9\u4e2d", "100Mbps", "2GiB", "0.72us", "45GFLOP/s",
    [], {}, [1, 2, 3], {"a": 1}, [[[[[[]]]]]],
]


def nodes(doc, path=()):
    """Every (container, key) pair of the tree."""
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield doc, k
            yield from nodes(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield doc, i
            yield from nodes(v, path + (i,))


def mutate(text, rng):
    """One hostile variant of a JSON text: a structural change (value,
    deletion, deep nesting, duplicate key) or a textual one (cut, bytes,
    trailing text)."""
    kind = rng.randrange(10)
    if kind <= 5:
        doc = json.loads(text)
        places = list(nodes(doc))
        if not places:
            return text + "x"
        container, key = rng.choice(places)
        if kind <= 2:
            container[key] = rng.choice(HOSTILE_VALUES)
        elif kind == 3 and isinstance(container, dict):
            del container[key]
        elif kind == 4:
            container[key] = json.loads("[" * 150 + "]" * 150)
        else:
            out = json.dumps(doc)
            if isinstance(container, dict):     # a duplicate key, textually
                k = json.dumps(key)
                at = out.find(k + ":")
                if at >= 0:
                    return out[:at] + k + ": null, " + out[at:]
            return out
        return json.dumps(doc)
    if kind == 6:
        return text[:rng.randrange(len(text) + 1)]
    if kind == 7:
        at = rng.randrange(len(text) + 1)
        junk = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 8)))
        return text[:at] + junk.decode("latin-1") + text[at:]
    if kind == 8:
        return text + rng.choice([" x", "{}", "\n[]", "\u0000", "// comment"])
    return text.replace('"', "'", 1)


def run_one(hetmap, argv, allowed, text, rng, findings, counts, name):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "input.json")
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        with open(path, "w", encoding="latin-1", errors="replace") as f:
            f.write(text)
        args = [hetmap] + [a.replace("{in}", path).replace("{out}", out) for a in argv]
        try:
            rc = subprocess.run(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE, timeout=TIMEOUT).returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        counts[name][rc] += 1
        left = os.listdir(out)
        if rc not in allowed:
            findings.append((name, rc, text[:300]))
        elif rc != 0 and left:
            findings.append((name, "left %s" % left, text[:300]))


def main():
    args = sys.argv[1:] + [None] * 3
    hetmap = args[0] or os.path.join(ROOT, "build", "hetmap")
    n = int(args[1] or 20000)
    rng = random.Random(int(args[2] or 11))
    counts = {name: collections.Counter() for name in COMMANDS}
    findings = []
    for i in range(n):
        name = list(COMMANDS)[i % len(COMMANDS)]
        seeds, argv, allowed = COMMANDS[name]
        with open(rng.choice(seeds)) as f:
            text = f.read()
        for _ in range(rng.randrange(1, 4)):    # one to three mutations
            try:
                text = mutate(text, rng)
            except ValueError:                  # no longer JSON: textual only
                text = text + " "
        run_one(hetmap, argv, allowed, text, rng, findings, counts, name)
        if (i + 1) % 500 == 0:
            print("mutate_cli: %d/%d inputs, %d findings" % (i + 1, n, len(findings)),
                  file=sys.stderr)
    print("| command | inputs | exit codes |")
    print("|---|---|---|")
    for name, c in counts.items():
        print("| %s | %d | %s |" % (name, sum(c.values()),
                                   ", ".join("%s: %d" % (k, v) for k, v in sorted(c.items(), key=str))))
    print("\n%d inputs, %d findings" % (n, len(findings)))
    for name, what, text in findings[:20]:
        print("FINDING %s: %s: %r" % (name, what, text))
    sys.exit(1 if findings else 0)


if __name__ == "__main__":
    main()
