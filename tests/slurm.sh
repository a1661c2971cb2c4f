#!/bin/bash
# Slurm for real, on this machine: munged, slurmctld and slurmd started
# here with a one-node configuration (this host, its CPUs) and stopped at
# the end; then 'hetmap run --launcher slurm' inside salloc runs Debian's
# xdlu through srun (SLURM_HOSTFILE, --distribution=arbitrary,
# --cpu-bind=map_cpu) and the record is checked, also for a topology that
# numbers the cores the other way round. Also: the plan must fit
# the allocation, and srun outside an allocation is refused. Skipped
# (exit 77) when slurm-wlm/munge or xdlu are missing or the daemons do
# not start here.
set -u
. "$(dirname "$0")/lib.sh"
xdlu=/usr/lib/x86_64-linux-gnu/scalapack/openmpi-tests/xdlu
for p in slurmctld slurmd salloc srun munged; do
	command -v $p >/dev/null || skip "$p missing (install slurm-wlm munge)"
done
[ -x "$xdlu" ] || skip "xdlu missing (install scalapack-mpi-test)"
[ "$(id -u)" = 0 ] || skip "not root (the test starts slurmd)"

# Slurm's daemons, one node (this host, its CPUs), stopped by 'cleanup'
. "$root/tests/slurm_here.sh"

# the plan must name the node as Slurm does
sed "s/\"localhost\"/\"$host\"/g" "$data/good/localhost.json" > "$tmp/plat.json"
res=$tmp/slurm.jsonl
# (n = 900: xdlu prints its time to 0.01 s, and a time below that is no measurement)
expect 0 "placement as planned" -- timeout 180 salloc -n 2 "$hm" run -p "$tmp/plat.json" -n 900 -M GU \
	--launcher slurm --launcher-args "--mpi=pmix" -o "$tmp/job" --results "$res" -- "$xdlu"
check "srun with the hostfile, arbitrary distribution and the core map" \
	grep -q -- "srun --distribution=arbitrary -n 2 --cpu-bind=map_cpu:0,1 --export=ALL,OPENBLAS_NUM_THREADS=1,OMP_NUM_THREADS=1,HETMAP_N=900" "$tmp/err"
check "run.sh exports SLURM_HOSTFILE beside it" grep -q '^SLURM_HOSTFILE="$here"/hostfile' "$tmp/job/run.sh"
check "the record: xdlu passed, its own time, the launcher" python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert r["program"]["verdict"] == "passed" and r["measured_s"] is not None
assert r["launcher"]["name"] == "slurm" and r["launcher"]["version"].startswith("slurm")
assert r["placement"]["reported"] == 2 and r["placement_as_planned"]' "$res"
expect 0 "PASSED" -- timeout 120 salloc -n 2 "$tmp/job/run.sh"
# one task of two BLAS threads (HU on the node of two cores): a mask of both
# cores, --cpus-per-task, the thread variables; bound where planned
python3 - "$data/good/localhost-threads.json" "$host" "$tmp/threads.json" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["processors"] = [dict(p["processors"][0], host=sys.argv[2])]
del p["types"]["core"]
json.dump(p, open(sys.argv[3], "w"))
PY
expect 0 "placement as planned" -- timeout 180 salloc -n 1 -c 2 "$hm" run -p "$tmp/threads.json" -n 600 -M HU \
	--launcher slurm --launcher-args "--mpi=pmix" -o "$tmp/job-threads" --results "$res" -- "$xdlu"
check "srun binds the task to both cores, two CPUs a task, two threads" \
	grep -q -- "--cpu-bind=mask_cpu:0x3 --cpus-per-task=2 --export=ALL,OPENBLAS_NUM_THREADS=2,OMP_NUM_THREADS=2," "$tmp/err"
expect 3 "which is not in the allocation" -- timeout 60 salloc -n 2 "$hm" run -p "$data/good/localhost.json" \
	-n 600 -M GU --launcher slurm --results "$res" -- "$xdlu"
# calibrate inside the allocation measures its nodes and CPUs, no --hosts
expect 0 "the Slurm allocation's nodes and CPUs: $host:2" -- timeout 180 salloc -n 2 "$hm" calibrate \
	--repeat 1 --min-time 0.01 --accept-unreliable --block-sizes 32 --all-busy-only --no-shapes -o "$tmp/cal.json"
