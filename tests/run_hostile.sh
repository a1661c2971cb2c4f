#!/bin/bash
# 'hetmap run' against a hostile environment, with a stand-in for mpirun
# (a script, so these tests need no MPI and run in seconds): results files
# that are not files, a results file cut mid-line, signals that are not
# INT/TERM/HUP, a closed standard output, a launcher that closes its
# output and keeps running past the timeout.
set -u
. "$(dirname "$0")/lib.sh"
mini=$data/good/mini.json
"$hm" plan -p "$mini" -n 400 -M GU -o "$tmp/plan.json" >/dev/null

# The stand-in: MODE=ok prints a driver line; MODE=sleep starts a child
# and waits; MODE=close closes its output, then waits. It notes its pid
# and its child's, and that it ran.
cat > "$tmp/mpirun" <<'SH'
#!/bin/bash
if [ "$1" = --version ]; then echo "mpirun (Open MPI) ${FAKE_VERSION:-4.1.4}"; exit 0; fi
echo "$@" > "$FAKE_DIR/mpirun.args"
echo $$ > "$FAKE_DIR/mpirun.pid"
case "$MODE" in
ok)	echo '{"hetmap_driver":1,"seconds":0.25,"check":{"kind":"test","passed":true},"ranks":[]}' ;;
noisy)	for i in $(seq 2000); do echo "line $i of output nobody reads"; done
	echo '{"hetmap_driver":1,"seconds":0.25,"check":{"kind":"test","passed":true},"ranks":[]}' ;;
sleep)	sleep 60 & echo $! > "$FAKE_DIR/child.pid"; echo started > "$FAKE_DIR/started"; wait ;;
close)	exec >&-; echo started > "$FAKE_DIR/started"; sleep 60 ;;
esac
SH
chmod +x "$tmp/mpirun"
export FAKE_DIR=$tmp
run() {         # hetmap run with the stand-in
	"$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" "$@"
}

# ---- results files that cannot take a record: refused before the job ----
mkfifo "$tmp/fifo"
ln -s "$tmp/nowhere" "$tmp/dangling"
mkdir "$tmp/a-dir"
for r in "$tmp/a-dir" "$tmp/no/such/dir/r.jsonl" "" "$tmp/fifo" "$tmp/dangling"; do
	rm -f "$tmp/mpirun.pid"
	MODE=ok expect 4 "results" -- timeout 10 "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --results "$r"
	check "the job did not run for results '$r'" test ! -e "$tmp/mpirun.pid"
done
check "the dangling link's target was not created" test ! -e "$tmp/nowhere"
check "the FIFO is still a FIFO" test -p "$tmp/fifo"

# ---- a results file cut mid-line: the next record starts a fresh line ----
printf '{"hetmap_result":1,"cut' > "$tmp/r.jsonl"
MODE=ok expect 0 "record appended" -- run --results "$tmp/r.jsonl"
check "the new record is a line of its own" python3 -c '
import json, sys
lines = open(sys.argv[1]).read().split("\n")
assert lines[0] == "{\"hetmap_result\":1,\"cut"
rec = json.loads(lines[1]); assert rec["hetmap_result"] == 1 and rec["measured_s"] == 0.25
assert lines[2] == ""' "$tmp/r.jsonl"
(umask 027 && MODE=ok run --results "$tmp/new.jsonl" >/dev/null 2>&1)
check "a new results file gets 0666 less the umask" test "$(stat -c %a "$tmp/new.jsonl")" = 640

