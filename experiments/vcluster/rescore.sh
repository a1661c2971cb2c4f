#!/bin/sh
# Score another model on the measurements of an earlier study, same runs:
#
#   sh experiments/vcluster/rescore.sh MODEL [STUDY-DIR]
#
# For every configuration of STUDY-DIR/table.tsv (default
# experiments/results/vcluster-grid), predict its time with MODEL on the
# study's calibrated platform, then print the MAPE and the Spearman rank
# correlation per group (experiments/analysis.py), as the study's summary
# does for its own model. PLATFORM=FILE predicts on FILE instead of the
# study's platform (e.g. the same with stacking factors added).
set -eu
cd "$(dirname "$0")/../.."
model=$1
dir=${2:-experiments/results/vcluster-grid}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 experiments/analysis.py rows "$dir/table.tsv" | while read -r i routine n d grid b; do
	build/hetmap predict -p "${PLATFORM:-$dir/platform.json}" -m "$model" -r "$routine" -n "$n" \
		--procs "$d" --grid "$grid" -b "$b" -f json > "$tmp/$i.json"
done
python3 experiments/analysis.py rescore "$model" "$dir/table.tsv" "$tmp"
