#!/bin/sh
# tune against the exhaustive sweep, and learned corrections out of sample
# (experiments/README.md, "Tuning by real runs"): real runs only.
#
#   sh experiments/tune/bench.sh                      this machine (about 40 min)
#   VCLUSTER=experiments/vcluster/mc4.json sh experiments/tune/bench.sh
#                                                     the emulated cluster (root)
#
# 1. calibrate (this machine: --threads 2; the emulated cluster: its
#    virtual nodes), unless PLATFORM names a platform;
# 2. per group ROUTINE:N:PROGRAM (STUDY_GROUPS; PROGRAM driver or hpcc):
#    the set E of every configuration the model priced ('tune --sweep
#    --list', every b of each), then 'hetmap tune' racing the model's close
#    candidates with a budget of a quarter of 5 |E| runs, then the exhaustive
#    sweep of E, REPS rounds (default 5) in a fresh random order each, then
#    the winner judged by fresh runs: it and the sweep's best in turn, REPS
#    times each;
# 3. per pair of groups of one program and routine, 'hetmap learn' on one
#    n's runs checked on the other's (both ways): out of sample
#    (LEARN_ONLY=1 redoes this step alone on the runs already in OUT;
#    TUNE_ONLY=1 runs tune's race again beside the sweeps already there,
#    and with HISTORY=1 taught first by the other groups' sweeps;
#    VERIFY_ONLY=1 judges the winners there by fresh runs).
# Writes OUT (default experiments/tune/results/here, or .../NAME for
# VCLUSTER's NAME.json): platform.json, GROUP/{list.json,tune.jsonl.gz,
# tune.json,sweep.jsonl.gz,tune.time,winner.json}, learn/*.json, and summary.md
# (experiments/tune/analysis.py: per group the best configuration, the model's
# plan, tune's winner, random choice and HPL.dat's order at tune's number
# of runs, the runs and seconds each spent to hold a configuration within
# 5 % of the best; the learned model's MAPE and Spearman).
set -eu
. "$(dirname "$0")/../lib.sh"
reps=${REPS:-5}
launch=""
if [ -n "${VCLUSTER:-}" ]; then
	study_out "experiments/tune/results/$(basename "$VCLUSTER" .json)"
	groups=${STUDY_GROUPS:-lu:3000:driver lu:6000:driver gemm:2000:driver gemm:4000:driver}
	[ -n "${LEARN_ONLY:-}" ] || vcluster_up "$VCLUSTER"
	launch="--launcher openmpi-seq"
else
	study_out experiments/tune/results/here
	groups=${STUDY_GROUPS:-lu:3000:driver lu:6000:driver gemm:3000:driver gemm:6000:driver lu:3000:hpcc lu:6000:hpcc}
fi
case " $groups " in *:hpcc\ *) needs "HPC Challenge (Debian package hpcc)" command -v hpcc ;; esac
plat=$out/platform.json
if [ -n "${LEARN_ONLY:-}${TUNE_ONLY:-}${VERIFY_ONLY:-}" ]; then
	[ -s "$plat" ] || { echo "tune-bench: LEARN_ONLY, TUNE_ONLY and VERIFY_ONLY need $plat" >&2; exit 4; }
elif [ -n "${PLATFORM:-}" ]; then
	cp "$PLATFORM" "$plat"
elif [ -n "${VCLUSTER:-}" ]; then
	echo "tune-bench: calibrate the emulated cluster" >&2
	"$hm" calibrate --accept-unreliable --hosts "$("$vc" hosts "$VCLUSTER")" $launch -o "$plat" \
		--launcher-args "$mpi" 2>"$tmp/cal.err" || { cat "$tmp/cal.err" >&2; exit 1; }
else
	echo "tune-bench: calibrate --threads 2" >&2
	"$hm" calibrate --threads 2 --accept-unreliable -o "$plat" 2>"$tmp/cal.err" ||
		{ cat "$tmp/cal.err" >&2; exit 1; }
