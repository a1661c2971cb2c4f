#!/bin/bash
# The launch surface under hostile input, one section per class of defect
# (tests/README.md): each case with its siblings. A stand-in mpirun (a
# script) prints what it was given, so these need no MPI and take seconds.
set -u
. "$(dirname "$0")/lib.sh"
mini=$data/good/mini.json
"$hm" plan -p "$mini" -n 400 -M GU -o "$tmp/plan.json" >/dev/null

# The stand-in: --version as Open MPI $FAKE_VERSION; otherwise it notes its
# directory (keeping trailing newlines) and the first line of the file
# given to --rankfile or --map-by rankfile:file=, then prints what
# $FAKE_PRINT says (default: a driver's result line).
cat > "$tmp/mpirun" <<'SH'
#!/bin/bash
if [ "$1" = --version ]; then
	[ -n "${FAKE_SLOW_VERSION:-}" ] && sleep 5
	echo "mpirun (Open MPI) ${FAKE_VERSION:-4.1.4}"; exit 0
fi
{
	pwd > "${FAKE_OUT:-/dev/null}.cwd"
	while [ $# -gt 0 ]; do
		case $1 in
		--rankfile) echo "rankfile: $(head -1 "$2")" ;;
		rankfile:file=*) f=${1#rankfile:file=}; echo "rankfile: $(head -1 "${f%%:*}")" ;;
		esac
		echo "arg: $1"
		shift
	done
} > "${FAKE_OUT:-/dev/null}"
line=${FAKE_PRINT:-}
[ -n "$line" ] || line='{"hetmap_driver":1,"seconds":0.25,"check":{"kind":"test","passed":true},"ranks":[]}'
printf '%s\n' "$line"
SH
chmod +x "$tmp/mpirun"
export FAKE_OUT=$tmp/fake.out

# ---- 1. launch directories whose names a shell would bend: run.sh runs in
# its own directory, whatever its name, and travels when copied --------
for name in $'ends-in-newline\n' $'two\n\n' $'mid\nline' 'trailing blank ' '-starts-with-dash' 'a:b,c' "quote'd" '$(id)'; do
	mkdir -p "$tmp/decoys"
	dir=$tmp/decoys/$name
	decoy=$tmp/decoys/${name%%$'\n'*}
	[ "$decoy" != "$dir" ] && mkdir -p "$decoy" && echo "rank 0=DECOY slot=0" > "$decoy/rankfile"
	expect 0 "" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" -o "$dir" --dry-run
	(cd / && sh "$dir/run.sh" >/dev/null)
	check "run.sh in '$name' reads its own rankfile" grep -q "^rankfile: rank 0=hostA" "$FAKE_OUT"
	check "run.sh in '$name' runs there" test "$(cat "$FAKE_OUT.cwd"; echo x)" = "$dir"$'\nx'
	cp -r "$dir" "$tmp/moved"
	rm -rf "$dir"
	(cd / && sh "$tmp/moved/run.sh" >/dev/null)
	check "run.sh copied from '$name' reads the copy's rankfile" grep -q "^rankfile: rank 0=hostA" "$FAKE_OUT"
	rm -rf "$tmp/moved" "$tmp/decoys"
done

# ---- 2. what a template expands to is bounded, not only the template ----
long=$tmp/$(printf 'd%.0s' $(seq 200))/$(printf 'e%.0s' $(seq 200))/$(printf 'f%.0s' $(seq 200))
mkdir -p "$long"
python3 -c 'import sys; sys.stdout.write("{dir}" * 200000)' > "$tmp/big.tpl"
expect 3 "expands to more than 4 MiB" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" -o "$long/job" --input "$tmp/big.tpl:in.txt" --dry-run
check "nothing of the refused job was written" test ! -e "$long/job/in.txt"
python3 -c 'import sys; sys.stdout.write("{n} " * 100000)' > "$tmp/many.tpl"
expect 0 "" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" -o "$tmp/ok" --input "$tmp/many.tpl:in.txt" --dry-run
check "a template within the bound is rendered" test "$(wc -c < "$tmp/ok/in.txt")" -eq 400000
expect 3 "expands to more than 4 MiB" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" -o "$long/job2" --dry-run -- /bin/true "$(python3 -c 'print("{dir}" * 7000, end="")')"

