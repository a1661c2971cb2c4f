#!/bin/sh
# Speed of the exact optimizer against BTM, and the search-at-scale
# targets (a benchmark, not a test):
#  - the simulation study's 42 problems (see study.sh; reference model),
#    exact and BTM each timed in a process of its own, alternating,
#    REPEATS times (default 3): in one process the first search pays for
#    warming up (about 2.5x on a 0.1 ms search), so 'compare' cannot time
#    them fairly;
#  - the clusters of models/platform/examples/modern-1024.json and random
#    families of 1000 processors (one and eight per host, depth 200 and
#    1000; seed 11 repeated, seeds 12-20 once at depth 1000), default
#    model: GPTM, exact, and BTM within 10 s.
#
#   sh experiments/simulation/speed.sh [REPEATS]
#
# Writes experiments/simulation/results/speed/ (OUT= to change): runs.jsonl
# (one line per search: problem, method, seconds, time found, proved or
# not; not committed) and summary.md (experiments/analysis.py speed). About
# 3-4 min here.
set -eu
. "$(dirname "$0")/../lib.sh"
repeats=${1:-3}
study_out experiments/simulation/results/speed
. experiments/simulation/problems.sh

# one search: GROUP PLATFORM N DEPTH|- MODEL METHOD MAX_TIME
search() {
	depth=""
	[ "$4" = - ] || depth="-d $4"
	# shellcheck disable=SC2086 # depth is one option or none
	"$hm" plan -p "$2" -n "$3" $depth -m "$5" -M "$6" --max-time "$7" -f json \
		-o "$tmp/plan.json" >/dev/null 2>&1 || [ $? -eq 5 ]   # 5: stopped by the budget
	printf '{"group": "%s", "platform": "%s", "n": %s, "depth": "%s", "model": "%s", "plan": ' \
		"$1" "$(basename "$2" -platform.json)" "$3" "$4" "$5" >> "$tmp/runs.jsonl"
	tr -d '\n\t' < "$tmp/plan.json" >> "$tmp/runs.jsonl"
	echo "}" >> "$tmp/runs.jsonl"
}

pair() {        # PLATFORM N DEPTH: exact and BTM, alternating
	echo "speed: $1 n=$2 depth $3" >&2
	for _ in $(seq "$repeats"); do
		search study "$1" "$2" "$3" thesis exact 60
		search study "$1" "$2" "$3" thesis BTM 60
	done
}

start=$(date +%s)
each_problem pair

# at scale: the default model (MODEL= to change), the default depth (the platform's cores)
model=${MODEL:-grid}
"$hm" generate models/platform/examples/modern-1024.json -o "$tmp/modern-1024" 2>/dev/null
for h in 1 8; do
	printf '{"hetmap_generator": 1, "name": "random-1000-h%d", "random": {"seed": 11, "processors": 1000, "types": 20, "speed_ratio": 50, "per_host": %d, "k3": 1e-9}}\n' \
		"$h" "$h" > "$tmp/random-1000-h$h.json"
	"$hm" generate "$tmp/random-1000-h$h.json" -o "$tmp/random-1000-h$h" 2>/dev/null
done
for _ in $(seq "$repeats"); do
	echo "speed: modern-1024" >&2
	for m in GPTM exact; do
		search scale "$tmp/modern-1024" 50000 - "$model" $m 60
	done
	for h in 1 8; do
		for d in 200 1000; do
			echo "speed: random-1000-h$h depth $d" >&2
			search scale "$tmp/random-1000-h$h" 50000 $d "$model" GPTM 60
			search scale "$tmp/random-1000-h$h" 50000 $d "$model" exact 60
		done
	done
done
for h in 1 8; do        # nine more members of each family, once each
	for seed in 12 13 14 15 16 17 18 19 20; do
		printf '{"hetmap_generator": 1, "name": "random-1000-h%d-s%d", "random": {"seed": %d, "processors": 1000, "types": 20, "speed_ratio": 50, "per_host": %d, "k3": 1e-9}}\n' \
			"$h" "$seed" "$seed" "$h" > "$tmp/g.json"
		"$hm" generate "$tmp/g.json" -o "$tmp/random-1000-h$h-s$seed" 2>/dev/null
		echo "speed: random-1000-h$h seed $seed depth 1000" >&2
		search seeds "$tmp/random-1000-h$h-s$seed" 50000 1000 "$model" exact 60
	done
done
for h in 1 8; do        # BTM alone, once: it is stopped by the budget
	search scale "$tmp/random-1000-h$h" 50000 200 "$model" BTM 10
done
search scale "$tmp/modern-1024" 50000 - "$model" BTM 10
mv "$tmp/runs.jsonl" "$out/runs.jsonl"
elapsed=$(( $(date +%s) - start ))
python3 experiments/analysis.py speed "$out" --elapsed "$elapsed" --repeats "$repeats"
echo "speed: done in ${elapsed} s; see $out/summary.md" >&2
