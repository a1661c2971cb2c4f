# experiments/lib.sh - what every study script does first, sourced as
#   . "$(dirname "$0")/../lib.sh"
# It moves to the repository root (the scripts name everything from
# there), builds hetmap when build/ lacks it, gives every rank one BLAS
# thread, and sets:
#   hm      build/hetmap, or $HETMAP (another build)
#   tmp     a scratch directory, removed at exit after the script's own
#           'cleanup' (define it to stop what the study started)
# and the functions below. Ctrl-C ends a study with 130, cleaning up.
cd "$(dirname "$0")/../.." || exit 1
hm=${HETMAP:-build/hetmap}
[ -x "$hm" ] || sh tests/setup.sh >/dev/null || exit 1
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

# measured COMMAND...: run it under /usr/bin/time; sets rc (its exit code),
# wall (seconds) and kb (peak memory). Its output goes where the caller
# redirects the call. /usr/bin/time's last line is read: a failed
# command's status comes first.
measured() {
	rc=0
	/usr/bin/time -f "%e %M" -o "$tmp/time" "$@" || rc=$?
	read -r wall kb <<EOF
$(tail -n 1 "$tmp/time")
EOF
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
	rm -f "$out/runs.jsonl.gz"      # a committed, compressed earlier study's
	elapsed=$(($(date +%s) - start))
}

# core_rate B [KERNEL]: sets $rate to this machine's rate per core at block
# size B of KERNEL (k3_dgemm, or k2_dgetf2: the panel's), e.g. "49.2Gf":
# what a simulator scales the computation it times here by; measured once
# per (B, KERNEL) in a study (call it in the script's shell, not in $(...)).
# CORE_RATES='64:k2_dgetf2=11.3Gf ...' gives them instead: a study started
# beside another's simulations would measure this core shared
rates=${CORE_RATES:-}
core_rate() {
	kernel=${2:-k3_dgemm}
	rate=$(echo "${rates:-}" | tr ' ' '\n' | sed -n "s/^$1:$kernel=//p")
	if [ -z "$rate" ]; then
		rate=$(build/hetmap-calibrate-bench --block-sizes "$1" --rows 1024 --repeat 5 \
			--min-time 0.05 --hosts localhost 2>/dev/null | python3 -c '
import json, sys, statistics
d = json.loads(sys.stdin.read())
print("%.6gGf" % (1e-9 / statistics.median(d["processors"][0][sys.argv[1]][0])))' "$kernel")
		rates="${rates:-} $1:$kernel=$rate"
	fi
}

# group_of SPEC: a study group 'platform:routine:n' into $name, $routine, $n
# and $group (name-routine-n, how its plan files are named)
group_of() {
	name=${1%%:*} rest=${1#*:}
	routine=${rest%%:*} n=${rest#*:}
	group="$name-$routine-$n"
}

# plan_block PLAN: the plan file's block size b
plan_block() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plan"]["b"])' "$1"
}

# method_plans GROUP "METHOD..." PLAN-OPTION...: each method's (or user's)
# plan by 'hetmap plan -M METHOD PLAN-OPTION...' into
# $tmp/plans/NNN-GROUP-METHOD.json, NNN counting on from $k
method_plans() {
	plans_group=$1 plans_methods=$2
	shift 2
	for m in $plans_methods; do
		k=$((k + 1))
		f=$tmp/plans/$(printf %03d $k)-$plans_group-$m.json
		"$hm" plan -M "$m" -f json "$@" >"$f" 2>/dev/null || rm -f "$f"
	done
}

# each_distinct FUNCTION: 'FUNCTION FILE' for every distinct configuration
# among $tmp/plans (analysis.py distinct), with $j of $total counted and $b
# the plan's block size
each_distinct() {
	total=$(python3 experiments/analysis.py distinct "$tmp/plans" | wc -l)
	j=0
	for f in $(python3 experiments/analysis.py distinct "$tmp/plans"); do
		j=$((j + 1))
		b=$(plan_block "$f")
		"$1" "$f"
	done
}

# sweep_plans GROUP PLATFORM MAX PREDICT-OPTION...: the sweep of PLATFORM's
# configurations (analysis.py sweep, at most MAX of a kind), each predicted
# by 'hetmap predict PREDICT-OPTION...' into $tmp/plans/NNN-GROUP-sI.json,
# NNN counting on from $k
sweep_plans() {
	sweep_group=$1 sweep_platform=$2 sweep_max=$3
	shift 3
	i=0
	for s in $(python3 experiments/analysis.py sweep "$sweep_platform" --max "$sweep_max" --one-row-max "${SWEEP_ONE_ROW_MAX:-100000}"); do
		i=$((i + 1)) k=$((k + 1))
		procs=${s%%:*} r=${s#*:}
		f=$tmp/plans/$(printf %03d $k)-$sweep_group-s$i.json
		"$hm" predict "$@" --procs "$procs" --grid "${r%%:*}" -b "${r#*:}" -f json >"$f" 2>/dev/null ||
			rm -f "$f"
	done
}

# scale_plan SPEC PLAN: the plan of a scale job SPEC 'platform:routine:n:method'
# (a platform of scale/platforms.sh, made in $platforms; method: a hetmap
# method or user) written to PLAN; sets $name, $routine, $n and $method
scale_plan() {
	IFS=: read -r name routine n method <<EOF
$1
EOF
	"$hm" plan -p "$PWD/$platforms/$name.json" -r "$routine" -n "$n" -M "$method" -f json >"$2" 2>/dev/null
}

# peak_memory PID FILE PATTERN: until PID ends, the largest PSS of the
# simulator whose command line matches PATTERN (pgrep -f: its job's own, not
# another's beside it; PSS counts SMPI's shared matrix once, where RSS counts
# it once per rank's mapping) and the largest rise of the machine's used
# memory (kB), written to FILE as 'PSS RISE' every 2 s
peak_memory() {
	base=$(awk '/MemTotal/{t=$2}/MemAvailable/{a=$2}END{print t-a}' /proc/meminfo)
	pss=0 used=0
	while kill -0 "$1" 2>/dev/null; do
		for p in $(pgrep -f "$3"); do
			v=$(awk '/^Pss:/{print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
			[ "${v:-0}" -gt "$pss" ] && pss=$v
		done
		u=$(($(awk '/MemTotal/{t=$2}/MemAvailable/{a=$2}END{print t-a}' /proc/meminfo) - base))
		[ "$u" -gt "$used" ] && used=$u
		echo "$pss $used" >"$2"
		sleep 2
	done
}

# here_calibration: sets $cal to this machine's calibration with its kernel
# shapes, the source of every modeled study's kernel models
# (experiments/smpi/results/modeled/here.json, committed; measured here only
# when missing: delete it to measure again, about 30 s)
here_calibration() {
	cal=experiments/smpi/results/modeled/here.json
	if [ ! -s "$cal" ]; then
		echo "$(basename "$0" .sh): calibrating this machine (kernel shapes included)" >&2
		mkdir -p "$(dirname "$cal")"
		"$hm" calibrate -o "$cal" --name here --block-sizes 32,64,128 --accept-unreliable 2>"$tmp/cal.err" ||
			{ cat "$tmp/cal.err" >&2; exit 1; }
	fi
}
