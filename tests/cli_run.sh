#!/bin/bash
# 'hetmap run' and 'hetmap calibrate' end to end on localhost with real
# mpirun and ScaLAPACK: a planned run passes its check and records
# predicted and measured times; ranks land where the plan put them; a
# saved plan runs the same; launcher files for every launcher; failures
# (no mpirun, crashing rank, timeout, SIGINT) give their exit codes and
# leave the results file valid JSON Lines; calibration writes a platform
# that plans.
set -u
. "$(dirname "$0")/lib.sh"
jsonl_check=$build/tests/jsonl_check
plat=$data/good/localhost.json
res=$tmp/results.jsonl

expect 0 "usage: hetmap run" -- "$hm" run --help
expect 0 "usage: hetmap calibrate" -- "$hm" calibrate --help

# planned LU and GEMM runs
expect 0 "record appended to $res" -- "$hm" run -p "$plat" -n 600 -M BTM -d 4 --results "$res"
expect 0 "record appended" -- "$hm" run -p "$plat" -r gemm -n 400 -M GU --results "$res"
check "two records with predicted and measured times" \
	test "$(grep -c '"predicted_s":[0-9.e-]*,"measured_s":[0-9.e-]*' "$res")" -eq 2
check "check passed in the records" test "$(grep -c '"passed":true' "$res")" -eq 2
check "placement as planned" test "$(grep -c '"placement_as_planned":true' "$res")" -eq 2
check "each record holds the load on its ranks' cores, per host, as calibrate measures it" python3 -c '
import json, socket, sys
for line in open(sys.argv[1]):
    load = json.loads(line)["load"]
    assert 0 <= load["share_largest"] <= 1 and load["share_largest"] == max(load["hosts"].values()), load
    assert list(load["hosts"]) == [socket.gethostname()], load' "$res"
check "a record says each rank once: no plan.ranks, the driver's ranks as runs" python3 -c '
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    assert "ranks" not in r["plan"] and "processes" in r["plan"], r["plan"].keys()
    runs = r["driver"]["rank_runs"]
    assert sum(x["count"] for x in runs) == r["plan"]["D"] and runs[0]["first"] == 0, runs' "$res"

# the rankfile binds rank k to its processor's core: cpu0 -> core 0, cpu1 -> core 1
expect 0 "" -- "$hm" plan -p "$plat" -n 600 -M GU --launcher openmpi -o "$tmp/launch"
check "rankfile of the plan" grep -qx "rank 1=localhost slot=1" "$tmp/launch/rankfile"
expect 0 '"passed":true' -- "$hm" run --plan "$tmp/launch/plan.json" --results "$res"
check "rank 0 on core 0, rank 1 on core 1" grep -q '"rank":0,"host":"[^"]*","cpus":"0",.*"rank":1,"host":"[^"]*","cpus":"1"' "$tmp/out"

# every launcher writes its file and an executable run.sh (the thesis's
# model: its TORC plan, 4 x 4 at b = 32, is the one these files are checked for)
for l in openmpi:rankfile openmpi-seq:seqfile mpich:machinefile slurm:hostfile intelmpi:machinefile; do
	expect 0 "written to $tmp/l-${l%%:*}/" -- "$hm" plan -p builtin:torc -n 2048 -M BTM -d 20 -m thesis --launcher "${l%%:*}" -o "$tmp/l-${l%%:*}"
	check "$l file" test -s "$tmp/l-${l%%:*}/${l#*:}"
	# (MPICH's own flavour of the driver, linked with it)
	driver=hetmap-driver
	[ "${l%%:*}" = mpich ] && driver=hetmap-driver-mpich
	check "$l run.sh" grep -q "$driver --routine lu -n 2048 -b 32 -r 4 -c 4 --seed 1" "$tmp/l-${l%%:*}/run.sh"
	check "$l run.sh is executable" test -x "$tmp/l-${l%%:*}/run.sh"
	check "$l run.sh names its file beside it" grep -q "\"\$here\"/${l#*:}" "$tmp/l-${l%%:*}/run.sh"
