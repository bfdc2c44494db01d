#!/usr/bin/env bash
# Counts of real programs under netburst-run, in the timing tier (PAPI_TOT_CYC is in every set), printed one
# count a line so that two builds can be compared with diff: a change that must not move any count (a refactoring
# of the core) shows an empty diff.
#
#   scripts/counts-snapshot.sh [-b BUILD] [-m "MODELS"] [-t TOOLDIR] > FILE
#     -b BUILD     the build directory holding netburst-run and examples/ (default: build)
#     -m "MODELS"  emulated models (default: "2 4")
#     -t TOOLDIR   run the Valgrind tool in TOOLDIR (NETBURST_VALGRIND_LIB) under BUILD's launcher. To compare
#                  two tools, copy each in turn into the same TOOLDIR: the guest's environment holds its path
#
# Runs are made repeatable as in scripts/invariance.sh: no ASLR (setarch -R), an empty environment, the emulated
# clock, fixed inputs in a fixed directory, and a new PID namespace when unshare can make one (root, or
# unprivileged user namespaces): PAPI builds /proc/PID paths, so papi_matmul's counts move with the number of
# digits of its process id. Without it the script says so, and papi_matmul's counts can differ between two
# snapshots of the same build. Each program runs once per event set.
set -euo pipefail
build=build
models="2 4"
tool=()
while getopts "b:m:t:h" opt; do
  case $opt in
    b) build=$OPTARG ;;
    m) models=$OPTARG ;;
    t) tool=("NETBURST_VALGRIND_LIB=$OPTARG") ;;
    *) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)
run=$build/netburst-run
[ -x "$run" ] || { echo "counts-snapshot: $run is missing: build first" >&2; exit 2; }

# A PID namespace with its own /proc, and fixed input text (scripts/repeatable-run.sh, which invariance.sh uses too).
. "$(dirname "$0")/repeatable-run.sh"
find_pid_namespace ||
  echo "counts-snapshot: no PID namespace (unshare): papi_matmul's counts depend on its process id" >&2

# The same directory every time: paths end up in what the programs read and print.
work=/tmp/netburst-counts-snapshot
rm -rf "$work"
mkdir -p "$work/dir/sub"
trap 'rm -rf "$work"' EXIT
for f in alpha beta gamma delta; do echo "$f" > "$work/dir/$f"; done
echo sub > "$work/dir/sub/file"
touch -d '2020-01-01 00:00:00 UTC' "$work/dir"/* "$work/dir/sub/file" "$work/dir"
# About 20 KB of text, the same every time.
fixed_text 4242 20000 > "$work/input.txt"

# Event sets: each holds PAPI_TOT_CYC (the timing tier) and what fits beside it on the counters.
sets=(
  "-e PAPI_TOT_CYC -e PAPI_TOT_INS -e PAPI_L1_DCM -e PAPI_BR_MSP -e PAPI_RES_STL -e PAPI_FP_INS"
  "-e PAPI_TOT_CYC -e uops_retired:NBOGUS:BOGUS -e uop_queue_writes:FROM_TC_BUILD:FROM_TC_DELIVER:FROM_ROM
   -e MOB_load_replay:NO_STA:NO_STD:PARTIAL_DATA:UNALGN_ADDR -e resource_stall:SBFULL -e memory_complete:LSC:SSC"
  "-e PAPI_TOT_CYC -e replay_event:NBOGUS -e branch_retired:MMNP:MMNM:MMTP:MMTM -e memory_cancel:64K_CONF
   -e load_port_replay -e store_port_replay -e page_walk_type:DTMISS:ITMISS"
  "-e PAPI_TOT_CYC -e 1stL_cache_load_miss_retired -e TC_deliver_mode:DD:DB:DI:BD:BB:BI
   -e instr_retired:NBOGUSNTAG -e x87_FP_uop -e global_power_events:RUNNING"
)

# The build's programs run from copies in $work/bin: a program's path is in its argv and its loader's work, so
# the same binary run from two build directories of other lengths counts differently.
mkdir -p "$work/bin"
for p in examples/matmul examples/papi_matmul examples/l1_miss; do
  [ -x "$build/$p" ] || { echo "counts-snapshot: $build/$p is missing: make -C $build ${p}" >&2; exit 2; }
  cp "$build/$p" "$work/bin/"
done
# papi_matmul finds this build's libpapi through its RUNPATH, a path of the build; a copy found first through
# LD_LIBRARY_PATH keeps the loader's work the same for every build directory. libpapi still holds the build's
# install prefix, which PAPI's start-up reads before the program's regions: compare papi_matmul's counts between
# builds in directories whose paths have the same length.
mkdir -p "$work/lib"
cp -L "$build"/papi/work/src/libpapi.so.7.0 "$work/lib/"
guests=$work/bin
for g in guest_loops guest_signals; do
  [ -x "$build/tests/integration/guests/$g" ] && cp "$build/tests/integration/guests/$g" "$work/bin/"
done

# The corpus: NAME COMMAND... (run in $work). papi_matmul programs the PMU itself: what it prints are the counts.
corpus=(
  "matmul $work/bin/matmul 48"
  "papi_matmul $work/bin/papi_matmul 48 8"
  "l1_miss $work/bin/l1_miss 2000"
  "gzip /usr/bin/gzip -9 -n -c input.txt"
  "ls /bin/ls -l --time-style=+%s dir dir/sub"
)
# The integration guests (x87, MMX, SSE, stores and loads; signals), when make check has built them.
if [ -x "$guests/guest_loops" ]; then
  for loop in int branches loads stores x87 sse_sd mmx simd_int; do
    corpus+=("guest_loops-$loop $guests/guest_loops $loop 5000")
  done
fi
# Signals and a fork: the synthetic kernel paths, privilege changes and serialising client requests.
[ -x "$guests/guest_signals" ] && corpus+=("guest_signals $guests/guest_signals")

for model in $models; do
  for line in "${corpus[@]}"; do
    name=${line%% *}
    cmd=${line#* }
    for i in "${!sets[@]}"; do
      report=$work/report
      status=0
      # shellcheck disable=SC2086 # cmd and the event set are lists of words
      (cd "$work" && env -i PATH=/usr/bin:/bin HOME="$work" LANG=C LD_LIBRARY_PATH="$work/lib" "${tool[@]}" \
         "${pid_namespace[@]}" setarch "$(uname -m)" -R "$run" --model="$model" --clock=emulated --no-progress \
         --valgrind-option=--vgdb=no -o "$report" ${sets[$i]} -- $cmd > "$work/stdout" 2> "$work/stderr") ||
        status=$?
      echo "== model $model, $name, set $i: exit $status, output $(cksum < "$work/stdout")"
      if [ "$name" = papi_matmul ]; then
        cat "$work/stdout"
        rm -f "$report"
        break
      fi
      if [ -f "$report" ]; then
        grep -E '^ +[0-9,]+ |not counted|unsupported' "$report" || cat "$report"
        rm -f "$report"
      else
        sed 's/^/stderr: /' "$work/stderr" | tail -5
      fi
    done
  done
done