expect 0 "ok (calibrated, 1 processor," -- "$hm" platform check "$tmp/cal.json"
check "calibrate read the node's topology through the launcher" grep -q '"core_cpus"' "$tmp/cal.json"
# map_cpu takes the operating system's CPU numbers (srun binds CPU_SET(id),
# wrappers/README.md): processors whose cores hwloc numbered 1 and 0 get
# map_cpu:1,0, and the probe finds rank 0 on CPU 1
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
for proc, cpu in zip(p["processors"], (1, 0)):
    proc["topology"] = {"core_cpus": [[cpu]]}
json.dump(p, open(sys.argv[2], "w"))' "$tmp/plat.json" "$tmp/swapped.json"
expect 0 "placement as planned" -- timeout 180 salloc -n 2 "$hm" run -p "$tmp/swapped.json" -n 600 -M GU \
	--launcher slurm --launcher-args "--mpi=pmix" --results "$res" -- "$xdlu"
check "srun binds by the topology's CPU numbers" grep -q -- "--cpu-bind=map_cpu:1,0 " "$tmp/err"
check "rank 0 reported on CPU 1" python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[-1])["placement"]["ranks"]
assert r[0]["cpus"] == "1" and r[1]["cpus"] == "0", r' "$res"
# calibrate through srun itself (a site with no mpirun)
expect 0 "srun --distribution=arbitrary" -- timeout 180 salloc -n 2 "$hm" calibrate --launcher slurm \
	--launcher-args "--mpi=pmix" --repeat 1 --min-time 0.01 --accept-unreliable --block-sizes 32 \
	--all-busy-only --no-shapes -o "$tmp/cal-srun.json"
expect 0 "ok (calibrated, 1 processor," -- "$hm" platform check "$tmp/cal-srun.json"

# a user's own program (tests/clients/user_pdgesv.c) under srun: its time
# from the MPI span, and the report's launcher
if mpicc.openmpi -O2 -o "$tmp/user" "$root/tests/clients/user_pdgesv.c" -lscalapack-openmpi 2>/dev/null; then
	expect 0 "MPI_Init to MPI_Finalize" -- timeout 180 salloc -n 2 "$hm" run -p "$tmp/plat.json" -n 1200 \
		--launcher slurm --launcher-args "--mpi=pmix" --results "$tmp/user.jsonl" -- "$tmp/user" {n} {b} {r} {c}
	expect 0 "slurm" -- "$hm" report "$tmp/user.jsonl"
	check "the report's row: slurm, measured by the MPI span" grep -q "slurm .* mpi-span" "$tmp/out"
else
	echo "slurm: the user's program not built (mpicc.openmpi, libscalapack-openmpi-dev): skipped"
fi

# sbatch: the launch directory's batch script runs the plan as a batch job
expect 0 "" -- "$hm" plan -p "$tmp/plat.json" -n 900 -M GU --launcher slurm --launcher-args "--mpi=pmix" \
	-o "$tmp/batch" -- "$xdlu"
check "sbatch.sh asks the plan's node" grep -q "^#SBATCH --nodelist=$host$" "$tmp/batch/sbatch.sh"
check "sbatch.sh asks a time limit from the prediction" grep -q "^#SBATCH --time=[0-9][0-9]*$" "$tmp/batch/sbatch.sh"
expect 0 "Submitted batch job" -- env HETMAP_RESULTS="$tmp/batch.jsonl" timeout 180 sbatch --wait \
	-o "$tmp/batch.out" "$tmp/batch/sbatch.sh"
check "the batch job ran xdlu with the plan" grep -q "PASSED" "$tmp/batch.out"
check "the batch job's run is recorded" python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][-1]
assert r["launcher"]["name"] == "slurm" and r["program"]["verdict"] == "passed", r' "$tmp/batch.jsonl"
# this machine as a calibration names it (localhost) is asked by Slurm's name for it
expect 0 "" -- "$hm" plan -p "$data/good/localhost.json" -n 900 --launcher slurm -o "$tmp/batch-local" \
	--batch-time 7 -- "$xdlu"
check "localhost is asked as Slurm names it" grep -q "^#SBATCH --nodelist=$(hostname -s)$" "$tmp/batch-local/sbatch.sh"
check "--batch-time gives the limit" grep -q "^#SBATCH --time=7$" "$tmp/batch-local/sbatch.sh"

