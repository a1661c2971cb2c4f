#!/bin/sh
# Programs nobody here wrote, run through 'hetmap run' on the emulated
# heterogeneous cluster (root): HPC Challenge (HPL 2.0 inside; hpcc) and
# ScaLAPACK's LU tester (xdlu), each with the plan of hetmap's default
# method (the plan) and with the choices of the greedy (GU), conservative (CU) and
# expert (EU) users, REPS times each (default 3), on the calibrated
# platform of the virtual cluster study.
#
#   sh experiments/clients/study.sh [CLUSTER.json]   (default vcluster/ref4.json)
#
# Outputs in experiments/results/clients/: runs.jsonl (every record) and
# summary.md (the programs' own times: median and spread per choice).
# JOBS='PROGRAM:N ...' runs other programs or sizes (default
# "hpcc:2000 XDLU:600"); about 17 minutes with the defaults.
set -eu
cd "$(dirname "$0")/../.."
desc=${1:-experiments/vcluster/ref4.json}
out=${OUT:-experiments/results/clients}
reps=${REPS:-3}
plat=experiments/results/vcluster-grid/platform.json
[ "$(id -u)" -eq 0 ] || { echo "clients: the virtual cluster needs root" >&2; exit 4; }
[ -x build/hetmap-vcluster ] || sh tests/setup.sh >/dev/null
command -v hpcc >/dev/null || { echo "clients: install hpcc scalapack-mpi-test" >&2; exit 4; }
hm=build/hetmap
vc=build/hetmap-vcluster
xdlu=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdlu
mpi="--mca plm_rsh_agent $PWD/build/hetmap-vcluster-agent --bind-to none"
mkdir -p "$out"
tmp=$(mktemp -d)
trap '"$vc" down; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
"$vc" up "$desc" >&2
runs=$out/runs.jsonl.partial
: > "$runs"
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
mv "$runs" "$out/runs.jsonl"
python3 experiments/analysis.py clients "$out/runs.jsonl" > "$out/summary.md"
cat "$out/summary.md"
