#!/bin/bash
# A user's first hour (README, "Quick start"): no -p and no configuration,
# so the first command calibrates this machine and caches it, the next
# ones say they use the cache; the user's own pdgesv program
# (tests/clients/user_pdgesv.c, built here with each MPI's mpicc) runs
# through 'hetmap run' under Open MPI and MPICH, its time read from its
# 'hetmap-time:' line, from --time-regex, or, when it prints none, from
# the MPI span the probe's preload measures; then 'hetmap report' gives
# the table in text, csv and json and a PNG. Also: the configuration file
# and its errors, the results file from HETMAP_RESULTS, a time under ten
# ticks of its timer recorded without a ratio. Parts whose MPI is missing
# are skipped with a message.
set -u
. "$(dirname "$0")/lib.sh"
unset HETMAP_PLATFORM            # lib.sh's stand-in: this test is about the default
command -v mpicc.openmpi >/dev/null || skip "mpicc.openmpi missing (install libopenmpi-dev)"
[ -e /usr/lib/x86_64-linux-gnu/libscalapack-openmpi.so ] || skip "ScaLAPACK for Open MPI missing (libscalapack-openmpi-dev)"

# ---- 1. the default platform: this machine, calibrated once, cached ----
# under -q too, one line says why the first command takes a minute, and nothing more
expect 0 "calibrating this machine once" -- "$hm" plan -q -n 1200
check "-q: the calibration's progress stays quiet" bash -c '! grep -v "calibrate: warning: " "$1" | grep -q "calibrate: "' _ "$tmp/err"
cache=$XDG_CACHE_HOME/hetmap/host-$(hostname | tr -c 'A-Za-z0-9.\n_-' _).json
check "the calibration is cached" test -s "$cache"
expect 0 "calibrated earlier" -- "$hm" plan -n 1200
check "the second plan measured nothing" bash -c '! grep -q "^calibrate:" "$1"' _ "$tmp/err"
check "no TORC host in the plan" bash -c '! grep -q node0 "$1"' _ "$tmp/out"

# ---- 2. the configuration file and the variables ------------------------
printf '# site defaults\nplatform = builtin:torc\nresults = %s/site.jsonl\n' "$tmp" > "$tmp/hetmap.conf"
expect 0 "on TORC" -- env HETMAP_CONFIG="$tmp/hetmap.conf" "$hm" plan -n 1000
expect 0 "on calibrated" -- env HETMAP_CONFIG="$tmp/hetmap.conf" HETMAP_PLATFORM="$cache" "$hm" plan -n 1000
printf 'platfrom = x\n' > "$tmp/bad.conf"
expect 2 "line 1: unknown key 'platfrom' (did you mean 'platform'?)" -- env HETMAP_CONFIG="$tmp/bad.conf" "$hm" plan
printf 'results\n' > "$tmp/bad.conf"
expect 2 "line 1: expected 'key = value'" -- env HETMAP_CONFIG="$tmp/bad.conf" "$hm" plan
expect 2 "configuration $tmp/none.conf" -- env HETMAP_CONFIG="$tmp/none.conf" "$hm" plan