# host lists: hetmap's reading agrees with Slurm's own (scontrol)
# (the forms Slurm takes: a name after the last group, 'n[1-2]-ib', it refuses)
for list in 'rack[1-2]-n[01-04]' 'n[01-03,7],gpu1' 'lx[10,20-22]' 'a[1-2]b[3,5]' 'tux0,rack[1-2]-n[1-2]'; do
	check "host list $list read as scontrol does" \
		diff <(scontrol show hostnames "$list") <("$build/tests/slurm_hostlist" "$list")
done

# no -p inside an allocation: the allocation, calibrated once and cached under its own name
expect 0 "calibrating this Slurm allocation once" -- timeout 300 salloc -n 2 env -u HETMAP_PLATFORM \
	XDG_CACHE_HOME="$tmp/cache-alloc" "$hm" plan -n 900
check "cached as the allocation's" bash -c 'ls "$1"/hetmap/slurm-*.json' _ "$tmp/cache-alloc"

# the judge's simulations as steps of the allocation: two CPUs, two at once
if [ -x "$build/hetmap-driver-smpi" ] && command -v smpirun >/dev/null; then
	expect 0 "at a time (Slurm steps)" -- timeout 300 salloc -n 2 "$hm" plan -p "$data/smpi4.json" -n 1500 \
		--judge 2 --judge-dir "$tmp/judge-slurm" -o "$tmp/judged-slurm.json"
	check "judged through Slurm steps, two at once, each a step of the allocation" python3 -c '
import json, os, sys
j = json.load(open(sys.argv[1]))["judge"]
assert j["launcher"] == "slurm" and j["jobs"] == 2 and j["decided_by"] == "simulator", j
ran = [c for c in j["candidates"] if c["status"] == "simulated"]
assert len(ran) >= 2, j
spans = [(c["started_s"], c["started_s"] + c["wall_s"]) for c in ran]
assert any(a[0] < b[1] and b[0] < a[1] for i, a in enumerate(spans) for b in spans[i + 1:]), spans
for f in os.listdir(sys.argv[2]):
    if f.endswith(".jsonl"):
        rec = json.loads(open(os.path.join(sys.argv[2], f)).read().splitlines()[-1])
        assert rec.get("slurm_step") is not None and rec.get("slurm_job"), (f, rec.get("slurm_step"))' \
		"$tmp/judged-slurm.json" "$tmp/judge-slurm"
	# Ctrl-C (SIGINT) and SIGTERM reach the steps through srun: nothing left running, the records kept
	for sig in INT TERM; do
		rm -rf "$tmp/judge-sig"
		timeout 300 salloc -n 2 "$hm" plan -p "$data/smpi4.json" -n 3000 --judge 3 --judge-dir "$tmp/judge-sig" \
			-o "$tmp/sig.json" >/dev/null 2>"$tmp/judge-sig.err" &
		pid=$!
		for i in $(seq 300); do grep -q "as a Slurm step" "$tmp/judge-sig.err" 2>/dev/null && break; sleep 0.1; done
		pkill -$sig -f -- "--judge-dir $tmp/judge-sig "
		wait $pid
		rc=$?
		check "judge via Slurm, SIG$sig: exit $((128 + $(kill -l $sig))) (got $rc)" test $rc -eq $((128 + $(kill -l $sig)))
		check "judge via Slurm, SIG$sig: no step or simulation left" sh -c \
			'! pgrep -f "$0" >/dev/null && [ -z "$(squeue -h -s 2>/dev/null)" ]' "$tmp/judge-sig/[c]0"
		check "judge via Slurm, SIG$sig: the records kept, said where" grep -q "the records are in $tmp/judge-sig" \
			"$tmp/judge-sig.err"
	done
	expect 0 "at a time (on this machine)" -- timeout 300 salloc -n 2 "$hm" plan -p "$data/smpi4.json" -n 1500 \
		--judge 1 --judge-launcher local -o "$tmp/judged-local.json"
	expect 3 "--judge-launcher slurm: not inside a Slurm allocation" -- env -u SLURM_JOB_NODELIST \
		"$hm" plan -p "$data/smpi4.json" -n 1500 --judge 1 --judge-launcher slurm
	expect 3 "--judge-launcher must be one of local, slurm" -- "$hm" plan -p "$data/smpi4.json" -n 1500 \
		--judge 1 --judge-launcher pbs
else
	echo "slurm: the SMPI flavour is not built: the judge through Slurm not tested"
fi

expect 3 "not inside a Slurm allocation" -- env -u SLURM_JOB_NODELIST "$hm" run -p "$tmp/plat.json" -n 600 \
	-M GU --launcher slurm --results "$res" -- "$xdlu"
finish slurm
