#!/bin/bash
# valgrind over the CLI paths: every command, success and failure paths.
# Any invalid access or definite/indirect leak makes valgrind exit 99.
set -u
. "$(dirname "$0")/lib.sh"
vg=$(command -v valgrind) || skip "valgrind missing (install valgrind)"
V=("$vg" -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect
   --show-leak-kinds=definite,indirect --trace-children=no)
mini=$data/good/mini.json

expect 0 "" -- "${V[@]}" "$hm" --help
expect 0 "processors on" -- "${V[@]}" "$hm" platform show builtin:torc
expect 2 "unknown type" -- "${V[@]}" "$hm" platform check "$data/bad/unknown_type.json"
expect 2 "JSON syntax error" -- "${V[@]}" "$hm" platform check "$data/bad/syntax_error.json"
expect 0 "7.62153" -- "${V[@]}" "$hm" predict -m thesis -p builtin:torc -n 2048 --procs 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1 --grid 1x19 -b 32
expect 0 "plan written" -- "${V[@]}" "$hm" plan -p builtin:torc -n 2048 -M BTM -d 12 -o "$tmp/p.json"
expect 0 "written to" -- "${V[@]}" "$hm" plan -p "$mini" -n 400 -M GPTM --launcher openmpi -o "$tmp/l"
expect 5 "node budget" -- "${V[@]}" "$hm" plan -M exhaustive --max-nodes 50
expect 0 "GPTM" -- "${V[@]}" "$hm" compare -p builtin:sunet -n 7680 -d 10 -f json
expect 3 "unknown option" -- "${V[@]}" "$hm" compare --bogus
expect 4 "" -- "${V[@]}" "$hm" plan -p "$mini" -o "$tmp/no/dir/p.json"
expect 0 "hetmap-driver" -- "${V[@]}" "$hm" run --plan "$tmp/l/plan.json" --dry-run
expect 2 "not in plan.processes" -- "${V[@]}" "$hm" run --dry-run --plan <(sed 's/"ranks":	\["a0"/"ranks":	["zz"/' "$data/../fuzz/plans/mini-gu.json")
expect 0 "record appended" -- "${V[@]}" "$hm" run -p "$data/good/localhost.json" -n 300 --results "$tmp/r.jsonl"
expect 8 "not found" -- "${V[@]}" "$hm" run -p "$data/good/localhost.json" -n 300 --mpirun "$tmp/none" --results "$tmp/r.jsonl"
expect 0 "wrote $tmp/cal.json" -- "${V[@]}" "$hm" calibrate --hosts localhost:2 --repeat 1 --min-time 0.01 --accept-unreliable \
	--block-sizes 32 --all-busy-only --no-shapes -o "$tmp/cal.json"
expect 0 "0,2,4,6,1,3,5,7" -- "${V[@]}" "$hm" platform show "$data/good/two-sockets.json"
expect 0 "written to" -- "${V[@]}" "$hm" plan -p "$data/good/two-sockets.json" -n 8000 -M GU --launcher mpich \
	--launcher-version 4 -o "$tmp/self-bound"
expect 0 "hetmap: generate: TORC+20x17P4" -- "${V[@]}" "$hm" generate "$examples/torc-20-17p4.json" -o "$tmp/g.json"
expect 0 "exact" -- "${V[@]}" "$hm" compare -p "$tmp/g.json" -n 20000 -d 20 --methods exact,BTM,GPTM
finish valgrind_cli
