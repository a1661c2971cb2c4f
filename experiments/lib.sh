# experiments/lib.sh - what every study script does first, sourced as
#   . "$(dirname "$0")/../lib.sh"
# It moves to the repository root (the scripts name everything from
# there), builds hetmap when build/ lacks it, gives every rank one BLAS
# thread, and sets:
#   hm      build/hetmap
#   tmp     a scratch directory, removed at exit after the script's own
#           'cleanup' (define it to stop what the study started)
# and the functions below. Ctrl-C ends a study with 130, cleaning up.
cd "$(dirname "$0")/../.." || exit 1
[ -x build/hetmap ] || sh tests/setup.sh >/dev/null || exit 1
hm=build/hetmap
export OPENBLAS_NUM_THREADS=1
tmp=$(mktemp -d) || exit 1
cleanup() { :; }
trap 'cleanup; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# study_out DEFAULT: the study's output folder, $OUT or DEFAULT, made
study_out() {
	out=${OUT:-$1}
	mkdir -p "$out" || exit 4
}

# needs WHAT TEST-COMMAND...: stop (exit 4) with 'WHAT' unless the test holds
needs() {
	what=$1
	shift
	"$@" >/dev/null 2>&1 || { echo "$(basename "$0" .sh): needs $what" >&2; exit 4; }
}

# vcluster_up DESC: bring up the emulated cluster of DESC for the study
# (root), torn down at exit; sets vc (the tool) and mpi (the launcher
# options that start ranks on its virtual nodes)
vcluster_up() {
	needs "root (the virtual cluster's cgroups and /etc/hosts)" test "$(id -u)" -eq 0
	[ -x build/hetmap-vcluster ] || cmake --build build --target hetmap-vcluster hetmap-vcluster-agent \
		hetmap-slowblas >/dev/null || exit 1
	vc=build/hetmap-vcluster
	mpi="--mca plm_rsh_agent $PWD/build/hetmap-vcluster-agent --bind-to none"
	# nodes in network namespaces (shaped links): Open MPI must use the bridge
	if grep -q '"link"' "$1"; then
		mpi="$mpi --mca btl_tcp_if_include 10.77.0.0/24 --mca oob_tcp_if_include 10.77.0.0/24"
	fi
	cleanup() { "$vc" down; }
	"$vc" up "$1" >&2 || exit 4
}

# runs_begin / runs_end: 'hetmap run' records go to $runs while the study
# runs, and become $out/runs.jsonl only when it is complete
runs_begin() {
	start=$(date +%s)
	runs=$out/runs.jsonl.partial
	: >"$runs"
}
runs_end() {
	mv "$runs" "$out/runs.jsonl"
	elapsed=$(($(date +%s) - start))
}
