#!/bin/bash
# Hostile inputs end to end (beyond the bad-platform catalogue): sizes
# that cannot fit, far too many processors, outputs that cannot be
# written, names that would be dangerous in a shell or a launcher file.
# Each gets its own exit code and message, and no partial file is left.
set -u
. "$(dirname "$0")/lib.sh"
mini=$data/good/mini.json

# 100001 processors: refused before any work
{
	printf '{"types":{"t":{"k3":{"32":1e-9},"k2_dgetf2":1e-9}},"processors":['
	awk 'BEGIN { for (i = 0; i <= 100000; i++) printf "%s{\"name\":\"p%d\",\"host\":\"h%d\",\"type\":\"t\"}", (i ? "," : ""), i, i }'
	printf '],"network":{"same_processor":{"t_s":0,"t_w":0},"same_node":{"t_s":1e-6,"t_w":1e-9},"inter_node":{"t_s":1e-5,"t_w":1e-8}}}'
} > "$tmp/huge.json"
expect 2 "processors: 100001 processors (at most 100000)" -- "$hm" platform check "$tmp/huge.json"

# sizes: n that fits no memory, block larger than n, absurd depth
expect 6 "" -- "$hm" plan -p "$mini" -n 1000000 -M GU
expect 3 "must be between 1 and" -- "$hm" plan -p "$mini" -n 1e30
expect 3 "block size 64 exceeds the matrix order n = 16" -- "$hm" predict -p "$mini" -n 16 --procs 1,0,0 --grid 1x1 -b 64
expect 0 "block size b = 32" -- "$hm" plan -p "$mini" -n 40 -M GU
expect 3 "option '--depth' must be between 1 and 262144" -- "$hm" compare -d 999999999999
expect 3 "expects a number" -- "$hm" plan -n inf
expect 3 "expects a number" -- "$hm" plan --max-time -nan

# outputs: unwritable places give 4 and leave nothing behind
touch "$tmp/a-file"
expect 4 "" -- "$hm" plan -p "$mini" -o "$tmp/a-file/plan.json"
mkdir "$tmp/a-dir"
expect 4 "" -- "$hm" plan -p "$mini" -o "$tmp/a-dir"
check "no temporary file left in the target directory" test -z "$(ls -A "$tmp/a-dir")"
check "no temporary file left beside it" test "$(ls -A "$tmp" | grep -cv '^\(huge.json\|a-file\|a-dir\|out\|err\)$')" -eq 0
expect 4 "" -- "$hm" plan -p "$mini" --launcher openmpi -o "$tmp/a-file/dir"
expect 4 "" -- "$hm" calibrate --hosts localhost:1 --repeat 1 --block-sizes 16 -o "$tmp/a-file/cal.json"
"$hm" compare -p "$mini" -d 4 -f json >/dev/full 2>/dev/null
check "a full stdout gives exit 4" test $? -eq 4

# names: shell metacharacters never reach a launcher file or mpirun
for host in 'a b' 'a;b' '$(id)' '`id`' 'a|b' '-np' '.x' "a'b"; do
	expect 3 "" -- "$hm" calibrate --hosts "$host" -o "$tmp/c.json"
done
check "nothing was executed through a shell" test ! -e "$tmp/c.json"
expect 3 "unknown method" -- "$hm" plan -M 'BTM; rm -rf /'
expect 3 "unknown launcher" -- "$hm" plan --launcher '$(id)' -o "$tmp/x"

# plan files: malformed, wrong types, inconsistent
printf '{"hetmap_plan":1,' > "$tmp/p1.json"
expect 2 "JSON syntax error" -- "$hm" run --plan "$tmp/p1.json" --dry-run
printf '{"hetmap_plan":2}' > "$tmp/p2.json"
expect 2 "hetmap_plan: must be between 1 and 1" -- "$hm" run --plan "$tmp/p2.json" --dry-run
"$hm" plan -p "$mini" -n 400 -M GU -o "$tmp/good-plan.json" >/dev/null
sed 's/"host":	"hostA"/"host":	"host A"/' "$tmp/good-plan.json" > "$tmp/p3.json"
expect 2 "has character ' '" -- "$hm" run --plan "$tmp/p3.json" --dry-run
sed 's/"b":	32/"b":	-1/' "$tmp/good-plan.json" > "$tmp/p4.json"
expect 2 "plan.b: must be between 1" -- "$hm" run --plan "$tmp/p4.json" --dry-run
sed 's/"ranks":	\["a0"/"ranks":	["zz"/' "$tmp/good-plan.json" > "$tmp/p5.json"
expect 2 "processor 'zz' is not in plan.processes" -- "$hm" run --plan "$tmp/p5.json" --dry-run
expect 0 "hetmap-driver --routine lu -n 400" -- "$hm" run --plan "$tmp/good-plan.json" --dry-run

