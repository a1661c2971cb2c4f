#!/bin/sh
# The real test of the plans on an emulated heterogeneous cluster (root):
#
#   sh experiments/vcluster/study.sh [CLUSTER.json]     (default ref4.json)
#
#  1. bring up the virtual cluster (experiments/vcluster/ref4.json: 4
#     processors of 3 speeds on the 2 cores), torn down on exit;
#  2. calibrate it with 'hetmap calibrate' (one MPI run);
#  3. for LU and GEMM at two sizes each: the plans of every method, the
#     GU / CU / EU choices and a sweep of 24 other configurations (d, r x c,
#     b), every distinct configuration run for real 3 times through
#     'hetmap run' (ScaLAPACK, checked);
#  4. write experiments/results/vcluster/: platform.json, runs.jsonl (every
#     run's record), table.tsv and table.md (predicted vs median measured per
#     configuration), predicted-vs-measured.png and summary.md (mean absolute
#     percentage error, Spearman rank correlation, speedup of the hetmap plan
#     over GU, CU and EU, its ratio to the best measured configuration).
#
# MODEL=name selects the model the plans and predictions use (default:
# grid, hetmap's default); the outputs go to experiments/results/vcluster-MODEL
# (OUT=dir to change it).
set -eu
cd "$(dirname "$0")/../.."
desc=${1:-experiments/vcluster/ref4.json}
model=${MODEL:-grid}
out=${OUT:-experiments/results/vcluster-$model}
reps=3
[ "$(id -u)" -eq 0 ] || { echo "study: the virtual cluster needs root (cgroups, /etc/hosts)" >&2; exit 4; }
[ -x build/hetmap-vcluster ] || sh experiments/setup.sh >/dev/null
hm=build/hetmap
vc=build/hetmap-vcluster
mpi="--mca plm_rsh_agent $PWD/build/hetmap-vcluster-agent --bind-to none"
mkdir -p "$out"
tmp=$(mktemp -d)
trap '"$vc" down; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

"$vc" up "$desc"
hosts=$("$vc" hosts "$desc")
start=$(date +%s)

echo "study: calibrating $hosts" >&2
# shellcheck disable=SC2086
"$hm" calibrate --hosts "$hosts" --launcher openmpi-seq -o "$out/platform.json" -- $mpi
plat=$out/platform.json
m_opt=""
[ -n "$model" ] && m_opt="-m $model"

# sweep: processes on (fast, half, quarter-a, quarter-b), grid, block size
sweep="1,0,0,0:1x1:64 2,0,0,0:1x2:64 0,1,0,0:1x1:64 1,1,0,0:1x2:64 1,1,0,0:2x1:64
1,1,0,0:1x2:32 1,1,0,0:1x2:128 2,1,0,0:1x3:64 2,1,0,0:3x1:64 2,1,0,0:1x3:32
3,1,0,0:2x2:64 4,2,0,0:2x3:64 1,1,1,1:2x2:64 1,1,1,1:1x4:32 2,1,1,1:1x5:64
4,2,1,1:2x4:64 4,2,1,1:1x8:128 1,0,1,1:1x3:64 2,2,0,0:2x2:64 3,0,0,0:1x3:64
0,0,1,1:1x2:64 4,1,0,0:1x5:64 3,2,0,0:1x5:64 2,0,1,1:2x2:32"

field() {       # the value of "KEY": in a plan document (first match)
	grep -m1 "\"$1\":" "$2" | sed 's/.*:[[:space:]]*//; s/,$//; s/[][ ]//g'
}

