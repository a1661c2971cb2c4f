#!/bin/sh
# Calibration beside other work (experiments/README.md, "Calibration beside
# other work"): this machine calibrated PAIRS times (default 2) in pairs, a
# quiet calibration and one beside a process spinning on a core, each
# kept with its trust (--accept-unreliable: the comparison is the point);
# then per pair the kernels' k (beside / quiet, per kernel and b) and the
# plans of LU and GEMM at n = 3000 and 20000 on each.
#
#   sh experiments/real/calibrate_twice.sh      (about 2 minutes a calibration)
#
# Writes OUT (default experiments/real/results/calibrate-twice): quiet-P.json and
# busy-P.json, the platforms; summary.md.
set -eu
. "$(dirname "$0")/../lib.sh"
study_out experiments/real/results/calibrate-twice
hog=""
cleanup() { [ -z "$hog" ] || kill "$hog" 2>/dev/null || :; }
for pair in $(seq "${PAIRS:-2}"); do
	echo "calibrate-twice: pair $pair, quiet" >&2
	"$hm" calibrate --accept-unreliable -o "$out/quiet-$pair.json" 2>"$tmp/quiet-$pair.err"
	grep "calibrate: T" "$tmp/quiet-$pair.err" >&2 || :
	echo "calibrate-twice: pair $pair, beside a spinning process" >&2
	sh -c 'while :; do :; done' &
	hog=$!
	"$hm" calibrate --accept-unreliable -o "$out/busy-$pair.json" 2>"$tmp/busy-$pair.err"
	kill "$hog"
	hog=""
	grep "calibrate: T" "$tmp/busy-$pair.err" >&2 || :
done
python3 - "$out" "$hm" "${PAIRS:-2}" <<'PY' > "$out/summary.md"
import json, os, subprocess, sys
out, hm, pairs = sys.argv[1], sys.argv[2], int(sys.argv[3])
def plan(path, routine, n):
    d = json.loads(subprocess.run([hm, "plan", "-p", path, "-r", routine, "-n", str(n), "-f", "json"],
                                  capture_output=True, text=True, check=True).stdout)["plan"]
    return "%s %dx%d b=%d" % (d["d"], d["r"], d["c"], d["b"])
print("# Calibration beside other work\n")
print("Each pair: a quiet calibration of this machine and one beside a process spinning on a core;")
print("k beside / k quiet per kernel (ratios over the block sizes), the plans on each, and each")
print("calibration's trust (calibrate's own line).\n")
print("| pair | kernel | beside / quiet over b | quiet trust | beside trust |")
print("|---|---|---|---|---|")
same = 0
rows = []
for p in range(1, pairs + 1):
    q, b = (json.load(open(os.path.join(out, "%s-%d.json" % (w, p)))) for w in ("quiet", "busy"))
    tq, tb = (next(iter(x["types"].values())) for x in (q, b))
    fq, fb = (x["calibration"]["trust"]["T1"] for x in (q, b))
    for k in ("k3_dgemm", "k3_dtrsm", "k2_dgetf2"):
        ratios = ["%.3f" % (tb[k][bs] / tq[k][bs]) for bs in sorted(tq[k], key=int)]
        print("| %d | %s | %s | notch %.0f %%, others held %.0f %% | notch %.0f %%, others held %.0f %% |" %
              (p, k, " ".join(ratios), 100 * fq["notch"], 100 * fq["waited"], 100 * fb["notch"], 100 * fb["waited"]))
    for routine in ("lu", "gemm"):
        for n in (3000, 20000):
            a, c = plan(os.path.join(out, "quiet-%d.json" % p), routine, n), plan(os.path.join(out, "busy-%d.json" % p), routine, n)
            same += a == c
            rows.append("| %d | %s | %d | %s | %s | %s |" % (p, routine, n, a, c, "same" if a == c else "DIFFERENT"))
print("\n| pair | routine | n | plan, quiet | plan, beside | |\n|---|---|---|---|---|---|")
print("\n".join(rows))
print("\n%d of %d plans the same." % (same, len(rows)))
PY
cat "$out/summary.md"