# ---- 3. a signal while the launcher is asked its version: 128+N and a
# record, as later in the run -------------------------------------------
for sig in INT TERM USR1; do
	rm -f "$tmp/early.jsonl"
	FAKE_SLOW_VERSION=1 "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --results "$tmp/early.jsonl" \
		>/dev/null 2>"$tmp/early.err" &
	pid=$!
	sleep 0.5
	kill -"$sig" $pid
	wait $pid
	rc=$?
	check "SIG$sig during --version: exit $((128 + $(kill -l $sig))) (got $rc)" test $rc -eq $((128 + $(kill -l $sig)))
	check "SIG$sig during --version: an interrupted record" python3 -c '
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert rec["mpirun_status"] == "interrupted" and rec["signal"] == int(sys.argv[2]) and rec["stage"] == "launcher version check"' "$tmp/early.jsonl" "$(kill -l $sig)"
	check "SIG$sig during --version: no self-contradicting message" test -z "$(grep "does not say" "$tmp/early.err")"
done

# ---- 4-5. Slurm's numbers beyond their range: refused, never wrapped or
# truncated (tests/test_launch.c holds the parser; here, the command) ----
slurm() { env SLURM_JOB_NODELIST="$1" SLURM_JOB_CPUS_PER_NODE="$2" "$hm" run --plan "$tmp/plan.json" --launcher slurm --mpirun "$tmp/mpirun" --results "$tmp/s.jsonl"; }
printf '#!/bin/sh\necho "slurm 22.05.8"\n' > "$tmp/srun"
chmod +x "$tmp/srun"
for nodes in 'n[9223372036854775807]' 'n[0-9223372036854775807]' 'n[1-99999999999999999999]'; do
	expect 3 "SLURM_JOB_NODELIST: cannot read" -- env SLURM_JOB_NODELIST="$nodes" SLURM_JOB_CPUS_PER_NODE=2 "$hm" run --plan "$tmp/plan.json" --launcher slurm --mpirun "$tmp/srun" --results "$tmp/s.jsonl"
done
for cpus in 4294967298 2147483648 '2(x4294967297)' 99999999999999999999; do
	expect 3 "SLURM_JOB_CPUS_PER_NODE: cannot read" -- env SLURM_JOB_NODELIST='hostA,hostB' SLURM_JOB_CPUS_PER_NODE="$cpus" "$hm" run --plan "$tmp/plan.json" --launcher slurm --mpirun "$tmp/srun" --results "$tmp/s.jsonl"
done

# ---- 6. relative paths hold from the launch directory; a launch that
# cannot start leaves no temporary directory ----------------------------
(cd "$tmp" && expect 0 "" -- "$hm" run --plan plan.json --mpirun ./mpirun -o "$tmp/rel" --results "$tmp/r.jsonl")
check "a relative --mpirun is made absolute in run.sh" grep -q "exec $tmp/mpirun " "$tmp/rel/run.sh"
mkdir -p "$tmp/tmpdir"
cat > "$tmp/vanishing" <<SH
#!/bin/sh
echo "mpirun (Open MPI) 4.1.4"; rm -f "\$0"
SH
chmod +x "$tmp/vanishing"
TMPDIR=$tmp/tmpdir expect 8 "" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/vanishing" --results "$tmp/r.jsonl" -- /bin/true
check "a launch that could not start leaves no temporary directory" test -z "$(ls -A "$tmp/tmpdir")"

