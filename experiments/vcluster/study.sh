#!/bin/sh
# The real test of the plans on an emulated heterogeneous cluster (root):
#
#   sh experiments/vcluster/study.sh [CLUSTER.json]     (default ref4.json)
#
#  1. bring up the virtual cluster (experiments/vcluster/ref4.json: 4
#     processors of 3 speeds on the 2 cores), torn down on exit;
#  2. calibrate it with 'hetmap calibrate' (one MPI run);
#  3. for LU and GEMM at two sizes each: the plans of every method, the
#     GU / CU / EU choices and a sweep of 24 other configurations (d, r x c,
#     b), every distinct configuration run for real 3 times through
#     'hetmap run' (ScaLAPACK, checked);
#  4. write OUT (default experiments/vcluster/results/CLUSTER, CLUSTER the
#     description's name): platform.json (the calibration), runs.jsonl
#     (every run's record), nodes.jsonl (what each virtual node used during
#     every run: CPU time, and time throttled by a quota), plans.tsv (what
#     ran and which method or user chose it) and study.json; then
#     experiments/analysis.py summarize: summary.md (mean absolute
#     percentage error, Spearman rank correlation, speedup of the hetmap
#     plan over GU, CU and EU, its ratio to the best measured
#     configuration), predicted-vs-measured.png, table.md/.tsv, cause.md.
#
# MODEL=name selects the model the plans and predictions use (default:
# grid, hetmap's default); EMULATION=blas|quota overrides the description's
# emulation of slow nodes. STUDY_GROUPS='lu:1500 gemm:1000' and REPS=2 make
# a shorter study. RIVALS='grid thesis' also measures, in the same runs,
# the GPTM plan each of those models makes (labelled MODEL:GPTM, predicted
# with MODEL's own model for the table): plans of two models compared
# under one calibration and the same noise.
set -eu
. "$(dirname "$0")/../lib.sh"
desc=${1:-experiments/vcluster/ref4.json}
model=${MODEL:-grid}
emulation=${EMULATION:-}
reps=${REPS:-3}
study_out "experiments/vcluster/results/$(basename "$desc" .json)"

if [ -n "$emulation" ]; then
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); d["emulation"] = sys.argv[2]; print(json.dumps(d))' \
		"$desc" "$emulation" > "$tmp/cluster.json"
	desc=$tmp/cluster.json
fi
vcluster_up "$desc"
hosts=$("$vc" hosts "$desc")

echo "study: calibrating $hosts" >&2
"$hm" calibrate --accept-unreliable --hosts "$hosts" --launcher openmpi-seq -o "$out/platform.json" --launcher-args "$mpi"
plat=$out/platform.json
m_opt=""
[ -n "$model" ] && m_opt="-m $model"

# sweep: processes on (fast, half, quarter-a, quarter-b), grid, block size
sweep="1,0,0,0:1x1:64 2,0,0,0:1x2:64 0,1,0,0:1x1:64 1,1,0,0:1x2:64 1,1,0,0:2x1:64
1,1,0,0:1x2:32 1,1,0,0:1x2:128 2,1,0,0:1x3:64 2,1,0,0:3x1:64 2,1,0,0:1x3:32
3,1,0,0:2x2:64 4,2,0,0:2x3:64 1,1,1,1:2x2:64 1,1,1,1:1x4:32 2,1,1,1:1x5:64
4,2,1,1:2x4:64 4,2,1,1:1x8:128 1,0,1,1:1x3:64 2,2,0,0:2x2:64 3,0,0,0:1x3:64
0,0,1,1:1x2:64 4,1,0,0:1x5:64 3,2,0,0:1x5:64 2,0,1,1:2x2:32"

# Every plan and prediction goes to $tmp/plans/NNN-GROUP-LABEL.json; the
# analysis picks the distinct configurations, and reads the measurements
# back from the records of 'hetmap run' (runs.jsonl).
mkdir -p "$tmp/plans"
k=0
for spec in ${STUDY_GROUPS:-lu:1500 lu:3000 gemm:1000 gemm:2000}; do
	routine=${spec%%:*} n=${spec#*:}
	group="$routine-$n"
	# the plans of the methods and the users' choices
	for m in exact BTM BGRM GRM GCTM GPTM GU CU EU; do
		k=$((k + 1))
		# shellcheck disable=SC2086
		"$hm" plan -p "$plat" -r "$routine" -n "$n" -M "$m" -d 8 $m_opt -f json \
			>"$tmp/plans/$(printf %03d $k)-$group-$m.json" 2>/dev/null
	done
	# the plans of the rival models, predicted with this study's model
	for rival in ${RIVALS:-}; do
		k=$((k + 1))
		"$hm" plan -p "$plat" -r "$routine" -n "$n" -M GPTM -d 8 -m "$rival" -f json >"$tmp/rival.json"
		# shellcheck disable=SC2046,SC2086
		set -- $(python3 experiments/analysis.py config "$tmp/rival.json")
		"$hm" predict -p "$plat" -r "$routine" -n "$n" --procs "$1" --grid "$2" -b "$3" $m_opt \
			-f json >"$tmp/plans/$(printf %03d $k)-$group-$rival:GPTM.json"
	done
	i=0
	for s in $sweep; do
		i=$((i + 1)) k=$((k + 1))
		procs=${s%%:*} rest=${s#*:}
		# shellcheck disable=SC2086
		"$hm" predict -p "$plat" -r "$routine" -n "$n" --procs "$procs" --grid "${rest%%:*}" \
			-b "${rest#*:}" $m_opt -f json >"$tmp/plans/$(printf %03d $k)-$group-s$i.json" 2>/dev/null
	done
done
# a configuration several methods chose runs once; its row names them all
runs_begin
: > "$tmp/nodes.jsonl"
for f in $(python3 experiments/analysis.py distinct "$tmp/plans"); do
	for rep in $(seq $reps); do
		echo "study: $(basename "$f" .json) run $rep/$reps" >&2
		"$vc" stat "$desc" > "$tmp/before"
		"$hm" run --plan "$f" --launcher openmpi-seq --results "$runs" \
			--timeout 300 --seed "$rep" --launcher-args "$mpi" >/dev/null 2>"$tmp/err" ||
			echo "study: run failed: $(tail -1 "$tmp/err")" >&2
		"$vc" stat "$desc" > "$tmp/after"
		python3 experiments/analysis.py nodestat "$tmp/before" "$tmp/after" "$runs" >> "$tmp/nodes.jsonl"
	done
done
runs_end
mv "$tmp/nodes.jsonl" "$out/nodes.jsonl"
python3 experiments/analysis.py record "$tmp/plans" "$out" --study vcluster --model "$model" \
	--elapsed "$elapsed" --cluster "$(basename "$desc")" --command "$(printf '%s' \
	"${MODEL:+MODEL=$MODEL }${EMULATION:+EMULATION=$EMULATION }${RIVALS:+RIVALS='$RIVALS' }${REPS:+REPS=$REPS }${STUDY_GROUPS:+STUDY_GROUPS='$STUDY_GROUPS' }sh experiments/vcluster/study.sh $desc")"
python3 experiments/analysis.py summarize "$out"