done
check "slurm: SLURM_HOSTFILE beside run.sh" grep -q '^SLURM_HOSTFILE="$here"/hostfile; export SLURM_HOSTFILE' "$tmp/l-slurm/run.sh"
check "intelmpi: -machinefile" grep -q -- "-machinefile" "$tmp/l-intelmpi/run.sh"
# a program whose BLACS grid is column-major gets the ranks reordered so
# that every grid position keeps its planned processor
expect 0 "" -- "$hm" run -p builtin:torc -n 2048 -M BTM -d 20 -m thesis --dry-run -o "$tmp/row" -- /bin/true
expect 0 "" -- "$hm" run -p builtin:torc -n 2048 -M BTM -d 20 -m thesis --dry-run -o "$tmp/col" --grid-order column -- /bin/true
check "column-major: rank i + j r holds row-major rank i c + j" python3 -c '
import sys
def hosts(path): return [l.split("=")[1].split()[0] for l in open(path)]
row, col = hosts(sys.argv[1]), hosts(sys.argv[2])
r = c = 4
assert len(row) == 16 and sorted(row) == sorted(col)
assert all(col[i + j * r] == row[i * c + j] for i in range(r) for j in range(c))
assert row != col' "$tmp/row/rankfile" "$tmp/col/rankfile"
check "HETMAP_GRID_ORDER=column reaches the ranks" grep -q "HETMAP_GRID_ORDER=column" "$tmp/col/run.sh"
# HPL.dat (hpl) and hpccinf.txt (hpcc) are one template: the lines HPL reads agree
expect 0 "" -- "$hm" run -p builtin:torc -n 2048 -M BTM -d 20 -m thesis --dry-run -o "$tmp/hpl" --profile hpl -- /bin/true
expect 0 "" -- "$hm" run -p builtin:torc -n 2048 -M BTM -d 20 -m thesis --dry-run -o "$tmp/hpcc" -- hpcc
check "HPL.dat: N, NB, P, Q of the plan, row-major PMAP" test "$(sed -n '6p;8p;9p;11p;12p' "$tmp/hpl/HPL.dat" | awk '{print $1}' | tr '\n' ' ')" = "2048 32 0 4 4 "
check "hpccinf.txt: HPL.dat's lines, then PTRANS's" test "$(sed -n '5,31p' "$tmp/hpl/HPL.dat")" = "$(sed -n '5,31p' "$tmp/hpcc/hpccinf.txt")"
check "hpccinf.txt has 36 lines" test "$(wc -l < "$tmp/hpcc/hpccinf.txt")" -eq 36
# files for another machine: the program need not exist here; a relative
# path is made absolute (the job runs in its directory); --input rendered
printf 'n={n}\n' > "$tmp/params.tmpl"
expect 0 "run.sh written to $tmp/far/" -- env -C "$tmp" "$hm" plan -p builtin:torc -n 2048 -M BTM -d 20 -m thesis --launcher mpich \
	--launcher-version 4 -o "$tmp/far" --input "$tmp/params.tmpl:params.txt" -- ./solver -n {n} -nb {b}
check "run.sh names the program by its absolute path, with the plan's values" \
	grep -q " $tmp/solver -n 2048 -nb 32\$" "$tmp/far/run.sh"
check "the input rendered beside it" grep -qx "n=2048" "$tmp/far/params.txt"
expect 3 "need --launcher L -o DIR" -- "$hm" plan -p builtin:torc --input "$tmp/params.tmpl"
check "mpich machinefile pairs" grep -qx "node001:2" "$tmp/l-mpich/machinefile"
check "seq file: 16 ranks" test "$(wc -l < "$tmp/l-openmpi-seq/seqfile")" -eq 16
expect 3 "unknown launcher 'pbs'" -- "$hm" plan --launcher pbs -o "$tmp/x"
expect 3 "--launcher needs -o DIR" -- "$hm" plan --launcher mpich
expect 3 "'hetmap plan --launcher' writes the others' files" -- "$hm" run -p "$plat" --launcher intelmpi --dry-run