# ---- any signal that would end hetmap stops the job and records it ------
for sig in USR1 USR2 QUIT ALRM TERM; do
	rm -f "$tmp/started" "$tmp/child.pid"
	export TMPDIR=$tmp/t-$sig
	mkdir -p "$TMPDIR"
	MODE=sleep "$hm" run -v --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --results "$tmp/sig.jsonl" \
		>/dev/null 2>"$tmp/sig.err" &
	pid=$!
	for i in $(seq 100); do [ -e "$tmp/started" ] && break; sleep 0.1; done
	kill -"$sig" $pid
	wait $pid
	rc=$?
	export TMPDIR=$scratch_tmpdir
	want=$((128 + $(kill -l "$sig")))
	check "SIG$sig: exit $want (got $rc)" test $rc -eq $want
	check "SIG$sig: the job's child is stopped" bash -c '! kill -0 "$(cat "$1")" 2>/dev/null' _ "$tmp/child.pid"
	check "SIG$sig: the temporary directory is removed" test -z "$(ls -A "$tmp/t-$sig")"
	check "SIG$sig: a record says so" python3 -c '
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert rec["mpirun_status"] == "interrupted" and rec["signal"] == int(sys.argv[2])' "$tmp/sig.jsonl" "$(kill -l "$sig")"
done
check "the process group is named for the case of SIGKILL" grep -q "kill -TERM -- -" "$tmp/sig.err"
# while run still searches for its plan: the search stops, nothing is
# launched, nothing is left in TMPDIR, a record says at what stage
for delay in 0.1 0.5; do
	export TMPDIR=$tmp/t-search-$delay
	mkdir -p "$TMPDIR"
	rm -f "$tmp/mpirun.args"
	MODE=ok "$hm" run -p builtin:mtorc-03 -n 20000 -M BTM --mpirun "$tmp/mpirun" \
		--results "$tmp/search-sig.jsonl" >/dev/null 2>"$tmp/search-sig.err" &
	pid=$!
	sleep "$delay"
	kill -INT $pid
	wait $pid
	rc=$?
	export TMPDIR=$scratch_tmpdir
	check "SIGINT ${delay} s into the search: exit 130 (got $rc)" test $rc -eq 130
	check "SIGINT ${delay} s into the search: nothing launched" test ! -e "$tmp/mpirun.args"
	check "SIGINT ${delay} s into the search: TMPDIR left empty" test -z "$(ls -A "$tmp/t-search-$delay")"
	check "SIGINT ${delay} s into the search: a record" python3 -c '
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert rec["signal"] == 2 and rec["exit_code"] == 130 and rec["stage"] in ("planning", "launcher version check"), rec' "$tmp/search-sig.jsonl"
done

# ---- a closed standard output does not lose the record -------------------
MODE=noisy run --results "$tmp/pipe.jsonl" 2>/dev/null | true
check "the record is written with stdout closed" test "$(wc -l < "$tmp/pipe.jsonl")" -eq 1

# ---- the timeout holds after the launcher closed its output -------------
rm -f "$tmp/started"
start=$SECONDS
MODE=close expect 9 "stopped after the 2 s timeout" -- run --results "$tmp/t.jsonl" --timeout 2
check "stopped within 10 s of a 2 s timeout" test $((SECONDS - start)) -le 10
# ---- the launcher's version picks its syntax; the wrong MPI is refused -----
MODE=ok expect 0 "" -- run --results "$tmp/v.jsonl"
check "Open MPI 4: --rankfile" grep -q -- "--rankfile /.*/rankfile" "$tmp/mpirun.args"
FAKE_VERSION=5.0.3 MODE=ok expect 0 "" -- run --results "$tmp/v.jsonl"
check "Open MPI 5: --map-by rankfile:file=, named in the launch directory" grep -q -- "--map-by rankfile:file=rankfile " "$tmp/mpirun.args"
check "Open MPI 5: no deprecated --rankfile" test -z "$(grep -- "--rankfile" "$tmp/mpirun.args")"
FAKE_VERSION=5.0.3 MODE=ok expect 0 "" -- run --results "$tmp/v.jsonl" --launcher openmpi-seq
check "Open MPI 5: --map-by seq" grep -q -- "--hostfile /.*/seqfile --map-by seq" "$tmp/mpirun.args"
check "the record names the launcher's version" grep -q '"version":"mpirun (Open MPI) 5.0.3"' "$tmp/v.jsonl"
printf '#!/bin/sh\necho "HYDRA build details:"; echo "    Version: 4.0.2"\n' > "$tmp/hydra"
chmod +x "$tmp/hydra"
expect 8 "does not say 'Open MPI|OpenRTE'; it says: HYDRA build details:" -- run --mpirun "$tmp/hydra" --results "$tmp/v.jsonl"
expect 0 "--map-by rankfile:file=" -- "$hm" run --plan "$tmp/plan.json" --launcher-version 5 --mpirun /nonexistent/mpirun --dry-run

finish run_hostile
