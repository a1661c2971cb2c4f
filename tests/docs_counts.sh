#!/bin/bash
# The documents' counts are the tree's: the README's number of CTest
# suites is CTest's, every suite has its row in tests/README.md, and the
# number of bad platform files there is data/bad's.
#   bash tests/docs_counts.sh
set -u
. "$(dirname "$0")/lib.sh"
suites=$(ctest --test-dir "$build" -N 2>/dev/null | sed -n 's/^Total Tests: //p')
[ -n "$suites" ] || skip "ctest cannot list $build's suites"
# the README counts build/'s suites; under the sanitizers valgrind_cli is left out
ctest --test-dir "$build" -N 2>/dev/null | grep -q ': valgrind_cli$' || suites=$((suites + 1))
said=$(sed -n 's/.*ctest --test-dir build --output-on-failure *# \([0-9]*\) suites.*/\1/p' "$root/README.md")
check "README.md says $said suites, CTest has $suites" test "$said" = "$suites"
for name in $(ctest --test-dir "$build" -N 2>/dev/null | sed -n 's/^ *Test *#[0-9]*: //p'); do
	check "tests/README.md has a row for the suite '$name'" grep -q "^| \`$name\`\\|^| .*\`$name\`.* |" "$root/tests/README.md"
done
bad=$(ls "$root"/tests/data/bad/*.json | wc -l)
said=$(sed -n 's/.*| \([0-9]*\) bad platform files.*/\1/p' "$root/tests/README.md")
check "tests/README.md says $said bad platform files, data/bad has $bad" test "$said" = "$bad"
expected=$(grep -c '^[a-z_0-9]*|' "$root/tests/data/bad/EXPECT")
check "data/bad/EXPECT has a line for each of the $bad files ($expected)" test "$expected" = "$bad"
echo "docs_counts: $pass passed, $fail failed"
[ $fail = 0 ]
