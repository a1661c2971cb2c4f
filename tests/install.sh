#!/bin/bash
# The installed tool: 'cmake --install' into a prefix, moved elsewhere (no
# path of the build tree left to lean on), run from another directory:
# the same CLI checks as the build tree, its manual page, a real run whose
# driver comes from PREFIX/libexec/hetmap, a calibration whose topology
# and benchmark programs come from there too; then the Debian package CPack
# builds, unpacked into a scratch root, plans and runs the same way.
set -u
. "$(dirname "$0")/lib.sh"
command -v mpirun >/dev/null || skip "no mpirun (Debian package openmpi-bin)"
plat=$data/good/localhost.json

# installed_checks ROOT BIN: the checks on an installed tree
installed_checks() {
	local where=$1 bin=$2 lib=$1/libexec/hetmap
	for f in "$bin" "$lib/hetmap-driver" "$lib/hetmap-probe" "$lib/hetmap-calibrate-bench" \
		"$lib/hetmap-topology"; do
		check "$where: $(basename "$f") installed" test -x "$f"
	done
	check "$where: the manual page installed" test -s "$where/share/man/man1/hetmap.1"
	for c in platform predict plan compare models generate export calibrate run; do
		check "$where: the manual page has 'hetmap $c'" grep -q "^\.SS \"hetmap $c\"" \
			"$where/share/man/man1/hetmap.1"
	done
	check "$where: the manual page lists the exit codes" grep -q '^\.SH "EXIT STATUS"' \
		"$where/share/man/man1/hetmap.1"
	for section in ENVIRONMENT FILES '"SEE ALSO"'; do
		check "$where: the manual page has $section" grep -q "^\.SH $section" "$where/share/man/man1/hetmap.1"
	done
	check "$where: the manual page names HETMAP_PLATFORM" grep -q "^HETMAP_PLATFORM" "$where/share/man/man1/hetmap.1"
	# the documents the help texts cite, under the paths they cite, and example platforms
	for doc in README.md models/platform/README.md mapper/README.md wrappers/README.md; do
		check "$where: $doc installed" test -s "$where/share/doc/hetmap/$doc"
	done
	expect 0 "modern-1024: 16 processors" -- "$bin" generate "$where/share/hetmap/examples/modern-1024.json" -o "$tmp/gen-$3.json"
	expect 0 "ok (smpi4" -- "$bin" platform check "$where/share/hetmap/examples/smpi4.json"
	check "$where: the span library beside the probe" test -s "$lib/libhetmap-mpi-span.so"
	if [ -x "$build/hetmap-driver-mpich" ]; then
		check "$where: the MPICH flavour installed" test -x "$lib/hetmap-driver-mpich"
	fi
	expect 0 "GU plan for lu n=600 on localhost" -- "$bin" plan -p "$plat" -n 600 -M GU
	expect 0 "GPTM plan for lu n=2048 on TORC" -- "$bin" plan -p builtin:torc -n 2048
	expect 3 "option '--depth' must be between 1 and 262144" -- "$bin" plan -d 0
	expect 0 "" -- "$bin" run -p "$plat" -n 400 -M GU --dry-run -o "$tmp/launch-$3"
	check "$where: the launch uses the installed driver" grep -q "$lib/hetmap-driver" "$tmp/launch-$3/run.sh"
	expect 0 "record appended" -- "$bin" run -p "$plat" -n 400 -M GU --results "$tmp/runs-$3.jsonl"
	check "$where: the run passed its check" grep -q '"passed":true' "$tmp/runs-$3.jsonl"
	expect 0 "libexec/hetmap/hetmap-topology" -- "$bin" calibrate --hosts localhost:1 --repeat 1 --min-time 0.01 --accept-unreliable \
		--block-sizes 32 --all-busy-only --no-shapes -o "$tmp/cal-$3.json"
	check "$where: calibrate recorded the topology the installed hetmap-topology read" \
		grep -q '"core_cpus"' "$tmp/cal-$3.json"
}

# the prefix, then moved: nothing may point back into the build tree
expect 0 "" -- cmake --install "$build" --prefix "$tmp/staged"
mv "$tmp/staged" "$tmp/prefix"
cd / || exit 1
installed_checks "$tmp/prefix" "$tmp/prefix/bin/hetmap" prefix
# a helper that cannot run is named where it is, before anything launches
chmod -x "$tmp/prefix/libexec/hetmap/hetmap-driver"
expect 3 "hetmap-driver: Permission denied ($tmp/prefix/libexec/hetmap/hetmap-driver" -- \
	"$tmp/prefix/bin/hetmap" run -p "$plat" -n 400 -M GU --results "$tmp/runs-x.jsonl"
mv "$tmp/prefix/libexec/hetmap/hetmap-probe" "$tmp/probe.away"
expect 8 "hetmap-probe: not found beside hetmap" -- \
	"$tmp/prefix/bin/hetmap" run -p "$plat" -n 400 -M GU --results "$tmp/runs-x.jsonl"
check "nothing was launched, nothing recorded" test ! -s "$tmp/runs-x.jsonl"
mv "$tmp/probe.away" "$tmp/prefix/libexec/hetmap/hetmap-probe"
chmod +x "$tmp/prefix/libexec/hetmap/hetmap-driver"
# a prefix under a folder named with a blank: the span library is still
# preloaded (ld.so splits LD_PRELOAD at blanks) and times the program
mkdir -p "$tmp/with space"
mv "$tmp/prefix" "$tmp/with space/prefix"
expect 0 "by the longest rank's MPI_Init to MPI_Finalize" -- "$tmp/with space/prefix/bin/hetmap" run -p "$plat" \
	-n 400 -M GU --profile none --results "$tmp/runs-space.jsonl" -- \
	"$tmp/with space/prefix/libexec/hetmap/hetmap-driver" --routine lu -n {n} -b {b} -r {r} -c {c}
check "no ld.so error from the blank" test "$(grep -c "ld.so\|cannot be preloaded" "$tmp/err" "$tmp/out" | \
	awk -F: '{ s += $2 } END { print s }')" = 0
mv "$tmp/with space/prefix" "$tmp/prefix"

# the Debian package, unpacked into a scratch root (dpkg -i would change
# this machine)
if command -v cpack >/dev/null && command -v dpkg-deb >/dev/null; then
	(cd "$build" && cpack -G DEB -B "$tmp/package" >"$tmp/cpack.log" 2>&1)
	deb=$(ls "$tmp"/package/hetmap_*.deb 2>/dev/null | head -n 1)
	check "cpack built a .deb" test -n "$deb"
	if [ -n "$deb" ]; then
		expect 0 "Package: hetmap" -- dpkg-deb --info "$deb"
		# the SMPI flavour starts smpirun: its package comes with hetmap's
		if [ -x "$build/hetmap-driver-smpi" ]; then
			expect 0 "libsimgrid-dev" -- dpkg-deb --field "$deb" Depends
		fi
		expect 0 "" -- dpkg-deb -x "$deb" "$tmp/root"
		installed_checks "$tmp/root/usr" "$tmp/root/usr/bin/hetmap" deb
	fi
else
	echo "install: no cpack or dpkg-deb: the Debian package is not checked"
fi
finish install
