#!/bin/bash
# CLI behaviour end to end: help, exit codes, messages, plan files,
# determinism, budgets and output formats.
set -u
. "$(dirname "$0")/lib.sh"

expect 0 "usage: hetmap <command>" -- "$hm" --help
expect 3 "usage: hetmap <command>" -- "$hm"
for c in platform predict plan compare models; do
	expect 0 "usage: hetmap $c" -- "$hm" $c --help
done
expect 3 "unknown command 'frobnicate'" -- "$hm" frobnicate
# models: every registry row, its status and evidence, in text and JSON;
# the help of -m lists the same rows
expect 0 "panel   default" -- "$hm" models
expect 0 "grid    candidate" -- "$hm" models
expect 0 '"status":"reference"' -- "$hm" models -f json
expect 3 "unknown format 'csv'" -- "$hm" models -f csv
expect 3 "unexpected argument 'extra'" -- "$hm" models extra
expect 0 "panel (default), thesis (reference), grid (candidate), ring (candidate)" -- "$hm" plan --help
expect 3 "unknown option '--bogus'" -- "$hm" plan --bogus
expect 3 "missing argument for option '--depth'" -- "$hm" plan --depth
expect 3 "option '--size' expects a number, not 'abc'" -- "$hm" plan -n abc
expect 3 "option '--size' must be between 1 and" -- "$hm" plan -n 0
expect 3 "option '--depth' expects an integer" -- "$hm" plan -d 2.5
expect 3 "option '--depth' must be between 1 and 262144" -- "$hm" plan -d 0
expect 3 "option '--depth' must be between 1 and 262144" -- "$hm" plan -d 1000000
expect 3 "option '--max-time' expects a number, not 'nan'" -- "$hm" plan --max-time nan
expect 3 "unknown routine 'qr'" -- "$hm" plan -r qr
expect 3 "unknown model 'magic'" -- "$hm" plan -m magic
expect 3 "unknown method 'SA'" -- "$hm" plan -M SA
expect 3 "unexpected argument 'extra'" -- "$hm" plan extra
expect 3 "unknown format 'xml'" -- "$hm" compare -f xml
expect 2 "cannot open" -- "$hm" plan -p "$tmp/none.json"
expect 2 "syntax_error.json: JSON syntax error" -- "$hm" plan -p "$data/bad/syntax_error.json"
# every value checked before any work (with no platform, the first command would
# calibrate this machine for a minute), and the name a typo likely meant
fresh="env -u HETMAP_PLATFORM XDG_CACHE_HOME=$tmp/fresh-cache HETMAP_CONFIG=/dev/null"
expect 3 "unknown method 'GPMT' (did you mean 'GPTM'?)" -- $fresh "$hm" plan -M GPMT -n 1000
expect 3 "unknown method 'gpmt' (did you mean 'GPTM'?)" -- $fresh "$hm" run -M gpmt -n 1000
expect 3 "unknown method 'BMT' (did you mean 'BTM'?)" -- $fresh "$hm" compare --methods exact,BMT -n 1000
expect 3 "unknown model 'panl' (did you mean 'panel'?)" -- $fresh "$hm" predict --procs 2 -m panl
expect 3 "unknown routine 'lux' (did you mean 'lu'?)" -- $fresh "$hm" plan -r lux
expect 3 "unknown format 'jsn' (did you mean 'json'?)" -- $fresh "$hm" plan -f jsn
expect 3 "not 'opnmpi' (did you mean 'openmpi'?)" -- $fresh "$hm" run -L opnmpi
expect 3 "unknown launcher 'mpch' (did you mean 'mpich'?)" -- $fresh "$hm" plan -L mpch -o "$tmp/l"
check "nothing was calibrated" test ! -e "$tmp/fresh-cache"
expect 2 "(the built-in platform is 'builtin:torc')" -- "$hm" plan -p torc
# what was measured, shown: thread speed-ups, topology, counts in words
threaded=$root/experiments/threads/results/real/platform.json
expect 0 "2 threads a rank: dgemm x1.68, dtrsm x1.63, panel x1.28" -- "$hm" platform show "$threaded"
check "the topology hwloc read" grep -q "localhost    2 cores, 1 NUMA node, 1 hardware thread a core, CPUs 0-1 allowed: 0 1" "$tmp/out"
check "one of each, said so" grep -q "1 processor on 1 host, 1 type, 4 candidate block sizes" "$tmp/out"
expect 0 "effective    dgemm" -- "$hm" predict -p "$threaded" -n 2000 --procs 2
check "rates in GFLOP/s, as platform show" grep -q "GFLOP/s, dtrsm" "$tmp/out"
check "a step the calibration could not measure is said where it is priced" \
	grep -q "not measured: column step of T1 (default: 889 x its panel's s/flop" "$tmp/out"
