#!/bin/sh
# Ranks x threads on this machine (experiments/README.md, "Ranks x threads"):
# 2 ranks of 1 thread against 1 rank of 2 threads, each split predicted and
# measured, LU and GEMM with hetmap's driver and LU with HPL (hpcc).
#
#   sh experiments/threads/real.sh        (about 15 min at REPS=3)
#
# 1. calibrate --threads 2 (the t = 2 speed-ups measured here), unless
#    PLATFORM names a platform with them;
# 2. per group ROUTINE:N:PROGRAM (STUDY_GROUPS, default the driver's LU and GEMM
#    at n = 4000 and 8000, HPL's LU at both): GU's plan (2 x 1), HU's
#    (1 x 2) and GPTM's, which prices both splits and picks one;
# 3. REPS rounds (default 3), each running every group's two splits in turn
#    (ABAB: the machine's drift falls on both alike).
# Writes OUT (default experiments/threads/results/real): platform.json,
# plans/, runs.jsonl (hetmap run's records) and summary.md (analysis.py
# threads-real: per group each split's prediction and measured median and
# spread, the plan's pick, and whether it is the faster or within 5 %).
set -eu
. "$(dirname "$0")/../lib.sh"
study_out experiments/threads/results/real
reps=${REPS:-3}
groups=${STUDY_GROUPS:-lu:4000:driver lu:8000:driver gemm:4000:driver gemm:8000:driver lu:4000:hpcc lu:8000:hpcc}
case " $groups " in *:hpcc\ *) needs "HPC Challenge (Debian package hpcc)" command -v hpcc ;; esac
plat=$out/platform.json
if [ -n "${PLATFORM:-}" ]; then
	cp "$PLATFORM" "$plat"
else
	echo "real: calibrate --threads 2" >&2
	"$hm" calibrate --threads 2 --accept-unreliable -o "$plat" 2>"$tmp/cal.err" ||
		{ cat "$tmp/cal.err" >&2; exit 1; }
fi
mkdir -p "$out/plans"
for g in $groups; do
	IFS=: read -r routine n program <<GROUP
$g
GROUP
	for m in GU HU GPTM; do
		"$hm" plan -p "$plat" -r "$routine" -n "$n" -M "$m" -o "$out/plans/$routine-$n-$program-$m.json" \
			>/dev/null 2>&1
	done
done
runs_begin
for rep in $(seq "$reps"); do
	for g in $groups; do
		IFS=: read -r routine n program <<GROUP
$g
GROUP
		for m in GU HU; do
			echo "real: $routine n=$n $program $m, round $rep/$reps" >&2
			set -- --plan "$out/plans/$routine-$n-$program-$m.json" --results "$runs" --timeout 900 \
				--seed "$rep" -o "$tmp/job"
			[ "$program" = driver ] || set -- "$@" -- "$program"
			"$hm" run "$@" >/dev/null 2>"$tmp/err" || echo "real: run failed: $(tail -1 "$tmp/err")" >&2
			rm -rf "$tmp/job"
		done
	done
done
runs_end
python3 experiments/analysis.py threads-real "$out" >"$out/summary.md"
cat "$out/summary.md"
echo "real: $elapsed s" >&2
