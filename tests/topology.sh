#!/bin/bash
# Node topologies from hwloc, end to end. hetmap-topology reads a node
# that an hwloc XML file or a synthetic description stands for
# (HETMAP_TOPOLOGY, read by it alone), 'calibrate' records the node's
# cores in the platform, and every launcher's files then bind the cores
# hwloc numbers: two packages whose cores the operating system numbers
# alternately, with two threads a core; cores the node does not allow
# (reserved); each thread as a core (--smt). The expected numbers follow
# from the topology: ranks spread over the packages take logical cores
# 0, 4, 1, 5, ... (Open MPI's rankfile names them so), which on the
# interleaved node are CPUs 0, 1, 2, 3, ... (what MPICH, Slurm and Intel
# MPI take). Hosts whose cores differ bind themselves. Then for real, in a cpuset cgroup leaving CPU 1 only: Open
# MPI's logical slot 0 and MPICH's user:1 both land on CPU 1, where the
# old assumption (core j is CPU j) missed. Skipped (77) without Open MPI;
# the cgroup part is skipped with a message where cpuset cannot be
# written.
set -u
. "$(dirname "$0")/lib.sh"
topo=$build/hetmap-topology
command -v mpirun.openmpi >/dev/null || skip "mpirun.openmpi missing (install openmpi-bin)"
quick=(--repeat 1 --min-time 0.01 --accept-unreliable --rows 128 --block-sizes 32 --all-busy-only --no-shapes)

# hetmap-topology alone: the node's cores, packages, threads, allowed CPUs
expect 0 '"core_cpus":[[0,8],[2,10],[4,12],[6,14],[1,9],[3,11],[5,13],[7,15]]' -- \
	env HETMAP_TOPOLOGY="$data/topology/interleaved-smt.xml" "$topo"
check "interleaved: 2 packages, 2 threads a core, 2 NUMA nodes" \
	grep -q '"packages":2,"numa_nodes":2,"threads_per_core":2,"allowed":"0-15"' "$tmp/out"
expect 0 '"allowed":"2-7,10-15","core_cpus":[[2,10],[4,12],[6,14],[3,11],[5,13],[7,15]]' -- \
	env HETMAP_TOPOLOGY="$data/topology/reserved-cores.xml" "$topo"
expect 0 '"core_cpus":[[0],[4],[1],[5],[2],[6],[3],[7]]' -- \
	env HETMAP_TOPOLOGY="pack:2 core:2 pu:2(indexes=0,4,1,5,2,6,3,7)" "$topo" --smt
expect 1 "hwloc cannot read HETMAP_TOPOLOGY" -- env HETMAP_TOPOLOGY="pack:two" "$topo"
# refused before hwloc loads it (its time grows with the square of the threads)
expect 1 "describes more than 16384 hardware threads" -- timeout 5 env HETMAP_TOPOLOGY="pack:100 core:100 pu:100" "$topo"
expect 2 "usage: hetmap-topology [--smt]" -- "$topo" --threads
expect 0 '"rank":3,"host":"n7"' -- env OMPI_COMM_WORLD_RANK=3 HETMAP_HOST=n7 "$topo"
# a rank written with leading zeros is no number JSON holds: none is taken
expect 0 '"rank":0,"host":"n7"' -- env OMPI_COMM_WORLD_RANK=007 HETMAP_HOST=n7 "$topo"

# files_check NAME PLATFORM SLOTS CPUS: each launcher's files for the plan
# using every core of PLATFORM (GU): Open MPI's rankfile names logical
# cores SLOTS, the others bind the CPU list CPUS
files_check() {
	local name=$1 plat=$2 slots=$3 cpus=$4
	for l in openmpi mpich slurm intelmpi; do
		expect 0 "" -- "$hm" plan -p "$plat" -n 4000 -M GU --launcher $l --launcher-version 4 \
			-o "$tmp/$name-$l"
	done
	check "$name: Open MPI's rankfile names logical cores $slots" \
		test "$(sed 's/.*slot=//' "$tmp/$name-openmpi/rankfile" | tr '\n' ' ')" = "$slots "
	check "$name: MPICH binds CPUs $cpus" grep -q -- "-bind-to user:$cpus " "$tmp/$name-mpich/run.sh"
	check "$name: Slurm binds CPUs $cpus" grep -q -- "--cpu-bind=map_cpu:$cpus " "$tmp/$name-slurm/run.sh"
	check "$name: Intel MPI pins CPUs $cpus" grep -q -- "I_MPI_PIN_PROCESSOR_LIST $cpus " "$tmp/$name-intelmpi/run.sh"
}
# calibrated NAME NODE OPTIONS...: calibrate this machine's two cores as
# if it were NODE (hetmap-topology reads NODE; the benchmark runs here,
# bound by Open MPI's rankfile: the sequential mapper's mpirun crashed
# now and then at its end on the local host, wrappers/README.md)
calibrated() {
	local name=$1 node=$2
	shift 2
	expect 0 "wrote $tmp/$name.json" -- "$hm" calibrate --hosts localhost:2 "${quick[@]}" "$@" \
		-o "$tmp/$name.json" -- -x "HETMAP_TOPOLOGY=$node"
}

