#!/bin/sh
# The one published set of real runs on a heterogeneous cluster, as a study
# of plans the models are scored on (experiments/README.md, "Real runs"):
# the thesis's LU n = 2048 on TORC (torc-thesis.tsv, its table 5.4),
# each configuration predicted on builtin:torc with the thesis's own
# system parameters. A check, never a fit: nothing is taken from it.
#
#   sh experiments/real/torc_thesis.sh      (a second)
#
# Writes OUT (default experiments/real/results/torc-thesis): platform.json
# (builtin:torc), runs.jsonl (one record per configuration: the plan as
# 'hetmap predict' writes it and the thesis's measured time), plans.tsv,
# study.json, summary.md.
set -eu
. "$(dirname "$0")/../lib.sh"
study_out experiments/real/results/torc-thesis
python3 -c 'import json, sys
print(json.dumps(json.loads(sys.stdin.read()), indent=1))' \
	< models/platform/builtin/torc.json > "$tmp/platform.json"
mv "$tmp/platform.json" "$out/platform.json"
mkdir -p "$tmp/plans"
k=0
grep -v '^#' experiments/real/torc-thesis.tsv | tail -n +2 | while IFS='	' read -r label procs grid b measured; do
	k=$((k + 1))
	plan=$tmp/plans/$(printf %03d $k)-lu-2048-$label.json
	"$hm" predict -p "$out/platform.json" -r lu -n 2048 --procs "$(echo "$procs" | sed 's/,/=1,/g; s/$/=1/')" \
		--grid "$grid" -b "$b" -f json > "$plan"
	python3 -c 'import json, sys
doc = json.load(open(sys.argv[1]))
doc.update({"hetmap_result": 1, "measured_s": float(sys.argv[2]),
            "measured_by": "García González 2012, table 5.4 (TORC, ScaLAPACK pdgetrf)"})
print(json.dumps(doc))' "$plan" "$measured" >> "$tmp/runs.jsonl"
done
mv "$tmp/runs.jsonl" "$out/runs.jsonl"
python3 experiments/analysis.py record "$tmp/plans" "$out" --study real --model panel --elapsed 0 \
	--cluster TORC --command "sh experiments/real/torc_thesis.sh (the thesis's table 5.4)"
python3 experiments/analysis.py summarize "$out"
