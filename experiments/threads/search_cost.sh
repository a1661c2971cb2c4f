#!/bin/sh
# The searches' cost with threads as a dimension (experiments/README.md,
# "Ranks x threads"): GPTM on family-128000 (1000 nodes, 128000 cores) and
# exact on modern-10240 (160 nodes, 10240 cores) and modern-20480 (its
# nodes twice, 20480 cores), LU and GEMM at n = 200000
# and 500000, each on the platform without threads and with the speed-ups
# derived from this machine's (analysis.py thread-speedups, as scale.sh),
# --max-time 60, one at a time. Run it alone on the machine.
#
#   sh experiments/threads/search_cost.sh      (about 12 min)
#
# Writes OUT (default experiments/threads/results/search): cost.tsv (wall,
# peak memory, splits priced and whether all, the plan's D and time) and
# summary.md.
set -eu
. "$(dirname "$0")/../lib.sh"
study_out experiments/threads/results/search
measured=${MEASURED:-experiments/threads/results/real/platform.json}
u=$((128000 / 512))
sed -e "s/@HSW@/$u/; s/@SKL@/$((2 * u))/; s/@ICX@/$u/; s/@NODES@/$((4 * u))/; s/@CORES@/128000/g" \
	experiments/large/family.json.in >"$tmp/family.gen.json"
"$hm" generate "$tmp/family.gen.json" -o "$tmp/family-128000.json" 2>/dev/null
"$hm" generate experiments/large/modern-10240.json -o "$tmp/modern-10240.json" 2>/dev/null
python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
d["name"] = "modern-20480"
for g in d["groups"]:
    g["count"] *= 2
json.dump(d, sys.stdout)' experiments/large/modern-10240.json >"$tmp/modern-20480.gen.json"
"$hm" generate "$tmp/modern-20480.gen.json" -o "$tmp/modern-20480.json" 2>/dev/null
for p in family-128000 modern-10240 modern-20480; do
	python3 experiments/analysis.py thread-speedups "$tmp/$p.json" "$measured" >"$tmp/$p-threads.json"
done
printf 'platform\tmethod\troutine\tn\tthreads\twall_s\tpeak_kB\tsplits\tall\tstopped\tD\tpredicted_s\n' >"$tmp/cost.tsv"
for job in family-128000:GPTM modern-10240:exact modern-20480:exact; do
	p=${job%%:*} m=${job#*:}
	for routine in lu gemm; do
		for n in 200000 500000; do
			for variant in "" -threads; do
				echo "search_cost: $m on $p$variant, $routine n=$n" >&2
				measured "$hm" plan -p "$tmp/$p$variant.json" -M "$m" -r "$routine" -n "$n" --max-time 60 \
					-f json >"$tmp/plan.json"
				python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["plan"]; s = p["search"]
print("\t".join(map(str, sys.argv[2:9] + [s.get("thread_splits", 1), s.get("thread_splits_all", True),
                 s["stopped"], p["D"], "%.4f" % p["predicted"]["total_s"]])))' "$tmp/plan.json" "$p" "$m" "$routine" "$n" \
					"${variant:+yes}" "$wall" "$kb" >>"$tmp/cost.tsv"
			done
		done
	done
done
mv "$tmp/cost.tsv" "$out/cost.tsv"
python3 experiments/analysis.py threads-search-cost "$out" | tee "$out/summary.md"
