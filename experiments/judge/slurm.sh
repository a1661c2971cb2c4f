#!/bin/bash
# experiments/judge/slurm.sh - the judge through the batch system: its wall
# time with its simulations as Slurm steps one at a time (--judge-jobs 1)
# against as many at once as the allocation has CPUs (the default), on a
# one-node Slurm of this machine's CPUs (tests/slurm_here.sh). LU on
# tests/data/smpi4.json at n = N, K = 3 (the model's 3 best and GU, CU, EU;
# twins simulated once), alternating the two, REPEAT times each.
#   bash experiments/judge/slurm.sh [N [REPEAT]]     (default 12000 3)
# Writes results/runs.tsv (one row per judge: jobs, its wall time from the
# first step's start to the last one's end, the candidates' own wall times
# summed and their largest) and prints the medians, their ratio, and what
# the measured parts say of an allocation with a CPU per candidate: its
# slowest simulation plus the judge's own overhead (its wall time less the
# makespan its candidates' measured walls give on 2 CPUs in its order).
set -u
. "$(dirname "$0")/../lib.sh"
skip() { echo "judge/slurm: $*" >&2; exit 4; }
for p in slurmctld slurmd salloc srun munged smpirun; do
	command -v $p >/dev/null || skip "$p missing (install slurm-wlm munge libsimgrid-dev)"
done
[ -x build/hetmap-driver-smpi ] || skip "the SMPI flavour is not built (sh tests/setup.sh test TARBALL)"
. tests/slurm_here.sh
n=${1:-12000} repeat=${2:-3}
study_out experiments/judge/results
printf 'jobs\trepeat\tjudge_wall_s\tcandidates_wall_sum_s\tcandidate_wall_max_s\tsimulated\toverhead_s\n' >"$out/runs.tsv"
for r in $(seq "$repeat"); do
	for jobs in 1 2; do
		rm -rf "$tmp/judge"
		echo "judge/slurm: n = $n, --judge-jobs $jobs, run $r of $repeat" >&2
		# (--max-time: the search's default 60 s would cut the one-at-a-time judge short)
		salloc -n 2 "$hm" plan -q -p tests/data/smpi4.json -n "$n" --judge 3 --judge-jobs "$jobs" \
			--max-time 3600 --judge-dir "$tmp/judge" -o "$tmp/plan.json" >/dev/null || exit 1
		python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["judge"]
ran = [c for c in j["candidates"] if "wall_s" in c]
assert j["launcher"] == "slurm", j["launcher"]
span = max(c["started_s"] + c["wall_s"] for c in ran) - min(c["started_s"] for c in ran)
# the makespan of the measured walls on 'jobs' CPUs, each next candidate on the first CPU free
free = [0.0] * int(sys.argv[2])
for c in sorted(ran, key=lambda c: c["started_s"]):
    k = free.index(min(free)); free[k] += c["wall_s"]
print("%s\t%s\t%.2f\t%.2f\t%.2f\t%d\t%.2f" % (sys.argv[2], sys.argv[3], span, sum(c["wall_s"] for c in ran),
      max(c["wall_s"] for c in ran), sum(c["status"] == "simulated" for c in ran), span - max(free)))' \
			"$tmp/plan.json" "$jobs" "$r" >>"$out/runs.tsv" || exit 1
	done
done
python3 -c '
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
med = lambda j, k: statistics.median(float(r[k]) for r in rows if r["jobs"] == j)
span = lambda j: [float(r["judge_wall_s"]) for r in rows if r["jobs"] == j]
one, two = span("1"), span("2")
print("one at a time: median %.2f s (%.2f-%.2f); two at once: %.2f s (%.2f-%.2f); ratio %.2f" % (
      statistics.median(one), min(one), max(one), statistics.median(two), min(two), max(two),
      statistics.median(two) / statistics.median(one)))
print("two at once over its slowest simulation: %.2f (median)" % statistics.median(
      float(r["judge_wall_s"]) / float(r["candidate_wall_max_s"]) for r in rows if r["jobs"] == "2"))
print("one CPU per candidate (extrapolated): overhead %.2f s, wall over slowest simulation %.3f" % (
      med("2", "overhead_s"), statistics.median(
      (float(r["candidate_wall_max_s"]) + float(r["overhead_s"])) / float(r["candidate_wall_max_s"])
      for r in rows if r["jobs"] == "2")))' "$out/runs.tsv"
