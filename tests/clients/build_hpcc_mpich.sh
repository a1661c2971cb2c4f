#!/bin/sh
# HPC Challenge built for MPICH, for the tests: Debian's hpcc is linked
# with Open MPI only. Fetches hpcc's upstream source (1.5.0, the release
# Debian's package is built from) from Debian's archive with apt, through
# a private list directory (the system's apt configuration is not
# touched; apt checks the download against the archive's signed index),
# and builds it with mpicc.mpich and OpenBLAS into DIR/hpcc-mpich/hpcc.
#
#   sh tests/clients/build_hpcc_mpich.sh [DIR]      (default build/clients)
#
# Exits 0 when DIR/hpcc-mpich/hpcc exists (built now or before), 1 with a
# message when it cannot be made (no network to the archive, no MPICH);
# the tests then skip hpcc under MPICH and say why.
set -u
# absolute: apt runs in a subdirectory below
cd "$(dirname "$0")/../.." || exit 1
dir=$(mkdir -p "${1:-build/clients}" && cd "${1:-build/clients}" && pwd) || exit 1
out=$dir/hpcc-mpich
[ -x "$out/hpcc" ] && exit 0
command -v mpicc.mpich >/dev/null || { echo "build_hpcc_mpich: mpicc.mpich missing (install libmpich-dev)" >&2; exit 1; }
mkdir -p "$dir/apt/lists/partial" "$out" || exit 1
cat > "$dir/apt/sources.list" <<LIST
deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main
LIST
apt_private() {
	apt-get -q -o Dir::Etc::SourceList="$dir/apt/sources.list" -o Dir::Etc::SourceParts=/dev/null \
		-o Dir::State::Lists="$dir/apt/lists" -o APT::Sandbox::User=root "$@"
}
echo "build_hpcc_mpich: fetching hpcc's source from Debian's archive" >&2
if ! apt_private update >"$dir/apt/update.log" 2>&1; then
	echo "build_hpcc_mpich: apt-get update of the source index failed ($(tail -1 "$dir/apt/update.log"))" >&2
	exit 1
fi
# only the upstream tarball is needed (Debian's patches concern packaging)
(cd "$dir/apt" && apt_private source --download-only hpcc >source.log 2>&1)
tarball=$(ls "$dir"/apt/hpcc_*.orig.tar.gz 2>/dev/null | head -1)
if [ -z "$tarball" ]; then
	echo "build_hpcc_mpich: could not fetch hpcc's source ($(tail -1 "$dir/apt/source.log"))" >&2
	exit 1
fi
rm -rf "$out/src" && mkdir -p "$out/src" && tar xzf "$tarball" -C "$out/src" --strip-components=1 || exit 1
# HPL's make include for this machine: MPICH's compiler wrapper, OpenBLAS's CBLAS
cat > "$out/src/hpl/Make.mpich" <<'MAKE'
SHELL        = /bin/sh
CD           = cd
CP           = cp
LN_S         = ln -fs
MKDIR        = mkdir -p
RM           = /bin/rm -f
TOUCH        = touch
ARCH         = $(arch)
TOPdir       = ../../..
INCdir       = $(TOPdir)/include
BINdir       = $(TOPdir)/bin/$(ARCH)
LIBdir       = $(TOPdir)/lib/$(ARCH)
HPLlib       = $(LIBdir)/libhpl.a
LAlib        = -lopenblas
F2CDEFS      = -DAdd_ -DF77_INTEGER=int -DStringSunStyle
HPL_INCLUDES = -I$(INCdir) -I$(INCdir)/$(ARCH)
HPL_LIBS     = $(HPLlib) $(LAlib) -lm
HPL_OPTS     = -DHPL_CALL_CBLAS
HPL_DEFS     = $(F2CDEFS) $(HPL_OPTS) $(HPL_INCLUDES)
CC           = mpicc.mpich
CCNOOPT      = $(HPL_DEFS)
CCFLAGS      = $(HPL_DEFS) -O2 -fcommon -w
LINKER       = mpicc.mpich
LINKFLAGS    = $(CCFLAGS)
ARCHIVER     = ar
ARFLAGS      = r
RANLIB       = echo
MAKE
echo "build_hpcc_mpich: building $(basename "$tarball" .orig.tar.gz) with mpicc.mpich (about 25 s)" >&2
if ! make -C "$out/src" arch=mpich >"$out/build.log" 2>&1; then
	echo "build_hpcc_mpich: the build failed (see $out/build.log)" >&2
	exit 1
fi
cp "$out/src/hpcc" "$out/hpcc.tmp" && mv "$out/hpcc.tmp" "$out/hpcc"
echo "build_hpcc_mpich: $out/hpcc" >&2
