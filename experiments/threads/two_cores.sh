#!/bin/sh
# Every configuration two cores allow, on this machine, against the plan
# (experiments/README.md, "Ranks x threads"): per calibration (CALS, default
# 2, each a fresh 'calibrate --threads 2'), GPTM's plan for every group,
# then REPS rounds (default 5), each running, group after group, 1 x 1,
# 1 x 2, 2 x 1 and one rank of two threads at b = 32, 64 and 128 (hetmap
# run --procs), and the plan itself, in turn: the machine's drift falls on
# all alike.
#
#   sh experiments/threads/two_cores.sh    (about 20 min a calibration at REPS=5)
#
# STUDY_GROUPS='lu:3000 gemm:6000 ...' chooses groups (default LU and GEMM
# at n = 3000 and 6000); PROGRAM=hpcc runs HPL instead of hetmap's driver;
# FIRST_CAL=K starts at calibration K (the earlier ones' folders kept).
# Writes OUT (default experiments/threads/results/two-cores): per
# calibration cal-K/ with platform.json, plans/ (GPTM's), runs.jsonl, and
# plans.tsv and study.json (analysis.py threads-two-cores-set: a real set
# that 'hetmap models' scores) and summary.md (analysis.py summarize, as
# every study of plans); summary.md (analysis.py threads-two-cores:
# per calibration and group the plan against the fastest configuration,
# and every configuration predicted and measured).
set -eu
. "$(dirname "$0")/../lib.sh"
study_out experiments/threads/results/two-cores
cals=${CALS:-2}
first=${FIRST_CAL:-1}
reps=${REPS:-5}
groups=${STUDY_GROUPS:-lu:3000 lu:6000 gemm:3000 gemm:6000}
program=${PROGRAM:-driver}
[ "$program" = driver ] || needs "HPC Challenge (Debian package hpcc)" command -v "$program"
run() {         # ARGS...: one run, its record appended; a failure said, not fatal
	set -- "$@" --results "$runs" --timeout 900 -o "$tmp/job"
	[ "$program" = driver ] || set -- "$@" -- "$program"      # the program last: what follows is its
	"$hm" run "$@" >/dev/null 2>"$tmp/err" ||
		echo "two_cores: run failed: $(tail -1 "$tmp/err")" >&2
	rm -rf "$tmp/job"
}
for cal in $(seq "$first" "$cals"); do
	set_dir=$out/cal-$cal
	plat=$set_dir/platform.json
	mkdir -p "$set_dir/plans"
	start=$(date +%s)
	runs=$set_dir/runs.jsonl.partial
	: >"$runs"
	echo "two_cores: calibrate --threads 2 ($cal/$cals)" >&2
	"$hm" calibrate --hosts localhost:2 --threads 2 --accept-unreliable -q -o "$plat" 2>"$tmp/cal.err" ||
		{ cat "$tmp/cal.err" >&2; exit 1; }
	for g in $groups; do
		"$hm" plan -p "$plat" -r "${g%%:*}" -n "${g##*:}" -M GPTM -o "$set_dir/plans/${g%%:*}-${g##*:}.json" \
			>/dev/null 2>&1
	done
	for rep in $(seq "$reps"); do
		for g in $groups; do
			r=${g%%:*} n=${g##*:}
			echo "two_cores: calibration $cal, $r n=$n, round $rep/$reps" >&2
			for b in 32 64 128; do
				for cfg in "--procs 1" "--procs 2 --grid 1x2" "--procs 2 --grid 2x1" "--procs 1 --threads 2"; do
					# shellcheck disable=SC2086 # cfg is a list of options
					run -p "$plat" -r "$r" -n "$n" $cfg -b "$b" --seed "$rep"
				done
			done
			run --plan "$set_dir/plans/$r-$n.json" --seed "$rep"
		done
	done
	mv "$runs" "$set_dir/runs.jsonl"
	rm -f "$set_dir/runs.jsonl.gz"  # a committed, compressed earlier study's
	python3 experiments/analysis.py threads-two-cores-set "$set_dir" $(($(date +%s) - start)) \
		"OUT=$out FIRST_CAL=$cal CALS=$cal REPS=$reps STUDY_GROUPS='$groups' PROGRAM=$program sh experiments/threads/two_cores.sh"
	python3 experiments/analysis.py summarize "$set_dir" >/dev/null
done
python3 experiments/analysis.py threads-two-cores "$out" >"$out/summary.md"
cat "$out/summary.md"
