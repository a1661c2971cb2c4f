#!/bin/sh
# Programs nobody here wrote, run through 'hetmap run' on the emulated
# heterogeneous cluster (root): HPC Challenge (HPL 2.0 inside; hpcc) and
# ScaLAPACK's LU tester (xdlu), each with the plan of hetmap's default
# method (the plan) and with the choices of the greedy (GU), conservative (CU) and
# expert (EU) users, REPS times each (default 3), on the cluster as the
# emulated cluster's study calibrated it (PLATFORM=, default that of
# experiments/vcluster/results/ref4).
#
#   sh experiments/clients/study.sh [CLUSTER.json]   (default vcluster/ref4.json)
#
# Writes OUT (default experiments/clients/results): platform.json (the
# platform planned on), runs.jsonl (every record) and summary.md (the
# programs' own times: median and spread per choice). JOBS='PROGRAM:N ...'
# runs other programs or sizes (default "hpcc:2000 XDLU:600"); about 17
# minutes with the defaults.
set -eu
. "$(dirname "$0")/../lib.sh"
desc=${1:-experiments/vcluster/ref4.json}
reps=${REPS:-3}
needs "hpcc and xdlu (Debian packages hpcc scalapack-mpi-test)" command -v hpcc
study_out experiments/clients/results
cp "${PLATFORM:-experiments/vcluster/results/ref4/platform.json}" "$tmp/platform.json"
mv "$tmp/platform.json" "$out/platform.json"
plat=$out/platform.json
xdlu=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdlu
vcluster_up "$desc"
runs_begin
# PROGRAM:N; xdlu's compiled-in work array (4 MB a process) holds one
# process's LU up to n of about 650
jobs=${JOBS:-"hpcc:2000 $xdlu:600"}
for job in $jobs; do
	prog=${job%:*} n=${job##*:}
	for choice in plan GU CU EU; do
		method=""
		[ "$choice" = plan ] || method="-M $choice"
		for rep in $(seq "$reps"); do
			echo "clients: $(basename "$prog") n=$n $choice run $rep/$reps" >&2
			# shellcheck disable=SC2086
			"$hm" run -p "$plat" -n "$n" $method --launcher openmpi-seq \
				--launcher-args "$mpi" -o "$tmp/job" --results "$runs" --timeout 600 \
				-- "$prog" >/dev/null 2>"$tmp/err" ||
				echo "clients: run failed: $(tail -1 "$tmp/err")" >&2
		done
	done
done
runs_end
python3 experiments/analysis.py clients "$out/runs.jsonl" > "$out/summary.md"
cat "$out/summary.md"