# ---- 3. the user's program under each MPI -------------------------------
build_program() {       # build_program MPI MPICC SCALAPACK-LIBRARY
	command -v "$2" >/dev/null && [ -e "$3" ] &&
		"$2" -O2 -o "$tmp/user-$1" "$root/tests/clients/user_pdgesv.c" "$3" 2>"$tmp/cc-$1.err"
}
lib=/usr/lib/x86_64-linux-gnu
ran=
for mpi in openmpi mpich; do
	if [ $mpi = openmpi ]; then scalapack=$lib/libscalapack-openmpi.so; else scalapack=$lib/libscalapack-mpich.so.2.2; fi
	if ! build_program $mpi mpicc.$mpi "$scalapack"; then
		echo "first_hour: cannot build the program for $mpi (mpicc.$mpi, $scalapack): skipped"
		continue
	fi
	ran="$ran $mpi"
	res=$tmp/runs.jsonl
	expect 0 "by the program's 'hetmap-time:' line" -- env HETMAP_RESULTS="$res" "$hm" run -n 1200 \
		--launcher $mpi --timeout 120 -- "$tmp/user-$mpi" {n} {b} {r} {c} --print-time
	check "$mpi: measured by the time line" test "$(field measured_by)" = '"time-line"'
	check "$mpi: a ratio" python3 -c 'import sys; assert float(sys.argv[1]) > 0' "$(field measured_over_predicted)"
	check "$mpi: the timer's tick (six decimals)" test "$(field timer_tick_s)" = 1e-06
	expect 0 "by --time-regex" -- "$hm" run -n 1200 --results "$res" --launcher $mpi --timeout 120 \
		--time-regex 'solve took ([0-9.]+) s' -- "$tmp/user-$mpi" {n} {b} {r} {c}
	check "$mpi: measured by the regex" test "$(field measured_by)" = '"time-regex"'
	expect 0 "MPI_Init to MPI_Finalize" -- "$hm" run -n 1200 --results "$res" --launcher $mpi \
		--timeout 120 -- "$tmp/user-$mpi" {n} {b} {r} {c}
	check "$mpi: measured by the MPI span" test "$(field measured_by)" = '"mpi-span"'
	# the span (MPI_Init to MPI_Finalize) holds the solve the program timed in the same run
	check "$mpi: the span covers the solve" python3 -c '
import json, re, sys
span = [json.loads(l) for l in open(sys.argv[1])][-1]["measured_s"]
solve = float(re.search(r"solve took ([0-9.]+) s", open(sys.argv[2]).read() + open(sys.argv[3]).read()).group(1))
assert span >= solve, (span, solve)' "$res" "$tmp/out" "$tmp/err"
	# -f json: the record on standard output, the program's output on standard error
	expect 0 "" -- "$hm" run -q -f json -n 1200 --results "$tmp/fj.jsonl" --launcher $mpi --timeout 120 \
		-- "$tmp/user-$mpi" {n} {b} {r} {c} --print-time
	check "$mpi: -f json prints the record" python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
assert r["hetmap_result"] == 1 and r["measured_by"] == "time-line", r' "$tmp/out"
	check "$mpi: -q: no progress, the program's output on stderr" bash -c \
		'grep -q "^hetmap-time:" "$1" && ! grep -q "hetmap: run: in " "$1"' _ "$tmp/err"
	# a regex that never matches: the span still measures, and a warning says so
	expect 0 "MPI_Init to MPI_Finalize" -- "$hm" run -n 1200 --results "$tmp/nomatch.jsonl" --launcher $mpi \
		--timeout 120 --time-regex 'never (here)' -- "$tmp/user-$mpi" {n} {b} {r} {c}
	check "$mpi: a regex that matched nothing is warned of" grep -q "time-regex matched no line" "$tmp/err"
done
[ -n "$ran" ] || skip "no MPI to build the user's program with"
expect 3 "has no group" -- "$hm" run -n 1200 --time-regex 'took [0-9.]+' -- /bin/true
expect 3 "--time-regex 'took ([0-9.]+'" -- "$hm" run -n 1200 --time-regex 'took ([0-9.]+' -- /bin/true
check "a bad regex runs nothing" test ! -e "$tmp/hetmap-results.jsonl"

# calibrate through MPICH's own launcher, with its flavour of the benchmark
if [[ " $ran " == *" mpich "* ]] && [ -x "$build/hetmap-calibrate-bench-mpich" ]; then
	expect 0 "hetmap-calibrate-bench-mpich" -- "$hm" calibrate --launcher mpich --repeat 1 --min-time 0.01 \
		--accept-unreliable --block-sizes 32 --all-busy-only --no-shapes -o "$tmp/cal-mpich.json"
	check "mpiexec started it" grep -q "^calibrate: mpiexec.mpich -f" "$tmp/err"
	expect 0 "ok (calibrated" -- "$hm" platform check "$tmp/cal-mpich.json"
