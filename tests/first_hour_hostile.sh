#!/bin/bash
# The first hour's surfaces under hostile input (tests/README.md), one
# section per class of defect, each case with its siblings: report and its
# plot, line readers, the configuration and the cache, the program run, its
# time, help and subcommands, environment numbers. A stand-in mpirun (a
# script) prints what a program would, so these need no MPI.
set -u
. "$(dirname "$0")/lib.sh"
mini=$data/good/mini.json
local_plat=$data/good/localhost.json
"$hm" plan -p "$mini" -n 400 -M GU -o "$tmp/plan.json" >/dev/null
cat > "$tmp/mpirun" <<'SH'
#!/bin/bash
if [ "$1" = --version ]; then echo "mpirun (Open MPI) 4.1.4"; exit 0; fi
echo ran > "$FAKE_DIR/ran"
line=${FAKE_PRINT:-}
[ -n "$line" ] || line='{"hetmap_driver":1,"seconds":0.25,"check":{"kind":"test","passed":true},"ranks":[]}'
printf '%s\n' "$line"
SH
chmod +x "$tmp/mpirun"
export FAKE_DIR=$tmp
run() { "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --results "$tmp/r.jsonl" "$@"; }

# a results file of two good records to tamper with
FAKE_PRINT= run >/dev/null 2>&1
FAKE_PRINT= run >/dev/null 2>&1
good=$tmp/good.jsonl
cp "$tmp/r.jsonl" "$good"

# ---- 1. names from records never become gnuplot's script ---------------
python3 - "$good" "$tmp/names.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
recs[0]["launcher"]["name"] = "x'; system('touch PWNED'); print 'a\\b\nc"
recs[1]["launcher"]["name"] = 'y"; system("touch PWNED2"); "'
open(sys.argv[2], "w").write("".join(json.dumps(r) + "\n" for r in recs))
PY
if command -v gnuplot >/dev/null; then
	expect 0 "plot written" -- "$hm" report "$tmp/names.jsonl" --plot "$tmp/names.png"
	check "a quote, a backslash and a newline in a name run nothing" test ! -e PWNED -a ! -e PWNED2
	check "the plot is a PNG" test "$(head -c 4 "$tmp/names.png" | tail -c 3)" = PNG
fi

# ---- 2. a plot never replaces what it is drawn from --------------------
cp "$good" "$tmp/keep.jsonl"
expect 4 "a plot is a PNG" -- "$hm" report "$tmp/keep.jsonl" --plot "$tmp/keep.jsonl"
expect 4 "a plot is a PNG" -- "$hm" report --plot "$tmp/keep.jsonl" "$good"
ln "$tmp/keep.jsonl" "$tmp/hard.png"
expect 4 "which the report reads" -- "$hm" report "$tmp/keep.jsonl" --plot "$tmp/hard.png"
cp "$good" "$tmp/notpng.png"
expect 4 "other than a PNG" -- "$hm" report "$good" --plot "$tmp/notpng.png"
check "the inputs are unchanged" cmp -s "$tmp/keep.jsonl" "$good"

# ---- 3-4. every line read or reported: a crash's zero block, NULs, a
# line too long to be a record (report, learn, the configuration) ---------
{ head -1 "$good"; head -c 4096 /dev/zero; tail -1 "$good"; } > "$tmp/zeros.jsonl"
expect 0 "line 2: 4096 NUL bytes" -- "$hm" report "$tmp/zeros.jsonl" -f json
check "both runs reported after the zero block" test "$(grep -c '"time"' "$tmp/out")" = 2
{ head -1 "$good"; printf '{"hetmap_result":1,\0"x":1}\n'; } > "$tmp/nul.jsonl"
expect 2 "line 2 holds a NUL byte" -- "$hm" report "$tmp/nul.jsonl"
python3 -c 'import sys; sys.stdout.write("{\"a\":\"" + "x" * (65 << 20) + "\"}\n")' > "$tmp/long.jsonl"
cat "$good" >> "$tmp/long.jsonl"
expect 2 "line 1 is longer than" -- "$hm" report "$tmp/long.jsonl"
expect 2 "line 1: too long to be a record" -- "$hm" learn "$tmp/long.jsonl" -p "$mini"
rm -f "$tmp/long.jsonl"

# ---- 5. calibrate's output checked before anything is launched ---------
cat > "$tmp/bench-mpirun" <<'SH'
#!/bin/bash
[ "$1" = --version ] && { echo "mpirun (Open MPI) 4.1.4"; exit 0; }
echo ran > "$FAKE_DIR/calibrated"; exit 1
SH
chmod +x "$tmp/bench-mpirun"
ln -s "$tmp/nowhere.json" "$tmp/link.json"
for out in "$tmp/no/such/dir/p.json" "$tmp/link.json"; do
	expect 4 "" -- "$hm" calibrate --hosts localhost:1 --mpirun "$tmp/bench-mpirun" -o "$out"
	check "calibrate -o $out: nothing launched" test ! -e "$tmp/calibrated"
done

# ---- 6. the program is a regular executable file, refused otherwise ----
mkfifo "$tmp/fifo-prog" && chmod +x "$tmp/fifo-prog"
mkdir "$tmp/dir-prog"
for p in "$tmp/fifo-prog" "$tmp/dir-prog"; do
	rm -f "$tmp/ran"
	expect 3 "not a regular file" -- timeout 10 "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" \
		--results "$tmp/r.jsonl" -- "$p"
	check "$p: not launched" test ! -e "$tmp/ran"
done

# ---- 7-10, 20, 22. the configuration and the cache ---------------------
mkdir "$tmp/conf-dir"
expect 2 "Is a directory" -- env HETMAP_CONFIG="$tmp/conf-dir" HETMAP_PLATFORM= "$hm" plan -n 400
printf 'platform = \0%s\n' "$mini" > "$tmp/nul.conf"
expect 2 "line 1: a NUL byte" -- env HETMAP_CONFIG="$tmp/nul.conf" HETMAP_PLATFORM= "$hm" plan -n 400
printf '\xff\xfep\0l\0a\0' > "$tmp/utf16.conf"
expect 2 "UTF-16 byte-order mark" -- env HETMAP_CONFIG="$tmp/utf16.conf" HETMAP_PLATFORM= "$hm" plan -n 400
printf 'platform = %s   # the lab\nresults = %s/with\\#hash.jsonl # kept\n' "$mini" "$tmp" > "$tmp/comment.conf"
expect 0 "" -- env HETMAP_CONFIG="$tmp/comment.conf" HETMAP_PLATFORM= "$hm" plan -n 400
check "a blank then '#' starts a comment" grep -q "on mini" "$tmp/out"
FAKE_PRINT= expect 0 "" -- env HETMAP_CONFIG="$tmp/comment.conf" "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun"
check "'\\#' is a '#' of the value" test -s "$tmp/with#hash.jsonl"
mkdir -p "$tmp/rel/hetmap" "$tmp/home/.config/hetmap"
printf 'platform = %s\n' "$data/no-such.json" > "$tmp/rel/hetmap/hetmap.conf"
printf 'platform = %s\n' "$mini" > "$tmp/home/.config/hetmap/hetmap.conf"
expect 0 "" -- env -u HETMAP_CONFIG HETMAP_PLATFORM= HOME="$tmp/home" XDG_CONFIG_HOME=rel "$hm" plan -n 400
check "a relative XDG_CONFIG_HOME is ignored (HOME's configuration read)" grep -q "on mini" "$tmp/out"
expect 3 "no cache for this machine's calibration: cannot make /proc/" -- env HETMAP_PLATFORM= \
	XDG_CACHE_HOME=/proc/hetmap-cannot "$hm" plan -n 400
expect 3 "neither XDG_CACHE_HOME nor HOME is an absolute path" -- env HETMAP_PLATFORM= XDG_CACHE_HOME=rel \
	HOME=relhome "$hm" plan -n 400
expect 2 "named by HETMAP_PLATFORM" -- env HETMAP_PLATFORM="$tmp/missing.json" "$hm" plan -n 400
printf 'platform = %s\n' "$tmp/missing.json" > "$tmp/missing.conf"
expect 2 "named by the configuration $tmp/missing.conf" -- env HETMAP_CONFIG="$tmp/missing.conf" \
	HETMAP_PLATFORM= "$hm" plan -n 400

# ---- 11. two first commands at once: one calibrates, the other waits ---
mkdir -p "$tmp/cache2/hetmap"
cached=$tmp/cache2/hetmap/host-$(hostname | tr -c 'A-Za-z0-9._\n-' _).json
if command -v flock >/dev/null; then
	flock "$cached.lock" sh -c 'sleep 2; cp "$1" "$2"' _ "$local_plat" "$cached" &
	sleep 0.5
	expect 0 "waiting for it" -- env HETMAP_PLATFORM= XDG_CACHE_HOME="$tmp/cache2" "$hm" plan -n 400
	check "the waiting command planned on what the other calibrated" grep -q "on localhost" "$tmp/out"
	wait
fi

# ---- 12. the program found as exec finds it, once, for every check -----
mkdir -p "$tmp/bin1" "$tmp/bin2"
printf 'not a program\n' > "$tmp/bin1/myprog"                      # no exec bit: exec skips it
printf '#!/bin/sh\necho "hetmap-time: 1.5"\n' > "$tmp/bin2/myprog" && chmod +x "$tmp/bin2/myprog"
FAKE_PRINT='hetmap-time: 1.5' expect 0 "" -- env PATH="$tmp/bin1:$tmp/bin2:$PATH" "$hm" run --plan "$tmp/plan.json" \
	--mpirun "$tmp/mpirun" --results "$tmp/which.jsonl" -- myprog
check "the record names the file exec runs" grep -q "\"path\":\"$tmp/bin2/myprog\"" "$tmp/which.jsonl"

# ---- 15. one precedence for the program's time -------------------------
for pair in "5 3" "3 5"; do
	set -- $pair
	FAKE_PRINT=$(printf 'hetmap-time: %s\nsolve took %s s' "$1" "$2") expect 0 "" -- \
		"$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --results "$tmp/prec.jsonl" \
		--time-regex 'took ([0-9.]+) s' -- /bin/true
	check "line $1, regex $2: --time-regex's" python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert r["measured_by"] == "time-regex" and r["measured_s"] == float(sys.argv[2]), r["measured_s"]' "$tmp/prec.jsonl" "$2"
done

# ---- 16, 21. plans read by content, their errors naming the file -------
python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))' "$tmp/plan.json" > "$tmp/compact.json"
expect 2 "$tmp/compact.json is a plan without a judge's record" -- "$hm" report "$tmp/compact.json"
printf '{\n "hetmap_plan": 1,\n "x": [1,\n' > "$tmp/broken-plan.json"
expect 2 "$tmp/broken-plan.json: JSON syntax error" -- "$hm" report "$tmp/broken-plan.json"