# the chain: hwloc's view of the node, recorded by calibrate, bound by every
# launcher; this machine's two cores are the node's first two in hwloc's order
calibrated interleaved "$data/topology/interleaved-smt.xml"
check "interleaved: the platform records the first two cores, their threads, the NUMA nodes" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["processors"][0]
assert p["cores"] == 2 and "sockets" not in p, p
t = p["topology"]
assert t["core_cpus"] == [[0, 8], [2, 10]] and t["threads_per_core"] == 2 and t["numa_nodes"] == 2, t' \
	"$tmp/interleaved.json"
files_check interleaved "$tmp/interleaved.json" "0 1" 0,2
check "the plan carries the cores' CPUs" grep -q '"core_cpus"' "$tmp/interleaved-openmpi/plan.json"
calibrated reserved "$data/topology/reserved-cores.xml"
files_check reserved "$tmp/reserved.json" "0 1" 2,4
calibrated smt "pack:2 core:2 pu:2(indexes=0,4,1,5,2,6,3,7)" --smt
files_check smt "$tmp/smt.json" "0 1" 0,4
check "smt: Open MPI numbers hardware threads" grep -q -- "--use-hwthread-cpus" "$tmp/smt-openmpi/run.sh"
calibrated packages "pack:2 core:1 pu:2"
check "packages: two cores on two packages are 2 sockets" grep -q '"sockets":.2' "$tmp/packages.json"
# whole nodes (tests/data/good/two-sockets.json, one node at a time): ranks
# spread over the packages take logical cores 0, 4, 1, 5, ..., which the
# interleaved node numbers 0, 1, 2, 3, ...; the node with reserved cores
# has 6, CPUs 2-7
for n in 0 1; do
	python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
p["processors"] = [p["processors"][int(sys.argv[2])]]
json.dump(p, open(sys.argv[3], "w"))' "$data/good/two-sockets.json" $n "$tmp/node$n.json"
done
files_check node0 "$tmp/node0.json" "0 4 1 5 2 6 3 7" 0,1,2,3,4,5,6,7
files_check node1 "$tmp/node1.json" "0 3 1 4 2 5" 2,3,4,5,6,7
expect 0 "0,2,4,6,1,3,5,7" -- "$hm" platform show "$data/good/two-sockets.json"
# a node whose topology cannot be read stops calibrate (its binding would be guessed)
expect 7 "the hosts' topologies were not read" -- "$hm" calibrate --hosts localhost:1 "${quick[@]}" \
	-o "$tmp/none.json" -- -x HETMAP_TOPOLOGY=pack:two
check "nothing written" test ! -e "$tmp/none.json"
expect 0 "wrote $tmp/assumed.json" -- "$hm" calibrate --no-topology --hosts localhost:1 "${quick[@]}" \
	-o "$tmp/assumed.json"
check "--no-topology records none" bash -c '! grep -q topology "$1"' _ "$tmp/assumed.json"
expect 3 "not with --no-topology" -- "$hm" calibrate --smt --no-topology -o "$tmp/x.json"

