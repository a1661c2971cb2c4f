#!/bin/sh
# Real ScaLAPACK on simulated heterogeneous clusters (SimGrid's SMPI), one
# command (experiments/README.md, "Simulated clusters"):
#   sh experiments/smpi/study.sh        about 15 minutes on this machine
# For every group (cluster, routine, n):
#  1. the cluster: a reference description made as fast as makes its
#     fastest dgemm 50 GFLOP/s, every link as much faster (the same
#     balance of computation and communication, times divided), so that
#     SMPI's single speed ratio between this machine's core and a simulated
#     host stays near 1 (analysis.py scale); modern3.json as it is;
#  2. 'hetmap calibrate --launcher smpi' measures it as a user would a real
#     cluster; everything is planned and predicted from that measurement;
#  3. the plans of every method and of GU/CU/EU, and the sweep of other
#     configurations (analysis.py sweep: the k fastest processors on 1 x D
#     and square grids, other b, stacked processes), each simulated once by
#     'hetmap run --launcher smpi --sim-platform CLUSTER' (the driver and
#     ScaLAPACK built against SMPI, residuals checked);
#  4. OUT (default experiments/smpi/results/MODEL): the clusters and their
#     calibrations (clusters/), runs.jsonl, plans.tsv and study.json, then
#     analysis.py summarize: summary.md (MAPE, Spearman, plan vs GU/CU/EU
#     and the best), predicted-vs-measured.png, table.md/.tsv.
# STUDY_GROUPS='torc:lu:4096 ...' chooses groups; MODEL=name the model.
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
model=${MODEL:-grid}
study_out "experiments/smpi/results/$model"
groups=${STUDY_GROUPS:-torc:lu:4096 torc:gemm:2048 sunet:lu:7680 mtorc-01:lu:4096 mtorc-02:lu:4096 modern3:lu:4096 modern3:gemm:3072}
mkdir -p "$out/clusters"

cluster_file() {        # name -> the simulated cluster's description, kept in OUT
	[ -s "$out/clusters/$1.json" ] || case $1 in
	modern3) cp experiments/smpi/modern3.json "$out/clusters/$1.json" ;;
	*) python3 experiments/analysis.py scale "models/platform/builtin/$1.json" --fastest 50e9 \
			> "$out/clusters/$1.json" ;;
	esac
	echo "$out/clusters/$1.json"
}

mkdir -p "$tmp/plans"
k=0
for spec in $groups; do
	group_of "$spec"
	cluster=$(cluster_file "$name")
	measured=$out/clusters/$name-measured.json
	if [ ! -s "$measured" ]; then
		echo "study: calibrating $name under SMPI" >&2
		"$hm" calibrate --accept-unreliable --launcher smpi -p "$cluster" -o "$measured" --name "$name-measured" \
			--block-sizes 32,64,128 --repeat 3 --min-time 0.02 2>"$tmp/cal.err" ||
			{ cat "$tmp/cal.err" >&2; exit 1; }
	fi
	method_plans "$group" "exact BTM BGRM GRM GCTM GPTM GU CU EU" -p "$measured" -r "$routine" -n "$n" \
		-m "$model" --max-time 20
	sweep_plans "$group" "$cluster" 24 -p "$measured" -r "$routine" -n "$n" -m "$model"
	echo "$group $cluster" >> "$tmp/groups"
done

# this machine's core at each b, measured once (core_rate, lib.sh)
simulate() {            # the plan file $1 on its group's cluster
	group=$(basename "$1" .json | cut -d- -f2- | sed 's/-[^-]*$//')
	name=${group%-*}; name=${name%-*}
	core_rate "$b"
	echo "study: [$j/$total] $(basename "$1" .json) (this core: $rate at b = $b)" >&2
	"$hm" run --plan "$1" --sim-platform "$(cluster_file "$name")" --launcher smpi --host-speed "$rate" \
		--results "$runs" --timeout 600 >/dev/null 2>"$tmp/err" ||
		echo "study: run failed: $(tail -1 "$tmp/err")" >&2
}
runs_begin
each_distinct simulate
runs_end
python3 experiments/analysis.py record "$tmp/plans" "$out" --study smpi --model "$model" \
	--elapsed "$elapsed" --cluster "$(cut -d' ' -f1 "$tmp/groups" | sed 's/-[a-z]*-[0-9]*$//' | uniq | paste -sd, - | sed 's/,/, /g')" \
	--command "${MODEL:+MODEL=$MODEL }${STUDY_GROUPS:+STUDY_GROUPS='$STUDY_GROUPS' }sh experiments/smpi/study.sh"
python3 experiments/analysis.py summarize "$out"
