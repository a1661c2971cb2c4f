#!/bin/sh
# The simulator's cost at the user's scale (experiments/README.md, "At
# scale"), one command:
#   sh experiments/scale/targets.sh       about 50 minutes on this machine
# Each job below is simulated once with the kernels modeled, alone on a core,
# while its peak memory is sampled every 2 s (PSS: the shared matrix counted
# once, not once per rank; and the machine's used memory, MemTotal -
# MemAvailable, over what it was before: run nothing else beside it). JOBS='platform:routine:n:method ...'
# chooses jobs (method: a hetmap method or user); platforms are
# experiments/scale/platforms.sh's. -> OUT/runs.jsonl, OUT/cost.tsv,
# OUT/summary.md (default experiments/scale/results/targets).
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
study_out experiments/scale/results/targets
jobs=${JOBS:-lab-320:lu:50000:GPTM lab-320:lu:50000:GU modern-1024:lu:30000:GU}
platforms=$(sh experiments/scale/platforms.sh)

runs_begin
printf 'platform\troutine\tn\tmethod\td\tD\tr\tc\tb\tsimulated_s\twall_s\tpeak_pss_kB\tused_rise_kB\n' >"$tmp/cost.tsv"
for spec in $jobs; do
	scale_plan "$spec" "$tmp/plan.json"
	echo "targets: $spec" >&2
	"$hm" run --plan "$tmp/plan.json" --launcher smpi --kernels modeled \
		--results "$runs" --timeout 3600 -o "$tmp/job" >/dev/null 2>"$tmp/err" &
	pid=$!
	peak_memory "$pid" "$tmp/peak" "smpimain.*$tmp/job/" &
	wait "$pid" || echo "targets: run failed: $(tail -1 "$tmp/err")" >&2
	wait
	rm -rf "$tmp/job"
	python3 -c '
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1]); p = rec["plan"]
pss, used = open(sys.argv[2]).read().split()
print("\t".join(map(str, sys.argv[3:7] + [",".join(map(str, p["d"])), p["D"], p["r"], p["c"], p["b"], rec["measured_s"],
                 "%.0f" % rec["wall_s"], pss, used])))' "$runs" "$tmp/peak" "$name" "$routine" "$n" "$method" >>"$tmp/cost.tsv"
done
runs_end
mv "$tmp/cost.tsv" "$out/cost.tsv"
python3 experiments/analysis.py targets "$out" "$platforms" --elapsed "$elapsed" \
	--command "${JOBS:+JOBS='$JOBS' }sh experiments/scale/targets.sh" | tee "$out/summary.md"
