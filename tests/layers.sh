#!/bin/bash
# The layers call downward only: models/ < search/ < mapper/; the MPI
# programs in wrappers/ and the experiments include nothing of mapper/;
# and no two files include each other.
#   bash tests/layers.sh SOURCE-DIR
set -u
root=$1
fail=0
upward() {      # folder, the folders it must not include
	local dir=$1; shift
	for f in "$root/$dir"/*.[ch]; do
		for above in "$@"; do
			if grep -q "^#include \"$above/" "$f"; then
				echo "FAILED: ${f#"$root"/} includes a header of $above/ (a layer above it)"
				fail=1
			fi
		done
	done
}
upward models search mapper wrappers
upward search mapper wrappers
upward wrappers mapper search
# mutual includes: a.c/a.h including b.h while b.c/b.h includes a.h
for f in "$root"/{models,search,mapper,wrappers}/*.[ch]; do
	dir=$(basename "$(dirname "$f")") base=$(basename "$f"); base=${base%.*}
	for h in $(sed -n 's/^#include "\([^"]*\)\.h"/\1/p' "$f"); do
		hb=$(basename "$h") hd=$(dirname "$h")
		[ "$hd" = . ] && hd=$dir
		[ "$hb" = "$base" ] && continue
		for g in "$root/$hd/$hb".[ch]; do
			[ -f "$g" ] || continue
			if grep -Eq "^#include \"($dir/)?$base\\.h\"" "$g"; then
				echo "FAILED: ${f#"$root"/} and ${g#"$root"/} include each other"
				fail=1
			fi
		done
	done
done
[ $fail = 0 ] && echo "layers: passed"
exit $fail
