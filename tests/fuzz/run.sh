#!/bin/sh
# Build the libFuzzer target with clang and fuzz the loaders for a bounded
# time (default 60 s). Seeds: the reference platforms, the good and bad
# test files, plans, and the regression inputs. A crash fails the run; its
# input is left in tests/fuzz/regressions/ to be fixed and kept.
#   sh tests/fuzz/run.sh [SECONDS]
set -eu
seconds=${1:-60}
cd "$(dirname "$0")/../.."
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DHETMAP_FUZZ=ON -DBUILD_TESTING=ON \
	-DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build-fuzz --target fuzz_loaders -j"$(nproc)" >/dev/null
mkdir -p tests/fuzz/regressions
corpus=build-fuzz/corpus
mkdir -p "$corpus"
cp experiments/platforms/*.json tests/data/good/*.json tests/data/bad/*.json \
	tests/fuzz/plans/*.json "$corpus"/
status=0
build-fuzz/tests/fuzz_loaders -max_total_time="$seconds" -max_len=65536 -timeout=10 \
	-rss_limit_mb=2048 -artifact_prefix=tests/fuzz/regressions/ -print_final_stats=1 \
	"$corpus" tests/fuzz/regressions >build-fuzz/fuzz.log 2>&1 || status=$?
tail -8 build-fuzz/fuzz.log
[ $status -eq 0 ] || echo "fuzz: FAILED (exit $status), input kept in tests/fuzz/regressions/" >&2
exit $status