# dry run, and --launcher-args reach mpirun as separate words
expect 0 "--display-map -x" -- "$hm" run -p "$plat" -n 300 --dry-run --launcher-args "--display-map  -x FOO=1"
expect 3 "the program and its arguments go after '--'" -- "$hm" run -p "$plat" stray
# a configuration by hand, HPL.dat's way: what is given runs, the rest is the model's best
expect 0 "-b 100 -r 2 -c 1" -- "$hm" run -p "$plat" -n 1500 --procs 1,1 --grid 2x1 -b 100 --dry-run
check "between measured block sizes, b is interpolated and said" grep -q "lies between localhost's measured block sizes 64 and 128" "$tmp/err"
expect 0 "-r 1 -c 1" -- "$hm" run -p "$plat" -n 1500 --procs cpu1=1 --dry-run -o "$tmp/hand"
check "by hand, the plan says so" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
assert p["method"] == "hand" and p["d"] == [0, 1], p' "$tmp/hand/plan.json"
expect 3 "--procs has 1 entries, the platform has 2 processors" -- "$hm" run -p "$plat" -n 1500 --procs 2 --dry-run
expect 3 "give --plan or --procs, not both" -- "$hm" run -p "$plat" --procs 1,1 --plan "$tmp/none.json"
expect 3 "-p is not used with --plan" -- "$hm" run -p "$plat" --plan "$tmp/none.json"
# launcher options that fight the plan's placement: refused before any work, named
expect 3 "launcher option '--map-by' chooses where ranks go" -- "$hm" run -p "$plat" -n 300 \
	--results "$tmp/fight.jsonl" --launcher-args "--map-by socket"
check "a refused launcher option runs nothing" test ! -e "$tmp/fight.jsonl"
expect 3 "launcher option '--bind-to=core'" -- "$hm" plan -p "$plat" -n 300 --launcher openmpi -o "$tmp/fight" \
	--launcher-args "--bind-to=core"
expect 3 "launcher option '-n4'" -- "$hm" run -p "$plat" -n 300 -L slurm --launcher-args "--exclusive -n4"
expect 3 "launcher option '-ppn'" -- "$hm" run -p "$plat" -n 300 -L mpich --launcher-args "-ppn 2"
expect 3 "launcher option '-np' chooses" -- "$hm" calibrate --hosts localhost:2 -o "$tmp/fight.json" -- -np 4

# failures: codes, messages, and a results file that stays valid
expect 8 "not found" -- "$hm" run -p "$plat" -n 300 --mpirun "$tmp/no-such-mpirun" --results "$res"
printf '#!/bin/sh\nkill -SEGV $$\n' > "$tmp/crash"; chmod +x "$tmp/crash"
expect 7 "the job exited with status" -- "$hm" run -p "$plat" -n 300 --results "$res" -- "$tmp/crash"
# a program that fails is said to fail, with its last lines, and no advice about its time
printf '#!/bin/sh\necho "grid needs 4 ranks" >&2\nexit 3\n' > "$tmp/fails"; chmod +x "$tmp/fails"
expect 7 "the program $tmp/fails failed" -- "$hm" run -q -p "$plat" -n 300 --results "$res" -- "$tmp/fails"
check "its last lines are said" grep -q "grid needs 4 ranks" "$tmp/err"
check "no advice about the time of a failed job" sh -c "! grep -q 'print a line' '$tmp/err'"
check "-q: no probe line among the program's" sh -c "! grep -q 'hetmap-probe {' '$tmp/out' '$tmp/err'"
check "the probe's lines are in the record" python3 -c '
import json, sys
r = [json.loads(l) for l in open(sys.argv[1])][-1]
assert r["placement"]["reported"] == 2, r["placement"]' "$res"
# launch directories: a failed job's kept and said, a successful one's removed unless
# the program left its own files there
mkdir -p "$tmp/runs"
expect 7 "the failed job's files are kept in $tmp/runs/hetmap-run-" -- env TMPDIR="$tmp/runs" "$hm" run -q -p "$plat" \
	-n 300 --results "$res" -- "$tmp/fails"
