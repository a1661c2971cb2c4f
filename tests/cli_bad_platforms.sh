#!/bin/bash
# Every file of the bad-platform catalogue must fail with exit code 2 and
# one message naming the file, the JSON path and what is wrong (EXPECT).
set -u
. "$(dirname "$0")/lib.sh"
dir=$data/bad
while IFS='|' read -r name code path msg; do
	case "$name" in ''|'#'*) continue ;; esac
	file="$dir/$name.json"
	err=$("$hm" platform check "$file" 2>&1 >/dev/null)
	rc=$?
	want="hetmap: $file: ${path:+$path: }"
	if [ "$rc" -ne "$code" ]; then
		echo "FAILED $name: exit $rc, want $code ($err)"; fail=$((fail + 1))
	elif [[ "$err" != "$want"* || "$err" != *"$msg"* ]]; then
		echo "FAILED $name: message '$err' lacks '$want' ... '$msg'"; fail=$((fail + 1))
	elif [ "$(printf '%s\n' "$err" | wc -l)" -ne 1 ]; then
		echo "FAILED $name: more than one line: $err"; fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done < "$dir/EXPECT"
# a missing file is an input error too
err=$("$hm" platform check "$dir/does-not-exist.json" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ "$err" == *"cannot open: No such file"* ]]; then pass=$((pass + 1)); else
	echo "FAILED missing file: $rc $err"; fail=$((fail + 1)); fi
[ $pass -ge 30 ] || { echo "FAILED: only $pass cases ran"; fail=$((fail + 1)); }
finish cli_bad_platforms
