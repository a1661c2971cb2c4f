#!/bin/bash
# 'hetmap tune' and 'hetmap learn' end to end on this machine with real
# mpirun and ScaLAPACK (hetmap's driver, small n): a race records every
# run with its tune object and writes a winner that 'run --plan' takes; a
# tune asked again goes on from its records; a sweep runs HPL.dat's order;
# Ctrl-C leaves a record and no process; learn fits the runs, writes a
# corrected platform the loader applies and plans say so; bad usage is
# refused before anything runs.
set -u
. "$(dirname "$0")/lib.sh"
command -v mpirun.openmpi >/dev/null || command -v mpirun >/dev/null || skip "no mpirun (install openmpi-bin)"
plat=$data/good/localhost.json
res=$tmp/tune.jsonl

expect 0 "usage: hetmap tune" -- "$hm" tune --help
expect 0 "usage: hetmap learn" -- "$hm" learn --help
expect 0 "paired t-test" -- "$hm" help tune

# ---- usage refused before anything runs ---------------------------------
expect 3 "--rounds goes with --sweep" -- "$hm" tune -p "$plat" -n 400 --rounds 2 --results "$res"
expect 3 "--order is hpl or random" -- "$hm" tune -p "$plat" -n 400 --sweep --order odd --results "$res"
expect 3 "unknown method 'XX'" -- "$hm" tune -p "$plat" -n 400 --methods GU,XX --results "$res"
expect 3 "launcher must be" -- "$hm" tune -p "$plat" -n 400 --launcher intelmpi --results "$res"
expect 4 "results" -- "$hm" tune -p "$plat" -n 400 --results "$tmp/no/such/dir/r.jsonl"
check "nothing was recorded by a refused tune" test ! -e "$res"

# ---- a race: every run recorded, a winner written -----------------------
# (a band of 50 %: three candidates, so that two rounds are the six runs
# whatever the runs measure; two candidates could part after two rounds)
expect 0 "winner c" -- "$hm" tune -p "$plat" -n 500 --budget 6 --band 0.5 --results "$res" --winner "$tmp/w.json" \
	-o "$tmp/tdir"
check "six runs recorded, each with its tune object" python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
assert len(recs) == 6, len(recs)
ids = {r["tune"]["id"] for r in recs}
assert len(ids) == 1 and all(r["tune"]["mode"] == "race" for r in recs)
assert "candidates" in recs[0]["tune"] and all("candidates" not in r["tune"] for r in recs[1:])
assert all(r["exit_code"] == 0 and r["measured_s"] > 0 and r["check"]["passed"] for r in recs)
rounds = [r["tune"]["round"] for r in recs]
assert rounds == sorted(rounds), rounds' "$res"
check "the winner is a plan with its tune summary" python3 -c '
import json, sys
w = json.load(open(sys.argv[1]))
assert w["hetmap_plan"] == 1 and w["tune"]["winner"].startswith("c") and w["tune"]["tune_runs"] == 6' "$tmp/w.json"
check "the same plan beside the launch directories" cmp -s "$tmp/w.json" "$tmp/tdir/winner.json"
check "each candidate ran in DIR/cNN" test -d "$tmp/tdir/c00" -a -f "$tmp/tdir/c00/run.sh"
expect 0 "record appended" -- "$hm" run --plan "$tmp/w.json" --results "$tmp/after.jsonl"

# ---- asked again: the same candidates, the runs so far kept -------------
expect 0 "runs of this tune" -- "$hm" tune -p "$plat" -n 500 --budget 9 --band 0.5 --results "$res" -f json
check "resumed: nine runs in all, six of them earlier, one document" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["runs"] <= 9 and d["resumed_runs"] == 6, (d["runs"], d["resumed_runs"])
assert d["winner"]["hetmap_plan"] == 1
assert all(set(c) >= {"label", "origin", "d", "D", "r", "c", "b", "predicted_s", "runs_s", "fate"} for c in d["candidates"])
assert sum(c["fate"] == "winner" for c in d["candidates"]) == 1' "$tmp/out"
check "the programs' output kept off standard output under -f json" python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/out"

# ---- a sweep: every priced configuration in HPL.dat's order -------------
expect 0 "rounds done" -- "$hm" tune -p "$plat" -n 400 --sweep --results "$tmp/sweep.jsonl"
check "the sweep ran processes, then grids, then block sizes, in order" python3 -c '
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
key = [(r["plan"]["D"], r["plan"]["r"], r["plan"]["b"]) for r in recs]
assert len(recs) >= 4 and key == sorted(key), key
assert all(r["tune"]["mode"] == "sweep" for r in recs)' "$tmp/sweep.jsonl"