# a type whose step is missing beside one that has it: priced from it, by their panel speeds
"$hm" generate "$root/models/platform/examples/modern-1024.json" -o "$tmp/m1024.json" 2>/dev/null
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
del d["types"]["icx"]["column_step"]
json.dump(d, open(sys.argv[2], "w"))' "$tmp/m1024.json" "$tmp/m1024-nostep.json"
expect 0 "column step 0.333 us beyond its message (priced from skl's)" -- "$hm" platform show "$tmp/m1024-nostep.json"
expect 0 "not measured: column step of icx (priced from skl's by their panel speeds)" -- \
	"$hm" plan -p "$tmp/m1024-nostep.json" -n 50000
expect 0 '"unmeasured":' -- "$hm" plan -p "$threaded" -n 2000 -f json
# a description written by hand, with only k3 and k2_dgetf2 a type: its LU
# steps defaulted, the same number in the plan, the model and the export
cat > "$tmp/hand.json" <<'EOF2'
{"name": "hand", "block_sizes": [32, 64, 128], "types": {"old": {"k3": "10Gf", "k2_dgetf2": "1Gf"}, "new": {"k3": "30Gf", "k2_dgetf2": "3Gf"}},
 "processors": [{"name": "o1", "type": "old", "cores": 16}, {"name": "n1", "type": "new", "cores": 64}],
 "network": {"same_processor": {"t_s": "1us", "t_w": "10GB/s"}, "same_node": {"t_s": "1us", "t_w": "10GB/s"},
             "inter_node": {"t_s": "5us", "t_w": "5GB/s"}}}
EOF2
expect 0 "k1_dswap of old, new not given: the default, 136 x its panel's s/flop, real calibrations' median" -- \
	"$hm" platform check "$tmp/hand.json"
check "column step defaulted too" grep -q "column_step of old, new not given: the default, 889 x" "$tmp/out"
check "the aliased stride its k1_dswap" grep -q "k1_dswap_aliased of old, new not given: its k1_dswap" "$tmp/out"
expect 0 '"from":"default","seconds":1.36e-07' -- "$hm" platform check -f json "$tmp/hand.json"
expect 0 "row interchange 136 ns per element (default)" -- "$hm" platform show "$tmp/hand.json"
expect 0 "row interchange of old (default: 136 x" -- "$hm" predict -p "$tmp/hand.json" -n 20000 --procs 16,0
"$hm" predict -p "$tmp/hand.json" -n 20000 --procs 16,0 -g 4x4 -b 64 -f json > "$tmp/hand-predict.json"
check "the model charges it: n^2 / c elements at 136 ns" python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["plan"]["predicted"]["comp_row_swaps_s"]
assert abs(t / (20000 ** 2 / 4 * 136e-9) - 1) < 1e-6, t' "$tmp/hand-predict.json"
expect 0 "" -- "$hm" export simgrid -p "$tmp/hand.json" --kernels modeled -o "$tmp/hand.xml"
check "the simulator charges the same" grep -q 'id="hm_dswap" value="1.36e-07"' "$tmp/hand.xml"
check "and the same at an aliased stride, none measured" grep -q 'id="hm_dswap_aliased" value="1.36e-07"' "$tmp/hand.xml"
expect 0 "" -- "$hm" plan -p "$threaded" -n 2000 -r gemm
check "GEMM has no LU steps to miss" sh -c "! grep -q 'not measured' '$tmp/out'"
expect 0 "HU " -- "$hm" compare -p "$threaded" -n 2000
expect 6 "lu n=200000 needs 313 GiB of matrices and workspace in all, the processors hold 23.6 GiB" -- \
	"$hm" plan -p "$threaded" -n 200000
