#!/bin/sh
# SimGrid's options against one simulation's cost (experiments/README.md,
# "At scale", "One simulation faster"), one command:
#   sh experiments/scale/engine_options.sh        about 25 minutes here
# Each job (JOBS='platform:routine:n:method ...', platforms of
# scale/platforms.sh) is simulated with the kernels modeled under today's
# options (base) and under each option set of OPTIONS below (names in
# SETS), the two side by side, one on each of this machine's two cores:
# the wall ratio of a pair is measured under one load. A set is worth
# keeping when it moves no simulated time by more than 1 % and saves wall
# time. -> OUT/runs.tsv, OUT/summary.md (default
# experiments/scale/results/engine_options).
set -eu
. "$(dirname "$0")/../lib.sh"
needs "the SMPI flavour (sh tests/setup.sh run SCALAPACK_TARBALL builds it)" test -x build/hetmap-driver-smpi
study_out experiments/scale/results/engine_options
jobs=${JOBS:-lab-320:lu:12000:GPTM}
platforms=$(sh experiments/scale/platforms.sh)

# name|SimGrid options (what smpirun gets beside hetmap's own, launcher.c),
# or NAME=VALUE: the simulator's environment (the allocator's threshold for
# a fresh mapping, hetmap's 1 MiB otherwise: mapper/launch/job.c; its huge
# pages: 'thp' madvises transparent ones, 'hugetlb' takes reserved ones
# (SimGrid's stack guards off: mprotect cannot split a huge page), as does
# SimGrid's 'shared-hugepage' for the shared matrix (its blocks one huge
# page); both need pages reserved and hugetlbfs mounted, as root:
#   echo 2048 >/proc/sys/vm/nr_hugepages; mount -t hugetlbfs none /dev/hugepages
# ). The allocator's sets matter only where messages pass 1 MiB
# (b x n / r x 8 bytes: LU 30000 on 8 x 40 at b 64, not 12000).
# 'copy-payloads' has the driver copy every payload, as SMPI does
# (wrappers/smpi/payloads.c leaves large ones uncopied).
OPTIONS='
base|
guard-0|--cfg=contexts/guard-size:0
stack-256k|--cfg=contexts/stack-size:256
ucontext|--cfg=contexts/factory:ucontext
nthreads-2|--cfg=contexts/nthreads:2
cpu-threshold|--cfg=smpi/cpu-threshold:1e-5
no-crosstraffic|--cfg=network/crosstraffic:no
cpu-ti|--cfg=cpu/optim:TI
maxmin-precision|--cfg=maxmin/precision:1e-4
surf-precision-6|--cfg=surf/precision:1e-6
surf-precision-7|--cfg=surf/precision:1e-7
surf-precision-8|--cfg=surf/precision:1e-8
optim-full|--cfg=network/optim:Full --cfg=cpu/optim:Full
no-selective|--cfg=network/maxmin-selective-update:no --cfg=cpu/maxmin-selective-update:no
coll-ompi|--cfg=smpi/coll-selector:ompi
coll-mpich|--cfg=smpi/coll-selector:mpich
detached-1m|--cfg=smpi/send-is-detached-thresh:1048576
async-64k|--cfg=smpi/async-small-thresh:65536
wtime-0|--cfg=smpi/wtime:0
mmap-4m|MALLOC_MMAP_THRESHOLD_=4194304
mmap-32m|MALLOC_MMAP_THRESHOLD_=33554432
thp|GLIBC_TUNABLES=glibc.malloc.hugetlb=1
hugetlb|GLIBC_TUNABLES=glibc.malloc.hugetlb=2 --cfg=contexts/guard-size:0
shared-hugepage|--cfg=smpi/shared-malloc-hugepage:/dev/hugepages --cfg=smpi/shared-malloc-blocksize:2097152
copy-payloads|HETMAP_SMPI_PAYLOADS=copy
'
# by default SimGrid's own options; the allocator's by SETS, at the size where they act:
#   JOBS=lab-320:lu:30000:GU SETS='mmap-4m thp' OUT=DIR sh experiments/scale/engine_options.sh
sets=${SETS:-$(echo "$OPTIONS" | sed -n 's/|--.*//p')}

options_of() { echo "$OPTIONS" | sed -n "s/^$1|//p"; }

# simulate PLAN SET: one simulation, its record appended to $runs, and its
# tab-separated row (wall from the record; the simulator's peak PSS) to
# $tmp/row.SET. A set's NAME=VALUE words are the simulator's environment,
# the rest smpirun's options.
simulate() {
	set_env= set_opts=
	for w in $(options_of "$2"); do
		case $w in
		--*) set_opts="$set_opts $w" ;;
		*) set_env="$set_env $w" ;;
		esac
	done
	env $set_env "$hm" run --plan "$1" --launcher smpi --kernels modeled \
		${set_opts:+--launcher-args "$set_opts"} --results "$tmp/rec.$2" --timeout 7200 \
		-o "$tmp/job.$2" >/dev/null 2>"$tmp/err.$2" &
	sim=$!
	peak_memory "$sim" "$tmp/peak.$2" "smpimain.*$tmp/job.$2/" &
	if ! wait "$sim"; then
		# SimGrid's own reason: its CRITICAL line, or the signal's
		why=$(sed -n 's/.*CRITICAL] //p; s/^\(Bus error\|Segmentation fault\).*/\1/p' "$tmp/err.$2" | head -1)
		echo "engine_options: $2 failed: ${why:-see $out/runs.jsonl}" >&2
		printf '%s\tfailed\t\t\t%s\n' "$2" "$why" >"$tmp/row.$2"
	else
		python3 -c '
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1])
print("%s\t%.10g\t%.1f\t%s\t" % (sys.argv[3], rec["measured_s"], rec["wall_s"], open(sys.argv[2]).read().split()[0]))' \
			"$tmp/rec.$2" "$tmp/peak.$2" "$2" >"$tmp/row.$2"
	fi
	wait
	cat "$tmp/rec.$2" >>"$runs" 2>/dev/null || :
	rm -rf "$tmp/job.$2" "$tmp/rec.$2"
}

runs_begin
printf 'job\tset\tpair\tsimulated_s\twall_s\tpeak_pss_kB\tfailure\n' >"$tmp/runs.tsv"
for spec in $jobs; do
	scale_plan "$spec" "$tmp/plan.json"
	pair=0
	for s in $sets; do
		pair=$((pair + 1))
		echo "engine_options: $spec, base beside $s" >&2
		simulate "$tmp/plan.json" base &
		simulate "$tmp/plan.json" "$s" &
		wait
		for k in base "$s"; do
			[ -f "$tmp/row.$k" ] && printf '%s\t%s\n' "$spec" "$(sed "s/\t/\t$pair\t/" "$tmp/row.$k")" >>"$tmp/runs.tsv"
			rm -f "$tmp/row.$k"
		done
	done
done
runs_end
mv "$tmp/runs.tsv" "$out/runs.tsv"
python3 experiments/analysis.py engine-options "$out" --elapsed "$elapsed" \
	--options "$(echo "$OPTIONS" | grep '|')" \
	--command "${JOBS:+JOBS='$JOBS' }${SETS:+SETS='$SETS' }${OUT:+OUT='$OUT' }sh experiments/scale/engine_options.sh" | tee "$out/summary.md"