# ---- outputs: only regular files are replaced, the umask is honoured,
# any legal name works, launch directories are all or nothing ----------
mkfifo "$tmp/fifo"
expect 4 "is not a regular file (a FIFO)" -- timeout 10 "$hm" plan -p "$mini" -o "$tmp/fifo"
check "the FIFO is still a FIFO" test -p "$tmp/fifo"
if mknod "$tmp/null" c 1 3 2>/dev/null; then
	expect 4 "is not a regular file (a device)" -- "$hm" plan -p "$mini" -o "$tmp/null"
	check "the device node is still a device node" test -c "$tmp/null"
else
	echo "skipped: mknod not permitted here (device-node output)"
fi
ln -s "$tmp/nowhere" "$tmp/link"
expect 4 "a symbolic link" -- "$hm" plan -p "$mini" -o "$tmp/link"
check "the dangling link's target was not created" test ! -e "$tmp/nowhere"
expect 4 "not a regular file" -- "$hm" generate /dev/null -o "$tmp/fifo"
(umask 022 && "$hm" plan -p "$mini" -o "$tmp/m644.json" >/dev/null)
check "a new file gets 0666 less the umask (022)" test "$(stat -c %a "$tmp/m644.json")" = 644
(umask 077 && "$hm" plan -p "$mini" -o "$tmp/m600.json" >/dev/null)
check "a new file gets 0666 less the umask (077)" test "$(stat -c %a "$tmp/m600.json")" = 600
chmod 640 "$tmp/m644.json"
"$hm" plan -p "$mini" -o "$tmp/m644.json" >/dev/null
check "a replaced file keeps its mode" test "$(stat -c %a "$tmp/m644.json")" = 640
long=$(printf 'p%.0s' $(seq 250))
expect 0 "" -- "$hm" plan -p "$mini" -o "$tmp/$long"
check "a 250-character file name is written" test -s "$tmp/$long"
mkdir -p "$tmp/launch/run.sh"
expect 4 "run.sh: exists and is not a regular file" -- "$hm" plan -p "$mini" --launcher openmpi -o "$tmp/launch"
check "a failed launch directory gets no plan.json" test ! -e "$tmp/launch/plan.json"
check "nor a launcher file" test ! -e "$tmp/launch/rankfile"
check "nor a temporary file" test -z "$(ls -A "$tmp/launch" | grep -v '^run.sh$')"
expect 4 "" -- bash -c "ulimit -f 1; trap '' XFSZ; exec \"\$0\" plan -p builtin:mtorc-03 -n 20000 -f json -M GU -o \"\$1\"" "$hm" "$tmp/big.json"
check "a write beyond the file-size limit (a full disk) leaves nothing" test ! -e "$tmp/big.json"
check "and no temporary file" test -z "$(ls -A "$tmp" | grep '^\.hetmap-')"

# ---- inputs that never end, block or are not files --------------------
expect 2 "empty input" -- timeout 10 "$hm" platform check "$tmp/fifo"
expect 2 "empty input" -- timeout 10 "$hm" run --plan "$tmp/fifo" --dry-run
expect 2 "empty input" -- timeout 10 "$hm" generate "$tmp/fifo"
expect 2 "larger than 16777216 bytes" -- timeout 20 "$hm" platform check /dev/zero
expect 2 "is a directory" -- "$hm" platform check "$tmp"
printf '{"hetmap_generator": 1, "from": "/dev/zero"}' > "$tmp/g-zero.json"
expect 2 "larger than 16777216 bytes" -- timeout 20 "$hm" generate "$tmp/g-zero.json"
printf '{"hetmap_generator": 1, "from": "%s"}' "$tmp" > "$tmp/g-dir.json"
expect 2 "is a directory" -- "$hm" generate "$tmp/g-dir.json"
printf '{"hetmap_generator": 1, "from": "%s"}' "$tmp/fifo" > "$tmp/g-fifo.json"
expect 2 "empty input" -- timeout 10 "$hm" generate "$tmp/g-fifo.json"

