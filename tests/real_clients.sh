#!/bin/bash
# Programs nobody here wrote, through 'hetmap run' on localhost: Debian's
# ScaLAPACK LU tester (xdlu; its Open MPI and its MPICH builds) and HPC
# Challenge (Debian's hpcc for Open MPI; for MPICH, hpcc built from
# Debian's source, argument 3), each under the launcher of its MPI. The record must hold the program's own time, its verdict and
# the placement check. Also: placeholders and the environment reach the
# ranks, --input templates, a tester that skips the test (exit 10), a
# launch directory's run.sh run after being copied elsewhere, a rank on
# the wrong host detected. Parts whose programs are missing are skipped
# with a message (exit 77 when nothing could run).
set -u
. "$(dirname "$0")/lib.sh"
# HPCC for MPICH, where tests/clients/build_hpcc_mpich.sh put it
hpcc_mpich=${HETMAP_CLIENTS:-$root/build/clients}/hpcc-mpich/hpcc
plat=$data/good/localhost.json
lib=/usr/lib/x86_64-linux-gnu/scalapack
ran=0


# last_record_ok PROFILE: the record of a passed, placed run of PROFILE
last_record_ok() {
	check "$1: profile in the record" test "$(field program.profile)" = "\"$1\""
	check "$1: verdict passed" test "$(field program.verdict)" = '"passed"'
	check "$1: the program's own time is recorded" python3 -c 'import sys; v = float(sys.argv[1]); assert v >= 0' "$(field measured_s)"
	check "$1: wall time recorded" python3 -c 'import sys; assert float(sys.argv[1]) > 0' "$(field wall_s)"
	check "$1: every rank reported where it ran" test "$(field placement.reported)" = 2
	check "$1: placement as planned" test "$(field placement_as_planned)" = true
}

# run_client MPI LAUNCHER PROGRAM PROFILE N
# (xdlu prints its time to 0.01 s: n = 900 keeps it above that, within its 4 MB work array;
# hpcc runs its whole suite, which on a machine shared with two simulations outlasted a
# 120 s bound)
run_client() {
	local mpi=$1 launcher=$2 program=$3 profile=$4 n=$5
	res=$tmp/$mpi-$profile.jsonl
	if [ ! -x "$program" ] && ! command -v "$program" >/dev/null; then
		echo "real_clients: $program missing (install scalapack-mpi-test hpcc mpich): $mpi $profile skipped"
		return
	fi
	expect 0 "placement as planned" -- "$hm" run -p "$plat" -n "$n" -M GU --launcher "$launcher" \
		-o "$tmp/job-$mpi-$profile" --results "$res" --timeout 300 -- "$program"
	last_record_ok "$profile"
	ran=$((ran + 1))
}

run_client openmpi openmpi "$lib/openmpi-tests/xdlu" scalapack-test 900
run_client mpich mpich "$lib/mpich-tests/xdlu" scalapack-test 900
run_client openmpi openmpi hpcc hpcc 800
if command -v hpcc >/dev/null; then
	# a second run in the same directory: HPCC appends to its output, so the
	# earlier one is moved aside (never over a file) and this run's is read
	expect 0 "moved to $tmp/job-openmpi-hpcc/hpccoutf.txt.1" -- "$hm" run -p "$plat" -n 700 -M GU \
		-o "$tmp/job-openmpi-hpcc" --results "$tmp/again.jsonl" -- hpcc
	check "the second run's record reads its own HPL (n = 700)" grep -q "HPL_N=700" "$tmp/job-openmpi-hpcc/hpccoutf.txt"
fi
# Debian's hpcc is linked with Open MPI only: HPCC for MPICH is built from
# its Debian source by tests/clients/build_hpcc_mpich.sh
if [ -n "$hpcc_mpich" ] && [ -x "$hpcc_mpich" ]; then
	run_client mpich mpich "$hpcc_mpich" hpcc 800
else
	echo "real_clients: HPCC for MPICH not built ('sh tests/clients/build_hpcc_mpich.sh build/clients'): hpcc under MPICH skipped"
fi
[ $ran -gt 0 ] || skip "no client program installed"

