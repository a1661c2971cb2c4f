#!/bin/sh
# Does pdgemm run faster with a larger block size, as the model says? The
# model takes GEMM's k3_dgemm(b) from calibrate's rank-b update, which is
# faster per flop at larger b, so GEMM plans lean to b = 128-256; on the
# emulated cluster those plans ran 1.2-1.9x their prediction
# (experiments/README.md). This asks it on real cores, no virtual nodes:
#
#   sh experiments/cores/gemm_blocks.sh [REPEATS]
#
#  1. calibrate this machine's two cores as two processors of one core each;
#  2. GEMM n = 1000 and 2000 with b = 32, 64, 128, 256: one rank, two ranks
#     stacked on the first core (1 x 2), and one rank on each core (1 x 2),
#     REPEATS times (default 5) in turn through 'hetmap run';
#  3. OUT (default experiments/cores/results/gemm-blocks): platform.json,
#     runs.jsonl, summary.md (experiments/analysis.py blocks).
# About 3 min on this machine; run it on an otherwise idle machine.
set -eu
. "$(dirname "$0")/../lib.sh"
reps=${1:-5}
study_out experiments/cores/results/gemm-blocks

"$hm" calibrate --accept-unreliable --hosts localhost:2 --split-cores --all-busy-only -o "$out/platform.json"
start=$(date +%s)
for rep in $(seq "$reps"); do
	for n in 1000 2000; do
		for placement in localhost-0=1:1x1 localhost-0=2:1x2 localhost-0=1,localhost-1=1:1x2; do
			for b in 32 64 128 256; do
				echo "gemm_blocks: run $rep/$reps n=$n ${placement%:*} b=$b" >&2
				"$hm" predict -p "$out/platform.json" -r gemm -n "$n" --procs "${placement%:*}" \
					--grid "${placement#*:}" -b "$b" -f json > "$tmp/plan.json"
				"$hm" run --plan "$tmp/plan.json" --results "$tmp/runs.jsonl" --timeout 120 \
					>/dev/null 2>&1 || echo "gemm_blocks: a run failed (kept in the results)" >&2
			done
		done
	done
done
mv "$tmp/runs.jsonl" "$out/runs.jsonl"
python3 experiments/analysis.py blocks "$out" --elapsed $(( $(date +%s) - start ))