printf "group\tlabel\td\tr\tc\tb\tpredicted_s\tmeasured_s\tm1\tm2\tm3\tchecks\n" > "$tmp/table.tsv"
for spec in lu:1500 lu:3000 gemm:1000 gemm:2000; do
	routine=${spec%%:*} n=${spec#*:}
	group="$routine-$n"
	: > "$tmp/keys"
	configs=""
	# the plans of the methods and the users' choices
	for m in exact BTM BGRM GRM GCTM GPTM GU CU EU; do
		# shellcheck disable=SC2086
		"$hm" plan -p "$plat" -r "$routine" -n "$n" -M "$m" -d 8 $m_opt -f json >"$tmp/$group-$m.json" 2>/dev/null
		configs="$configs $m"
	done
	i=0
	for s in $sweep; do
		i=$((i + 1))
		procs=${s%%:*} rest=${s#*:}
		# shellcheck disable=SC2086
		"$hm" predict -p "$plat" -r "$routine" -n "$n" --procs "$procs" --grid "${rest%%:*}" \
			-b "${rest#*:}" $m_opt -f json >"$tmp/$group-s$i.json" 2>/dev/null
		configs="$configs s$i"
	done
	for label in $configs; do
		f=$tmp/$group-$label.json
		d=$(field d "$f") r=$(field r "$f") c=$(field c "$f") b=$(field b "$f")
		pred=$(field total_s "$f")
		key="$d/$r/$c/$b"
		# a configuration several methods chose runs once; its row names them all
		prev=$(grep -F "$key " "$tmp/keys" | cut -d' ' -f2 || true)
		if [ -n "$prev" ]; then
			sed -i "s|^$group\t\([^\t]*\)\t$d\t$r\t$c\t$b\t|$group\t\1+$label\t$d\t$r\t$c\t$b\t|" "$tmp/table.tsv"
			continue
		fi
		echo "$key $label" >> "$tmp/keys"
		ms="" checks=0
		for rep in $(seq $reps); do
			echo "study: $group $label d=[$d] ${r}x$c b=$b run $rep/$reps" >&2
			# shellcheck disable=SC2086
			if "$hm" run --plan "$f" --launcher openmpi-seq --results "$out/runs.jsonl" \
				--timeout 300 --seed "$rep" -- $mpi >/dev/null 2>"$tmp/err"; then
				checks=$((checks + 1))
			fi
			m=$(sed -n 's/.*measured \([0-9.e+-]*\) s.*/\1/p' "$tmp/err" | tail -1)
			ms="$ms ${m:-nan}"
		done
		med=$(echo "$ms" | tr ' ' '\n' | grep -v '^$' | sort -g | sed -n 2p)
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n" "$group" "$label" "$d" "$r" "$c" "$b" \
			"$pred" "$med" "$(echo $ms | tr ' ' '\t')	$checks/$reps" >> "$tmp/table.tsv"
	done
done
elapsed=$(( $(date +%s) - start ))
cp "$tmp/table.tsv" "$out/table.tsv"

# ---- analysis (experiments/vcluster/rescore.sh scores another model on these runs) -------------------------------------------------------------
awk -F'\t' -v elapsed="$elapsed" -v model="$model" '
NR == 1 { next }
{ g = $1; n[g]++; k = n[g]; lab[g, k] = $2; p[g, k] = $7; m[g, k] = $8
  if ($8 > 0) { ape += ($7 - $8 < 0 ? $8 - $7 : $7 - $8) / $8; napes++ }
  if (!(g in seen)) { seen[g] = 1; groups[++ng] = g } }
function rank(x, g, i,   j, r, t) { r = 1; t = 0
  for (j = 1; j <= n[g]; j++) { if (x[g, j] < x[g, i]) r++; else if (j != i && x[g, j] == x[g, i]) t++ }
  return r + t / 2 }
function label_time(g, name,   i) {       # measured time of the config a method chose
  for (i = 1; i <= n[g]; i++) if (("+" lab[g, i] "+") ~ ("[+]" name "[+]")) return m[g, i]
  return -1 }
END {
  printf "# Plans measured on the emulated cluster\n\n"
  printf "Model: %s. Generated by `sh experiments/vcluster/study.sh` (%d s of runs). Median of 3\n", model, elapsed
  printf "runs per configuration; every run checked by the driver (residual).\n\n"
  printf "| group | configurations | MAPE | Spearman | plan (GPTM) s | GU s | CU s | EU s | best s | plan/GU speedup | plan/CU | plan/EU | plan/best |\n"
  printf "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n"
  for (q = 1; q <= ng; q++) { g = groups[q]; e = 0; sx = sy = sxx = syy = sxy = 0; best = 1e99
    for (i = 1; i <= n[g]; i++) { e += (p[g, i] > m[g, i] ? p[g, i] - m[g, i] : m[g, i] - p[g, i]) / m[g, i]
      rp = rank(p, g, i); rm = rank(m, g, i); sx += rp; sy += rm; sxx += rp * rp; syy += rm * rm; sxy += rp * rm
      if (m[g, i] < best) { best = m[g, i]; bestl = lab[g, i] } }
    N = n[g]; rho = (N * sxy - sx * sy) / sqrt((N * sxx - sx * sx) * (N * syy - sy * sy))
    plan = label_time(g, "GPTM"); gu = label_time(g, "GU"); cu = label_time(g, "CU"); eu = label_time(g, "EU")
    printf "| %s | %d | %.1f%% | %.3f | %.4g | %.4g | %.4g | %.4g | %.4g (%s) | %.2fx | %.2fx | %.2fx | %.3f |\n",
      g, N, 100 * e / N, rho, plan, gu, cu, eu, best, bestl, gu / plan, cu / plan, eu / plan, plan / best
    tot_e += e; tot_n += N; tot_rho += rho }
  printf "\nOver all groups: MAPE %.1f%%, mean Spearman %.3f.\n", 100 * tot_e / tot_n, tot_rho / ng
  printf "Targets: plan >= 1.25x faster than GU, not slower than CU or EU, within 10%% of the best\n"
  printf "measured; model error < 20%%, rank correlation >= 0.8.\n"
}' "$out/table.tsv" > "$out/summary.md"

{
	echo "# Every configuration: predicted and measured (median of 3)"
	echo
	echo "| group | chosen by | d | grid | b | predicted s | measured s | runs | checks |"
	echo "|---|---|---|---|---|---|---|---|---|"
	tail -n +2 "$out/table.tsv" | awk -F'\t' '{ printf "| %s | %s | [%s] | %sx%s | %s | %.4g | %.4g | %s %s %s | %s |\n",
		$1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }'
} > "$out/table.md"

if ! command -v gnuplot >/dev/null 2>&1; then
	apt-get install -y -qq gnuplot-nox >/dev/null 2>&1 || true
fi
if command -v gnuplot >/dev/null 2>&1; then
	for g in lu-1500 lu-3000 gemm-1000 gemm-2000; do
		awk -F'\t' -v g="$g" '$1 == g { print $7, $8 }' "$out/table.tsv" > "$tmp/$g.dat"
	done
	gnuplot <<GP
set terminal pngcairo size 900,750
set output "$out/predicted-vs-measured.png"
set logscale xy
set xlabel "predicted time (s)"
set ylabel "measured time (s, median of 3)"
set title "Emulated cluster ($(basename "$desc")): model $model vs ScaLAPACK runs"
set key top left
set grid
f(x) = x
plot '$tmp/lu-1500.dat' title 'LU n=1500' pt 7, '$tmp/lu-3000.dat' title 'LU n=3000' pt 5, \
     '$tmp/gemm-1000.dat' title 'GEMM n=1000' pt 9, '$tmp/gemm-2000.dat' title 'GEMM n=2000' pt 11, \
     f(x) title 'measured = predicted' lt -1
GP
fi
cat "$out/summary.md"
