#!/bin/sh
# Set up hetmap on Debian from a clean clone: install the Debian packages
# that are missing, build, then run the main job (default) or the tests
# (README.md, "The two commands"; tests/README.md).
#   sh tests/setup.sh         plan LU n=2048 on the builtin TORC platform
#   sh tests/setup.sh test    the test suite (what CI runs): the tests,
#                             again under ASan+UBSan, then 2 x 30 s of fuzzing
# Either mode takes ScaLAPACK's source tarball as a second argument
# (Reference-ScaLAPACK 2.2.1, scalapack-2.2.1.tar.gz): then the SMPI
# flavour (ScaLAPACK and hetmap's programs for SimGrid's simulator) is
# built too, once per build tree, and its test runs.
set -eu
mode=${1:-run}
smpi_source=${2:-}
if [ -n "$smpi_source" ]; then
	[ -f "$smpi_source" ] || { echo "setup: $smpi_source: no such file" >&2; exit 3; }
	smpi_source=$(cd "$(dirname "$smpi_source")" && pwd)/$(basename "$smpi_source")
fi
cd "$(dirname "$0")/.."

packages="gcc make cmake pkg-config openmpi-bin libopenmpi-dev libscalapack-openmpi-dev libopenblas-dev libcjson-dev libhwloc-dev"
# the studies' analysis and plots (experiments/analysis.py, gnuplot)
packages="$packages python3 gnuplot-nox"
# the test mode also needs clang (libFuzzer) and valgrind, and the programs
# nobody here wrote that the tests launch: ScaLAPACK's testers (Open MPI and
# MPICH builds), HPC Challenge, MPICH itself (and its headers, to build HPCC
# for it), and Slurm with munge
[ "$mode" = test ] && packages="$packages clang valgrind mpich libmpich-dev scalapack-mpi-test hpcc slurm-wlm munge"
# the SMPI flavour: SimGrid (smpicc, smpirun) and a Fortran compiler
[ -n "$smpi_source" ] && packages="$packages libsimgrid-dev gfortran"
missing=""
for p in $packages; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "setup: installing$missing" >&2
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi

# The test mode (what CI runs) builds with -Werror; the run mode keeps
# warnings as warnings so a newer compiler cannot stop a user's job.
werror=OFF
[ "$mode" = test ] && werror=ON
smpi_flag=""
[ -n "$smpi_source" ] && smpi_flag="-DHETMAP_SMPI_SCALAPACK=$smpi_source"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHETMAP_WERROR=$werror $smpi_flag >/dev/null
cmake --build build -j"$(nproc)"

case "$mode" in
run)
	build/hetmap plan -p builtin:torc -r lu -n 2048 -M BTM -d 25 -o build/plan-torc.json ;;
test)
	# Debian's hpcc runs under Open MPI only: HPCC for MPICH is built from
	# its source in Debian's archive (the tests skip it when that fails)
	sh tests/clients/build_hpcc_mpich.sh build/clients ||
		echo "setup: HPCC for MPICH not built; real_clients will skip it" >&2
	ctest --test-dir build --output-on-failure
	echo "setup: the tests again under AddressSanitizer + UBSan" >&2
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DHETMAP_SANITIZE=ON -DHETMAP_WERROR=ON >/dev/null
	cmake --build build-asan -j"$(nproc)" >/dev/null
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
		ctest --test-dir build-asan --output-on-failure
	echo "setup: fuzzing the platform and plan loaders, then the generator, 30 s each" >&2
	sh tests/fuzz/run.sh 30 ;;
*)
	echo "usage: sh tests/setup.sh [run|test] [SCALAPACK_TARBALL]" >&2
	exit 3 ;;
esac