# ---- limits checked before the work they bound -------------------------
python3 - "$tmp/many-types.json" <<'PY'
import sys
keys = ",".join('"t%d":{"k3":1e-9,"k2_dgetf2":1e-9}' % i for i in range(200000))
open(sys.argv[1], "w").write('{"types":{%s},"processors":[],"network":{}}' % keys)
PY
start=$SECONDS
expect 2 "types: more than 1000 keys" -- "$hm" platform check "$tmp/many-types.json"
check "200000 type keys refused within 5 s" test $((SECONDS - start)) -le 5
# link rules that list hosts: each name is looked up, not matched against
# every processor (4000 processors x 32 rules x 20000 names took 54 s)
python3 - "$tmp/rules-long.json" <<'PY'
import json, sys
procs = [{"name": "p%d" % i, "host": "h%d" % i, "type": "t"} for i in range(4000)]
rules = [{"between": [["h%d" % ((7 * r + k) % 50000) for k in range(20000)], "*"], "t_s": 1e-4, "t_w": 1e-8}
         for r in range(32)]
link = {"t_s": 1e-5, "t_w": 1e-8}
json.dump({"types": {"t": {"k3": 1e-9, "k2_dgetf2": 1e-9}}, "processors": procs, "block_sizes": [32],
           "network": {"same_processor": link, "same_node": link, "inter_node": link, "links": rules}},
          open(sys.argv[1], "w"))
PY
start=$SECONDS
expect 0 "4000 processors" -- "$hm" platform check "$tmp/rules-long.json"
check "32 rules of 20000 host names load within 5 s" test $((SECONDS - start)) -le 5
printf '{"hetmap_generator": 1, "name": "big", "random": {"seed": 3, "processors": 100000, "types": 20, "per_host": 8}}' > "$tmp/g100k.json"
start=$SECONDS
expect 0 "100000 processors of 20 types" -- "$hm" generate "$tmp/g100k.json" -o "$tmp/p100k.json"
check "100000 processors generated within 5 s" test $((SECONDS - start)) -le 5
start=$SECONDS
expect 4 "" -- "$hm" generate "$tmp/g100k.json" -o "$tmp/a-file/x.json"
check "an unwritable -o is reported before generating" test $((SECONDS - start)) -le 1
# on a two-level network (the generator's: hosts dearer than anything
# inside them) exact reasons over 20 coarse classes and proves the optimum
start=$SECONDS
expect 0 "search " -- "$hm" plan -p "$tmp/p100k.json" -M exact -d 200 -n 50000
check "exact proves the optimum of 100000 processors 8 per host within 12 s (2.6 s here, 6.5 s under ASan)" test $((SECONDS - start)) -le 12
# with a host's inside dearer than between hosts, each host splits the
# classes: exact refuses what would need a huge class table, at once,
# exit 3; BTM what would need a huge child table; compare skips them and
# goes on.
printf '{"hetmap_generator": 1, "name": "big2", "random": {"seed": 3, "processors": 100000, "types": 20, "per_host": 8}, "network": {"same_processor": {"t_s": "1us", "t_w": "1ns"}, "same_node": {"t_s": "50us", "t_w": "1ns"}, "inter_node": {"t_s": "20us", "t_w": "1ns"}}}' > "$tmp/g100kx.json"
expect 0 "" -- "$hm" generate "$tmp/g100kx.json" -o "$tmp/p100kx.json"
start=$SECONDS
expect 3 "classes of interchangeable processors (at most 2048)" -- "$hm" plan -p "$tmp/p100kx.json" -M exact -d 200 -n 50000
expect 3 "depth x processors too large" -- "$hm" plan -p "$tmp/p100kx.json" -M BTM -d 200 -n 50000
check "both refused within 5 s" test $((SECONDS - start)) -le 5
expect 0 "exact skipped" -- "$hm" compare -p "$tmp/p100kx.json" -d 4 -n 50000 --methods exact,GCTM
# the users place a process on each of its 100000 cores (no link rules:
# a push prices two pairs, on its host and off it, however the hosts
# split the classes)
start=$SECONDS
expect 0 "D = 100000 on a 80 x 1250 grid" -- "$hm" plan -p "$tmp/p100kx.json" -M GU -n 500000
expect 0 "D = 50000 on a 80 x 625 grid" -- "$hm" plan -p "$tmp/p100kx.json" -M EU -n 500000
check "GU and EU place 100000 processes within 15 s (linear: 1 s here, 5 s under ASan beside other tests)" test $((SECONDS - start)) -le 15
# past the deepest configuration (problem.h) the users refuse, saying why;
# exact refuses weight tables past 768 MB at once
printf '{"hetmap_generator": 1, "name": "wide", "types": {"t": {"k3_dgemm": "10GFLOP/s", "k3_dtrsm": "5GFLOP/s", "k2_dgetf2": "1GFLOP/s"}}, "groups": [{"type": "t", "host_prefix": "n", "count": 70, "cores": 4096}], "network": {"same_processor": {"t_s": "1us", "t_w": "1ns"}, "same_node": {"t_s": "1us", "t_w": "1ns"}, "inter_node": {"t_s": "2us", "t_w": "1ns"}}, "block_sizes": [16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256]}' > "$tmp/gwide.json"
expect 0 "" -- "$hm" generate "$tmp/gwide.json" -o "$tmp/pwide.json"
start=$SECONDS
expect 3 "286720 cores are more than the 262144 processes a configuration may have (a search keeps 1.5 KB per level of depth)" -- "$hm" plan -p "$tmp/pwide.json" -M GU -n 500000
expect 3 "its weight tables for depth 262144 and 16 block sizes would take" -- "$hm" plan -p "$tmp/pwide.json" -M exact -n 500000
check "both refused within 5 s" test $((SECONDS - start)) -le 5
# a plan of 100000 ranks loads in linear time
python3 - "$tmp/plan100k.json" <<'PY'
import json, sys
D = 100000
procs = [{"processor": "p%d" % i, "host": "h%d" % i, "count": 1, "slot": 0, "cores": 1} for i in range(D)]
plan = {"hetmap_plan": 1, "inputs": {"routine": "lu", "n": 200000},
        "plan": {"method": "GU", "found": True, "D": D, "r": 1, "c": D, "b": 64,
                 "processes": procs, "ranks": ["p%d" % i for i in range(D)]}}