if [ -x "$lib/openmpi-tests/xdlu" ]; then
	res=$tmp/more.jsonl
	check "xdlu's LU.dat holds the plan" grep -q "^900 *values of N" "$tmp/job-openmpi-scalapack-test/LU.dat"
	# the tester's compiled-in work array: a plan clearly too large is refused
	# before launch (exit 3); one just under hetmap's estimate is skipped by
	# the tester itself (exit 10, recorded)
	expect 3 "compiled-in work array" -- "$hm" run -p "$plat" -n 3000 -M GU --results "$res" -- "$lib/openmpi-tests/xdlu"
	expect 10 "skipped the test: Unable to perform factorization: need TOTMEM" -- "$hm" run -p "$plat" -n 950 -M GU \
		--results "$res" --timeout 120 -- "$lib/openmpi-tests/xdlu"
	check "the skip is recorded" test "$(field program.verdict)" = '"skipped"'

	# the launch directory travels: run.sh works from a copy, from anywhere
	for l in openmpi mpich; do
		[ -x "$lib/$l-tests/xdlu" ] || continue
		expect 0 "run.sh" -- "$hm" run -p "$plat" -n 500 -M GU --launcher $l --dry-run -o "$tmp/dir-$l" -- "$lib/$l-tests/xdlu"
		mkdir -p "$tmp/elsewhere"
		mv "$tmp/dir-$l" "$tmp/elsewhere/copied-$l"
		check "$l: run.sh is executable (mode from the umask)" test "$(stat -c %a "$tmp/elsewhere/copied-$l/run.sh")" = 755
		expect 0 "PASSED" -- env -C / "$tmp/elsewhere/copied-$l/run.sh"
		check "$l: the moved run.sh ran the plan's grid" grep -q "WALL   500   500  32 .* 1    2 .*PASSED" "$tmp/out"
	done

	# a rank that lands on another host is caught (the probe's host overridden)
	expect 0 "NOT as planned" -- env HETMAP_HOST=elsewhere "$hm" run -p "$plat" -n 500 -M GU --results "$res" \
		-- "$lib/openmpi-tests/xdlu"
	check "the record says which rank is off" test "$(field placement.ranks.1.host_ok)" = false
fi

# placeholders in arguments, the environment of every rank, --input
res=$tmp/sh.jsonl
printf 'n={n} b={b} grid {r}x{c} D={D} dir={dir}\n' > "$tmp/tmpl.txt"
expect 0 "args 500 32 1x2 env 500 32 1 2 2 lu row" -- "$hm" run -p "$plat" -n 500 -M GU --results "$res" \
	-o "$tmp/shjob" --input "$tmp/tmpl.txt:params.txt" -- /bin/sh -c \
	'echo args $0 $1 $2 env $HETMAP_N $HETMAP_NB $HETMAP_NPROW $HETMAP_NPCOL $HETMAP_NPROCS $HETMAP_ROUTINE $HETMAP_GRID_ORDER' '{n}' '{b}' '{r}x{c}'
check "the template rendered into the job's directory" grep -qx "n=500 b=32 grid 1x2 D=2 dir=$tmp/shjob" "$tmp/shjob/params.txt"
check "no profile: verdict unknown, no own time" test "$(field program.verdict) $(field measured_s)" = '"unknown" null'
expect 3 "unknown placeholder '{nb}'" -- "$hm" run -p "$plat" -n 500 --dry-run -- /bin/echo '{nb}'
expect 3 "unclosed placeholder" -- "$hm" run -p "$plat" -n 500 --dry-run -- /bin/echo '{n'
expect 0 "{n} 500" -- "$hm" run -p "$plat" -n 500 --results "$res" -- /bin/echo '{{n}}' '{n}'
expect 3 "cannot be an input file's name" -- "$hm" run -p "$plat" -n 500 --dry-run --input "$tmp/tmpl.txt:.." -- /bin/true
expect 3 "cannot be an input file's name" -- "$hm" run -p "$plat" -n 500 --dry-run --input "$tmp/tmpl.txt:run.sh" -- /bin/true
expect 3 "--input $tmp/none: cannot open" -- "$hm" run -p "$plat" -n 500 --dry-run --input "$tmp/none" -- /bin/true
expect 3 "unknown profile 'xhpl'" -- "$hm" run -p "$plat" -n 500 --dry-run --profile xhpl -- /bin/true
expect 3 "program '$tmp/nope'" -- "$hm" run -p "$plat" -n 500 --dry-run -- "$tmp/nope"
expect 3 "profile 'hpl' needs its program after" -- "$hm" run -p "$plat" -n 500 --dry-run --profile hpl
expect 3 "the program's name is empty" -- "$hm" run -p "$plat" -n 500 --dry-run -- ""
touch "$tmp/a-file"
expect 4 "exists and is not a directory" -- "$hm" run -p "$plat" -n 500 --dry-run -o "$tmp/a-file" -- /bin/true
# a launch directory whose run.sh is a symbolic link: refused, and the link stays
mkdir "$tmp/linked" && ln -s /etc/passwd "$tmp/linked/run.sh"
expect 4 "run.sh: exists and is not a regular file" -- "$hm" run -p "$plat" -n 500 --dry-run -o "$tmp/linked" -- /bin/true
check "the symbolic link is left as it was" test -L "$tmp/linked/run.sh"
check "and nothing else was written there" test "$(ls -A "$tmp/linked")" = run.sh
expect 3 "--grid-order must be row or column" -- "$hm" run -p "$plat" --dry-run --grid-order diagonal

finish real_clients