# ---- 23-25. messages and habits: predict, help, subcommands -------------
expect 3 "--threads: 'x' is not a thread count" -- "$hm" predict -p "$mini" --procs 1,1,1 --threads x,1,1
expect 3 "bad --threads list" -- "$hm" predict -p "$mini" --procs 1,1,1 --threads ,1
for topic in help --help version; do
	expect 0 "" -- "$hm" help "$topic"
done
check "help version says the version" grep -q "^hetmap [0-9]" "$tmp/out"
expect 0 "ok" -- "$hm" platform check "$mini" -v
expect 0 "" -- "$hm" platform check "$mini" -q
expect 0 '"platform"' -- "$hm" platform list -f json

# ---- 27. environment numbers checked before any work -------------------
for bad in nan abc -1 1e3 ''; do
	expect 3 "HETMAP_PROGRESS_S='$bad'" -- env HETMAP_PROGRESS_S="$bad" "$hm" run -p "$data/smpi4.json" -n 600 \
		--launcher smpi --dry-run -o "$tmp/sim-$bad"
done

# ---- 28-30. report's cells and plot whatever the records hold ----------
python3 - "$good" "$tmp/cells.jsonl" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
recs[0]["program"]["path"] = "/x/\x1b[31mred\nsplit"
recs[0]["measured_s"] = 1e308
recs[1]["launcher"]["name"] = "=HYPERLINK(\"http://x\")"
open(sys.argv[2], "w").write("".join(json.dumps(r) + "\n" for r in recs))
PY
expect 0 "" -- "$hm" report "$tmp/cells.jsonl"
check "no raw escape or line break from a program's name" test "$(grep -c $'\x1b' "$tmp/out") $(sed -n '/^$/q;p' "$tmp/out" | wc -l)" = "0 3"
expect 0 "" -- "$hm" report "$tmp/cells.jsonl" -f csv
check "CSV: one row a run, a formula shown as text" test "$(wc -l < "$tmp/out") $(grep -c "'=HYPERLINK" "$tmp/out")" = "3 1"
if command -v gnuplot >/dev/null; then
	expect 0 "1 of the runs left out of the plot" -- "$hm" report "$tmp/cells.jsonl" --plot "$tmp/cells.png"
	check "the plot is made without the time it cannot draw" test -s "$tmp/cells.png"
fi

# ---- 31. a --time-regex bounded before it is compiled -------------------
expect 3 "at most 1000 characters and 100 groups" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" \
	--results "$tmp/r.jsonl" --time-regex "$(python3 -c 'print("(" * 20000 + "x" + ")" * 20000)')"

echo "first_hour_hostile: $pass passed, $fail failed"
[ $fail = 0 ]
