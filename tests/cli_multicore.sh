#!/bin/bash
# Multi-core clusters end to end: a cluster described per node (groups
# with real host names, cores, memory, flop rates), planned with the
# defaults; the plan uses the cores; launcher files give each rank its own
# core; users defined per core; doubtful values warned about; typos get
# the nearest key.
set -u
. "$(dirname "$0")/lib.sh"
gen=$examples

# ---- a modern cluster from a description ---------------------------------
expect 0 "16 processors of 3 types on 16 hosts" -- "$hm" generate "$gen/modern-1024.json" -o "$tmp/m.json"
expect 0 "hsw01" -- "$hm" platform show "$tmp/m.json"
check "hosts are named per group, zero-padded" grep -q '"host":[[:space:]]*"icx04"' "$tmp/m.json"
check "cores and memory per node" grep -q '"cores":[[:space:]]*96' "$tmp/m.json"
expect 0 "GFLOP/s" -- "$hm" platform show "$tmp/m.json"
# with the defaults: the depth is the platform's 1024 cores, the plan uses them
"$hm" plan -p "$tmp/m.json" -n 50000 -f json > "$tmp/plan.json" 2>/dev/null
D=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plan"]["D"])' "$tmp/plan.json")
check "the default plan uses hundreds of cores (D = $D)" test "$D" -ge 256
check "the default depth is the platform's cores" grep -q '"depth":[[:space:]]*1024' "$tmp/plan.json"
gu=$("$hm" plan -p "$tmp/m.json" -n 50000 -M GU -f json 2>/dev/null | python3 -c 'import json,sys; p=json.load(sys.stdin)["plan"]; print(p["D"], p["predicted"]["total_s"])')
check "GU puts one process on every core (D = ${gu% *})" test "${gu% *}" -eq 1024
cu=$("$hm" plan -p "$tmp/m.json" -n 50000 -M CU -f json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["plan"]["D"])')
check "CU takes the fastest nodes holding half the cores (D = $cu)" test "$cu" -eq 512
# a search held back by a small depth says so, in text and JSON
expect 0 "depth limit  the plan uses all 8 processes" -- "$hm" plan -p "$tmp/m.json" -n 50000 -d 8
"$hm" plan -p "$tmp/m.json" -n 50000 -d 8 -f json > "$tmp/d8.json" 2>/dev/null
check "the JSON says the depth limit was reached" grep -q '"depth_limit"' "$tmp/d8.json"

# ---- links by pattern: one rule instead of one entry per pair ------------
expect 0 "hsw ~ *" -- "$hm" platform show "$tmp/m.json"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); d["network"]["links"][0]["between"] = ["hsw"]; json.dump(d, open(sys.argv[2], "w"))' "$tmp/m.json" "$tmp/rule1.json"
expect 2 "network.links[0].between: expected an array of two patterns" -- "$hm" platform check "$tmp/rule1.json"
a=$("$hm" predict -p "$tmp/m.json" -n 20000 --procs hsw01=1,skl01=1 --grid 1x2 -b 128 | grep -o 'communication [0-9.e-]* s')
b=$("$hm" predict -p "$tmp/m.json" -n 20000 --procs skl02=1,skl01=1 --grid 1x2 -b 128 | grep -o 'communication [0-9.e-]* s')
check "a pair with an hsw node pays the 10 Gbit/s rule ($a vs $b)" test "$a" != "$b"

# ---- launch: one core per rank -------------------------------------------
cat > "$tmp/two.json" <<'JSON'
{"name": "two", "types": {"t": {"k3": "20GFLOP/s", "k2_dgetf2": "5GFLOP/s"}},
 "processors": [{"name": "n1", "type": "t", "cores": 4}, {"name": "n2", "type": "t", "cores": 2}],
 "network": {"same_processor": {"t_s": "1us", "t_w": "10GB/s"}, "same_node": {"t_s": "1us", "t_w": "10GB/s"},
             "inter_node": {"t_s": "5us", "t_w": "1GB/s"}}, "block_sizes": [64]}
JSON
expect 0 "" -- "$hm" plan -p "$tmp/two.json" -n 4000 -M GU --launcher openmpi -o "$tmp/gu"
check "rank k on its own core: n1 slots 0-3, n2 slots 0-1" diff - "$tmp/gu/rankfile" <<'RF'
rank 0=n1 slot=0
rank 1=n1 slot=1
rank 2=n1 slot=2
rank 3=n1 slot=3
rank 4=n2 slot=0
rank 5=n2 slot=1
RF
check "no oversubscription when every rank has a core" bash -c '! grep -q oversubscribe "$1"' _ "$tmp/gu/run.sh"
# more processes than cores: shared evenly, and oversubscribed
python3 - "$tmp/gu/plan.json" "$tmp/over.json" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
p = plan["plan"]
p["processes"] = [{"processor": "n2", "host": "n2", "count": 3, "slot": 0, "cores": 2}]
p["ranks"] = ["n2"] * 3; p["D"] = 3; p["r"] = 1; p["c"] = 3; p["d"] = [0, 3]
json.dump(plan, open(sys.argv[2], "w"))
PY
expect 0 "--oversubscribe" -- "$hm" run --plan "$tmp/over.json" --dry-run -o "$tmp/over"
check "three ranks on two cores: slots 0, 1, 0" diff - "$tmp/over/rankfile" <<'RF'
rank 0=n2 slot=0
rank 1=n2 slot=1
rank 2=n2 slot=0
RF

