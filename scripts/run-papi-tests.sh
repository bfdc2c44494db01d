#!/usr/bin/env bash
# Runs PAPI's own test suites (ctests, ftests, validation_tests, as PAPI 7.0.0 builds them with the netburst
# component as component 0) under netburst-run, each program on the emulated Pentium 4, and prints one line per
# test and the summary line "N passed, N failed, N skipped". doc/papi-tests.md explains the results.
#
#   scripts/run-papi-tests.sh [--i386] [-a] [-L FILE] [-b BUILD] [-j JOBS] [-t SECONDS] [-o DIR] [-F] [-k] [-m]
#                             [TEST...]
#
#   --i386      the suites of the 32-bit libpapi (papi32/work/src: PAPI's tests built -m32, i386 programs under
#               netburst-run); without TESTs only those of tests/papi/meaningful.txt, the tests that may never fail
#   -a          with --i386, every test, as without it
#   -L FILE     the tests listed in FILE (SUITE/NAME<TAB>REASON lines; # comments), e.g. tests/papi/i386-ci.txt
#   -b BUILD    the papi-netburst build directory (default: ./build); its netburst-run and papi/work/src are used
#   -j JOBS     tests run at once (default 2)
#   -t SECONDS  time limit per test (default 600); a test that exceeds it counts as failed. With -F, a test
#               listed in tests/papi/time-limits.txt gets the larger of this and its own limit. Those tests start
#               first; those in tests/papi/run-alone.txt (they measure rates per wall-clock second) run last, one
#               at a time
#   -o DIR      keep each test's output in DIR (default: a temporary directory, kept when a test failed)
#   -F          PAPI's full work sizes (see below): the long job, hours instead of minutes
#   -k          list the tests that would run, with the reasons for those that do not, and exit
#   -m          gate on the meaningful tests only: the exit status ignores unexpected failures of other tests
#               (they are still counted, listed and marked UNEXPECTED); CI uses this
#   TEST...     run only these (suite/name, e.g. ctests/zero validation_tests/papi_tot_ins)
#
# Work sizes, unless -F: the validation tests repeat each averaged measurement 3 times instead of 100, and
# multiply 128x128 matrices instead of 512x512 or 1000x1000 (PAPI_VALIDATION_RUNS, PAPI_VALIDATION_MATRIX_SIZE,
# patches/papi/0002); the ctests' unit of work NUM_FLOPS is 2 million instead of 20 million, and do_stuff() runs
# one round instead of as many as fill 2 s of wall-clock time (PAPI_TEST_NUM_FLOPS, PAPI_TEST_WORK_LOOPS,
# patches/papi/0004). The emulator has no noise to average, every check computes its expectation from the same
# sizes, and a fixed amount of work makes a test's time depend on the work, not on the host's load.
#
# tests/papi/emulated-clock.txt lists the tests that run on netburst-run's default clock, the emulated Pentium 4's
# (they judge rates by the wall clock, which is then the Pentium 4's time). The others run with --clock=host: PAPI's
# suites size some of their work by the wall clock (do_stuff's rounds, the overflow and multiplex tests' loops), and
# the host's clock under emulation ends that work after a hundredth of the instructions a Pentium 4's would.
#
# tests/papi/open-failures.txt lists the tests of tests/papi/meaningful.txt that fail today, each with what is
# wrong: they are bugs to fix, not accepted results. They count as failed in the summary and are printed as OPEN,
# and the exit status ignores them, so that CI catches every other failure (a regression) while they are open.
#
# A test passes when it prints PASSED (PAPI's test library also prints "PASSED with WARNING"), is skipped when it
# prints SKIPPED (it found something it needs missing, and says what), and fails otherwise: FAILED, a crash, no
# verdict, or the time limit. Every failure counts as failed in the summary. Exit status: 1 when a test failed
# that tests/papi/expected-failures.txt does not list with its reason, or when a test of tests/papi/meaningful.txt
# failed (those may never fail); 0 otherwise.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
jobs=2
limit=600
outdir=
list_only=0
gate_meaningful=0
full_sizes=0
i386=0
all_i386=0
# --i386 is a word, not a getopts letter: taken out of the arguments first.
args=()
for a in "$@"; do
  if [ "$a" = --i386 ]; then i386=1; else args+=("$a"); fi
done
set -- ${args[@]+"${args[@]}"}
list_file=
while getopts "aL:b:j:t:o:Fkmh" opt; do
  case $opt in
    a) all_i386=1 ;;
    L) list_file=$OPTARG ;;
    b) build=$(cd "$OPTARG" && pwd) || exit 2 ;;
    j) jobs=$OPTARG ;;
    t) limit=$OPTARG ;;
    o) outdir=$OPTARG ;;
    F) full_sizes=1 ;;
    k) list_only=1 ;;
    m) gate_meaningful=1 ;;
    *) sed -n '2,27p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

