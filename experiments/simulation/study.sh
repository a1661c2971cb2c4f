#!/bin/sh
# The simulation study: every method and modeled user on the eight reference
# platforms (n = 7680 on SUNEt, 2048 and 4096 on TORC, 20000 on the larger
# ones; depth limits 15, 20, 25, 30) and on a random family (P = 25 .. 1000
# processors of up to 20 types, speeds up to 50x apart, one per host;
# n = 20000, depth 30), each compared with the exact optimum. The model is
# the reference one of the thesis (-m thesis), as in the thesis' own study.
#
#   sh experiments/simulation/study.sh
#
# Writes experiments/simulation/results/study/ (OUT= to change): all.csv
# (every row of every comparison) and all.jsonl (the same as 'hetmap
# compare -f json', one line per comparison), which are not committed (the
# study takes half a minute); summary.md (ratio to the optimum, time to
# solution and level per method and platform), ratio.png and time.png
# (against the platform size), computed by experiments/analysis.py.
set -eu
. "$(dirname "$0")/../lib.sh"
study_out experiments/simulation/results/study
methods=exact,BTM,BGRM,GRM,GCTM,GPTM,GU,CU,EU
budget=20        # seconds per method and comparison
. experiments/simulation/problems.sh

compare() {     # platform n depth
	echo "study: $1 n=$2 depth $3" >&2
	"$hm" compare -p "$1" -n "$2" -d "$3" -m thesis --methods "$methods" --max-time "$budget" -f csv \
		-o "$tmp/one.json" 2>/dev/null | tail -n +2 >> "$tmp/all.csv"
	tr -d '\n\t' < "$tmp/one.json" >> "$tmp/all.jsonl"
	echo >> "$tmp/all.jsonl"
}

start=$(date +%s)
"$hm" compare -p builtin:sunet -n 10 -d 1 -f csv 2>/dev/null | head -1 > "$tmp/all.csv"
each_problem compare
mv "$tmp/all.csv" "$out/all.csv"
mv "$tmp/all.jsonl" "$out/all.jsonl"
elapsed=$(( $(date +%s) - start ))

python3 experiments/analysis.py simulation "$out" --elapsed "$elapsed" --budget "$budget"
echo "study: done in ${elapsed} s; see $out/summary.md" >&2
