#!/bin/sh
# Do stacking factors give better plans on the emulated cluster? (root)
#
#   sh experiments/vcluster/stacked_plans.sh [STACKED] [REPEATS]
#
# STACKED is the factor measured by experiments/cores/stacking.sh on this
# machine's real cores (default '{"gemm": 1.35, "lu": 0.8}'). On the
# platform the emulated cluster's study calibrated (PLATFORM=, default
# that of experiments/vcluster/results/ref4), for LU 1500 and 3000 and
# GEMM 1000 and 2000: hetmap's plan without the factor, its plan with the
# factor given to the node that runs at a real core's full speed (vfast:
# the emulated nodes' stacking is not a real core's; ON=all gives it to
# every node), and EU's choice, each distinct configuration run REPEATS
# times (default 3) in turn on the emulated cluster
# (experiments/vcluster/ref4.json). Writes OUT (default
# experiments/vcluster/results/stacked-plans-ON): platform.json (the base),
# runs.jsonl and summary.md (experiments/analysis.py stacked-plans). About
# 2 min.
set -eu
. "$(dirname "$0")/../lib.sh"
stacked=${1:-'{"gemm": 1.35, "lu": 0.8}'}
reps=${2:-3}
on=${ON:-vfast}
study_out "experiments/vcluster/results/stacked-plans-$on"
cp "${PLATFORM:-experiments/vcluster/results/ref4/platform.json}" "$tmp/base.json"
mv "$tmp/base.json" "$out/platform.json"
base=$out/platform.json

python3 - "$base" "$stacked" "$tmp/stacked.json" "$on" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
for x in p["processors"]:
    if sys.argv[4] == "all" or x["name"] == sys.argv[4]:
        p["types"][x["type"]]["stacked"] = json.loads(sys.argv[2])
json.dump(p, open(sys.argv[3], "w"))
PY
mkdir -p "$tmp/plans"
for spec in lu:1500 lu:3000 gemm:1000 gemm:2000; do
	routine=${spec%%:*} n=${spec#*:}
	"$hm" plan -p "$base" -r "$routine" -n "$n" -d 8 -f json > "$tmp/plans/$routine-$n-plan.json" 2>/dev/null
	"$hm" plan -p "$tmp/stacked.json" -r "$routine" -n "$n" -d 8 -f json \
		> "$tmp/plans/$routine-$n-stacked.json" 2>/dev/null
	"$hm" plan -p "$base" -r "$routine" -n "$n" -M EU -f json > "$tmp/plans/$routine-$n-EU.json" 2>/dev/null
done
vcluster_up experiments/vcluster/ref4.json
: > "$tmp/runs.jsonl"
for rep in $(seq "$reps"); do    # in turn, so that drift hits every plan alike
	for f in "$tmp"/plans/*.json; do
		echo "stacked_plans: $(basename "$f" .json) run $rep/$reps" >&2
		"$hm" run --plan "$f" --launcher openmpi-seq --results "$tmp/runs.jsonl" --timeout 300 \
			--seed "$rep" --launcher-args "$mpi" >/dev/null 2>&1 ||
			echo "stacked_plans: a run failed (kept in the results)" >&2
	done
done
mv "$tmp/runs.jsonl" "$out/runs.jsonl"
python3 experiments/analysis.py stacked-plans "$out" --stacked "$stacked on $on"
