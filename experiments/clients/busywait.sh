#!/bin/sh
# Ranks that wait: do they spin or yield? ScaLAPACK's LU tester (xdlu,
# n = 900) on 3 ranks stacked on this machine's 2 cores (1 x 3, two ranks
# on core 0), through 'hetmap run', under Open MPI as hetmap launches it
# (mpi_yield_when_idle 1) and without yielding (its run.sh edited), and under MPICH as hetmap
# launches it and with MPIR_CVAR_POLLS_BEFORE_YIELD=1. REPS runs each
# (default 5); prints xdlu's own LU times.
#
#   sh experiments/clients/busywait.sh
set -eu
. "$(dirname "$0")/../lib.sh"
reps=${REPS:-5}
lib=/usr/lib/x86_64-linux-gnu/scalapack
"$hm" predict -p tests/data/good/localhost.json -n 900 --procs 2,1 --grid 1x3 -b 64 -f json > "$tmp/plan.json"
# measure NAME LAUNCHER ENV [LAUNCHER-OPTIONS]: REPS runs, xdlu's LU times
measure() {
	printf '%-30s' "$1"
	for rep in $(seq "$reps"); do
		env "$3" "$hm" run --plan "$tmp/plan.json" --launcher "$2" --launcher-args "${4:-}" \
			--results "$tmp/r.jsonl" --timeout 120 -- "$lib/$2-tests/xdlu" >/dev/null 2>&1 || true
		python3 -c 'import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print(" %s" % r["measured_s"], end="")' "$tmp/r.jsonl"
	done
	echo " s"
}
measure "Open MPI, as hetmap runs it" openmpi X=1
# Open MPI refuses an MCA parameter given twice: the launch directory's
# run.sh, with hetmap's yielding turned off, runs the no-yield case
"$hm" run --plan "$tmp/plan.json" --dry-run -o "$tmp/noyield" -- "$lib/openmpi-tests/xdlu" >/dev/null 2>&1
sed -i 's/mpi_yield_when_idle 1/mpi_yield_when_idle 0/' "$tmp/noyield/run.sh"
printf '%-30s' "Open MPI, no yielding"
for rep in $(seq "$reps"); do
	printf ' %s' "$("$tmp/noyield/run.sh" 2>/dev/null | awk '/^WALL/ {print $9}')"
done
echo " s"
measure "MPICH, as hetmap runs it" mpich X=1
measure "MPICH, POLLS_BEFORE_YIELD=1" mpich MPIR_CVAR_POLLS_BEFORE_YIELD=1
