#!/bin/sh
# What a node's ranks get from its one card when they send off it at once
# (experiments/README.md, "A node's card"), one command, as root:
#   sh experiments/links/card.sh        about 5 minutes on this machine
# The same three-node cluster twice: emulated on this machine (real Open
# MPI over TCP through each node's own network namespace, its link a token
# bucket, wrappers/vcluster/README.md) and described to SimGrid (the
# export's card a host, shared max-min). Node ta holds two ranks, tb and tc
# one each, every node behind RATE (default 100mbit). 'hetmap calibrate'
# measures both: its card phase has 1, then 2 of ta's ranks stream 4 MiB
# messages to tb and tc at once (models/platform/README.md, "A node's
# card"); the stretch is two pairs' median time a message over one pair's.
# REPS calibrations of the emulated cluster (default 3): its runs wander.
# -> OUT/card.tsv, OUT/study.json, OUT/summary.md (default
# experiments/links/results/card; 'analysis.py card OUT' redoes the summary).
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh test SCALAPACK_TARBALL builds it)" test -x build/hetmap-calibrate-bench-smpi
study_out experiments/links/results/card
rate=${RATE:-100mbit}
reps=${REPS:-3}
started=$(date +%s)
cat >"$tmp/vc.json" <<JSON
{"hetmap_vcluster": 1, "name": "card", "emulation": "blas",
 "nodes": [{"name": "ta", "cpus": "0-1", "share": 1.0, "link": {"rate": "$rate"}},
           {"name": "tb", "cpus": "0", "share": 1.0, "link": {"rate": "$rate"}},
           {"name": "tc", "cpus": "1", "share": 1.0, "link": {"rate": "$rate"}}]}
JSON
python3 experiments/analysis.py card-cluster "$rate" >"$tmp/desc.json"
# calibrate ... : the card's line of card.tsv from the calibration it writes
card_line() {
	where=$1
	shift
	"$hm" calibrate --accept-unreliable -o "$tmp/cal.json" --block-sizes 64 --rows 256 --repeat 1 \
		--min-time 0.01 --no-shapes --all-busy-only "$@" 2>"$tmp/err" ||
		{ echo "card: calibrate failed: $(tail -1 "$tmp/err")" >&2; exit 1; }
	python3 experiments/analysis.py card-line "$tmp/cal.json" "$where" >>"$tmp/card.tsv"
	tail -1 "$tmp/card.tsv" >&2
}
printf 'where\thost\tbytes\tone_pair_s\ttwo_pairs_s\tstretch\n' >"$tmp/card.tsv"
card_line simulated --launcher smpi -p "$tmp/desc.json" --host-speed 50Gf
vcluster_up "$tmp/vc.json"
for i in $(seq "$reps"); do
	card_line emulated --hosts ta:2,tb,tc --launcher openmpi-seq --launcher-args "$mpi"
done
mv "$tmp/card.tsv" "$out/card.tsv"
printf '{"study": "card", "rate": "%s", "elapsed_s": %d, "command": "%ssh experiments/links/card.sh"}\n' \
	"$rate" $(($(date +%s) - started)) "${RATE:+RATE=$RATE }${REPS:+REPS=$REPS }" >"$out/study.json"
python3 experiments/analysis.py card "$out"
