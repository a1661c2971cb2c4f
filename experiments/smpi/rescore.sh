#!/bin/sh
# Score a model on the SMPI study's simulated runs, no new run: every
# configuration of experiments/results/smpi/table.tsv predicted with MODEL
# on its cluster's SMPI calibration, then MAPE and Spearman per group.
#   sh experiments/smpi/rescore.sh MODEL [STUDY-DIR]
set -eu
cd "$(dirname "$0")/../.."
model=$1
dir=${2:-experiments/results/smpi}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 experiments/analysis.py rows "$dir/table.tsv" | while read -r i name routine n d grid b; do
	build/hetmap predict -p "$dir/clusters/$name-measured.json" -m "$model" -r "$routine" -n "$n" \
		--procs "$d" --grid "$grid" -b "$b" -f json > "$tmp/$i.json"
done
python3 experiments/analysis.py rescore "$model" "$dir/table.tsv" "$tmp"