json.dump(plan, open(sys.argv[1], "w"))
PY
start=$SECONDS
expect 0 "-np 100000" -- "$hm" run --plan "$tmp/plan100k.json" --dry-run
check "a 100000-rank plan runs --dry-run within 10 s" test $((SECONDS - start)) -le 10

# the judge refuses a platform SimGrid's export cannot take, before any
# simulation starts (each would fail on its own)
printf '{"hetmap_generator": 1, "name": "r500", "random": {"seed": 3, "processors": 500, "types": 3, "per_host": 1}}' > "$tmp/g500.json"
expect 0 "" -- "$hm" generate "$tmp/g500.json" -o "$tmp/p500.json"
expect 3 "SimGrid's export takes at most 400 processors (this one has 500)" -- "$hm" plan -p "$tmp/p500.json" -n 20000 --judge 2

# ---- searches: budgets and sizes have their own exit codes -------------
expect 5 "stopped by the time budget before any configuration" -- "$hm" plan -M BTM --max-time 1e-9
for m in BTM exact GU; do
	expect 3 "smaller than every candidate block size" -- "$hm" plan -p "$mini" -n 20 -M $m
done
python3 - "$tmp/wide.json" <<'PY'
import json, sys
types = {"t%d" % i: {"k3": 1e-9 * (1 + i), "k2_dgetf2": 1e-8} for i in range(700)}
procs = [{"name": "p%d" % i, "type": "t%d" % (i % 700)} for i in range(100000)]
net = {k: {"t_s": 1e-6, "t_w": 1e-9} for k in ("same_processor", "same_node", "inter_node")}
json.dump({"types": types, "processors": procs, "network": net, "block_sizes": [64]}, open(sys.argv[1], "w"))
PY
for m in BTM GU; do
	expect 3 "platform too large to search" -- "$hm" plan -p "$tmp/wide.json" -M $m
done

