#!/bin/sh
# What the simulator charges, checked (experiments/README.md, "The
# simulator's engine"), one command:
#   sh experiments/smpi/engine.sh [OLD_HETMAP]       about 15 minutes here
#
# The modeled engine charges every simulated second from the platform
# (wrappers/README.md, "Modeled kernels"): nothing is timed on this
# machine. Checked on
#  - TORC, LU n = 2048, the thesis's five measured configurations
#    (real/torc-thesis.tsv), builtin:torc;
#  - this machine as the real runs calibrated it
#    (real/results/localhost-driver/platform.json), LU n = 2000 and 4000
#    on 1 x 1, 1 x 2 and 2 x 1 (b = 32) and GEMM n = 3000 on 1 x 2: the
#    real runs' medians are beside;
# each simulated with the kernels modeled, quiet and beside a CPU-bound
# process (twice each), and with every kernel executed (full execution,
# timed here at this core's dgemm rate, LU n = 2000 and TORC only: it
# costs minutes). OLD_HETMAP, a hetmap built from an earlier commit whose
# modeled engine timed everything but the kernels here and charged it at
# the simulated host's panel rate (built with its SMPI flavour), simulates
# the same configurations quiet and beside the process: what that charge
# cost.
# Writes OUT (default experiments/smpi/results/engine): runs.jsonl (every
# record, with "engine" and "beside" added), summary.md (analysis.py
# engine).
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
old=${1:-}
study_out experiments/smpi/results/engine
here=experiments/real/results/localhost-driver/platform.json
needs "this machine's real runs (sh experiments/real/localhost.sh)" test -s "$here"
# the configurations: NAME PLATFORM ROUTINE N PROCS GRID B
{
	grep -v '^#' experiments/real/torc-thesis.tsv | tail -n +2 |
		while IFS='	' read -r label procs grid b measured; do
			echo "torc-$label builtin:torc lu 2048 $(echo "$procs" | sed 's/,/=1,/g; s/$/=1/') $grid $b"
		done
	for n in 2000 4000; do
		echo "here-lu$n-1x1 $here lu $n 1 1x1 32"
		echo "here-lu$n-1x2 $here lu $n 2 1x2 32"
		echo "here-lu$n-2x1 $here lu $n 2 2x1 32"
	done
	echo "here-gemm3000-1x2 $here gemm 3000 2 1x2 32"
} >"$tmp/configs"
# plans BIN DIR [STRIP]: each configuration's plan as BIN writes it (an
# older hetmap reads its own), into DIR/NAME.json; STRIP: on a copy of the
# platform without the keys an older hetmap does not know (LU's steps)
plans() {
	mkdir -p "$2"
	while read -r name plat routine n procs grid b; do
		if [ -n "${3:-}" ] && [ -f "$plat" ]; then
			python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
for t in d["types"].values():
    for k in ("column_step", "k1_dswap"):
        t.pop(k, None)
print(json.dumps(d))' "$plat" >"$2/$name.platform.json"
			plat=$2/$name.platform.json
		fi
		"$1" predict -p "$plat" -r "$routine" -n "$n" --procs "$procs" --grid "$grid" -b "$b" -f json \
			>"$2/$name.json"
	done <"$tmp/configs"
}
plans "$hm" "$tmp/plans"
[ -z "$old" ] || plans "$old" "$tmp/old-plans" strip

hog=""
cleanup() { [ -z "$hog" ] || kill "$hog" 2>/dev/null || :; }
# beside yes|no: a process spinning on this machine while the simulations run
beside() {
	cleanup
	hog=""
	if [ "$1" = yes ]; then
		sh -c 'while :; do :; done' &
		hog=$!
	fi
}

# simulate ENGINE HETMAP PLANS KERNELS BESIDE NAME...: 'hetmap run' of each
# plan of the folder PLANS, its record tagged
simulate() {
	engine=$1 bin=$2 dir=$3 kernels=$4 side=$5
	shift 5
	beside "$side"
	for name in "$@"; do
		echo "engine: $engine, $name, beside a busy process: $side" >&2
		: >"$tmp/one.jsonl"
		# shellcheck disable=SC2046
		"$bin" run --plan "$dir/$name.json" --launcher smpi --kernels "$kernels" \
			$([ "$kernels" = modeled ] || echo "--host-speed $rate") \
			--results "$tmp/one.jsonl" --timeout 1200 -o "$tmp/job" >/dev/null 2>"$tmp/err" ||
			echo "engine: run failed: $(tail -1 "$tmp/err")" >&2
		python3 -c 'import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line); d.update(engine=sys.argv[2], beside=sys.argv[3], config=sys.argv[4]); print(json.dumps(d))' \
			"$tmp/one.jsonl" "$engine" "$side" "$name" >>"$runs"
	done
	beside no
}

all=$(cut -d' ' -f1 "$tmp/configs")
runs_begin
core_rate 32
for side in no yes no yes; do
	simulate modeled "$hm" "$tmp/plans" modeled "$side" $all
done
simulate executed "$hm" "$tmp/plans" executed no $(grep -e '^torc' -e 'lu2000' "$tmp/configs" | cut -d' ' -f1)
if [ -n "$old" ]; then
	for side in no yes; do
		simulate old-panel-rate "$old" "$tmp/old-plans" modeled "$side" $all
	done
fi
runs_end
python3 experiments/analysis.py engine "$out" > "$out/summary.md"
cat "$out/summary.md"
