#!/bin/sh
# The platforms of the studies at scale, made from their descriptions and
# given kernel models for the simulator (analysis.py kernels: this
# machine's fitted kernels, scaled per type by the ratio of its k values),
# in build/scale-platforms/ (regenerated, a second); prints that folder:
#   lab-320       10 nodes of 3 generations, 320 cores (lab-320.json)
#   lab-320-slow  the same, its old nodes behind 1 Gbit/s, 30 us links
#   modern-1024   models/platform/examples/modern-1024.json
#   lab-320-hand  lab-320 described by hand as users write platforms: per type
#                 only k3 and k2_dgetf2, so it keeps no kernel models either
#                 (lab-320-hand.json)
set -eu
. "$(dirname "$0")/../lib.sh"
here_calibration
dir=build/scale-platforms
mkdir -p "$dir"
for desc in experiments/scale/lab-320.json experiments/scale/lab-320-slow.json \
	models/platform/examples/modern-1024.json; do
	name=$(basename "$desc" .json)
	"$hm" generate "$desc" -o "$tmp/$name.json" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	python3 experiments/analysis.py kernels "$tmp/$name.json" "$cal" >"$tmp/k.json"
	"$hm" platform check "$tmp/k.json" >/dev/null 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
	mv "$tmp/k.json" "$dir/$name.json"
done
"$hm" generate experiments/scale/lab-320-hand.json -o "$dir/lab-320-hand.json" 2>"$tmp/err" ||
	{ cat "$tmp/err" >&2; exit 1; }
echo "$dir"
