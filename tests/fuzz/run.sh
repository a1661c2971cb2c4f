#!/bin/sh
# Build the libFuzzer targets with clang and fuzz each for a bounded time
# (default 30 s each): the platform and plan loaders (fuzz_loaders) and
# the platform generator (fuzz_generator). Seeds: the reference platforms,
# the good and bad test files and plans; the generator descriptions of
# models/platform/examples; the regression inputs of each. A crash fails the
# run; its input is left in the target's regression folder, to be fixed
# and kept.
#   sh tests/fuzz/run.sh [SECONDS-PER-TARGET]
set -eu
seconds=${1:-30}
cd "$(dirname "$0")/../.."
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DHETMAP_FUZZ=ON -DBUILD_TESTING=ON \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz --target fuzz_loaders fuzz_generator -j"$(nproc)" >/dev/null
status=0
for target in loaders generator; do
	corpus=build-fuzz/corpus-$target
	mkdir -p "$corpus"
	case $target in
	loaders)
		regressions=tests/fuzz/regressions
		cp models/platform/builtin/*.json tests/data/good/*.json tests/data/bad/*.json \
			tests/fuzz/plans/*.json "$corpus"/ ;;
	generator)
		regressions=tests/fuzz/regressions-generator
		cp models/platform/examples/*.json "$corpus"/ ;;
	esac
	rc=0
	build-fuzz/tests/fuzz_$target -max_total_time="$seconds" -max_len=65536 -timeout=10 \
		-rss_limit_mb=2048 -artifact_prefix="$regressions"/ -print_final_stats=1 \
		"$corpus" "$regressions" >build-fuzz/fuzz-$target.log 2>&1 || rc=$?
	echo "fuzz: $target"
	grep -E "^Done|number_of_executed_units|new_units_added|peak_rss" build-fuzz/fuzz-$target.log || true
	if [ $rc -ne 0 ]; then
		tail -30 build-fuzz/fuzz-$target.log
		echo "fuzz: $target FAILED (exit $rc), input kept in $regressions/" >&2
		status=$rc
	fi
done
exit $status