rm -rf "$tmp/runs"/*
printf '#!/bin/sh\necho "hetmap-time: 0.5"\n' > "$tmp/succeeds"; chmod +x "$tmp/succeeds"
expect 0 "" -- env TMPDIR="$tmp/runs" "$hm" run -q -p "$plat" -n 300 --results "$res" -- "$tmp/succeeds"
check "a successful run leaves no launch directory" test -z "$(ls "$tmp/runs")"
printf '#!/bin/sh\necho "hetmap-time: 0.5"\ntouch its-output.txt\n' > "$tmp/writes"; chmod +x "$tmp/writes"
expect 0 "the program's own files are kept in $tmp/runs/hetmap-run-" -- env TMPDIR="$tmp/runs" "$hm" run \
	-p "$plat" -n 300 --results "$res" -- "$tmp/writes"
check "only the program's own file stays" test "$(ls "$tmp"/runs/hetmap-run-*)" = its-output.txt
# the launcher failing before any rank started is the launcher's failure
expect 7 "no rank started" -- "$hm" run -p "$plat" -n 300 --results "$res" --launcher-args "--mca plm no_such_plm" \
	-- "$tmp/fails"
expect 9 "timeout" -- "$hm" run -p "$plat" -n 9000 -M GU --timeout 1 --results "$res"
"$hm" run -p "$plat" -n 9000 -M GU --results "$res" >/dev/null 2>"$tmp/int-err" &
pid=$!
sleep 1.5
kill -INT $pid
wait $pid
check "SIGINT gives 130" test $? -eq 130
sleep 1
check "no driver left after SIGINT" test -z "$(pgrep -f "hetmap-driver --routine lu -n 9000" || true)"
check "interrupted record" grep -q '"mpirun_status":"interrupted"' "$res"
expect 0 "11 records" -- "$jsonl_check" "$res" 11
expect 2 "cannot open: No such file" -- "$hm" run --plan "$tmp/none.json"
echo '{"hetmap_plan":1,"inputs":{"routine":"lu","n":100},"plan":{"found":true,"method":"X","D":2,"r":1,"c":3,"b":8}}' > "$tmp/bad-plan.json"
expect 2 "grid 1 x 3 does not hold D = 2 processes" -- "$hm" run --plan "$tmp/bad-plan.json"

# calibration on localhost: a platform that hetmap accepts and plans with
expect 0 "calibrate: wrote $tmp/cal.json" -- "$hm" calibrate --hosts localhost:2 --repeat 3 --block-sizes 32,64 --accept-unreliable -o "$tmp/cal.json"
expect 0 "ok (calibrated, 1 processor," -- "$hm" platform check "$tmp/cal.json"
# one core alone measured dgemm again (the busy-cores scale): its ratio is kept
check "the node's dgemm alone over all busy is recorded" grep -q '"dgemm_alone_over_all_busy"' "$tmp/cal.json"
check "one processor per node, with its cores" grep -q '"cores":[[:space:]]*2' "$tmp/cal.json"
expect 0 "" -- "$hm" calibrate --hosts localhost:2 --repeat 1 --min-time 0.01 --accept-unreliable --block-sizes 32 --split-cores -o "$tmp/cal2.json"
expect 0 "ok (calibrated, 2 processors" -- "$hm" platform check "$tmp/cal2.json"
# -q: not a line of progress, the benchmark's own included (a doubt about the
# measurements is a warning, which -q keeps: this machine may be busy)
expect 0 "" -- "$hm" calibrate -q --hosts localhost:2 --repeat 1 --min-time 0.01 --accept-unreliable --block-sizes 32 \
	--no-shapes -o "$tmp/calq.json"
check "calibrate -q: no progress line" bash -c '! grep -v "calibrate: warning: " "$1" | grep -q "calibrate: "' _ "$tmp/err"
check "split cores measure no busy-cores scale" sh -c "! grep -q dgemm_alone '$tmp/cal2.json'"
check "inter-node class marked as not measured" grep -q '"inter_node"' "$tmp/cal.json"
expect 0 "record appended" -- "$hm" run -p "$tmp/cal.json" -n 500 -M BTM -d 4 --results "$res"
# the hosts of a hostfile (Open MPI's form; test_launch reads MPICH's too)
printf '# this machine\nlocalhost slots=2\n' >"$tmp/hostfile"
expect 0 "calibrate: the hosts of $tmp/hostfile: localhost:2" -- "$hm" calibrate --hostfile "$tmp/hostfile" \
	--repeat 1 --min-time 0.01 --accept-unreliable --block-sizes 32 --all-busy-only --no-shapes -o "$tmp/cal3.json"
expect 0 "ok (calibrated, 1 processor," -- "$hm" platform check "$tmp/cal3.json"
expect 3 "give --hosts or --hostfile, not both" -- "$hm" calibrate --hosts localhost --hostfile "$tmp/hostfile" -o "$tmp/c.json"
printf 'localhost slots=two\n' >"$tmp/bad-hostfile"
expect 2 "line 1: 'slots=two' needs a count" -- "$hm" calibrate --hostfile "$tmp/bad-hostfile" -o "$tmp/c.json"
expect 3 "host name 'a;b' has character ';'" -- "$hm" calibrate --hosts 'a;b' -o "$tmp/c.json"
expect 3 "needs a count in [1, 1024]" -- "$hm" calibrate --hosts localhost:0 -o "$tmp/c.json"
expect 3 "-o FILE is required" -- "$hm" calibrate
expect 3 "--block-sizes must be a list" -- "$hm" calibrate --block-sizes '32;64' -o "$tmp/c.json"
# what the measurements say, checked: the samples the first calibration took,
# each kernel's spread over 1.5x (a machine whose load came and went), given
# to calibrate by a stand-in benchmark; the platform is kept aside, exit 11
python3 - "$tmp/cal.json" "$tmp/raw.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
rec = doc["calibration"]
# (a loaded machine may tell its two cores apart: any type's b will do)
bs = [int(b) for b in next(iter(doc["types"].values()))["k3_dgemm"]]
samples = lambda k: [[k * f for f in (1, 1.6, 1, 2.2, 1.1, 2.5, 1, 1.9)] for _ in bs]
one_way = rec["pingpong"]["same_node"]["one_way_s"]
procs = [{"rank": r, "host": "localhost", "k3_dgemm": samples(1e-10), "k3_dtrsm": samples(2e-10),
          "k2_dgetf2": samples(4e-10)} for r in (0, 1)]
raw = {"hetmap_calibration_raw": 1, "rows": 1024, "repeat": 8, "block_sizes": bs,
       "bytes": [8 << s for s in range(len(one_way))], "processors": procs,
       "pingpong": [{"scope": "same_node", "ranks": [0, 1], "seconds": one_way}]}
open(sys.argv[2], "w").write(json.dumps(raw) + "\n")
PY
printf '#!/bin/sh\ncat "%s"\n' "$tmp/raw.json" >"$tmp/unsteady-bench"
chmod +x "$tmp/unsteady-bench"
expect 11 "too unsteady to plan with" -- "$hm" calibrate --hosts localhost:2 --bench "$tmp/unsteady-bench" -o "$tmp/u.json"
check "its doubt names the kernels' notch" grep -q "medians are known only within" "$tmp/err"
check "nothing written where asked, the platform kept beside" test ! -e "$tmp/u.json" -a -s "$tmp/u.json.unreliable"
expect 0 "in doubt: its kernels' medians are known only within" -- "$hm" platform show "$tmp/u.json.unreliable"
expect 0 "wrote $tmp/u.json" -- "$hm" calibrate --hosts localhost:2 --bench "$tmp/unsteady-bench" -o "$tmp/u.json" \
	--accept-unreliable
expect 0 "calibration (how far it can be trusted)" -- "$hm" platform show "$tmp/cal.json"
finish cli_run