# ---- a failing program drops its candidate, said with its last lines ----
cat > "$tmp/fails" <<'SH'
#!/bin/sh
echo "the program's own complaint"
exit 3
SH
chmod +x "$tmp/fails"
expect 7 "the program's own complaint" -- "$hm" tune -p "$plat" -n 400 --budget 3 --results "$tmp/fail.jsonl" -- "$tmp/fails"
check "every candidate failed once, recorded" test "$(grep -c '"exit_code":7' "$tmp/fail.jsonl")" -ge 1

# ---- Ctrl-C: the record, no process left, resumable ---------------------
cat > "$tmp/slow" <<'SH'
#!/bin/sh
echo started > "$FAKE_DIR/started"
sleep 60 & echo $! > "$FAKE_DIR/child.pid"; wait
SH
chmod +x "$tmp/slow"
export FAKE_DIR=$tmp
"$hm" tune -p "$plat" -n 400 --budget 4 --results "$tmp/int.jsonl" --profile none -- "$tmp/slow" >/dev/null 2>"$tmp/int.err" &
pid=$!
for i in $(seq 200); do [ -e "$tmp/started" ] && break; sleep 0.1; done
kill -INT $pid
wait $pid
check "SIGINT: exit 130 (got $?)" test $? -eq 130
check "SIGINT: the program is stopped" bash -c '! kill -0 "$(cat "$1")" 2>/dev/null' _ "$tmp/child.pid"
check "SIGINT: a record of the interrupted run, with its tune object" python3 -c '
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert rec["mpirun_status"] == "interrupted" and rec["tune"]["candidate"].startswith("c")' "$tmp/int.jsonl"

# ---- learn: the runs teach the model; the plans say so ------------------
expect 2 "at least 3" -- "$hm" learn "$tmp/int.jsonl" -p "$plat"
expect 3 "name the results files" -- "$hm" learn -p "$plat"
expect 0 "kept" -- "$hm" learn "$res" "$tmp/sweep.jsonl" -p "$plat" -o "$tmp/learned.json" --check "$tmp/after.jsonl"
check "learn scores in and out of sample" grep -q "out of sample: MAPE" "$tmp/out"
check "the learned platform holds the runs its corrections rest on" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["corrections"]
assert c["base_digest"].startswith("fnv1a64:") and c["learned"]["runs"] >= 10 and c["learned"]["terms"], c' \
	"$tmp/learned.json"
# what the fit gives does not depend on this machine's mood: committed real runs
# of it (experiments/tune/results/here: GEMM 3000 teaches, GEMM 6000 checks)
here=$root/experiments/tune/results/here
zcat "$here/gemm-3000-driver/sweep.jsonl.gz" > "$tmp/gemm-3000.jsonl"
zcat "$here/gemm-6000-driver/sweep.jsonl.gz" > "$tmp/gemm-6000.jsonl"
expect 0 "out of sample: MAPE" -- "$hm" learn "$tmp/gemm-3000.jsonl" -p "$here/platform.json" \
	-o "$tmp/taught.json" --check "$tmp/gemm-6000.jsonl"
check "the committed runs teach a correction that lowers the error, in sample and out of it" python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["corrections"]
l = c["learned"]
assert l["runs"] == 80 and l["mape_after_percent"] < l["mape_before_percent"], l
factors = [v for k in ("compute", "dgemm", "dtrsm", "panel", "swaps", "threads") for v in c.get(k, {}).values()]
assert any(f != 1 for f in factors) or c.get("communication", 1) != 1, c' "$tmp/taught.json"
check "out of sample the error is lower too" bash -c '
m=$(sed -n "s/^out of sample: MAPE \([0-9.]*\) % -> \([0-9.]*\) %.*/\1 \2/p" "$1")
python3 -c "import sys; a, b = map(float, sys.argv[1:]); assert b < a" $m' _ "$tmp/out"
expect 0 "" -- "$hm" plan -p "$tmp/taught.json" -n 3000 -r gemm -f json
check "a plan on it says so" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))["inputs"]
assert d["platform_base_digest"] != d["platform_digest"] and d["corrections"], d' "$tmp/out"
base=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["corrections"]["base_digest"])' "$tmp/learned.json")
expect 0 "" -- "$hm" learn "$res" -p "$tmp/learned.json" -f json
check "learning again from the corrected platform starts from its measured values" python3 -c '
import json, sys
a, b = json.load(open(sys.argv[1]))["corrections"], json.load(open(sys.argv[2]))["corrections"]
assert a["base_digest"] == b["base_digest"] == sys.argv[3]' "$tmp/out" "$tmp/learned.json" "$base"
expect 0 "learned from" -- "$hm" predict -p "$plat" -n 500 --procs 1,1 --history "$res"
expect 2 "of another platform" -- "$hm" plan -p builtin:torc -n 500 --history "$res"

echo "cli_tune: $pass passed, $fail failed"
[ $fail = 0 ]
