#!/bin/bash
# Headers show only what others use: every function a header of the C
# folders declares (hm_NAME, not static) is called by a file other than its
# own .c (its header, and the .c of the same name, do not count). A function
# only its own file calls belongs there, static; one nobody calls goes.
# Tests count as callers: a function exported for them says so in its
# header ("for tests").
#   bash tests/exports.sh
set -u
root=$(CDPATH='' cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 1
if git rev-parse --git-dir >/dev/null 2>&1; then
	files=$(git ls-files '*.c' '*.h')
else
	files=$(find . -name '*.[ch]' -not -path './build*' | sed 's|^\./||')
fi
headers=$(echo "$files" | grep '\.h$' | grep -v '^tests/')
fail=0 count=0
for h in $headers; do
	own=${h%.h}.c
	# declarations: a line that names hm_x( at its start or after a type, not a macro or static
	for name in $(sed -n 's/^[A-Za-z_][A-Za-z0-9_ \*]*[ \*]\(hm_[a-z0-9_]*\)(.*/\1/p' "$h" | sort -u); do
		grep -q "^static.*[ \*]$name(" "$h" && continue
		count=$((count + 1))
		users=$(echo "$files" | grep -v -x -e "$h" -e "$own" | xargs grep -l -w "$name" 2>/dev/null | head -1)
		if [ -z "$users" ]; then
			echo "FAILED: $h exports $name, which no other file uses (make it static in $own, or delete it)"
			fail=1
		fi
	done
done
[ $fail = 0 ] && echo "exports: $count functions declared in headers, each used beyond its own file"
exit $fail