# variant OUT STATEMENT: two.json changed by a Python statement on its
# document d, written to OUT
variant() {
	python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); exec(sys.argv[3]); json.dump(d, open(sys.argv[2], "w"))' \
		"$tmp/two.json" "$1" "$2"
}

# sockets: ranks alternate between them (cores numbered socket by socket)
variant "$tmp/sock.json" 'd["processors"][0].update(cores=8, sockets=2)'
expect 0 "" -- "$hm" plan -p "$tmp/sock.json" -n 4000 -M GU --launcher openmpi -o "$tmp/sock"
check "eight ranks on 2 sockets of 4 cores: slots 0, 4, 1, 5, ..." diff - "$tmp/sock/rankfile" <<'RF'
rank 0=n1 slot=0
rank 1=n1 slot=4
rank 2=n1 slot=1
rank 3=n1 slot=5
rank 4=n1 slot=2
rank 5=n1 slot=6
rank 6=n1 slot=3
rank 7=n1 slot=7
rank 8=n2 slot=0
rank 9=n2 slot=1
RF
check "the plan names the sockets" grep -q '"sockets":[[:space:]]*2' "$tmp/sock/plan.json"
variant "$tmp/sock3.json" 'd["processors"][0].update(cores=8, sockets=3)'
expect 2 "processors[0].sockets: 3 sockets do not divide the 8 cores" -- "$hm" platform check "$tmp/sock3.json"

# a stacking factor per routine: shown, and only GEMM's predictions change
variant "$tmp/stk.json" 'd["types"]["t"]["stacked"] = {"gemm": 1.5}'
expect 0 "x 1 (lu), x 1.5 (gemm)" -- "$hm" platform show "$tmp/stk.json"
# k3 PLATFORM ROUTINE PROCS GRID: the effective dgemm rate 'predict' shows (1 / k3)
k3() {
	"$hm" predict -p "$1" -r "$2" -n 4000 --procs "$3" --grid "$4" -b 64 |
		grep -o 'effective    dgemm [0-9.e+-]* GFLOP/s'
}
# 3 ranks on n2's 2 cores
g0=$(k3 "$tmp/two.json" gemm n2=3 1x3) g1=$(k3 "$tmp/stk.json" gemm n2=3 1x3)
l0=$(k3 "$tmp/two.json" lu n2=3 1x3) l1=$(k3 "$tmp/stk.json" lu n2=3 1x3)
check "3 ranks on 2 cores: GEMM's k3 x 1.5 ($g0 -> $g1), LU's unchanged ($l0 = $l1)" \
	test "$g1" = "effective    dgemm 6.667 GFLOP/s" -a "$l0" = "$l1" -a "$g0" = "effective    dgemm 10 GFLOP/s"

# ---- the model: a second process on a 4-core node costs no share ---------
one=$(k3 "$tmp/two.json" lu n1=1 1x1)
four=$(k3 "$tmp/two.json" lu n1=4 2x2)
five=$(k3 "$tmp/two.json" lu n1=5 1x5)
check "k3 with 4 processes on 4 cores equals 1 process ($one / $four)" test "$one" = "$four"
check "k3 with 5 processes on 4 cores doubles ($five)" test "$five" = "effective    dgemm 10 GFLOP/s"

# ---- writing platforms: rates, units, typos, doubtful values ----------------
expect 0 "ok" -- "$hm" platform check "$tmp/two.json"
sed 's/"k2_dgetf2": "5GFLOP\/s"/"k2_dgetf2": 1e9/' "$tmp/two.json" > "$tmp/rate.json"
expect 0 "under 1 MFLOP/s per core" -- "$hm" platform check "$tmp/rate.json"
sed 's/"10GB\/s"}, "same_node"/"5000GB\/s"}, "same_node"/' "$tmp/two.json" > "$tmp/bw.json"
expect 0 "a bandwidth over 1 TB/s" -- "$hm" platform check "$tmp/bw.json"
sed 's/"20GFLOP\/s"/"20GFLOPS"/' "$tmp/two.json" > "$tmp/unit.json"
expect 2 "takes ps, ns, us, ms, s, MFLOP/s, GFLOP/s" -- "$hm" platform check "$tmp/unit.json"
sed 's/"k2_dgetf2"/"k2_dgetrf"/' "$tmp/two.json" > "$tmp/typo.json"
expect 2 "unknown key 'k2_dgetrf' (did you mean 'k2_dgetf2'?)" -- "$hm" platform check "$tmp/typo.json"
sed 's/"k2_dgetf2": "5GFLOP\/s"/"k2_dgetf2": "5GFLOP\/s", "busy_cores_scale": {"1": 1, "4": 0.5}/' "$tmp/two.json" > "$tmp/busy.json"
expect 2 "must not decrease as busy cores grow" -- "$hm" platform check "$tmp/busy.json"
echo '{"hetmap_generator": 1, "types": {"t": {"k3": 1e-9, "k2_dgetf2": 1e-9}}, "groups": [{"type": "t", "hosts": ["a"], "host_prefix": "b", "count": 1}]}' > "$tmp/g1.json"
expect 2 "give 'hosts' or 'host_prefix' with 'count', not both" -- "$hm" generate "$tmp/g1.json"
echo '{"hetmap_generator": 1, "types": {"t": {"k3": 1e-9, "k2_dgetf2": 1e-9}}, "groups": [{"type": "t", "hosts": ["a;b"]}]}' > "$tmp/g2.json"
expect 2 "has character ';'" -- "$hm" generate "$tmp/g2.json"
finish cli_multicore
