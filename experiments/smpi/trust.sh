#!/bin/sh
# How far SMPI is from real runs on this machine (experiments/README.md,
# "Simulated clusters"): localhost is calibrated natively (two processors of one core
# each); then the same configurations run for real through Open MPI (REPS
# times) and simulated once under SMPI on the calibrated platform, under
# hetmap's SMPI configuration, with each of its two choices back at
# SMPI's default, and with the kernels modeled; analysis.py trust writes the simulated/measured ratio
# per configuration to OUT/summary.md (default experiments/smpi/results/trust).
#   sh experiments/smpi/trust.sh          about 4 minutes
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
study_out experiments/smpi/results/trust
reps=${REPS:-3}
"$hm" calibrate --accept-unreliable --hosts localhost:2 --split-cores -o "$out/localhost.json" --block-sizes 32,64,128 2>/dev/null
plat=$out/localhost.json
: > "$out/native.jsonl"
: > "$out/smpi.jsonl"
for spec in lu:2000 gemm:1500; do
	routine=${spec%%:*} n=${spec#*:}
	for c in 1,0:1x1:64 1,1:1x2:32 1,1:1x2:64 1,1:1x2:128 1,1:2x1:32 1,1:2x1:64 1,1:2x1:128; do
		procs=${c%%:*} r=${c#*:}
		f=$tmp/$routine-$(echo "$c" | tr ':,' '__').json
		"$hm" predict -p "$plat" -r "$routine" -n "$n" --procs "$procs" --grid "${r%%:*}" -b "${r#*:}" -f json > "$f"
		for rep in $(seq "$reps"); do
			"$hm" run --plan "$f" --results "$out/native.jsonl" --seed "$rep" >/dev/null 2>&1 ||
				echo "trust: native run failed: $c" >&2
		done
		# SMPI's configurations: hetmap's default (CM02, smpi/test 0), then
		# each of those two back at SMPI's own default, then hetmap's with
		# the kernels modeled (the calibration's fitted models)
		for cfg in "" "--cfg=network/model:SMPI" "--cfg=smpi/test:1e-4" "--kernels modeled"; do
			case $cfg in
			--kernels*) set -- --kernels modeled ;;
			?*) set -- --launcher-args "$cfg" ;;
			*) set -- ;;
			esac
			"$hm" run --plan "$f" --launcher smpi --results "$tmp/one.jsonl" "$@" \
				>/dev/null 2>&1 || echo "trust: simulated run failed: $c $cfg" >&2
			python3 -c 'import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1]); rec["smpi_config"] = sys.argv[2] or "default"
print(json.dumps(rec))' "$tmp/one.jsonl" "$cfg" >> "$out/smpi.jsonl"
		done
		echo "trust: $routine $n $c done" >&2
	done
done
python3 experiments/analysis.py trust "$out/native.jsonl" "$out/smpi.jsonl" | tee "$out/summary.md"
