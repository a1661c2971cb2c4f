#!/bin/bash
# Ranks x threads (models/README.md, "Ranks of t threads"): calibrate's
# --threads refusals; plans with threads (JSON, text, HU, a platform
# without speed-ups); real jobs of one rank of two threads under Open MPI
# and MPICH (where it ran, its thread variables); a plan whose ranks have
# different counts through a stand-in mpirun (rank-threads, the probe).
set -u
. "$(dirname "$0")/lib.sh"
thr=$data/good/localhost-threads.json

# ---- calibrate --threads: what it refuses ---------------------------------
for bad in 1 2,2 x 2,,4 1,2,3,4,5,6,7,8,9 5000; do
	expect 3 "--threads must be auto or list" -- "$hm" calibrate --threads "$bad" -o "$tmp/c.json"
done
expect 3 "not with a simulator nor --split-cores" -- "$hm" calibrate --threads 2 --split-cores -o "$tmp/c.json"
expect 3 "not with a simulator nor --split-cores" -- "$hm" calibrate --threads 2 --launcher smpi \
	-p "$data/good/mini.json" -o "$tmp/c.json"

# ---- calibrate --threads auto, for real: this machine's two cores ---------
if [ "$(nproc)" -ge 2 ]; then
	expect 0 "wrote" -- timeout 300 "$hm" calibrate --threads auto --no-shapes --all-busy-only --repeat 2 \
		--min-time 0.05 --accept-unreliable -o "$tmp/cal.json"
	check "auto asks the benchmark for teams of 2 (this machine's cores)" grep -q -- "--threads=2 " "$tmp/err"
	check "the type has speed-ups at 2 threads, every group at every b, and the record says on how many ranks" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
t = list(p["types"].values())[0]["threads"]["2"]
assert sorted(t) == ["dgemm", "dtrsm", "panel"], t
assert all(sorted(map(int, v)) == p["block_sizes"] and all(0 < s <= 4 for s in v.values()) for v in t.values()), t
r = p["calibration"]["thread_speedups"][0]
assert r["threads"] == 2 and r["leaders"] == 1 and r["one_thread_ranks"] == 2, r' "$tmp/cal.json"
	expect 0 "splits of the cores into ranks x threads priced (all)" -- "$hm" plan -p "$tmp/cal.json" -n 2000
else
	echo "threads: one core here: calibrate --threads auto not run"
fi

# ---- plans with threads ----------------------------------------------------
expect 0 "node:1x2t extra:1" -- "$hm" plan -p "$thr" -M HU -n 1000
"$hm" plan -p "$thr" -M HU -n 1000 -o "$tmp/hu.json" >/dev/null 2>&1
check "HU's plan: node's rank has 2 threads, extra's none written" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
assert [e.get("threads", 1) for e in p["processes"]] == [2, 1], p["processes"]
assert "threads" not in p["processes"][1] and p["D"] == 2' "$tmp/hu.json"
"$hm" plan -p "$thr" -M exact -n 3000 -f json > "$tmp/exact.json" 2>/dev/null
check "exact prices every split (node 1 or 2 threads)" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["plan"]["search"]
assert s["thread_splits"] == 2 and s["thread_splits_all"] is True, s' "$tmp/exact.json"
expect 0 "2 splits of the cores into ranks x threads priced (all)" -- "$hm" plan -p "$thr" -M GPTM -n 3000
# ranks of threads never share cores: predict refuses two of two threads on node's two cores
expect 3 "need 4 cores, it has 2 (ranks of threads never share cores)" -- \
	"$hm" predict -p "$thr" -n 1000 --procs node=2 --threads node=2
expect 0 "predicted" -- "$hm" predict -p "$thr" -n 1000 --procs node=1,extra=1 --threads node=2
# a node of 4 cores on 2 sockets whose type knows no threads: HU cannot price it
expect 3 "has no thread speed-ups" -- "$hm" plan -p "$data/good/two-sockets.json" -M HU -n 2000
expect 0 "" -- "$hm" compare -p "$thr" -n 2000 -M GU,HU,exact