# ---- 7. run.sh travels: every mention of its directory is "$here" ------
expect 0 "" -- "$hm" plan -p "$mini" -n 400 -M GU --launcher openmpi --launcher-version 5 -o "$tmp/x:y,z" -- /bin/echo --out={dir}/o
check "Open MPI 5: the rankfile named in the launch directory" grep -q -- "--map-by rankfile:file=rankfile " "$tmp/x:y,z/run.sh"
check "{dir} inside an argument becomes \"\$here\"" grep -q -- "--out=\"\$here\"/o" "$tmp/x:y,z/run.sh"
check "no absolute path to the directory is left" test -z "$(grep -F "$tmp/x:y,z" "$tmp/x:y,z/run.sh")"
expect 0 "" -- "$hm" plan -p "$mini" -n 400 -M GU --launcher mpich -o "$tmp/m" -- /bin/echo "" "a b"
check "an empty argument survives run.sh" grep -q "/bin/echo '' 'a b'" "$tmp/m/run.sh"

# ---- 8. plan writes a simulator's launch directory ---------------------
expect 0 "written to" -- "$hm" plan -p "$mini" -n 400 -M GU --launcher smpi --host-speed 2Gf -o "$tmp/sim"
check "the simulated platform and the host speed are there" grep -q "smpi/host-speed:2e+09f" "$tmp/sim/run.sh"
check "the platform file is written" test -s "$tmp/sim/platform.xml"
expect 0 "" -- "$hm" plan -p "$mini" -n 400 -M GU --launcher smpi --host-speed 2Gf --kernels modeled -o "$tmp/sim2"
check "modeled kernels reach the driver" grep -q -- "--modeled$" "$tmp/sim2/run.sh"
expect 3 "--host-speed goes with a simulator's --launcher" -- "$hm" plan -p "$mini" -n 400 --host-speed 2Gf
expect 3 "need a simulator launcher" -- "$hm" plan -p "$mini" -n 400 --kernels modeled --launcher openmpi -o "$tmp/x"
expect 3 "need a simulator launcher" -- "$hm" run --plan "$tmp/plan.json" --sim-platform "$mini" --dry-run

# ---- 9. error paths free what they took (the sanitizer build's leak
# checker fails these with its own exit code) ----------------------------
expect 3 "is not a quantity" -- "$hm" run -p "$mini" -n 400 -M GU --launcher smpi --host-speed NaN --results "$tmp/r.jsonl"
expect 3 "is not a quantity" -- "$hm" plan -p "$mini" -n 400 -M GU --launcher smpi --host-speed NaN -o "$tmp/sim3"
expect 3 "No such file" -- "$hm" run -p "$mini" -n 400 -M GU --mpirun "$tmp/mpirun" --results "$tmp/r.jsonl" -- ./nope
expect 3 "No such file" -- "$hm" run -p "$mini" -n 400 -M GU --mpirun "$tmp/mpirun" -o "$tmp/kept" --results "$tmp/r.jsonl" -- ./nope
# with arguments, and a dry run (their words were taken before the program was refused)
expect 3 "No such file" -- "$hm" run -p "$mini" -n 400 -M GU --mpirun "$tmp/mpirun" --dry-run -- ./nope x y

# ---- 10. an input's NAME is a plain file name, said as such ------------
echo "n={n}" > "$tmp/t.tpl"
for name in ../x /abs sub/x . .. plan.json run.sh rankfile ''; do
	expect 3 "cannot be an input file's name" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --input "$tmp/t.tpl:$name" --dry-run -o "$tmp/in"
done
cp "$tmp/t.tpl" "$tmp/with:colon.tpl"
expect 0 "" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --input "$tmp/with:colon.tpl" --dry-run -o "$tmp/in2"
check "a template whose own name holds ':' is read whole" test -s "$tmp/in2/with:colon.tpl"

# ---- 11. the program: never read as the launcher's option, found -------
for p in -x --help -np; do
	expect 3 "starts with '-'" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --dry-run -- "$p"
done
expect 3 "not found in PATH" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --dry-run -- no-such-program-hetmap
expect 0 "" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --dry-run -o "$tmp/t1" -- true
expect 0 "" -- "$hm" plan -p "$mini" -n 400 --launcher openmpi -o "$tmp/t2" -- program-on-the-cluster-only

# ---- 11b. a --plan runs its own problem, and -n/-r may not ask another --
expect 3 "not what -r/-n ask (lu n = 999)" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --dry-run -n 999
expect 3 "not what -r/-n ask (gemm n = 400)" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --dry-run -r gemm
expect 0 "" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --dry-run -n 400 -r lu -o "$tmp/agree"

