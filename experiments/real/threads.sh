#!/bin/sh
# Ranks x BLAS threads on one node, measured for the plans to come (the
# issue on ranks x threads): hetmap's driver started by Open MPI's mpirun
# directly, R ranks of T OpenBLAS threads each (R x T = the node's cores,
# T a power of two), each rank bound to T cores, on the squarest grid with
# r <= c, LU and GEMM, REPS times each (default 3), interleaved.
#
#   sh experiments/real/threads.sh [N]      (default n = 8000)
#
# Writes OUT (default experiments/real/results/threads-NAME, NAME default
# this machine's host name): runs.jsonl, one driver line per run with
# "ranks" and "threads" added; summary.md, the median time per split.
set -eu
. "$(dirname "$0")/../lib.sh"
n=${1:-8000}
reps=${REPS:-3}
study_out "experiments/real/results/threads-${NAME:-$(hostname)}"
cores=$(nproc)
driver=$(dirname "$hm")/hetmap-driver
mpirun=$(command -v mpirun.openmpi || command -v mpirun)
root=""
[ "$(id -u)" -eq 0 ] && root=--allow-run-as-root
: >"$tmp/runs.jsonl"
for rep in $(seq "$reps"); do
	for routine in lu gemm; do
		t=1
		while [ "$t" -le "$cores" ]; do
			ranks=$((cores / t))
			set -- $(python3 -c 'import sys; d = int(sys.argv[1])
r = max(x for x in range(1, int(d ** 0.5) + 1) if d % x == 0); print(r, d // r)' "$ranks")
			echo "threads: $routine n=$n $ranks x $t threads ($1 x $2) run $rep/$reps" >&2
			"$mpirun" $root -np "$ranks" --map-by "slot:PE=$t" --bind-to core \
				-x OPENBLAS_NUM_THREADS="$t" -x OMP_NUM_THREADS="$t" \
				"$driver" --routine "$routine" -n "$n" -b 64 -r "$1" -c "$2" 2>"$tmp/err" |
				python3 -c 'import json, sys
d = json.loads(sys.stdin.readline()); d["ranks"], d["threads"] = int(sys.argv[1]), int(sys.argv[2])
print(json.dumps(d))' "$ranks" "$t" >>"$tmp/runs.jsonl" ||
				echo "threads: run failed: $(tail -1 "$tmp/err")" >&2
			t=$((t * 2))
		done
	done
done
mv "$tmp/runs.jsonl" "$out/runs.jsonl"
python3 - "$out" <<'PY'
import json, os, statistics, sys
out = sys.argv[1]
runs = [json.loads(l) for l in open(os.path.join(out, "runs.jsonl")) if l.strip()]
lines = ["# Ranks x BLAS threads on one node (hetmap's driver, b = 64)", "",
         "| routine | n | ranks x threads | grid | runs | median s | min s | max s | checks passed |",
         "|---|---|---|---|---|---|---|---|---|"]
keys = sorted({(r["routine"], r["n"], r["ranks"], r["threads"], r["r"], r["c"]) for r in runs},
              key=lambda k: (k[0], k[1], -k[2]))
for k in keys:
    t = [r["seconds"] for r in runs if (r["routine"], r["n"], r["ranks"], r["threads"], r["r"], r["c"]) == k]
    ok = sum(1 for r in runs if (r["routine"], r["n"], r["ranks"], r["threads"], r["r"], r["c"]) == k
             and (r.get("check") or {}).get("passed"))
    lines.append("| %s | %d | %d x %d | %d x %d | %d | %.3f | %.3f | %.3f | %d |" %
                 (k[0], k[1], k[2], k[3], k[4], k[5], len(t), statistics.median(t), min(t), max(t), ok))
open(os.path.join(out, "summary.md"), "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
