#!/bin/sh
# Plans, users and launch files for clusters of 1000 to 128000 cores
# (experiments/README.md, "Large clusters"), one command:
#   sh experiments/large/large.sh        about 15 minutes here
# 1. targets: modern-10240 (160 nodes, modern-1024 x 10) and family-128000
#    (1000 nodes), LU and GEMM, n = 200000 and 500000: every search and user
#    with --max-time $LIMIT (20 s), timed by /usr/bin/time (wall, peak
#    memory); 'compare' of GPTM, exact and the users within the same budget;
# 2. launch files: 'plan -M GU --launcher L -o DIR' of family-128000's
#    128000 ranks, for every launcher that writes files;
# 3. scaling: the family at 8 to 1000 nodes (1024 to 128000 cores), LU and
#    GEMM at n = 200000: GPTM's plan and the users, for the plot of the
#    plan's D and predicted time against the cluster's size.
# Writes OUT (default experiments/large/results): platform.tsv (the
# generator and the loader on 1000 nodes), runs.tsv, launch.tsv,
# scaling.tsv, then analysis.py large: summary.md and scaling.png.
# HETMAP=path times another build.
set -eu
. "$(dirname "$0")/../lib.sh"
needs "/usr/bin/time (Debian package 'time')" test -x /usr/bin/time
study_out experiments/large/results
limit=${LIMIT:-20}
here=experiments/large

# family CORES: the generated family at CORES cores (a multiple of 512:
# four nodes of 64 + 2 x 128 + 192 cores), as $tmp/family-CORES.json
family() {
	u=$(($1 / 512))
	sed -e "s/@HSW@/$u/; s/@SKL@/$((2 * u))/; s/@ICX@/$u/; s/@NODES@/$((4 * u))/; s/@CORES@/$1/g" \
		"$here/family.json.in" >"$tmp/family-$1.gen.json"
	"$hm" generate "$tmp/family-$1.gen.json" -o "$tmp/family-$1.json" 2>/dev/null
}

# timed FILE.tsv LABEL... -- PLAN-ARGS: one 'hetmap plan' with its wall
# time, peak memory and exit code, and what its JSON says, as a row
timed() {
	file=$1
	shift
	label=
	while [ "$1" != -- ]; do label="$label$1	"; shift; done
	shift
	measured "$hm" plan "$@" -f json -o "$tmp/plan.json" >/dev/null 2>"$tmp/err"
	python3 -c '
import json, sys
try:
    p = json.load(open(sys.argv[1]))["plan"]
    s = p["search"]
    print("\t".join(str(x) for x in (p["D"], p["r"], p["c"], p["b"], "%.6g" % p["predicted"]["total_s"],
                                     "%.3f" % s["seconds"], s["stopped"])))
except Exception:
    print("\t".join(["-"] * 7))' "$tmp/plan.json" | sed "s/^/$label/; s/\$/	$wall	$((kb / 1024))	$rc/" >>"$file"
	rm -f "$tmp/plan.json"
}

"$hm" generate "$here/modern-10240.json" -o "$tmp/modern-10240.json" 2>/dev/null
family 128000
# the generator and the loader on 1000 nodes
echo "step	wall_s	peak_MB	exit" >"$tmp/platform.tsv"
for step in "generate" "platform check"; do
	if [ "$step" = generate ]; then
		measured "$hm" generate "$tmp/family-128000.gen.json" -o "$tmp/again.json" 2>/dev/null
	else
		measured "$hm" platform check "$tmp/family-128000.json" >/dev/null
	fi
	echo "$step (1000 nodes)	$wall	$((kb / 1024))	$rc" >>"$tmp/platform.tsv"
done
cores_of() { [ "$1" = modern-10240 ] && echo 10240 || echo "${1#family-}"; }

echo "platform	routine	n	method	D	r	c	b	predicted_s	search_s	stopped	wall_s	peak_MB	exit" >"$tmp/runs.tsv"
for p in modern-10240 family-128000; do
	for r in lu gemm; do
		for n in 200000 500000; do
			for m in GPTM GCTM exact BTM BGRM GRM exhaustive GU CU EU; do
				echo "large: $p $r $n $m" >&2
				timed "$tmp/runs.tsv" "$p" "$r" "$n" "$m" -- -p "$tmp/$p.json" -r "$r" -n "$n" \
					-d "$(cores_of "$p")" -M "$m" --max-time "$limit"
			done
			echo "large: $p $r $n compare" >&2
			measured "$hm" compare -p "$tmp/$p.json" -r "$r" -n "$n" -d "$(cores_of "$p")" \
				--methods exact,GPTM,GU,CU,EU --max-time "$limit" -f csv >"$tmp/compare.csv" 2>/dev/null
			echo "$p	$r	$n	compare	-	-	-	-	-	-	-	$wall	$((kb / 1024))	$rc" >>"$tmp/runs.tsv"
		done
	done
done

echo "launcher	ranks	wall_s	peak_MB	exit	files_MB" >"$tmp/launch.tsv"
for l in openmpi openmpi-seq mpich slurm intelmpi; do
	echo "large: launch files for $l" >&2
	measured "$hm" plan -p "$tmp/family-128000.json" -n 500000 -M GU --launcher "$l" -o "$tmp/launch-$l" \
		>/dev/null 2>"$tmp/err"
	echo "$l	128000	$wall	$((kb / 1024))	$rc	$(du -sm "$tmp/launch-$l" | cut -f1)" >>"$tmp/launch.tsv"
	rm -rf "$tmp/launch-$l"
done

echo "platform	cores	routine	n	method	D	r	c	b	predicted_s	search_s	stopped	wall_s	peak_MB	exit" >"$tmp/scaling.tsv"
for cores in 1024 2560 5120 10240 25600 64000 128000; do
	[ -s "$tmp/family-$cores.json" ] || family "$cores"
	for r in lu gemm; do
		for m in GPTM GU CU EU; do
			echo "large: family-$cores $r $m" >&2
			timed "$tmp/scaling.tsv" "family-$cores" "$cores" "$r" 200000 "$m" -- -p "$tmp/family-$cores.json" \
				-r "$r" -n 200000 -d "$cores" -M "$m" --max-time "$limit"
		done
	done
done
mv "$tmp/platform.tsv" "$tmp/runs.tsv" "$tmp/launch.tsv" "$tmp/scaling.tsv" "$out/"
python3 experiments/analysis.py large "$out" --limit "$limit"