fi
start=$(date +%s)
# tune_group GROUP-DIR TUNE-OPTION...: tune's race with a quarter of the
# sweep's runs ($prog: the program after '--'), its records, winner,
# document and wall time; with HISTORY=1, taught first by the other groups'
# sweeps (--history: what a user's earlier runs on this cluster give),
# into tune-history.* beside the cold tune's tune.*
tune_group() {
	tdir=$1
	shift
	label=""
	if [ -n "${HISTORY:-}" ]; then
		label=-history
		for other in "$out"/*/sweep.jsonl.gz; do
			[ "$(dirname "$other")" = "$tdir" ] && continue
			zcat "$other" >"$tmp/history-$(basename "$(dirname "$other")").jsonl"
			set -- "$@" --history "$tmp/history-$(basename "$(dirname "$other")").jsonl"
		done
	fi
	configs=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["candidates"]))' "$tdir/list.json")
	budget=$((5 * configs / 4))
	echo "tune-bench: $(basename "$tdir")$label: $configs configurations; tune with $budget runs" >&2
	rm -f "$tdir/tune$label.jsonl" "$tdir/tune$label.jsonl.gz"
	measured "$hm" tune "$@" --budget "$budget" --results "$tdir/tune$label.jsonl" -f json \
		--winner "$tdir/winner$label.json" $prog >"$tdir/tune$label.json" 2>"$tmp/err" ||
		echo "tune-bench: tune: $(tail -1 "$tmp/err")" >&2
	echo "$wall" >"$tdir/tune$label.time"
	gzip -f "$tdir/tune$label.jsonl"
	rm -f "$tmp"/history-*.jsonl
	verify_group "$tdir" "$label" "$@"
}

# verify_group GROUP-DIR LABEL TUNE-OPTION...: the winner judged by fresh
# runs: it and the sweep's best in turn, REPS times each (ABAB: the
# machine's drift falls on both alike), after the tune
verify_group() {
	vdir=$1 vlabel=$2
	shift 2
	[ -s "$vdir/winner$vlabel.json" ] && [ -s "$vdir/sweep.jsonl.gz" ] || return 0
	# the sweep's best as predict's options, then as a plan
	best=$(python3 experiments/tune/analysis.py best "$vdir") || return 0
	"$hm" predict -p "$plat" -r "$routine" -n "$n" $best -f json >"$tmp/best.json" 2>"$tmp/err" ||
		{ echo "tune-bench: the best's plan: $(tail -1 "$tmp/err")" >&2; return 0; }
	rm -f "$vdir/verify$vlabel.jsonl" "$vdir/verify$vlabel.jsonl.gz"
	for i in $(seq "$reps"); do
		for p in "$vdir/winner$vlabel.json" "$tmp/best.json"; do
			set -- --plan "$p" --results "$vdir/verify$vlabel.jsonl" --timeout 900 $launch
			[ -n "${VCLUSTER:-}" ] && set -- "$@" --launcher-args "$mpi"
			"$hm" run "$@" $prog >/dev/null 2>"$tmp/err" || echo "tune-bench: verify: $(tail -1 "$tmp/err")" >&2
		done
	done
	gzip -f "$vdir/verify$vlabel.jsonl"
}

[ -n "${LEARN_ONLY:-}" ] || for g in $groups; do
	IFS=: read -r routine n program <<GROUP
$g
GROUP
	dir=$out/$routine-$n-$program
	set -- -p "$plat" -r "$routine" -n "$n" --next 16 $launch --timeout 900
	[ -n "${VCLUSTER:-}" ] && set -- "$@" --launcher-args "$mpi"
	prog=""
	[ "$program" = driver ] || prog="-- $program"
	if [ -n "${TUNE_ONLY:-}" ]; then        # the race again, beside the sweep already there
		tune_group "$dir" "$@"
		continue
	fi
	if [ -n "${VERIFY_ONLY:-}" ]; then      # the winners there judged by fresh runs
		verify_group "$dir" "" "$@"
		verify_group "$dir" -history "$@"
		continue
	fi
	rm -rf "$dir"
	mkdir -p "$dir"
	"$hm" tune "$@" --sweep --list -f json $prog >"$dir/list.json" 2>/dev/null
	tune_group "$dir" "$@"
	echo "tune-bench: the sweep, $reps rounds" >&2
	"$hm" tune "$@" --sweep --rounds "$reps" --order random --results "$dir/sweep.jsonl" -f json \
		$prog >"$dir/sweep.json" 2>"$tmp/err" || echo "tune-bench: sweep: $(tail -1 "$tmp/err")" >&2
	# the records compressed (a fourteenth of their size): the analysis
	# reads them so; 'zcat GROUP/sweep.jsonl.gz > runs.jsonl' gives them back
	gzip -f "$dir/sweep.jsonl"
	verify_group "$dir" "" "$@"
done
# learned on one n's runs (tune's and the sweep's), checked on the other n's
# (LEARN_ONLY=1: this alone, on the runs already there)
rm -rf "$out/learn"
mkdir -p "$out/learn"
for a in $groups; do
	IFS=: read -r ra na pa <<GROUP
$a
GROUP
	zcat "$out/$ra-$na-$pa"/*.jsonl.gz >"$tmp/$ra-$na-$pa.jsonl"
done
for a in $groups; do
	for b in $groups; do
		IFS=: read -r ra na pa <<GROUP
$a
GROUP
		IFS=: read -r rb nb pb <<GROUP
$b
GROUP
		[ "$ra" = "$rb" ] && [ "$pa" = "$pb" ] && [ "$na" != "$nb" ] || continue
		"$hm" learn "$tmp/$ra-$na-$pa.jsonl" -p "$plat" --check "$tmp/$rb-$nb-$pb.jsonl" -f json \
			>"$out/learn/$ra-$pa-$na-to-$nb.json" 2>"$tmp/err" || echo "tune-bench: learn: $(tail -1 "$tmp/err")" >&2
	done
done
python3 experiments/tune/analysis.py bench "$out" >"$out/summary.md"
cat "$out/summary.md"
echo "tune-bench: $(($(date +%s) - start)) s" >&2
