#!/bin/sh
# What two BLAS threads gain over one, by kernel group, block size and the
# rows of the block (models/README.md, "Ranks of t threads"): this
# machine calibrated with --threads 2 at each --thread-rows in ROWS
# (default 1024 4096), REPS times each (default 2), in turn.
#
#   sh experiments/threads/shapes.sh        (about 4 min at REPS=2)
#
# Writes OUT (default experiments/threads/results/shapes): speedups.tsv
# (rows, rep, group, b, speed-up) and summary.md (median and range over
# the reps per rows, group and b).
set -eu
. "$(dirname "$0")/../lib.sh"
study_out experiments/threads/results/shapes
reps=${REPS:-2}
rows_list=${ROWS:-1024 4096}
printf 'rows\trep\tgroup\tb\tspeedup\n' >"$tmp/speedups.tsv"
for rep in $(seq "$reps"); do
	for rows in $rows_list; do
		echo "shapes: calibrate --threads 2 --thread-rows $rows, round $rep/$reps" >&2
		"$hm" calibrate --hosts "localhost:2" --threads 2 --thread-rows "$rows" --no-shapes \
			--accept-unreliable -q -o "$tmp/cal.json" 2>"$tmp/cal.err" || { cat "$tmp/cal.err" >&2; exit 1; }
		python3 experiments/analysis.py thread-speedup-rows "$tmp/cal.json" "$rows" "$rep" >>"$tmp/speedups.tsv"
	done
done
mv "$tmp/speedups.tsv" "$out/speedups.tsv"
python3 experiments/analysis.py threads-shapes "$out" | tee "$out/summary.md"
