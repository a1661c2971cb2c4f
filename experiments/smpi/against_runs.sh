#!/bin/sh
# SMPI against every emulated-cluster study's measured runs
# (experiments/README.md, "Modeled kernels"), one command:
#   sh experiments/smpi/against_runs.sh     about 15 minutes on this machine
# For each study of experiments/vcluster/results/ (its platform.json is what
# the study calibrated on the emulated cluster, its runs.jsonl what ran
# there): every distinct configuration that ran is simulated on that
# platform twice, kernels executed and kernels modeled (its k tables: these
# calibrations predate the kernel shapes), and compared with the median of
# its measured runs -> OUT/runs.jsonl, OUT/summary.md (default
# experiments/smpi/results/against-runs). STUDIES='DIR ...' chooses studies.
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
study_out experiments/smpi/results/against-runs
studies=${STUDIES:-$(ls -d experiments/vcluster/results/*/ | sed 's,/$,,')}
runs_begin
for dir in $studies; do
	[ -s "$dir/runs.jsonl" ] && [ -s "$dir/platform.json" ] || continue
	rm -rf "$tmp/plans" && mkdir "$tmp/plans"
	python3 experiments/analysis.py measured-plans "$dir" "$tmp/plans"
	total=$(ls "$tmp/plans" | wc -l) j=0
	for f in "$tmp"/plans/*.json; do
		j=$((j + 1))
		b=$(plan_block "$f")
		for kernels in executed modeled; do
			[ $kernels = executed ] && core_rate "$b" || core_rate "$b" k2_dgetf2
			echo "against: $(basename "$dir") [$j/$total] kernels $kernels" >&2
			"$hm" run --plan "$f" --sim-platform "$dir/platform.json" --launcher smpi --kernels $kernels \
				--host-speed "$rate" --results "$runs" --timeout 600 >/dev/null 2>"$tmp/err" ||
				echo "against: run failed: $(tail -1 "$tmp/err")" >&2
		done
	done
done
runs_end
python3 experiments/analysis.py against "$out/runs.jsonl" $studies --elapsed "$elapsed" \
	--command "${STUDIES:+STUDIES='$STUDIES' }sh experiments/smpi/against_runs.sh" | tee "$out/summary.md"
