#!/usr/bin/env bash
# Invariance: the counts of a program under netburst-run must not depend on how Valgrind translated it
# (doc/emulator-valgrind.md). Runs a corpus of real programs four ways, with Valgrind's default optimisation,
# --vex-iropt-level=0, blocks of at most five instructions (--vex-guest-max-insns=5) and precise register updates
# at every instruction (--vex-iropt-register-updates=allregs-at-each-insn), and fails unless every count is
# identical across the four: cycles, instructions, loads, stores, mispredicted branches, L1 misses and replays in
# the report, and a checksum of what the program printed. The corpus has 32-bit (i386) programs too.
#
# Every run must repeat exactly, so that a difference can only come from the translation. What a program reads of
# the host is therefore held fixed:
#  - the clock: --clock=emulated, so rdtsc, clock_gettime and gettimeofday read the emulated core (PAPI's timers,
#    and the times the ctests print, which vfprintf formats digit by digit);
#  - the process ids, in a new PID namespace (PAPI builds /proc/PID paths and hashes thread ids);
#  - the address-space layout: no ASLR (setarch -R) and no vgdb shared-memory file (--vgdb=no), so that
#    /proc/self/maps, which PAPI parses, has the same text;
#  - /proc/cpuinfo, whose "cpu MHz" moves with the host's frequency, as one copy bind-mounted for every run;
#  - AT_RANDOM, which the tool fixes by default.
# That needs a mount and a PID namespace: root, or unprivileged user namespaces.
# Programs whose work depends on thread timing still cannot be judged this way (guest_threads' futex waits depend
# on the host's scheduling), nor PAPI tests that multiplex or sample: with --clock=emulated their CPU-time timers
# run on the emulated cycles and repeat from run to run, but the signal arrives at the program's next buffer flush
# (emulator/valgrind/nb_itimer.c), whose place depends on how Valgrind cut the blocks.
#
# Usage: scripts/invariance.sh [BUILD_DIR]   (default ./build; needs gzip and bzip2)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
run=$build/netburst-run
[ -x "$run" ] || { echo "invariance: $run is missing: build first (./quickstart.sh test)" >&2; exit 2; }
for tool in gzip bzip2 unshare setarch; do
  command -v "$tool" >/dev/null || { echo "invariance: $tool is missing (scripts/install-deps.sh)" >&2; exit 2; }
done
start=$(date +%s)

work=$(mktemp -d)
trap '[ -n "${INVARIANCE_KEEP:-}" ] || rm -rf "$work"' EXIT
guests=$build/tests/integration/guests
ctests=$build/papi/work/src/ctests

# hermetic COMMAND...: COMMAND in new mount and PID namespaces, with the fixed /proc/cpuinfo and without ASLR.
cat /proc/cpuinfo > "$work/cpuinfo"
. "$top/scripts/repeatable-run.sh"
find_pid_namespace || {
  echo "invariance: cannot create mount and PID namespaces (unshare): run as root, or enable unprivileged" \
       "user namespaces (sysctl kernel.unprivileged_userns_clone=1)" >&2; exit 2; }
hermetic() {
  "${pid_namespace[@]}" sh -c 'mount --bind "$0" /proc/cpuinfo && exec setarch "$(uname -m)" -R "$@"' \
    "$work/cpuinfo" "$@"
}

# Two event sets: loads and stores cannot be counted together (front-end tagging has one tag).
event_sets=("-e PAPI_TOT_CYC -e PAPI_TOT_INS -e PAPI_LD_INS -e PAPI_BR_MSP -e PAPI_L1_DCM -e replay_event:NBOGUS"
            "-e PAPI_SR_INS")
variants=(default
          --valgrind-option=--vex-iropt-level=0
          --valgrind-option=--vex-guest-max-insns=5
          --valgrind-option=--vex-iropt-register-updates=allregs-at-each-insn)

# The corpus: NAME COMMAND... per line (run in $work). Programs the build did not make are left out, with a note.
gcc -O2 -o "$work/matmul" "$top/examples/matmul.c"
corpus=("matmul ./matmul 60")
# 32-bit programs, which the tool's x86-linux build runs: the same product built with gcc -m32 (x87 arithmetic, as
# i386 code does by default) and with SSE2 (what -march=pentium4 makes), and the i386 loop guest.
if [ -x "$build/emulator/valgrind/lib/netburst-x86-linux" ] && gcc -m32 -O2 -o "$work/matmul32" \
     "$top/examples/matmul.c" 2>/dev/null; then
  gcc -m32 -O2 -march=pentium4 -mfpmath=sse -o "$work/matmul32-sse2" "$top/examples/matmul.c"
  corpus+=("matmul32-x87 ./matmul32 60" "matmul32-sse2 ./matmul32-sse2 60")
  [ -x "$guests/guest_adds32" ] && corpus+=("guest_adds32 $guests/guest_adds32 20000")
