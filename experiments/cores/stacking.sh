#!/bin/sh
# Do ranks stacked on one real core run as the model says (each d times
# slower, the heterogeneity rule), or slower still? The emulated cluster's
# GEMM plans stack ranks on its fast node, and those configurations ran
# 1.27x their prediction (median of 30) against 1.01x for the others
# (experiments/README.md). This asks the same question without the
# emulator: real cores, real ScaLAPACK, no virtual nodes.
#
#   sh experiments/cores/stacking.sh [REPEATS]
#
#  1. calibrate this machine's two cores as two processors of one core
#     each ('hetmap calibrate --split-cores');
#  2. for LU n = 1500 and GEMM n = 1000: k = 1..4 ranks stacked on the
#     first core (the model's best grid and b for that k), and for
#     comparison k = 2 spread over both cores, each run REPEATS times
#     (default 3) through 'hetmap run';
#  3. OUT (default experiments/cores/results/stacking): platform.json,
#     runs.jsonl and summary.md (experiments/analysis.py stacking).
# About 2 min on this machine; run it on an otherwise idle machine.
set -eu
. "$(dirname "$0")/../lib.sh"
reps=${1:-3}
study_out experiments/cores/results/stacking

"$hm" calibrate --accept-unreliable --hosts localhost:2 --split-cores --all-busy-only -o "$out/platform.json"
start=$(date +%s)
for job in lu:1500 gemm:1000; do
	routine=${job%:*} n=${job#*:}
	for procs in localhost-0=1 localhost-0=2 localhost-0=3 localhost-0=4 localhost-0=1,localhost-1=1; do
		"$hm" predict -p "$out/platform.json" -r "$routine" -n "$n" --procs "$procs" -f json \
			> "$tmp/plan.json"
		for _ in $(seq "$reps"); do
			echo "stacking: $routine $n $procs" >&2
			"$hm" run --plan "$tmp/plan.json" --results "$tmp/runs.jsonl" --timeout 120 \
				>/dev/null 2>&1 || echo "stacking: a run failed (kept in the results)" >&2
		done
	done
done
mv "$tmp/runs.jsonl" "$out/runs.jsonl"
python3 experiments/analysis.py stacking "$out" --elapsed $(( $(date +%s) - start ))
