#!/bin/sh
# Score another model on the measurements of an earlier study, same runs:
#
#   sh experiments/vcluster/rescore.sh MODEL [STUDY-DIR]
#
# For every configuration of STUDY-DIR/table.tsv (default
# experiments/results/vcluster), predict its time with MODEL on the study's
# calibrated platform, then print the MAPE and the Spearman rank
# correlation per group, as the study's summary does for its own model.
set -eu
cd "$(dirname "$0")/../.."
model=$1
dir=${2:-experiments/results/vcluster-grid}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
tail -n +2 "$dir/table.tsv" | while IFS="$(printf '\t')" read -r group label d r c b pred meas rest; do
	routine=${group%-*} n=${group#*-}
	p=$(build/hetmap predict -p "$dir/platform.json" -m "$model" -r "$routine" -n "$n" \
		--procs "$d" --grid "${r}x$c" -b "$b" -f json | grep -m1 '"total_s"' | sed 's/.*:[[:space:]]*//; s/,$//')
	printf "%s\t%s\t%s\t%s\n" "$group" "$label" "$p" "$meas"
done > "$tmp"
awk -F'\t' -v model="$model" '
{ g = $1; n[g]++; k = n[g]; p[g, k] = $3; m[g, k] = $4; if (!(g in seen)) { seen[g] = 1; groups[++ng] = g } }
function rank(x, g, i,   j, r, t) { r = 1; t = 0
  for (j = 1; j <= n[g]; j++) { if (x[g, j] < x[g, i]) r++; else if (j != i && x[g, j] == x[g, i]) t++ }
  return r + t / 2 }
END { printf "model %s on the measurements of the study\n| group | MAPE | Spearman |\n|---|---|---|\n", model
  for (q = 1; q <= ng; q++) { g = groups[q]; e = 0; sx = sy = sxx = syy = sxy = 0
    for (i = 1; i <= n[g]; i++) { e += (p[g, i] > m[g, i] ? p[g, i] - m[g, i] : m[g, i] - p[g, i]) / m[g, i]
      a = rank(p, g, i); b = rank(m, g, i); sx += a; sy += b; sxx += a * a; syy += b * b; sxy += a * b }
    N = n[g]; rho = (N * sxy - sx * sy) / sqrt((N * sxx - sx * sx) * (N * syy - sy * sy))
    printf "| %s | %.1f%% | %.3f |\n", g, 100 * e / N, rho; te += e; tn += N; tr += rho }
  printf "| all | %.1f%% | %.3f (mean) |\n", 100 * te / tn, tr / ng }' "$tmp"