# ---- plans: strict as platforms ----------------------------------------
sed '0,/"method":/s/"method":/"method": "x", "method":/' "$tmp/good-plan.json" > "$tmp/p6.json"
expect 2 "duplicate key 'method'" -- "$hm" run --plan "$tmp/p6.json" --dry-run
{ cat "$tmp/good-plan.json"; echo '{}'; } > "$tmp/p7.json"
expect 2 "unexpected text after the JSON value" -- "$hm" run --plan "$tmp/p7.json" --dry-run
python3 - "$tmp/good-plan.json" "$tmp" <<'PY'
import json, sys
plan = json.load(open(sys.argv[1]))
bad = json.loads(json.dumps(plan)); bad["plan"]["processes"][0]["count"] += 1
json.dump(bad, open(sys.argv[2] + "/p8.json", "w"))
big = json.loads(json.dumps(plan)); big["inputs"]["n"] = 10000000
json.dump(big, open(sys.argv[2] + "/p9.json", "w"))
local = json.loads(json.dumps(plan))
for p in local["plan"]["processes"]:
    p["host"] = "localhost"; p["slot"] = 100000
json.dump(local, open(sys.argv[2] + "/p10.json", "w"))
# this machine by its other names: the loopback address, its own name with a domain
import socket
for name, host in (("p10a", "127.0.0.1"), ("p10b", socket.gethostname().split(".")[0] + ".example.org")):
    for p in local["plan"]["processes"]:
        p["host"] = host
    json.dump(local, open(sys.argv[2] + "/" + name + ".json", "w"))
PY
expect 2 "in plan.ranks, not its count" -- "$hm" run --plan "$tmp/p8.json" --dry-run
export TMPDIR=$tmp/t-refused; mkdir -p "$TMPDIR"
expect 3 "the driver takes n <= 1000000" -- "$hm" run --plan "$tmp/p9.json" --dry-run
expect 3 "which has" -- "$hm" run --plan "$tmp/p10.json" --dry-run
expect 3 "of 127.0.0.1, which has" -- "$hm" run --plan "$tmp/p10a.json" --dry-run
expect 3 ".example.org, which has" -- "$hm" run --plan "$tmp/p10b.json" --dry-run
check "a refused dry run leaves no launch directory" test -z "$(ls -A "$TMPDIR")"
export TMPDIR=$scratch_tmpdir
printf '{"hetmap_plan":1, "inputs": {"routine": "lu", "n": 100, "n": 200}}' > "$tmp/p11.json"
expect 2 "inputs: duplicate key 'n'" -- "$hm" run --plan "$tmp/p11.json" --dry-run
python3 -c 'print("{\"hetmap_plan\": 1, \"x\": " + "[" * 2000 + "]" * 2000 + "}")' > "$tmp/p12.json"
expect 2 "nested deeper than 100 levels" -- "$hm" run --plan "$tmp/p12.json" --dry-run

# ---- generator descriptions --------------------------------------------
printf '{"hetmap_generator": 1, "name": "a", "name": "b"}' > "$tmp/g1.json"
expect 2 "duplicate key 'name'" -- "$hm" generate "$tmp/g1.json"
printf '{"hetmap_generator": 1, "from": "builtin:torc"} x' > "$tmp/g2.json"
expect 2 "unexpected text after the JSON value" -- "$hm" generate "$tmp/g2.json"
printf '{"hetmap_generator": 1, "random": {"seed": 1.5, "processors": 4}}' > "$tmp/g3.json"
expect 2 "seed, processors, types and per_host must be integers" -- "$hm" generate "$tmp/g3.json"
sed 's/"host": "hostA"/"host": "n0004"/' "$mini" > "$tmp/base.json"
printf '{"hetmap_generator": 1, "from": "%s", "add": [{"type": "slow", "count": 2, "host_prefix": "n"}]}' "$tmp/base.json" > "$tmp/g4.json"
expect 2 "is a host of the base platform too" -- "$hm" generate "$tmp/g4.json"
printf '{"hetmap_generator": 1, "from": "builtin:sunet", "add": [{"type": "nosuch", "count": 1}]}' > "$tmp/g5.json"
expect 2 "the generated platform is not valid at processors[6].type" -- "$hm" generate "$tmp/g5.json"

