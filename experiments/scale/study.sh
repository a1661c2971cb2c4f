#!/bin/sh
# Plans at the user's scale, judged by the simulator (experiments/README.md,
# "At scale"), one command:
#   sh experiments/scale/study.sh      hours on this machine; resumable
# For every group (platform, routine, n), kernels modeled throughout:
#  1. the platform (experiments/scale/platforms.sh: described clusters with
#     kernel models scaled from this machine's), copied to OUT/clusters/;
#  2. 'hetmap plan --judge K': the model's plan (GPTM), its K-1 next best
#     configurations (top2..), GU, CU and EU, simulated JOBS at a time; the
#     plan it writes (OUT/judge/GROUP.json) says what the judge changed;
#  3. the sweep (analysis.py sweep: the k fastest processors on 1 x D and
#     square grids, other b, stacked processes) predicted and simulated;
#  4. OUT (default experiments/scale/results/MODEL): runs.jsonl, plans.tsv,
#     study.json, then analysis.py summarize: summary.md (MAPE, Spearman,
#     plan vs GU/CU/EU and the best, the plan's share of the dgemm rates,
#     the judge), predicted-vs-measured.png, table.md/.tsv.
# Interrupted, it resumes: OUT/runs.jsonl.partial, OUT/elapsed.partial and
# OUT/judge/ (a judge's finished simulations too) are kept, and what they
# hold is not simulated again (delete them to start over).
# STUDY_GROUPS='lab-320:lu:30000 ...' chooses groups; SEED_RUNS=FILE starts
# from another study's records (below); MODEL the model,
# JUDGE_K (4) and JOBS (2) the judge's candidates and parallel simulations,
# SWEEP_MAX (12) the sweep's size (analysis.py sweep --max) and
# SWEEP_ONE_ROW_MAX (64) the largest 1 x D grid it simulates: at scale a
# 1 x 192 LU took 15-20 minutes to simulate (16 x 16: 5) and came out
# 2.7-2.9x the best, so the sweep spends that time on square grids.
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
model=${MODEL:-panel}   # hetmap's default model ('hetmap models')
study_out "experiments/scale/results/$model"
groups=${STUDY_GROUPS:-lab-320:lu:30000 lab-320:gemm:30000 lab-320-slow:lu:30000 lab-320-slow:gemm:30000 modern-1024:lu:30000 modern-1024:gemm:30000}
platforms=$(sh experiments/scale/platforms.sh)
mkdir -p "$out/clusters" "$out/judge" "$tmp/plans"
start=$(date +%s)
runs=$out/runs.jsonl.partial
# SEED_RUNS=FILE: another study's records on the same clusters (a simulation
# does not depend on the model that chose it), so its configurations are not
# simulated again; copied once, when this study starts
[ -e "$runs" ] || [ -z "${SEED_RUNS:-}" ] || cp "$SEED_RUNS" "$runs"
touch "$runs"
before=$(cat "$out/elapsed.partial" 2>/dev/null || echo 0)
save_elapsed() { echo $((before + $(date +%s) - start)) >"$out/elapsed.partial"; }
# kept every minute too: a study killed outright (SIGKILL) still counts its time
(while sleep 60; do save_elapsed; done) &
ticker=$!
cleanup() { kill "$ticker" 2>/dev/null; save_elapsed; }

# the configurations of $tmp/plans not simulated yet, JOBS at a time, the
# next starting as soon as one ends; each record is appended to $runs when
# its simulation ends (one write(2): mapper/launch/results.h)
simulate_pending() {
	: >"$tmp/queue"
	python3 experiments/analysis.py distinct "$tmp/plans" --skip "$runs" >"$tmp/queue"
	echo "scale: $(grep -c . "$tmp/queue") configurations to simulate" >&2
	HM=$hm RUNS=$runs xargs -r -P "${JOBS:-2}" -L 1 sh -c '
		echo "scale: $(basename "$0" .json)" >&2
		"$HM" run --plan "$0" --launcher smpi --kernels modeled --results "$RUNS" \
			--timeout 3600 -o "$0.job" >/dev/null 2>"$0.err" ||
			echo "scale: $(basename "$0" .json) failed: $(tail -1 "$0.err")" >&2
		rm -rf "$0.job"' <"$tmp/queue" || true
	save_elapsed
}

k=0
for spec in $groups; do
	group_of "$spec"
	cluster=$out/clusters/$name.json
	[ -s "$cluster" ] || cp "$platforms/$name.json" "$cluster"
	judged=$out/judge/$group.json
	if [ ! -s "$judged" ]; then
		# the judge's simulations stay in OUT/judge/GROUP.work until it ends:
		# rerun, it keeps those that ended (plan --judge-dir)
		work=$out/judge/$group.work
		echo "scale: $group: the judge (plan --judge ${JUDGE_K:-4})" >&2
		"$hm" plan -p "$cluster" -r "$routine" -n "$n" -M GPTM -m "$model" --max-time 7200 \
			--judge "${JUDGE_K:-4}" --judge-jobs "${JOBS:-2}" --judge-dir "$work" -f json \
			-o "$judged.partial" >/dev/null || echo "scale: $group: the judge failed (exit $?)" >&2
		python3 experiments/analysis.py judged "$judged.partial" "$work" "$runs" &&
			mv "$judged.partial" "$judged" && rm -rf "$work"
	fi
	k=$((k + 1))
	python3 experiments/analysis.py judged "$judged" --plans "$tmp/plans/$(printf %03d $k)-$group"
	SWEEP_ONE_ROW_MAX=${SWEEP_ONE_ROW_MAX:-64} sweep_plans "$group" "$cluster" "${SWEEP_MAX:-12}" -p "$cluster" -r "$routine" -n "$n" -m "$model"
	simulate_pending        # the sweep's configurations the judge did not simulate
done
mv "$runs" "$out/runs.jsonl"
elapsed=$((before + $(date +%s) - start))
kill "$ticker" 2>/dev/null
cleanup() { rm -f "$out/elapsed.partial"; }
python3 experiments/analysis.py record "$tmp/plans" "$out" --study scale --model "$model" \
	--elapsed "$elapsed" --cluster "$(for s in $groups; do echo "${s%%:*}"; done | uniq | paste -sd, - | sed 's/,/, /g')" \
	--command "${OUT:+OUT=$OUT }${MODEL:+MODEL=$MODEL }${SEED_RUNS:+SEED_RUNS=$SEED_RUNS }${JUDGE_K:+JUDGE_K=$JUDGE_K }${SWEEP_MAX:+SWEEP_MAX=$SWEEP_MAX }${STUDY_GROUPS:+STUDY_GROUPS='$STUDY_GROUPS' }sh experiments/scale/study.sh"
python3 experiments/analysis.py summarize "$out"