runner=$build/netburst-run
papi=$build/papi/work/src
[ $i386 -eq 1 ] && papi=$build/papi32/work/src
[ -x "$runner" ] || { echo "run-papi-tests: $runner not found: build papi-netburst first (make)" >&2; exit 2; }
if [ ! -d "$papi/ctests" ]; then
  if [ $i386 -eq 1 ]; then
    echo "run-papi-tests: $papi/ctests not found: configure did not build the 32-bit libpapi (its output says why)" >&2
  else
    echo "run-papi-tests: $papi/ctests not found: build papi-netburst with PAPI" >&2
  fi
  exit 2
fi

# Programs in the test directories that are not tests (PAPI's run_tests_exclude.txt says the same), and tests
# this script does not run; failures that are understood; and the tests that may never fail. Each entry has its
# reason, which doc/papi-tests.md repeats.
not_run_file=$top/tests/papi/not-run.txt
expected_file=$top/tests/papi/expected-failures.txt
meaningful_file=$top/tests/papi/meaningful.txt
open_file=$top/tests/papi/open-failures.txt
# Tests that are known to run for long on the emulator at PAPI's full sizes (billions of instructions in its
# timing tier), each with its own limit and the measurement behind it: SUITE/NAME<TAB>SECONDS<TAB>REASON. They
# start first, longest first, so that the short tests fill the other slots while they run instead of leaving one
# idle at the end; their own limits apply with -F only (with the fixed reduced work they are well within -t).
limits_file=$top/tests/papi/time-limits.txt
# Tests that judge rates per wall-clock second (SUITE/NAME<TAB>REASON): they run one at a time after the others,
# so that the suite's own parallel tests do not take the CPU they measure.
alone_file=$top/tests/papi/run-alone.txt
# Tests that need other work sizes than the defaults below: SUITE/NAME<TAB>VARIABLE=VALUE ...<TAB>REASON.
sizes_file=$top/tests/papi/work-sizes.txt
# Tests that run on the emulated clock (netburst-run --clock=emulated): SUITE/NAME<TAB>REASON.
clock_file=$top/tests/papi/emulated-clock.txt
# listed FILE SUITE/NAME: whether the test has a line in FILE.
listed() { awk -v t="$2" -F '\t' '$1 == t { found = 1 } END { exit !found }' "$1"; }
emulated_clock() { listed "$clock_file" "$1"; }
# own_sizes SUITE/NAME: the test's own VARIABLE=VALUE words, or nothing.
own_sizes() { awk -v t="$1" -F '\t' '$1 == t { print $2 }' "$sizes_file"; }
# own_limit SUITE/NAME: the test's own limit in tests/papi/time-limits.txt, or nothing.
own_limit() { awk -v t="$1" -F '\t' '$1 == t { print $2 }' "$limits_file"; }
# time_limit SUITE/NAME: the test's limit, the larger of -t and (with -F) its own.
time_limit() {
  local own=
  [ "$full_sizes" -eq 1 ] && own=$(own_limit "$1")
  if [ -n "$own" ] && [ "$own" -gt "$limit" ]; then echo "$own"; else echo "$limit"; fi
}

# expected_failure SUITE/NAME: prints the reason when the test is known to fail here.
expected_failure() {
  awk -v t="$1" -F '\t' '$1 == t { print $2; found = 1 } END { exit !found }' "$expected_file"
}
meaningful() { grep -qx -- "$1" "$meaningful_file"; }
run_alone() { listed "$alone_file" "$1"; }
# open_failure SUITE/NAME: prints what is wrong when the test is a known, open bug.
open_failure() {
  awk -v t="$1" -F '\t' '$1 == t { print $2; found = 1 } END { exit !found }' "$open_file"
}

# not_run_entry SUITE/NAME: prints "KIND<TAB>REASON" when the program is not run.
not_run_entry() {
  awk -v t="$1" -F '\t' '$1 == t { print $2 "\t" $3; found = 1 } END { exit !found }' "$not_run_file"
}

all_tests() {
  local suite f
  for suite in validation_tests ctests ftests; do
    for f in "$papi/$suite"/*; do
      [ -f "$f" ] && [ -x "$f" ] || continue
      case $f in *.c|*.h|*.F|*.o|*.so|*/Makefile*) continue ;; esac
      echo "$suite/$(basename "$f")"
    done
  done
}

