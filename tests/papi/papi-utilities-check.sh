#!/bin/sh
# make check: scripts/papi-utilities.sh tells a failure from a time-out and names the program and the model.
# Runs it on a prefix of stand-in programs (shell scripts under netburst-run): one that exits 0, one that exits 3
# with a message, one that exits 4 without one, one that outlives a 3 s limit, and a script whose interpreter is
# missing. Needs the build's netburst-run (make check runs in the build directory).
set -eu
src=${srcdir:-$(cd "$(dirname "$0")/../.." && pwd)}
build=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/papi-utilities-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/prefix/bin"
cd "$work/prefix/bin"
printf '#!/bin/sh\necho fine\n' > papi_fine
printf '#!/bin/sh\necho "no such event" >&2\nexit 3\n' > papi_fails
printf '#!/bin/sh\nexit 4\n' > papi_fails_silently
printf '#!/bin/sh\nsleep 60\n' > papi_hangs
printf '#!/nonexistent/interpreter\n' > papi_script
chmod +x papi_*
cd "$work"

status=0
"$src/scripts/papi-utilities.sh" -b "$build" -p "$work/prefix" -m "2 4" -t 3 > out 2> err || status=$?
cat out err
fail() { echo "papi-utilities-check: $*" >&2; exit 1; }
[ $status -eq 1 ] || fail "exit status $status, not 1"
for line in "FAIL papi_fails on model 2 after" "FAIL papi_fails on model 4 after" "exit status 3: no such event" \
            "FAIL papi_fails_silently on model 4 after" \
            "TIMEOUT papi_hangs on model 2 after" "TIMEOUT papi_hangs on model 4 after" "no exit within 3 s" \
            "SKIP papi_script: /nonexistent/interpreter is not installed"; do
  grep -qF "$line" err || fail "no '$line' on standard error"
done
grep -q '^papi_fine  *[0-9.][0-9.]*  *[0-9.][0-9.]*$' out || fail "papi_fine has no time on both models"
grep -q "6 failed" out || fail "the summary does not count 6 failures"
echo "papi-utilities-check: passed"
