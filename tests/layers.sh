#!/bin/bash
# The layers call downward only. Every C folder has a rank (the table
# below); a file may include headers of its own folder and of folders of
# a lower rank, never of a folder of the same or a higher rank. And no
# chain of includes comes back to where it started (tsort finds any
# cycle), within a folder too. The programs under the launcher (wrappers/)
# sit on top but stand alone: below them they include only the lowest
# layer, models/common/, which hetmap compiles too. A C folder missing from the table fails:
# a new folder must say where it sits.
#   bash tests/layers.sh
set -u
root=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
fail=0
declare -A rank=(
	[models/common]=0                                      # what hetmap and the rank programs both compile
	[models/util]=1                                        # errors, reads, files, clock
	[models/platform]=2                                    # the cluster: files, units, generator
	[models]=3                                             # the heterogeneity rule, the models
	[search]=4                                             # trees, methods, users
	[mapper/launch]=5                                      # plans, placements, launchers, jobs
	[mapper/tune]=6                                        # tune's race, the runs' history, learned corrections
	[mapper/calibrate]=7                                   # calibrate's pipeline: hosts, topology, benchmark, fit, write
	[mapper/cli]=8                                         # the hetmap command
	[wrappers/smpi]=9 [wrappers/vcluster]=9                # the simulator's kernels and payloads, the emulated cluster
	[wrappers]=10                                          # programs under the launcher: only models/common/ and the above below them
	[tests]=11 [tests/fuzz]=11 [tests/clients]=11         # the suites; a user's own program
	[experiments]=12                                       # studies: nothing builds from them
)
cd "$root" || exit 1
if git rev-parse --git-dir >/dev/null 2>&1; then
	files=$(git ls-files '*.c' '*.h')
else
	files=$(find . -name '*.[ch]' -not -path './build*' | sed 's|^\./||')
fi
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
for f in $files; do
	dir=$(dirname "$f")
	if [ -z "${rank[$dir]+set}" ]; then
		echo "FAILED: $f: folder '$dir' has no rank in tests/layers.sh"
		fail=1
		continue
	fi
	while read -r h; do
		# as the compiler looks: beside the file, then from the repository root
		if [ -f "$dir/$h" ]; then target=$dir/$h; elif [ -f "$h" ]; then target=$h; else continue; fi
		target=$(realpath -m --relative-to=. "$target")
		tdir=$(dirname "$target")
		echo "$f $target" >>"$edges"
		[ "$tdir" = "$dir" ] && continue
		# the programs stand alone (they are built for SMPI too): below them only models/common/
		case $dir/:$tdir/ in
		wrappers/*:wrappers/* | wrappers/*:models/common/) ;;
		wrappers/*)
			echo "FAILED: $f includes $target: a program under the launcher includes only models/common/"
			fail=1 ;;
		esac
		if [ -z "${rank[$tdir]+set}" ] || [ "${rank[$tdir]}" -ge "${rank[$dir]}" ]; then
			echo "FAILED: $f includes $target: $tdir/ is not a layer below $dir/"
			fail=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
[ -s "$edges" ] || { echo "FAILED: no include found (wrong folder?)"; fail=1; }
if ! tsort "$edges" >/dev/null 2>"$edges.err"; then
	echo "FAILED: a cycle of includes:"
	sed 's/^/  /' "$edges.err"
	fail=1
fi
rm -f "$edges.err"
[ $fail = 0 ] && echo "layers: $(wc -l <"$edges") includes between $(echo "$files" | wc -w) files, every one downward, no cycle"
exit $fail