fi

# ---- the Fortran 2008 bindings ('use mpi_f08'): the span times them too ----
printf 'program f08\n use mpi_f08\n call MPI_Init()\n call MPI_Finalize()\nend program f08\n' > "$tmp/f08.f90"
if command -v mpifort.openmpi >/dev/null && mpifort.openmpi -o "$tmp/f08" "$tmp/f08.f90" 2>"$tmp/f08.err"; then
	expect 0 "MPI_Init to MPI_Finalize" -- "$hm" run -n 1200 --results "$tmp/f08.jsonl" --launcher openmpi \
		--timeout 120 -- "$tmp/f08"
	check "use mpi_f08: measured by the MPI span" grep -q '"measured_by":"mpi-span"' "$tmp/f08.jsonl"
else
	echo "first_hour: no mpifort.openmpi that builds 'use mpi_f08' (gfortran, libopenmpi-dev): the Fortran 2008 case skipped"
fi

# ---- 4. diagnoses that name the cause ------------------------------------
other() { [ "$1" = openmpi ] && echo mpich || echo openmpi; }
for mpi in $ran; do
	if command -v "$(other $mpi | sed 's/openmpi/mpirun.openmpi/; s/^mpich$/mpiexec.mpich/')" >/dev/null; then
		expect 3 "is linked with" -- "$hm" run -n 1200 --launcher "$(other $mpi)" --results "$tmp/wrong.jsonl" \
			-- "$tmp/user-$mpi" {n} {b} {r} {c}
		check "$mpi program under $(other $mpi): the MPI named" grep -q "Use --launcher $mpi" "$tmp/err"
	fi
done
mkdir -p "$tmp/fakebin"
printf '#!/bin/sh\necho "srun: fatal: Could not establish a configuration source" >&2\nexit 1\n' > "$tmp/fakebin/srun"
chmod +x "$tmp/fakebin/srun"
expect 8 "srun: fatal: Could not establish a configuration source" -- env PATH="$tmp/fakebin:$PATH" \
	"$hm" run -n 1200 --launcher slurm --results "$tmp/wrong.jsonl" -- /bin/true
check "srun's failure is not called another MPI's, its message said once" test "$(grep -c "Could not establish" "$tmp/err")" = 1 -a \
	"$(grep -c "failed with exit status 1: srun: fatal" "$tmp/err")" = 1
# files for elsewhere: srun that cannot say its version is said once, even with -q, and plan succeeds
expect 0 "the launcher's version was not checked here" -- env PATH="$tmp/fakebin:$PATH" \
	"$hm" plan -q -p "$data/good/localhost.json" -n 600 --launcher slurm -o "$tmp/sb"
check "plan --launcher slurm: srun's own line said once" test "$(grep -c "Could not establish" "$tmp/err")" = 1
if command -v smpirun >/dev/null; then
	# a hetmap with no helpers beside it: the SMPI flavour is missing, and the message says how to build it
	mkdir -p "$tmp/bare" && cp "$hm" "$tmp/bare/hetmap"
	expect 3 "the SMPI flavour is built only when asked" -- "$tmp/bare/hetmap" run -p "$data/smpi4.json" -n 600 \
		--launcher smpi --host-speed 1Gf --results "$tmp/wrong.jsonl"
	check "the command that builds it" grep -q -- "-DHETMAP_SMPI_SCALAPACK=" "$tmp/err"
fi

# ---- 5. the report -------------------------------------------------------
expect 0 "measured_by" -- "$hm" report "$res"
check "the text table has a row per run" test "$(grep -c ' lu ' "$tmp/out")" = "$(wc -l < "$res")"
check "a summary per program under it, every run counted" python3 -c '
import sys
lines = open(sys.argv[1]).read().split("per program (measured / predicted):\n")[1].splitlines()[1:]
assert sum(int(l.split()[1]) for l in lines) == sum(1 for _ in open(sys.argv[2])), lines
for l in lines:
    name, runs, median, span, failed = l.split()
    if median != "-":
        lo, hi = map(float, span.split("-"))
        assert lo <= float(median) <= hi, l' "$tmp/out" "$res"