if [ $# -gt 0 ]; then tests=("$@")
elif [ -n "$list_file" ]; then mapfile -t tests < <(grep -v '^#' "$list_file" | cut -f1 | grep .)
elif [ $i386 -eq 1 ] && [ $all_i386 -eq 0 ]; then mapfile -t tests < <(grep -v '^#' "$meaningful_file")
else mapfile -t tests < <(all_tests); fi

run=()
not_run=()  # "SUITE/NAME<TAB>REASON" of tests not run
for t in "${tests[@]}"; do
  if entry=$(not_run_entry "$t"); then
    [ "${entry%%$'\t'*}" = helper ] || not_run+=("$t"$'\t'"${entry#*$'\t'}")
  else
    run+=("$t")
  fi
done
# The order they start in: the long ones (own limit, longest first), then the rest as listed; the run-alone tests
# go to a second list that runs after the pool, one at a time. The summary keeps the order of `run`.
pooled=() alone=()
while IFS=$'\t' read -r _ t; do
  if run_alone "$t"; then alone+=("$t"); else pooled+=("$t"); fi
done < <(for i in "${!run[@]}"; do
           own=$(own_limit "${run[$i]}")
           printf '%010d %06d\t%s\n' "$((1000000000 - ${own:-0}))" "$i" "${run[$i]}"
         done | sort | cut -d' ' -f2-)

if [ $list_only -eq 1 ]; then
  for t in "${pooled[@]}" "${alone[@]}"; do
    lim=$(time_limit "$t") note=
    [ "$lim" -gt "$limit" ] && note=" ($lim s limit)"
    [ $full_sizes -eq 0 ] && [ -n "$(own_sizes "$t")" ] && note="$note ($(own_sizes "$t"))"
    run_alone "$t" && note="$note (alone, after the others)"
    emulated_clock "$t" && note="$note (--clock=emulated)"
    printf 'run      %s%s\n' "$t" "$note"
  done
  for n in "${not_run[@]}"; do printf 'not run  %s: %s\n' "${n%%$'\t'*}" "${n#*$'\t'}"; done
  exit 0
fi

# The reduced work sizes (see the header), as VARIABLE=VALUE words for env; none with -F.
work_sizes="PAPI_VALIDATION_RUNS=3 PAPI_VALIDATION_MATRIX_SIZE=128 PAPI_TEST_NUM_FLOPS=2000000 PAPI_TEST_WORK_LOOPS=1"
[ $full_sizes -eq 1 ] && work_sizes=

keep=0
if [ -z "$outdir" ]; then outdir=$(mktemp -d /tmp/papi-tests.XXXXXX); else keep=1; mkdir -p "$outdir"; fi

# run_one SUITE/NAME: runs the test in its own directory (exec tests re-execute argv[0], exec_overflow looks for
# ./child_overflow) with its own high-level output directory, and writes "verdict<TAB>seconds" to its .result.
# OMP_WAIT_POLICY=passive: libgomp's threads otherwise spin while they wait for each other, and Valgrind runs one
# thread at a time, so a spinning thread burns its whole time slice before the one it waits for can run:
# ctests/omptough (100,000 parallel regions) took about 45 s per 1,000 regions (27 s under Valgrind's null tool)
# and 2.7 s with passive waiting (the whole test: 111 s, against some 75 minutes extrapolated). Idle threads sleep
# in the kernel instead of retiring spin-loop instructions; what PAPI's OpenMP tests check is PAPI's per-thread
# bookkeeping and each thread's own work.
run_one() {
  local t=$1 suite=${1%%/*} name=${1#*/} log="$outdir/${1//\//_}.log" start end status verdict lim sizes= clock
  lim=$(time_limit "$t")
  clock=--clock=host
  emulated_clock "$t" && clock=--clock=emulated
  # later words win: the test's own sizes override the defaults
  [ -n "$work_sizes" ] && sizes="$work_sizes $(own_sizes "$t")"
  start=$(date +%s%N)
  # timeout puts the test in a process group of its own; whatever of it outlives the test (ctests/attach_validate
  # leaves a stopped child behind when it skips) is killed with that group.
  (
    cd "$papi/$suite" || exit 2
    PATH="$papi/ctests:$PATH" PAPI_OUTPUT_DIRECTORY="$outdir/${t//\//_}.hl" OMP_WAIT_POLICY=passive env $sizes timeout --kill-after=20 "$lim" "$runner" $clock -- "./$name" TESTS_QUIET &
    group=$!
    wait $group
    status=$?
    kill -KILL -- "-$group" 2>/dev/null
    exit $status
  ) > "$log" 2>&1 < /dev/null
  status=$?
  end=$(date +%s%N)
  if [ $status -eq 124 ] || [ $status -eq 137 ]; then verdict=TIMEOUT
  elif grep -q 'FAILED' "$log"; then verdict=FAILED
  elif grep -q 'SKIPPED' "$log"; then verdict=SKIPPED
  elif grep -q 'PASSED' "$log" && [ $status -eq 0 ]; then verdict=PASSED
  else verdict="FAILED(status $status, no verdict)"
  fi
  printf '%s\t%s\n' "$verdict" "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')" \
    > "$outdir/${t//\//_}.result"
}
export -f run_one time_limit own_limit own_sizes emulated_clock listed
export outdir papi runner limit limits_file sizes_file clock_file work_sizes full_sizes

[ $i386 -eq 1 ] && echo "The 32-bit libpapi's test programs (i386, $papi)"
if [ $full_sizes -eq 1 ]; then
  echo "PAPI test suites under netburst-run at PAPI's full work sizes: ${#run[@]} tests, $jobs at a time, ${limit} s limit each, longer for those in tests/papi/time-limits.txt (logs: $outdir)"
else
  echo "PAPI test suites under netburst-run with fixed reduced work ($work_sizes): ${#run[@]} tests, $jobs at a time, ${limit} s limit each (logs: $outdir)"
fi
t0=$(date +%s)
write_list() { local f=$1; shift; : > "$f"; [ $# -eq 0 ] || printf '%s\n' "$@" > "$f"; }
write_list "$outdir/.tests" ${pooled[@]+"${pooled[@]}"}
write_list "$outdir/.tests-alone" ${alone[@]+"${alone[@]}"}
# run_all: the pooled tests JOBS at a time, then the run-alone tests one at a time.
run_all() {
  xargs -P "$jobs" -I{} bash -c 'run_one "$@"' _ {} < "$outdir/.tests"
  xargs -P 1 -I{} bash -c 'run_one "$@"' _ {} < "$outdir/.tests-alone"
}
export -f run_all
export jobs
# The tests run in a session of their own, so that stopping this script (Ctrl-C, or kill PID) stops them too.
setsid bash -c run_all &
pool=$!
trap 'kill -TERM -- -$pool 2>/dev/null; exit 130' INT TERM
wait $pool
trap - INT TERM
t1=$(date +%s)

passed=0 failed=0 skipped=0 unexpected=0 unexpected_meaningful=0 expected_failed=0 open_failed=0
for t in "${run[@]}"; do
  IFS=$'\t' read -r verdict secs < "$outdir/${t//\//_}.result"
  log="$outdir/${t//\//_}.log"
  case $verdict in
    PASSED) passed=$((passed + 1)); tag=PASS ;;
    SKIPPED) skipped=$((skipped + 1)); tag=SKIP ;;
    *) failed=$((failed + 1)); tag=FAIL ;;
  esac
  line=$(printf '%-5s %-40s %7s s' "$tag" "$t" "$secs")
  case $tag in
    SKIP) line="$line  $(grep -m1 -E 'Error|error' "$log" | sed 's/^[[:space:]]*//' | cut -c1-100)" ;;
    FAIL)
      line="$line  $verdict: $(grep -m1 -E 'Error|error|Segmentation|signal' "$log" | sed 's/^[[:space:]]*//' | cut -c1-90)"
      if ! meaningful "$t" && reason=$(expected_failure "$t"); then
        expected_failed=$((expected_failed + 1))
        line="$line"$'\n'"      expected: $reason"
      elif reason=$(open_failure "$t"); then
        open_failed=$((open_failed + 1))
        line="$line"$'\n'"      OPEN BUG (tests/papi/open-failures.txt): $reason"
      else
        unexpected=$((unexpected + 1))
        meaningful "$t" && unexpected_meaningful=$((unexpected_meaningful + 1))
        line="$line"$'\n'"      UNEXPECTED$(meaningful "$t" && echo ' (a test that may never fail)')"
      fi ;;
    PASS)
      if expected_failure "$t" > /dev/null; then
        line="$line  (listed as an expected failure: remove it from tests/papi/expected-failures.txt)"
      fi
      if open_failure "$t" > /dev/null; then
        line="$line  (listed as an open bug: remove it from tests/papi/open-failures.txt)"
      fi ;;
  esac
  echo "$line"
done
for n in "${not_run[@]}"; do
  skipped=$((skipped + 1))
  printf 'SKIP  %-40s %9s  not run: %s\n' "${n%%$'\t'*}" "" "${n#*$'\t'}"
done

echo "The ten slowest tests:"
for t in "${run[@]}"; do
  IFS=$'\t' read -r verdict secs < "$outdir/${t//\//_}.result"
  printf '%9s s  %-40s %s\n' "$secs" "$t" "$verdict"
done | sort -rn | head -n 10
echo "Total time: $((t1 - t0)) s"
echo "$passed passed, $failed failed, $skipped skipped"
echo "($expected_failed of the failures expected, with reasons in tests/papi/expected-failures.txt; $open_failed open bugs of tests that may never fail, in tests/papi/open-failures.txt; $unexpected unexpected)"
if [ $failed -eq 0 ] && [ $keep -eq 0 ]; then rm -rf "$outdir"; fi
if [ $gate_meaningful -eq 1 ]; then [ $unexpected_meaningful -eq 0 ]; else [ $unexpected -eq 0 ]; fi
