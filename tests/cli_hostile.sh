#!/bin/bash
# Hostile inputs end to end (beyond the bad-platform catalogue): sizes
# that cannot fit, far too many processors, outputs that cannot be
# written, names that would be dangerous in a shell or a launcher file.
# Each gets its own exit code and message, and no partial file is left.
set -u
hm=$1 data=$2
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
expect 3 "option '--depth' must be between 1 and 4096" -- "$hm" compare -d 999999999999
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
finish cli_hostile