# no file named: the one run appends to (here HETMAP_RESULTS)
expect 0 "(the results file 'run' appends to)" -- env HETMAP_RESULTS="$res" "$hm" report
expect 3 "no results file named, and" -- env -u HETMAP_RESULTS HETMAP_CONFIG=/dev/null sh -c "cd '$tmp' && exec '$hm' report"
# --sort: measured time ascending
expect 0 "" -- "$hm" report -f json --sort measured_s "$res"
check "--sort measured_s orders the rows" python3 -c '
import json, sys
t = [r["measured_s"] for r in json.load(open(sys.argv[1]))]
assert t == sorted(t), t' "$tmp/out"
expect 3 "--sort nope: not a column of runs" -- "$hm" report --sort nope "$res"
expect 3 "--by chooses the plot's colours" -- "$hm" report --by method "$res"
expect 0 "" -- "$hm" report -f csv "$res"
check "csv: header and rows" test "$(wc -l < "$tmp/out")" = $(( $(wc -l < "$res") + 1 ))
check "csv: the columns" grep -q '^time,program,launcher,platform,routine,n,method,D,threads,grid,b,predicted_s,measured_s,ratio,load,measured_by,verdict,exit$' "$tmp/out"
expect 0 "" -- "$hm" report -f json "$res"
check "json: every run with both times" python3 -c '
import json, sys
rows = json.load(open(sys.argv[1]))
assert len(rows) == sum(1 for _ in open(sys.argv[2]))
assert all(r["predicted_s"] > 0 and r["measured_s"] > 0 for r in rows)
assert {r["launcher"] for r in rows} == set(sys.argv[3].split()), rows' "$tmp/out" "$res" "$ran"
if command -v gnuplot >/dev/null; then
	expect 0 "plot written to $tmp/runs.png" -- "$hm" report --plot "$tmp/runs.png" "$res"
	check "the plot is a PNG" bash -c 'head -c 8 "$1" | od -An -c | grep -q "P   N   G"' _ "$tmp/runs.png"
	expect 0 "plot written" -- "$hm" report --plot "$tmp/by-method.png" --by method "$res"
	expect 3 "--by colour: not a column of runs" -- "$hm" report --plot "$tmp/x.png" --by colour "$res"
	mkfifo "$tmp/fifo"
	expect 4 "not a regular file" -- "$hm" report --plot "$tmp/fifo" "$res"
else
	echo "first_hour: gnuplot missing: the plot skipped"
fi
echo '{"not": "a record"}' > "$tmp/other.jsonl"
expect 2 "other.jsonl: line 1 is not a hetmap run record" -- "$hm" report "$tmp/other.jsonl"
expect 2 "missing.jsonl" -- "$hm" report "$tmp/missing.jsonl"
expect 3 "unknown format 'xml'" -- "$hm" report -f xml "$res"

# ---- 6. a time under ten ticks of its timer: kept, no ratio --------------
cat > "$tmp/coarse.sh" <<'EOF'
#!/bin/sh
echo "hetmap-time: 0.05"
EOF
chmod +x "$tmp/coarse.sh"
expect 0 "under 10 ticks of its timer" -- "$hm" run -p "$data/good/localhost.json" -n 600 --results "$tmp/coarse.jsonl" \
	--no-placement-check -- "$tmp/coarse.sh"
res=$tmp/coarse.jsonl
check "the time is kept" test "$(field measured_s)" = 0.05
check "no ratio" bash -c '! grep -q measured_over_predicted "$1"' _ "$res"
check "the reason" test "$(field ratio_withheld)" = '"under 10 ticks of the program'"'"'s timer"'

echo "first_hour: $pass passed, $fail failed"
[ $fail -eq 0 ]
