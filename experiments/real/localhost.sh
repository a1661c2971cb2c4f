#!/bin/sh
# Real runs on this machine, the validation set the models are judged by
# first (experiments/README.md, "Real runs"):
#
#   sh experiments/real/localhost.sh
#
#  1. calibrate this machine ('hetmap calibrate', every core: C of them);
#  2. for each program (PROGRAMS, default "driver hpl xdlu": hetmap-driver's
#     pdgetrf and pdgemm, and two programs nobody here wrote, HPL inside
#     HPC Challenge and ScaLAPACK's LU tester) at two sizes each: one
#     process, C / 2 and C processes on the 1 x D grid, the squarest and
#     its transpose, at b = 32 and 64 (the 1 x C grid at 16 and 128 too),
#     and the plan of hetmap's default method and model with the choices
#     of the greedy and conservative users (GU, CU);
#  3. every distinct configuration run REPS times (default 5) through
#     'hetmap run', the repetitions interleaved (one of each, then again):
#     a shared machine's speed wanders in spells, and a spell then touches
#     every configuration alike;
#  4. OUT (default experiments/real/results) gets NAME-PROGRAM/ per program
#     (NAME: localhost, or $NAME), each a study of plans (platform.json,
#     runs.jsonl, plans.tsv, study.json, summary.md) that 'analysis.py
#     summarize' and 'models' read like any other.
# About 75 minutes on this 2-core machine with the defaults (HPC Challenge
# spends seconds in its other tests around each HPL); PROGRAMS=driver
# REPS=2 STUDY_GROUPS=lu:1000 for a short one.
set -eu
. "$(dirname "$0")/../lib.sh"
reps=${REPS:-5}
study_out experiments/real/results
xdlu=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdlu

echo "real: calibrating this machine" >&2
"$hm" calibrate -o "$tmp/platform.json" --accept-unreliable
plat=$tmp/platform.json

cores=$(python3 -c 'import json, sys
print(sum(p["cores"] for p in json.load(open(sys.argv[1]))["processors"]))' "$plat")

# PROCS:RxC:B of the fixed configurations on C cores (above)
configurations() {
	python3 - "$1" <<'PY'
import sys
c = int(sys.argv[1])
out = []
for d in sorted({1, max(1, c // 2), c}):
    r = max(x for x in range(1, int(d ** 0.5) + 1) if d % x == 0)
    for grid in dict.fromkeys([(1, d), (r, d // r), (d // r, r)]):
        for b in ([16, 32, 64, 128] if grid == (1, c) else [32, 64]):
            out.append("%d:%dx%d:%d" % (d, grid[0], grid[1], b))
print(" ".join(dict.fromkeys(out)))
PY
}

# the groups of each program: ROUTINE:N ...; xdlu's compiled-in work array
# holds one process's LU up to n of about 650, and it prints its time to
# 0.01 s (at these sizes 10-30 % of it)
groups_of() {
	case $1 in
	driver) echo "lu:2000 lu:4000 gemm:1500 gemm:3000" ;;
	hpl) echo "lu:2000 lu:4000" ;;
	xdlu) echo "lu:400 lu:600" ;;
	esac
}
# the program 'hetmap run' starts for a program's name (none: the driver)
command_of() {
	case $1 in
	driver) echo "" ;;
	hpl) echo "-- hpcc" ;;
	xdlu) echo "-- $xdlu" ;;
	esac
}

for program in ${PROGRAMS:-driver hpl xdlu}; do
	case $program in
	hpl) needs "HPC Challenge (Debian package hpcc)" command -v hpcc ;;
	xdlu) needs "ScaLAPACK's testers (Debian package scalapack-mpi-test)" test -x "$xdlu" ;;
	esac
	dir=$out/${NAME:-localhost}-$program
	mkdir -p "$dir"
	cp "$plat" "$dir/platform.json"
	rm -rf "$tmp/plans"
	mkdir -p "$tmp/plans"
	k=0
	for spec in ${STUDY_GROUPS:-$(groups_of "$program")}; do
		routine=${spec%%:*} n=${spec#*:}
		group="$routine-$n"
		for m in GPTM GU CU; do
			k=$((k + 1))
			"$hm" plan -p "$dir/platform.json" -r "$routine" -n "$n" -M "$m" -f json \
				>"$tmp/plans/$(printf %03d $k)-$group-$m.json"
		done
		for s in $(configurations "$cores"); do
			k=$((k + 1))
			procs=${s%%:*} rest=${s#*:}
			"$hm" predict -p "$dir/platform.json" -r "$routine" -n "$n" --procs "$procs" \
				--grid "${rest%%:*}" -b "${rest#*:}" -f json \
				>"$tmp/plans/$(printf %03d $k)-$group-s${rest%%:*}b${rest#*:}.json"
		done
	done
	runs_begin
	configs=$(python3 experiments/analysis.py distinct "$tmp/plans")
	for rep in $(seq "$reps"); do
		for f in $configs; do
			echo "real: $program $(basename "$f" .json) run $rep/$reps" >&2
			# shellcheck disable=SC2046
			"$hm" run --plan "$f" --results "$runs" --timeout 600 --seed "$rep" -o "$tmp/job" \
				$(command_of "$program") >/dev/null 2>"$tmp/err" ||
				echo "real: run failed: $(tail -1 "$tmp/err")" >&2
		done
	done
	mv "$runs" "$dir/runs.jsonl"
	elapsed=$(($(date +%s) - start))
	python3 experiments/analysis.py record "$tmp/plans" "$dir" --study real --model panel \
		--elapsed "$elapsed" --cluster "${NAME:-localhost}" --command "$(printf '%s' \
		"PROGRAMS=$program ${REPS:+REPS=$REPS }${STUDY_GROUPS:+STUDY_GROUPS='$STUDY_GROUPS' }sh experiments/real/localhost.sh")"
	python3 experiments/analysis.py summarize "$dir"
done