# ---- options ------------------------------------------------------------
for g in 1x4294967299 1x3junk 3x1x1 x3 3x 0x1 '1 x3'; do
	expect 3 "--grid expects RxC" -- "$hm" predict --procs 1,0,0 -p "$mini" --grid "$g" -b 32
done
expect 3 "processor 'a0' given twice" -- "$hm" predict -p "$mini" --procs a0=1,a0=2
for l in ',,,' ',BTM' 'BTM,,GU' 'BTM,'; do
	expect 3 "empty method name" -- "$hm" compare -p "$mini" --methods "$l"
done
printf '{"name":"e","description":"a\u001b[31mred","types":{"t":{"k3":1e-9,"k2_dgetf2":1e-9}},"processors":[{"name":"a","type":"t"}],"network":{"same_processor":{"t_s":0,"t_w":0},"same_node":{"t_s":0,"t_w":0},"inter_node":{"t_s":0,"t_w":0}},"block_sizes":[32]}' > "$tmp/esc.json"
expect 0 'a\x1b[31mred' -- "$hm" platform show "$tmp/esc.json"
check "no raw escape sequence reaches the terminal" bash -c "! \"\$0\" platform show \"\$1\" | grep -q \$'\\x1b'" "$hm" "$tmp/esc.json"
# integers are decimal digits: strtod's other readings are refused
for v in 1e3 1E2 0x10 1.5 ' 1e1'; do
	expect 3 "'--block-size' expects an integer in decimal digits" -- "$hm" predict -p "$mini" -n 600 --procs 1,0,0 --grid 1x1 -b "$v"
done
expect 3 "'--judge' expects an integer in decimal digits, not '1e1'" -- "$hm" plan -p "$mini" --judge 1e1
expect 3 "must be between" -- "$hm" plan -p "$mini" -d 99999999999999999999

# help: one topic, a command or --man, else an error
expect 0 "usage: hetmap plan" -- "$hm" help plan
expect 0 ".SH \"EXIT STATUS\"" -- "$hm" help --man
for a in --bogus nosuch; do
	expect 3 "unknown command '$a'" -- "$hm" help "$a"
done
# a typo gets the name it most likely meant; the version three ways
expect 3 "unknown command 'plna' (did you mean 'plan'?" -- "$hm" plna
expect 3 "unknown command 'plna' (did you mean 'plan'?" -- "$hm" help plna
expect 3 "unknown option '--dpth' (did you mean '--depth'?" -- "$hm" plan --dpth 3
expect 3 "unknown option '--launchr=mpich' (did you mean '--launcher'?" -- "$hm" run --launchr=mpich
expect 3 "unknown option '--zzzzzz' (see 'hetmap plan --help')" -- "$hm" plan --zzzzzz
for v in --version -V version; do
	expect 0 "hetmap " -- "$hm" "$v"
done
expect 3 "help: one topic at most" -- "$hm" help --man --man

# ---- host lists: each name checked where it comes from ---------------------
printf 'a,b slots=2\n' >"$tmp/hf-comma"
expect 2 "$tmp/hf-comma: line 1: host name 'a,b' has character ','" -- "$hm" calibrate --hostfile "$tmp/hf-comma" -o "$tmp/c.json"
printf 'n1 slots=1\n%s slots=1\n' "$(printf 'x%.0s' $(seq 230))" >"$tmp/hf-long"
expect 2 "line 2: host name 'xxxx" -- "$hm" calibrate --hostfile "$tmp/hf-long" -o "$tmp/c.json"
expect 3 "is longer than 199 characters" -- "$hm" calibrate --hosts "$(printf 'y%.0s' $(seq 210))" -o "$tmp/c.json"
for pair in localhost:1,127.0.0.1:1 127.0.0.1,localhost "localhost,$(hostname)"; do
	expect 3 "both name this machine" -- "$hm" calibrate --hosts "$pair" -o "$tmp/c.json"
done
check "a refused host list wrote nothing" test ! -e "$tmp/c.json"
expect 3 "SLURM_JOB_NODELIST): the allocation's node 1: host name 'bad_!'" -- env SLURM_JOB_NODELIST='bad_!' SLURM_JOB_CPUS_PER_NODE=1 \
	SLURM_JOB_ID=1 "$hm" calibrate -o "$tmp/c.json"
finish cli_hostile