expect 0 "where the ranks go" -- "$hm" plan -p builtin:torc -n 2048 -M GU --picture
check "each processor's cores and ranks" grep -q "P18 on node011: 1 core, 1 rank" "$tmp/out"
expect 0 "cpu0 on localhost: 1 core, 3 ranks" -- "$hm" run -v -p "$data/good/localhost.json" -n 500 --procs 3,0 --dry-run \
	-o "$tmp/three"
check "three ranks stacked on one core, drawn" grep -q "| 0+1+2 |" "$tmp/err"
# one vocabulary: predict's block size is plan's (--block still taken, getopt's abbreviation)
expect 0 "block size b = 32" -- "$hm" predict -n 2048 --procs P17=2,P18=2 --grid 2x2 --block-size 32
expect 0 "block size b = 32" -- "$hm" predict -n 2048 --procs P17=2,P18=2 --grid 2x2 --block 32

# predict: the hand-checked TORC case, and its argument checks (panel: the
# grid model's terms, PDGETRF's arithmetic, and the defaulted row
# interchanges, 2048^2 / 19 elements x 136 x 0.015 us = 0.4503 s)
all19=1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1
expect 0 "predicted    7.62153 s" -- "$hm" predict -m thesis -n 2048 --procs $all19 --grid 1x19 -b 32
expect 0 "predicted    9.95352 s" -- "$hm" predict -n 2048 --procs $all19 --grid 1x19 -b 32
expect 0 "predicted    8.92028 s" -- "$hm" predict -m grid -n 2048 --procs $all19 --grid 1x19 -b 32
expect 0 "predicted    9.95352 s" -- "$hm" predict -m panel -n 2048 --procs $all19 --grid 1x19 -b 32
expect 0 "D = 4 on a 1 x 4 grid" -- "$hm" predict --procs P17=2,P18=2
expect 3 "--procs is required" -- "$hm" predict
expect 3 "has 3 entries, the platform has 19" -- "$hm" predict --procs 1,2,3
expect 3 "unknown processor 'P99'" -- "$hm" predict --procs P99=1
expect 3 "not a process count" -- "$hm" predict --procs P1=-2
expect 3 "grid 2x2 does not hold the 3 processes" -- "$hm" predict --procs P0=3 --grid 2x2 -b 32
# what --grid and -b leave out is the model's best for the rest
expect 0 "D = 3 on a 1 x 3 grid" -- "$hm" predict --procs P0=3 --grid 1x3
expect 3 "--threads and --grid go with --procs" -- "$hm" run -p builtin:torc --grid 2x2 --dry-run
expect 3 "--grid expects RxC" -- "$hm" predict --procs P0=3 --grid 3 -b 32

# plan: a file written atomically, same input same output
expect 0 "plan written to $tmp/a.json" -- "$hm" plan -p builtin:sunet -n 7680 -M BTM -d 25 -o "$tmp/a.json"
expect 0 "" -- "$hm" plan -p builtin:sunet -n 7680 -M BTM -d 25 -o "$tmp/b.json"
if grep -q '"hetmap_plan":	1' "$tmp/a.json" && grep -q '"ranks":' "$tmp/a.json" &&
   diff <(grep -v seconds "$tmp/a.json") <(grep -v seconds "$tmp/b.json") >/dev/null; then
	pass=$((pass + 1)); else echo "FAILED: plan files differ or lack fields"; fail=$((fail + 1)); fi