else
  echo "invariance: no netburst-x86-linux or no gcc -m32 (scripts/install-deps.sh): 32-bit programs left out" >&2
fi
if [ -d "$guests" ]; then
  for loop in int branches loads stores x87 sse_sd sse_ps mmx simd_int; do
    corpus+=("guest_loops-$loop $guests/guest_loops $loop 20000")
  done
  corpus+=("guest_loops-syscalls $guests/guest_loops syscalls 200"
           "guest_signals $guests/guest_signals"
           "guest_sweep-thrash $guests/guest_sweep thrash")
else
  echo "invariance: no integration guests in $guests (make check builds them): left out" >&2
fi
# About 30 KB of text, the same every time.
fixed_text 12345 30000 > "$work/input.txt"
corpus+=("gzip $(command -v gzip) -9 -n -c input.txt" "bzip2 $(command -v bzip2) -9 -c input.txt")
# PAPI's ctests, which program the PMU themselves and print what PAPI read: their output is part of the checksum.
# NUM_FLOPS is fixed small (patch 0004), and PAPI_TEST_WORK_LOOPS keeps do_stuff() from sizing itself by time.
export PAPI_TEST_NUM_FLOPS=200000 PAPI_TEST_WORK_LOOPS=1
if [ -x "$ctests/zero" ]; then
  for t in zero first low-level derived; do corpus+=("ctests-$t $ctests/$t"); done
else
  echo "invariance: no PAPI ctests in $ctests (./quickstart.sh test builds them): left out" >&2
fi

# One run: NAME VARIANT_INDEX. The reports of both event sets (counts only) and a checksum of what the program
# printed go to $work/NAME.VARIANT.
one() {
  local name=$1 v=$2 line cmd set out
  for line in "${corpus[@]}"; do [ "${line%% *}" = "$name" ] && cmd=${line#* }; done
  local variant=()
  [ "$v" -ne 0 ] && variant=("${variants[$v]}")
  local sets=(0 1)
  # PAPI programs the PMU itself in the ctests: netburst-run's own events are not counted there.
  [ "${name#ctests-}" != "$name" ] && sets=(0)
  for set in "${sets[@]}"; do
    out=$work/$name.$v.$set
    # shellcheck disable=SC2086 # cmd and the event set are lists of words
    (cd "$work" && hermetic "$run" --clock=emulated --valgrind-option=--vgdb=no "${variant[@]}" -o "$out.report" \
       ${event_sets[$set]} -- $cmd > "$out.stdout" 2> "$out.stderr") || echo "exit status $?" >> "$out.report"
    grep -E '^ +[0-9,]+ |not counted|emulated|exit status' "$out.report" || true
    cksum < "$out.stdout"
  done > "$work/$name.$v"
}
# Both cores: two runs at a time.
for line in "${corpus[@]}"; do
  for v in 0 1 2 3; do
    while [ "$(jobs -rp | wc -l)" -ge 2 ]; do wait -n || true; done
    one "${line%% *}" "$v" &
  done
done
wait

failed=0
for line in "${corpus[@]}"; do
  name=${line%% *}
  same=yes
  for v in 1 2 3; do
    if ! cmp -s "$work/$name.0" "$work/$name.$v"; then
      same=no
      failed=1
      echo "invariance: $name differs with ${variants[$v]}:" >&2
      diff "$work/$name.0" "$work/$name.$v" >&2 || true
    fi
  done
  cycles=$(awk '$2 == "PAPI_TOT_CYC" { print $1 }' "$work/$name.0")
  printf '%-24s %-3s  %s cycles\n' "$name" "$same" "${cycles:-(not counted)}"
done
echo "invariance: ${#corpus[@]} programs, 4 ways each, $(( $(date +%s) - start )) s"
if [ "$failed" -ne 0 ]; then
  echo "invariance: FAILED: counts depend on how Valgrind translated the program" >&2
  exit 1
fi
echo "invariance: every count identical"
