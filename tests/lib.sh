# tests/lib.sh - sourced by every shell test (tests/README.md).
#
# Where things are, so that every test runs with no arguments from
# anywhere ('bash tests/cli.sh'): $root the repository, $build the build
# tree ($HETMAP_BUILD, default $root/build; CTest sets it), $hm the hetmap
# there, $data the test data, $examples the generator's examples. The test
# runs inside its own scratch directory $tmp (removed at exit, after the
# test's own 'cleanup' if it defines one), so whatever a command writes
# to the current directory (a default results file, a simulator's
# temporary hostfile) never lands in the repository or the build tree,
# and its own $TMPDIR, removed too.
# Then: counters, and
#   expect CODE 'substring of stdout or stderr' -- command...
root=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
build=${HETMAP_BUILD:-$root/build}
if ! build=$(CDPATH='' cd -- "$build" 2>/dev/null && pwd) || [ ! -x "$build/hetmap" ]; then
	echo "$(basename "$0"): no hetmap built in ${HETMAP_BUILD:-$root/build} (cmake -S . -B build &&" \
		"cmake --build build, or set HETMAP_BUILD)" >&2
	exit 1
fi
hm=$build/hetmap
data=$root/tests/data
examples=$root/models/platform/examples
tmp=$(mktemp -d)
# what hetmap makes under $TMPDIR (launch and judge folders it keeps) goes
# with the test too, beside $tmp (some tests count what $tmp holds)
TMPDIR=$(mktemp -d) && export TMPDIR
scratch_tmpdir=$TMPDIR
# the defaults a user's environment may set (hetmap's configuration, its
# cache of this machine's calibration) stay out of the tests; a test that
# names no platform gets TORC's, the tests' common one (tests/first_hour.sh
# tests the defaults themselves)
export HETMAP_CONFIG= HETMAP_PLATFORM=builtin:torc XDG_CACHE_HOME=$tmp/cache
unset HETMAP_RESULTS
cleanup() { :; }
trap 'cleanup; rm -rf "$tmp" "$scratch_tmpdir"' EXIT
cd "$tmp" || exit 1
# skip 'why': the test cannot run here (CTest shows it as skipped)
skip() { echo "$(basename "$0" .sh): $*, skipped"; exit 77; }
pass=0 fail=0

expect() {
	local code=$1 msg=$2
	shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [ $rc -ne "$code" ]; then
		echo "FAILED (exit $rc, want $code): $*"; cat "$tmp/err"; fail=$((fail + 1))
	elif [ -n "$msg" ] && ! grep -qF -- "$msg" "$tmp/err" "$tmp/out"; then
		echo "FAILED (no '$msg'): $*"; cat "$tmp/err"; fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
}

# check 'what' test-command...: count a plain condition
check() {
	local what=$1
	shift
	if "$@"; then pass=$((pass + 1)); else echo "FAILED: $what"; fail=$((fail + 1)); fi
}

# field PATH-IN-LAST-RECORD: a value of the last record of the results
# file $res, as JSON (python3)
field() { python3 -c '
import json, sys
rec = json.loads(open(sys.argv[1]).read().splitlines()[-1])
for k in sys.argv[2].split("."):
    rec = rec[int(k)] if isinstance(rec, list) else rec[k]
print(json.dumps(rec))' "$res" "$1"; }

finish() {
	echo "$1: $pass passed, $fail failed"
	[ $fail -eq 0 ]
}

# mpirun refuses root unless told (CI runs as root)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1
