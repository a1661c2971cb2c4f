#!/bin/sh
# Ranks x threads on the emulated cluster (root; experiments/README.md,
# "Ranks x threads"): a node of several cores beside one-core nodes, its
# C ranks of one thread against one rank of C threads, predicted and
# measured with hetmap's driver.
#
#   sh experiments/threads/vcluster.sh [CLUSTER.json]   (default mc4.json, about 20 min)
#
# 1. bring up the cluster (experiments/vcluster/mc4.json: the two-core node
#    vduo of half-speed cores beside a half node and two quarter nodes;
#    NODE names the multi-core node, default vduo), torn down at exit;
# 2. calibrate it with --threads C (C the node's cores), unless PLATFORM
#    names a platform with its speed-ups;
# 3. per group ROUTINE:N:PROGRAM (STUDY_GROUPS, default the driver's LU at
#    3000 and 6000 and GEMM at 2000 and 4000; PROGRAM driver or hpcc, HPL's
#    LU): GPTM's plan, and three pairs of NODE's splits predicted
#    (analysis.py thread-pairs): beside the plan's other nodes, beside every
#    node with one rank (GU's and HU's choices), and alone;
# 4. REPS rounds (default 3), each running every configuration in turn.
# Writes OUT (default experiments/threads/results/vcluster): platform.json,
# plans/, runs.jsonl and summary.md (analysis.py threads-vcluster: per pair
# each split's prediction, measured median and spread, the model's pick
# and whether it is the faster or within 5 %).
set -eu
. "$(dirname "$0")/../lib.sh"
desc=${1:-experiments/vcluster/mc4.json}
node=${NODE:-vduo}
reps=${REPS:-3}
study_out experiments/threads/results/vcluster
groups=${STUDY_GROUPS:-lu:3000:driver lu:6000:driver gemm:2000:driver gemm:4000:driver}
case " $groups " in *:hpcc\ *) needs "HPC Challenge (Debian package hpcc)" command -v hpcc ;; esac
vcluster_up "$desc"
plat=$out/platform.json
if [ -n "${PLATFORM:-}" ]; then
	cp "$PLATFORM" "$plat"
else
	cores=$("$vc" hosts "$desc" | tr ',' '\n' | sed -n "s/^$node://p")
	echo "vcluster: calibrate --threads $cores" >&2
	"$hm" calibrate --threads "$cores" --accept-unreliable --hosts "$("$vc" hosts "$desc")" \
		--launcher openmpi-seq -o "$plat" --launcher-args "$mpi" 2>"$tmp/cal.err" ||
		{ cat "$tmp/cal.err" >&2; exit 1; }
fi
rm -rf "$out/plans"
mkdir -p "$out/plans"
for g in $groups; do
	IFS=: read -r routine n program <<GROUP
$g
GROUP
	at=$out/plans/$routine-$n-$program
	"$hm" plan -p "$plat" -r "$routine" -n "$n" -M GPTM -f json -o "$at-GPTM.json" >/dev/null 2>&1
	python3 experiments/analysis.py thread-pairs "$plat" "$at-GPTM.json" "$node" |
	while read -r label c others; do
		[ "$others" = - ] && others= || others=,$others
		set -- -p "$plat" -r "$routine" -n "$n" -f json
		"$hm" predict "$@" --procs "$node=$c$others" >"$at-$label-${c}x1.json"
		"$hm" predict "$@" --procs "$node=1$others" --threads "$node=$c" >"$at-$label-1x$c.json"
	done
done
runs_begin
for rep in $(seq "$reps"); do    # in turn: the machine's drift falls on every split alike
	for f in "$out"/plans/*x*.json; do
		echo "vcluster: $(basename "$f" .json), round $rep/$reps" >&2
		set -- --plan "$f" --launcher openmpi-seq --results "$runs" --timeout 600 --seed "$rep" \
			--launcher-args "$mpi" -o "$tmp/job"
		case $f in *-hpcc-*) set -- "$@" -- hpcc ;; esac
		"$hm" run "$@" >/dev/null 2>"$tmp/err" || echo "vcluster: run failed: $(tail -1 "$tmp/err")" >&2
		rm -rf "$tmp/job"
	done
done
runs_end
python3 experiments/analysis.py threads-vcluster "$out" >"$out/summary.md"
cat "$out/summary.md"
echo "vcluster: $elapsed s" >&2
