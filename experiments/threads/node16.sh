#!/bin/sh
# Ranks x threads on a 16-core node of another Intel generation, predicted
# against the runs a lent node measured (experiments/real/results/
# threads-node16: hetmap's driver, 16 x 1, 8 x 2, 4 x 4, 2 x 8 and 1 x 16
# ranks x OpenBLAS threads, b = 64, the squarest grid with r <= c). The
# node's own calibration (experiments/real/results/node16-driver, one
# thread a rank) is given the speed-ups measured here (MEASURED, default
# experiments/threads/results/real/platform.json), derived per doubling
# (analysis.py thread-speedups): nothing of the node's runs enters the
# model. Each split predicted by 'hetmap predict --threads'.
#
#   sh experiments/threads/node16.sh        (a second)
#
# Writes OUT (default experiments/threads/results/node16): platform.json
# (with the speed-ups), summary.md.
set -eu
. "$(dirname "$0")/../lib.sh"
study_out experiments/threads/results/node16
measured=${MEASURED:-experiments/threads/results/real/platform.json}
python3 experiments/analysis.py thread-speedups experiments/real/results/node16-driver/platform.json \
	"$measured" >"$out/platform.json"
python3 experiments/analysis.py threads-node experiments/real/results/threads-node16/runs.jsonl \
	"$out/platform.json" | tee "$out/summary.md"
