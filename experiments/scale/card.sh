#!/bin/sh
# What the hosts' cards cost under SimGrid, set against what the 'card'
# model charges for them (experiments/README.md, "A host's card, priced"):
#   sh experiments/scale/card.sh        about 6 minutes on this machine
# LU n = N (12000) at b = 64 on the six newer nodes of lab-320 (100 Gbit/s,
# kernel models) and of lab-320-hand (by hand, 25 Gbit/s), on the grids
# GRIDS (16x16, 8x32: 256 ranks, a node whole rows; 15x17: 255, rows
# straddling nodes), each simulated twice: as described, and with the
# links between nodes (and so the cards) 65 times faster, nothing else
# changed. The difference is what the links between nodes cost in the
# simulation; the model's difference (both platforms predicted by 'card')
# is what it charges them, the cards' share beside. Kernels modeled, so
# the simulated times do not depend on this machine's load.
# -> OUT/card.tsv and OUT/summary.md (default experiments/scale/results/card-cost).
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
study_out experiments/scale/results/card-cost
n=${N:-12000}
grids=${GRIDS:-16x16:0,0,0,0,32,32,32,32,64,64 8x32:0,0,0,0,32,32,32,32,64,64 15x17:0,0,0,0,31,32,32,32,64,64}
platforms=$(sh experiments/scale/platforms.sh)
printf 'platform\tlinks\tgrid\tpredicted_s\tcard_s\tsimulated_s\n' >"$tmp/card.tsv"
for name in lab-320 lab-320-hand; do
	cp "$platforms/$name.json" "$tmp/$name.json"
	python3 experiments/analysis.py faster-links "$platforms/$name.json" 65 >"$tmp/$name-fast.json"
	for links in described fast; do
		p=$tmp/$name.json
		[ "$links" = described ] || p=$tmp/$name-fast.json
		for spec in $grids; do
			grid=${spec%%:*} d=${spec#*:}
			"$hm" predict -p "$p" -m card -r lu -n "$n" --procs "$d" --grid "$grid" -b 64 -f json \
				>"$tmp/$name-$links-$grid.plan"
			echo "$tmp/$name-$links-$grid.plan"
		done
	done
done >"$tmp/queue"
echo "card: $(grep -c . "$tmp/queue") simulations, ${JOBS:-2} at a time" >&2
HM=$hm xargs -P "${JOBS:-2}" -L 1 sh -c '"$HM" run --plan "$0" --launcher smpi --kernels modeled \
	--results "$0.run" -o "$0.job" >/dev/null 2>"$0.err" || { tail -n 1 "$0.err" >&2; exit 255; }
	rm -rf "$0.job"' <"$tmp/queue"
for plan in $(cat "$tmp/queue"); do
	base=$(basename "$plan" .plan)
	python3 -c 'import json, sys
p = json.load(open(sys.argv[1]))["plan"]["predicted"]
r = json.loads(open(sys.argv[2]).readline())
print("\t".join(sys.argv[3:6] + ["%.4f" % p["total_s"], "%.4f" % p["comm_card_s"], "%.4f" % r["measured_s"]]))' \
		"$plan" "$plan.run" "${base%-*-*}" "$(echo "$base" | awk -F- '{print $(NF-1)}')" "${base##*-}" \
		>>"$tmp/card.tsv"
done
mv "$tmp/card.tsv" "$out/card.tsv"
python3 experiments/analysis.py card-cost "$out" | tee "$out/summary.md"
