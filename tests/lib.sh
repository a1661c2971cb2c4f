# Shared by the CLI test scripts: a scratch directory, counters, and
#   expect CODE 'substring of stdout or stderr' -- command...
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
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
