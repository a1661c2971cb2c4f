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
# a user's first hour: the time line and the span, report with its plot,
# the configuration file, the ELF check, the shape options
printf '#!/bin/sh\necho "hetmap-time: 0.25"\n' > "$tmp/timed.sh" && chmod +x "$tmp/timed.sh"
expect 0 "by the program's 'hetmap-time:' line" -- "${V[@]}" "$hm" run -p "$data/good/localhost.json" -n 300 \
	--no-placement-check --time-regex 'never ([0-9]+)' --results "$tmp/r.jsonl" -- "$tmp/timed.sh"
expect 0 "measured_by" -- "${V[@]}" "$hm" report -f json "$tmp/r.jsonl"
command -v gnuplot >/dev/null && expect 0 "plot written" -- "${V[@]}" "$hm" report --plot "$tmp/r.png" "$tmp/r.jsonl"
printf 'platform = builtin:torc\nresults = %s/c.jsonl\n' "$tmp" > "$tmp/h.conf"
expect 0 "from the configuration" -- env -u HETMAP_PLATFORM HETMAP_CONFIG="$tmp/h.conf" "${V[@]}" "$hm" plan -v -n 1000
echo 'platfrom = x' > "$tmp/bad.conf"
expect 2 "unknown key" -- env -u HETMAP_PLATFORM HETMAP_CONFIG="$tmp/bad.conf" "${V[@]}" "$hm" plan -n 1000
lib=/usr/lib/x86_64-linux-gnu/scalapack
[ -x "$lib/mpich-tests/xdlu" ] && expect 3 "is linked with MPICH" -- "${V[@]}" "$hm" run -p "$data/good/localhost.json" \
	-n 600 --results "$tmp/r.jsonl" -- "$lib/mpich-tests/xdlu"
expect 0 "block size b = 64" -- "${V[@]}" "$hm" plan -p builtin:torc -n 3000 -b 64 --rows-le-cols
expect 3 "outside TORC's block sizes" -- "${V[@]}" "$hm" plan -p builtin:torc -n 3000 -b 500
expect 0 "lies between TORC's measured block sizes" -- "${V[@]}" "$hm" plan -p builtin:torc -n 3000 -b 63
# tune and learn: a real race of two runs, its resume, the list, learning
# from the runs, a corrected platform planned on; report's hostile lines
expect 0 "winner c" -- "${V[@]}" "$hm" tune -p "$data/good/localhost.json" -n 300 --budget 2 --results "$tmp/t.jsonl" \
	--winner "$tmp/w.json"
expect 0 "runs of this tune" -- "${V[@]}" "$hm" tune -p "$data/good/localhost.json" -n 300 --budget 3 --results "$tmp/t.jsonl"
expect 0 "a sweep of" -- "${V[@]}" "$hm" tune -p "$data/good/localhost.json" -n 300 --sweep --list
cat "$tmp/r.jsonl" >> "$tmp/t.jsonl"
expect 0 "learned from" -- "${V[@]}" "$hm" learn "$tmp/t.jsonl" -p "$data/good/localhost.json" -o "$tmp/learned.json" \
	--check "$tmp/r.jsonl"
expect 0 "corrected" -- "${V[@]}" "$hm" plan -p "$tmp/learned.json" -n 300
expect 0 "learned from" -- "${V[@]}" "$hm" predict -p "$data/good/localhost.json" -n 300 --procs 1,1 --history "$tmp/t.jsonl"
{ head -c 100 /dev/zero; head -1 "$tmp/t.jsonl"; printf 'x\0y\n'; } > "$tmp/zeros.jsonl"
expect 2 "holds a NUL byte" -- "${V[@]}" "$hm" report "$tmp/zeros.jsonl" -f csv
finish valgrind_cli