# ---- 12. a time below the program's resolution is no measurement -------
for t in 0.00 0 inf; do
	res=$tmp/zero.jsonl
	rm -f "$res"
	FAKE_PRINT="WALL   400   400    32     1    32     1     4     $t     0.00 0.00 PASSED" \
		expect 0 "below its resolution" -- "$hm" run --plan "$tmp/plan.json" --mpirun "$tmp/mpirun" --results "$res" --no-placement-check --profile scalapack-test -- /bin/true
	check "a time printed as $t: measured_s is null" test "$(field measured_s)" = null
	check "a time printed as $t: no ratio" test -z "$(grep measured_over_predicted "$res")"
done

# ---- 13. the generator names the key out of range ----------------------
gen() { printf '{"hetmap_generator":1,"types":{"t":{"k3":1e-9,"k2_dgetf2":1e-9}},%s}' "$1" > "$tmp/g.json"; }
for case in 'groups[0].digits|"groups":[{"type":"t","host_prefix":"n","count":2,"digits":0}]' \
	    'groups[0].digits|"groups":[{"type":"t","host_prefix":"n","count":2,"digits":10}]' \
	    'groups[0].first|"groups":[{"type":"t","host_prefix":"n","count":2,"first":-1}]' \
	    'groups[0].count|"groups":[{"type":"t","host_prefix":"n","count":0}]' \
	    'groups[0].type|"groups":[{"type":1,"host_prefix":"n","count":2}]' \
	    'groups[0].host_prefix|"groups":[{"type":"t","host_prefix":"","count":2}]' \
	    'add[0].per_host|"add":[{"type":"t","count":2,"per_host":0}]' \
	    'add[0].count|"add":[{"type":"t","count":0}]'; do
	gen "${case#*|}"
	expect 2 "${case%%|*}:" -- "$hm" generate "$tmp/g.json"
done

# ---- 14. units are decimal; implausible values warned about, once ------
plat() {
	printf '{"types":{"t":{"k3":{"32":%s},"k2_dgetf2":1e-9,"busy_cores_scale":{"1":%s}}},"processors":[{"name":"p","host":"h","type":"t"}],"network":{"same_processor":{"t_s":0,"t_w":0},"same_node":{"t_s":1e-6,"t_w":1e-9},"inter_node":{"t_s":1e-5,"t_w":1e-8}}}' "$1" "$2" > "$tmp/u.json"
}
for q in '"0x10Gf"' '"0X1p4Gf"' '" 10Gf"' '"+10Gf"' '"inf"' '"nanGf"'; do
	plat "$q" 1
	expect 2 "" -- "$hm" platform check "$tmp/u.json"
done
for opt in 0x10 ' 5' inf 1e400 0x1p3; do
	expect 3 "expects a number" -- "$hm" plan -p "$mini" -n 400 --max-time "$opt"
done
plat 1e-3 1e300
expect 0 "outside 0.01..100" -- "$hm" platform check "$tmp/u.json"
check "a value read twice warns once" test "$(grep -c "k3.32" "$tmp/err")" -eq 1

# ---- compare: one budget for the whole table, and stops said -----------
"$hm" generate "$examples/modern-1024.json" -o "$tmp/m1024.json" >/dev/null
start=$(date +%s.%N)
expect 0 "was stopped by its time budget" -- "$hm" compare -p "$tmp/m1024.json" -n 30000 --max-time 3
check "compare stays within its 3 s budget (+1 s)" python3 -c "import sys, time; sys.exit(time.time() - $start > 4)"
check "a stopped run is marked in its row" grep -q "(stopped)" "$tmp/out"
"$hm" compare -p "$tmp/m1024.json" -n 30000 --max-time 2 -f json > "$tmp/c.json" 2>/dev/null
check "the JSON has the budget and each run's share" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["budget_s"] == 2 and sum(r["budget_s"] > 0 for r in d["results"]) == len(d["results"])' "$tmp/c.json"

finish launch_hostile