# hosts whose cores differ (tests/data/good/two-sockets.json: n1 leaves a
# core of each package to the system): no one list fits, so MPICH, Slurm
# and Intel MPI bind none and each rank binds itself through hetmap-probe
# to its line of rank-cpus (Open MPI's rankfile names each rank's core)
for l in mpich:-bind-to\ none slurm:--cpu-bind=none intelmpi:'I_MPI_PIN 0'; do
	expect 0 "" -- "$hm" plan -p "$data/good/two-sockets.json" -n 8000 -M GU --launcher ${l%%:*} \
		--launcher-version 4 -o "$tmp/two-${l%%:*}"
	check "${l%%:*}: the launcher binds none" grep -q -- "${l#*:}" "$tmp/two-${l%%:*}/run.sh"
	check "${l%%:*}: ranks start through hetmap-probe, told where rank-cpus is" \
		grep -q 'HETMAP_RANK_CPUS.\{1,2\}"$here"/rank-cpus.*hetmap-probe' "$tmp/two-${l%%:*}/run.sh"
done
check "rank-cpus: n0's spread cores then n1's, with their threads" test "$(tr '\n' ' ' < "$tmp/two-mpich/rank-cpus")" = \
	"0,8 1,9 2,10 3,11 4,12 5,13 6,14 7,15 2,10 3,11 4,12 5,13 6,14 7,15 "
printf '0\n1\n' > "$tmp/cpus"
expect 0 '"cpus":"1"' -- env HETMAP_RANK_CPUS="$tmp/cpus" PMI_RANK=1 "$build/hetmap-probe" true
expect 0 "rank 2: not bound to its planned CPUs" -- env HETMAP_RANK_CPUS="$tmp/cpus" PMI_RANK=2 \
	"$build/hetmap-probe" true
expect 0 "not bound to its planned CPUs" -- env HETMAP_RANK_CPUS="$tmp/nonexistent" PMI_RANK=0 \
	"$build/hetmap-probe" true
# a line longer than the probe reads is refused whole, never bound in part
{ echo 0; seq -s, 0 1999; } > "$tmp/cpus-long"
expect 0 "rank 1: not bound to its planned CPUs ($tmp/cpus-long, its line: not a list of CPUs under 4096" -- \
	env HETMAP_RANK_CPUS="$tmp/cpus-long" PMI_RANK=1 "$build/hetmap-probe" true
expect 0 "no rank in OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK or SLURM_PROCID" -- \
	env -u OMPI_COMM_WORLD_RANK -u PMIX_RANK -u PMI_RANK -u SLURM_PROCID HETMAP_RANK_CPUS="$tmp/cpus" "$build/hetmap-probe" true

# ---- for real: a cpuset cgroup that leaves this machine's CPU 1 only ------
cg=/sys/fs/cgroup/cpuset/hetmap-test-$$
if [ "$(nproc)" -lt 2 ] || ! mkdir "$cg" 2>/dev/null; then
	echo "topology: no cpuset cgroup here (not root, cgroup v2, or one CPU): the real binding part skipped"
	finish topology
	exit
fi
cleanup() { rmdir "$cg" 2>/dev/null; }
echo 1 > "$cg/cpuset.cpus" && echo 0 > "$cg/cpuset.mems"
# in_cpuset COMMAND...: run it inside the cgroup (its children stay there)
in_cpuset() { sh -c 'echo $$ > "$0/tasks" && exec "$@"' "$cg" "$@"; }
expect 0 "localhost: 2 processes listed, but hwloc finds 1 core allowed there (CPUs 1): measuring 1" -- \
	in_cpuset "$hm" calibrate --hosts localhost:2 "${quick[@]}" -o "$tmp/cpu1.json"
expect 0 "" -- in_cpuset "$hm" calibrate --no-topology --hosts localhost:1 "${quick[@]}" -o "$tmp/cpu1-assumed.json"
launchers=openmpi
command -v mpiexec.mpich >/dev/null && launchers="openmpi mpich"
for l in $launchers; do
	expect 0 "" -- in_cpuset "$hm" run -p "$tmp/cpu1.json" -n 600 -M GU --launcher $l --results "$tmp/$l.jsonl"
	check "$l: rank 0 planned on CPU 1 and bound there" python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[-1])["placement"]
assert r["as_planned"] and r["ranks"][0]["planned_cpus"] == [1] and r["ranks"][0]["cpus"] == "1", r' "$tmp/$l.jsonl"
	# without the topology the plan names CPU 0, which the rank cannot have
	expect 0 "placement NOT as planned" -- in_cpuset "$hm" run -p "$tmp/cpu1-assumed.json" -n 600 -M GU \
		--launcher $l --results "$tmp/$l-assumed.jsonl"
done
finish topology