# ---- one rank of two threads, for real -------------------------------------
res=$tmp/r.jsonl
one=$tmp/one.json
python3 - "$thr" "$one" <<'PY'
import json, sys
p = json.load(open(sys.argv[1]))
p["processors"] = p["processors"][:1]       # this machine's two cores only
del p["types"]["core"]
json.dump(p, open(sys.argv[2], "w"))
PY
expect 0 "placement as planned" -- timeout 120 "$hm" run -p "$one" -M HU -n 600 --results "$res" -o "$tmp/job"
check "the rankfile binds the rank to cores 0-1" grep -qx "rank 0=localhost slot=0-1" "$tmp/job/rankfile"
check "run.sh gives it two BLAS and OpenMP threads" \
	grep -q -- "-x OPENBLAS_NUM_THREADS=2 -x OMP_NUM_THREADS=2" "$tmp/job/run.sh"
check "the record: planned CPUs 0 and 1, the rank on them" python3 -c '
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1])
r = rec["placement"]["ranks"][0]
assert r["planned_cpus"] == [0, 1] and r["core_ok"] is True, r' "$res"
if command -v mpiexec.mpich >/dev/null && [ -x "$build/hetmap-driver-mpich" ]; then
	expect 0 "placement as planned" -- timeout 120 "$hm" run -p "$one" -M HU -n 600 --launcher mpich \
		--results "$res" -o "$tmp/job-mpich"
	check "Hydra binds the rank to CPUs 0+1" grep -q -- "-bind-to user:0+1 " "$tmp/job-mpich/run.sh"
	check "Hydra gives it two threads" grep -q -- "-genv OPENBLAS_NUM_THREADS 2" "$tmp/job-mpich/run.sh"
else
	echo "threads: MPICH's launcher or hetmap's MPICH driver missing: its binding of threads not run"
fi

# ---- ranks of different thread counts: each sets its own through the probe -
cat > "$tmp/mpirun" <<'SH'
#!/bin/bash
if [ "$1" = --version ]; then echo "mpirun (Open MPI) 4.1.4"; exit 0; fi
echo '{"hetmap_driver":1,"seconds":0.25,"check":{"kind":"test","passed":true},"ranks":[]}'
SH
chmod +x "$tmp/mpirun"
"$hm" run --plan "$tmp/hu.json" --mpirun "$tmp/mpirun" --results "$res" -o "$tmp/mixed" >/dev/null 2>&1
check "rank-threads: 2 then 1" test "$(cat "$tmp/mixed/rank-threads")" = "$(printf '2\n1')"
check "run.sh starts each rank through the probe, with its file" \
	grep -q 'HETMAP_RANK_THREADS="$here"/rank-threads.*hetmap-probe' "$tmp/mixed/run.sh"
check "the rankfile: cores 0-1, then core 2" \
	test "$(cat "$tmp/mixed/rankfile")" = "$(printf 'rank 0=localhost slot=0-1\nrank 1=localhost slot=2')"
expect 3 "not with --no-placement-check" -- "$hm" run --plan "$tmp/hu.json" --mpirun "$tmp/mpirun" \
	--results "$res" --no-placement-check
printf '4\n7\nx\n' > "$tmp/threads"
check "the probe sets rank 1's count" test "$(OMPI_COMM_WORLD_RANK=1 HETMAP_RANK_THREADS=$tmp/threads \
	"$build/hetmap-probe" sh -c 'echo $OPENBLAS_NUM_THREADS $OMP_NUM_THREADS' | tail -1)" = "7 7"
expect 0 "no thread count on its line" -- env OMPI_COMM_WORLD_RANK=2 HETMAP_RANK_THREADS=$tmp/threads \
	"$build/hetmap-probe" true

finish threads