expect 4 "cannot create a file there" -- "$hm" plan -p builtin:sunet -o "$tmp/no/such/dir/plan.json"
if ls "$tmp"/no* "$tmp"/*.tmp.* >/dev/null 2>&1; then echo "FAILED: partial output left"; fail=$((fail + 1)); else pass=$((pass + 1)); fi
expect 5 "stopped by the node budget after 10 nodes" -- "$hm" plan -M exhaustive --max-nodes 10
grep -q "D = " "$tmp/out" && pass=$((pass + 1)) || { echo "FAILED: no best-so-far plan"; fail=$((fail + 1)); }
expect 0 '"method":	"EU"' -- "$hm" plan -M eu -f json

# compare: every method and user, three formats
expect 0 "ratio: predicted time / the model optimum" -- "$hm" compare -p builtin:sunet -n 7680 -d 25 --methods exhaustive,exact,BTM,BGRM,GRM,GCTM,GPTM,GU,CU,EU
for m in exhaustive exact BTM BGRM GRM GCTM GPTM GU CU EU; do
	grep -q "^$m " "$tmp/out" && pass=$((pass + 1)) || { echo "FAILED: compare lacks $m"; fail=$((fail + 1)); }
done
expect 0 "" -- "$hm" compare -p builtin:sunet -n 7680 -d 10 -f csv
[ "$(wc -l < "$tmp/out")" -eq 10 ] && head -1 "$tmp/out" | grep -q '^platform,routine,n,depth' &&
	pass=$((pass + 1)) || { echo "FAILED: csv shape"; fail=$((fail + 1)); }
expect 0 '"reference_is_optimum":	true' -- "$hm" compare -p builtin:sunet -n 7680 -d 10 -f json
expect 3 "unknown method 'nope'" -- "$hm" compare --methods BTM,nope
expect 0 "" -- "$hm" compare -p builtin:sunet -n 7680 -d 10 -f csv -o "$tmp/cmp.json"
check "compare -o writes the JSON document beside the CSV" grep -q '"reference_is_optimum":	true' "$tmp/cmp.json"
expect 4 "" -- "$hm" compare -p builtin:sunet -d 5 -o "$tmp/no/such/dir/cmp.json"
expect 0 "NO exact run completed" -- "$hm" compare -p builtin:torc --methods GPTM,GU

# every reference platform shows and checks
for f in sunet torc msunet-01 msunet-02 msunet-03 mtorc-01 mtorc-02 mtorc-03; do
	expect 0 "processors on" -- "$hm" platform show builtin:$f
done
expect 0 "ok (mini, 3 processors, 2 types)" -- "$hm" platform check "$data/good/mini.json"
expect 3 "expected 'show FILE'" -- "$hm" platform show

# generate: every example description generates; two descriptions that
# rebuild built-in platforms the generator's way (from TORC: 10 more 17P4;
# only TORC's types, two DPIII per host) plan exactly as those do; bad
# configurations are refused
gen=$examples
for f in "$gen"/*.json; do
	expect 0 "hetmap: generate:" -- "$hm" generate "$f" -o "$tmp/gen-$(basename "$f")"
done
echo '{"hetmap_generator": 1, "name": "mTORC-01", "from": "builtin:torc",
 "add": [{"type": "17P4", "count": 10, "host_prefix": "p4n"}]}' > "$tmp/mtorc-01.json"
echo '{"hetmap_generator": 1, "name": "mTORC-02", "from": "builtin:torc", "keep_processors": false,
 "add": [{"type": "DPIII", "count": 10, "per_host": 2}, {"type": "SPIII", "count": 10},
         {"type": "ATH", "count": 10}, {"type": "17P4", "count": 20}]}' > "$tmp/mtorc-02.json"
for pf in mtorc-01 mtorc-02; do
	expect 0 "hetmap: generate:" -- "$hm" generate "$tmp/$pf.json" -o "$tmp/gen-$pf.json"
	a=$("$hm" plan -p builtin:$pf -n 20000 -d 30 -M exact 2>&1 | grep predicted)
	b=$("$hm" plan -p "$tmp/gen-$pf.json" -n 20000 -d 30 -M exact 2>&1 | grep predicted)
	check "generated $pf plans as the builtin one" test -n "$a" -a "$a" = "$b"
done
expect 0 "" -- "$hm" generate "$gen/random-200.json" -o "$tmp/r1.json"
expect 0 "" -- "$hm" generate "$gen/random-200.json" -o "$tmp/r2.json"
check "same description, same platform" cmp -s "$tmp/r1.json" "$tmp/r2.json"
echo '{"hetmap_generator": 1, "bogus": 1}' > "$tmp/g1.json"
expect 2 "unknown key 'bogus'" -- "$hm" generate "$tmp/g1.json"
echo '{"hetmap_generator": 1, "from": "builtin:torc", "add": [{"type": "QUANTUM", "count": 2}]}' > "$tmp/g2.json"
expect 2 "unknown type 'QUANTUM'" -- "$hm" generate "$tmp/g2.json"
echo '{"hetmap_generator": 1, "random": {"processors": 200000}}' > "$tmp/g3.json"
expect 2 "random.processors: expected a number in [1, 100000]" -- "$hm" generate "$tmp/g3.json"
echo '{"hetmap_generator": 1, "from": "builtin:torc", "add": [{"type": "ATH", "count": 1, "host_prefix": "a;b"}]}' > "$tmp/g4.json"
expect 2 "has character ';'" -- "$hm" generate "$tmp/g4.json"
expect 3 "expected one CONFIG.json" -- "$hm" generate
expect 2 "cannot open" -- "$hm" generate "$tmp/none.json"
# ---- habits of command-line tools (issue: a user's first hour) -----------
# one -f vocabulary, any case; the same launcher list in every help
expect 0 '"hetmap_platform"' -- "$hm" platform -f JSON show builtin:torc
check "show -f json: the description itself" python3 -c 'import json, sys; assert json.load(open(sys.argv[1]))["name"] == "TORC"' "$tmp/out"
expect 0 "platform,name,processors,description" -- "$hm" platform -f csv list
expect 2 '"ok":false' -- "$hm" platform -f json check builtin:torc "$tmp/none.json"
expect 3 "unknown format 'csv'" -- "$hm" platform -f csv show builtin:torc
for c in run plan calibrate; do
	"$hm" $c --help > "$tmp/l-$c"
	check "$c lists every launcher, intelmpi as files only" \
		grep -q "openmpi, openmpi-seq, mpich, slurm, smpi.*or intelmpi (files only" "$tmp/l-$c"
done
# names in any case, as the launchers' and methods' already were
expect 0 "GPTM plan for lu" -- "$hm" plan -p builtin:torc -r LU -m PANEL -M gptm -n 1000
# plan's shape constraints
expect 0 "" -- "$hm" plan -p builtin:torc -n 3000 -b 64 --rows-le-cols -f json
check "-b 64 and r <= c kept" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
p = d["plan"]
assert p["b"] == 64 and p["r"] <= p["c"], p
assert d["inputs"]["block_size"] == 64 and d["inputs"]["rows_le_cols"] is True' "$tmp/out"
expect 0 "" -- "$hm" plan -p builtin:torc -n 3000 -f json
check "without them the TORC plan is 4 x 4 at b = 32 (what -b 64 changed)" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["plan"]
assert p["b"] != 64, p' "$tmp/out"
# a b between two measured block sizes is interpolated, and said; outside them refused
expect 0 "-b 63 lies between TORC's measured block sizes 32 and 64" -- "$hm" plan -p builtin:torc -n 3000 -b 63
check "the plan takes b = 63" grep -q "block size b = 63" "$tmp/out"
expect 3 "-b 500 is outside TORC's block sizes (16, 32, 64, 128)" -- "$hm" plan -p builtin:torc -n 3000 -b 500
expect 3 "exact: it proves the optimum over every grid" -- "$hm" plan -p builtin:torc -n 3000 -b 64 -M exact
# -q: no progress; -v: where the defaults came from
expect 0 "" -- "$hm" export simgrid -q -p builtin:torc -o "$tmp/q.xml"
check "-q: nothing on standard error" test ! -s "$tmp/err"
expect 0 "platform builtin:torc (from HETMAP_PLATFORM)" -- "$hm" plan -v -n 1000
expect 3 "did you mean '--quiet'" -- "$hm" plan --quite -n 1000
finish cli
