#!/bin/sh
# The modeled kernels against full execution under SMPI (experiments/README.md,
# "Modeled kernels"), one command:
#   sh experiments/smpi/modeled.sh       about 25 minutes on this machine
#  1. this machine calibrated with its kernel shapes (lib.sh's
#     here_calibration);
#  2. platforms whose types are that core, some of them slower
#     (analysis.py derive): the calibration itself (2 cores), het3.json
#     (3 speeds, 24 cores) and het2-slow.json (2 speeds, 32 cores, slow
#     links), in OUT/platforms/;
#  3. per group (platform, routine, n): GPTM's plan, GU, CU, EU and a sweep
#     (analysis.py sweep), each simulated twice at the same host speed
#     (this core's dgemm rate at the plan's b): kernels executed (residual
#     checked) and modeled-as-executed (the models instead of the kernels,
#     everything else charged alike);
#  4. analysis.py modeled OUT: every configuration's modeled / executed
#     time, and per group the largest error and the Spearman correlation
#     -> OUT/summary.md.
# STUDY_GROUPS='het3:lu:4096 ...' chooses groups.
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
study_out experiments/smpi/results/modeled
groups=${STUDY_GROUPS:-here:lu:8192 here:gemm:4096 het3:lu:4096 het3:lu:8192 het3:gemm:4096 het2-slow:lu:8192 het2-slow:gemm:4096}
mkdir -p "$out/platforms" "$tmp/plans"
here_calibration

platform() {    # name -> the platform file, made once in OUT/platforms
	f=$out/platforms/$1.json
	if [ ! -s "$f" ]; then
		if [ "$1" = here ]; then
			cp "$cal" "$f"
		else
			python3 experiments/analysis.py derive "$cal" "experiments/smpi/$1.json" > "$tmp/desc.json"
			"$hm" generate "$tmp/desc.json" -o "$f" 2>/dev/null
		fi
	fi
	echo "$f"
}

k=0
for spec in $groups; do
	group_of "$spec"
	p=$(platform "$name")
	method_plans "$group" "GPTM GU CU EU" -p "$p" -r "$routine" -n "$n"
	sweep_plans "$group" "$p" 8 -p "$p" -r "$routine" -n "$n"
done

simulate_both() {       # the plan file $1, kernels executed then modeled
	core_rate "$b"
	for kernels in executed modeled-as-executed; do
		echo "modeled: [$j/$total] $(basename "$1" .json), kernels $kernels (this core: $rate at b = $b)" >&2
		"$hm" run --plan "$1" --launcher smpi --kernels "$kernels" --host-speed "$rate" \
			--results "$runs" --timeout 900 >/dev/null 2>"$tmp/err" ||
			echo "modeled: run failed: $(tail -1 "$tmp/err")" >&2
	done
}
runs_begin
each_distinct simulate_both
runs_end
python3 experiments/analysis.py modeled "$out" --elapsed "$elapsed" \
	--command "${STUDY_GROUPS:+STUDY_GROUPS='$STUDY_GROUPS' }sh experiments/smpi/modeled.sh" | tee "$out/summary.md"
