#!/bin/sh
# Ranks x threads at scale (experiments/README.md, "Ranks x threads"): on
# lab-320 and modern-1024, LU and GEMM, the plan with threads against the
# best one-thread plan and HPL's habit (HU), each simulated under SMPI with
# the kernels modeled.
#
#   sh experiments/threads/scale.sh         (about 40 min; two simulations at once)
#
# The platforms are experiments/scale/platforms.sh's; each type gets thread
# speed-ups derived from the ones measured here (analysis.py
# thread-speedups: MEASURED, default experiments/threads/results/real/
# platform.json, whose calibration measured t = 2): per doubling of the
# threads the gain measured for one doubling, s(2^k) = s(2)^k, at every
# power of two up to a socket's cores. Per group PLATFORM:ROUTINE:N
# (STUDY_GROUPS, default both platforms, LU and GEMM at n = 30000): GPTM's
# plan on the platform without threads (one thread, "1t"), GPTM's with
# them ("threads"), HU's; each distinct configuration simulated once.
# Writes OUT (default experiments/threads/results/scale): platforms/,
# plans/, runs.jsonl, summary.md (analysis.py threads-scale).
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
study_out experiments/threads/results/scale
measured=${MEASURED:-experiments/threads/results/real/platform.json}
groups=${STUDY_GROUPS:-lab-320:lu:30000 lab-320:gemm:30000 modern-1024:lu:30000 modern-1024:gemm:30000}
platforms=$(sh experiments/scale/platforms.sh)
mkdir -p "$out/platforms" "$out/plans"
for name in lab-320 modern-1024; do
	cp "$platforms/$name.json" "$out/platforms/$name.json"
	python3 experiments/analysis.py thread-speedups "$platforms/$name.json" "$measured" \
		>"$out/platforms/$name-threads.json"
	"$hm" platform check "$out/platforms/$name-threads.json" >/dev/null
done
k=0
for g in $groups; do
	IFS=: read -r name routine n <<GROUP
$g
GROUP
	for label in 1t threads HU; do
		k=$((k + 1))
		plat=$PWD/$out/platforms/$name-threads.json m=GPTM
		[ "$label" = 1t ] && plat=$PWD/$out/platforms/$name.json
		[ "$label" = HU ] && m=HU
		"$hm" plan -p "$plat" -M "$m" -r "$routine" -n "$n" -f json \
			>"$out/plans/$(printf %03d $k)-$name-$routine-$n-$label.json"
	done
done
# one simulation per distinct configuration, two at once
python3 experiments/analysis.py distinct "$out/plans" >"$tmp/distinct"
runs_begin
simulate() {
	"$hm" run --plan "$1" --launcher smpi --kernels modeled --results "$tmp/$(basename "$1").jsonl" \
		--timeout 3600 -o "$tmp/job-$(basename "$1" .json)" >/dev/null 2>"$tmp/$(basename "$1").err" ||
		echo "scale: $(basename "$1") failed: $(tail -1 "$tmp/$(basename "$1").err")" >&2
	rm -rf "$tmp/job-$(basename "$1" .json)"
}
set -- $(cat "$tmp/distinct")
while [ $# -gt 0 ]; do
	echo "scale: simulating $(basename "$1")${2:+ and $(basename "$2")}" >&2
	simulate "$1" &
	[ $# -lt 2 ] || simulate "$2" &
	wait
	shift $(($# < 2 ? $# : 2))
done
cat "$tmp"/*.jsonl >>"$runs"
runs_end
python3 experiments/analysis.py threads-scale "$out" --elapsed "$elapsed" | tee "$out/summary.md"
