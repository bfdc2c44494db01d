#!/usr/bin/env bash
# Every program PAPI installs (PREFIX/bin/papi_*) under `netburst-run --model N --` on every emulated model, each
# with a time limit; fails naming the program, the model and whether it timed out or exited non-zero
# (doc/papi-tests.md, "PAPI's utilities").
#
#   scripts/papi-utilities.sh [-b BUILD] [-p PREFIX] [-m "MODELS"] [-t SECONDS] [-j JOBS] [-k] [PROGRAM...]
#     -b BUILD     the build directory holding netburst-run (default: build)
#     -p PREFIX    where `make install` put PAPI (default: BUILD/prefix)
#     -m "MODELS"  emulated models (default: "0 1 2 3 4 6", every model netburst-run offers)
#     -t SECONDS   the time limit of one run (default: 120)
#     -j JOBS      runs at a time (default: 2)
#     -k           list what would run, with the arguments, and exit
#     PROGRAM...   only these programs (names in PREFIX/bin)
#
# The programs are listed from PREFIX/bin, so a program a new PAPI installs is run without a change here. A
# program that needs arguments, or whose default work is sized for real hardware, gets them from args_for (and
# env_for) below; a script runs with the interpreter its first line names (python3 for a python that is not
# installed) and is skipped, saying so, when there is none. Prints a table of seconds, program by model, and each
# failure. The models are those of src/components/netburst/table/cpu_model.h.
set -euo pipefail
build=build prefix='' models="0 1 2 3 4 6" limit=120 jobs=2 list=0
usage() { sed -n '6,13p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
while getopts "b:p:m:t:j:kh" opt; do
  case $opt in
    b) build=$OPTARG ;;
    p) prefix=$OPTARG ;;
    m) models=$OPTARG ;;
    t) limit=$OPTARG ;;
    j) jobs=$OPTARG ;;
    k) list=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
build=$(cd "$build" && pwd)
prefix=${prefix:-$build/prefix}
run=$build/netburst-run
[ -x "$run" ] || { echo "papi-utilities: $run is missing: build first" >&2; exit 2; }
[ -d "$prefix/bin" ] || { echo "papi-utilities: no $prefix/bin: run make -C $build install first" >&2; exit 2; }

# args_for PROGRAM: the arguments a program runs with, one a line (none: its defaults).
args_for() {
  case $1 in
    # Events to add and count: without them it only says that none were given.
    papi_command_line) printf '%s\n' PAPI_TOT_INS PAPI_TOT_CYC ;;
    # It needs a kind and an event to find companions for.
    papi_event_chooser) printf '%s\n' PRESET PAPI_TOT_INS ;;
    # 1,000,000 timed iterations of 7 measurements by default, about 270 s of CPU on the emulator (doc/papi-tests.md):
    # 2,000 here, about 1 s.
    papi_cost) printf '%s\n' -t 2000 ;;
    # 1,000,000 calls per test, 5 tests, for each of 1 to 9 multiplexed events by default (45 million calls, about
    # 1.8 hours on the emulator): 100 here, still 1 to 9 events.
    papi_multiplex_cost) printf '%s\n' -t 100 ;;
    # PAPI's high-level output (PAPI_OUTPUT_DIRECTORY) of a program that measured a region: made below.
    papi_hl_output_writer.py) printf '%s\n' --source "$work/hl/papi_hl_output" ;;
  esac
}

# env_for PROGRAM: the environment a program runs with beyond the caller's, one VARIABLE=VALUE a line.
env_for() {
  case $1 in
    # It counts do_flops(NUM_FLOPS): 20 million iterations (200 million instructions, timed when PAPI_TOT_CYC
    # counts: 20 to 60 s) by default; patch 0004's variable makes that 2 million (doc/papi-tests.md).
    papi_command_line) echo PAPI_TEST_NUM_FLOPS=2000000 ;;
  esac
}

# interpreter_of FILE: how to run a script (nothing for a binary; "none: WHY" when it cannot be run).
interpreter_of() {
  local first interp
  head -c 2 "$1" | grep -q '^#!' || return 0
  first=$(head -n 1 "$1" | sed 's/^#![[:space:]]*//')
  interp=${first%% *}
  [ "$interp" = /usr/bin/env ] && interp=$(command -v "$(echo "$first" | awk '{print $2}')" || true)
  if [ -n "$interp" ] && [ -x "$interp" ]; then echo "$interp"; return; fi
  # Debian installs python3 only (no /usr/bin/python unless python-is-python3): PAPI's scripts are Python 3.
  # /usr/bin/python3 beside a missing /usr/bin/python before a python3 on PATH, which may be a wrapper
  # (pyenv's shim is a shell script, four times the emulator's time of python itself).
  case $first in
    *python*)
      if [ -x "${interp}3" ]; then echo "${interp}3"; return; fi
      if command -v python3 >/dev/null; then command -v python3; return; fi ;;
  esac
  echo "none: $first is not installed"
}

programs=()
if [ $# -gt 0 ]; then
  for p in "$@"; do [ -x "$prefix/bin/$p" ] || { echo "papi-utilities: no $prefix/bin/$p" >&2; exit 2; }; done
  programs=("$@")
else
  for f in "$prefix"/bin/papi_*; do [ -f "$f" ] && [ -x "$f" ] && programs+=("$(basename "$f")"); done
fi
[ ${#programs[@]} -gt 0 ] || { echo "papi-utilities: no papi_* programs in $prefix/bin" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/papi-utilities.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [ $list -eq 1 ]; then
  for p in "${programs[@]}"; do
    interp=$(interpreter_of "$prefix/bin/$p")
    mapfile -t a < <(args_for "$p")
    mapfile -t e < <(env_for "$p")
    printf '%-26s %s%s%s\n' "$p" "${e[*]:+${e[*]} }" "${interp:+$interp }" "${a[*]:-}"
  done
  exit 0
fi

# Input for the high-level output writer: PAPI's JSON from examples/papi_matmul.c, built against PREFIX.
for p in "${programs[@]}"; do
  [ "$p" = papi_hl_output_writer.py ] || continue
  if ! command -v cc >/dev/null || ! command -v pkg-config >/dev/null; then
    echo "papi-utilities: cc and pkg-config are needed to make $p's input" >&2; exit 1
  fi
  read -r -a papi_flags < <(PKG_CONFIG_PATH=$prefix/lib/pkgconfig pkg-config --cflags --libs papi)
  cc -O2 -o "$work/papi_matmul" "$(dirname "$0")/../examples/papi_matmul.c" "${papi_flags[@]}" \
    -Wl,-rpath,"$prefix/lib"
  PAPI_OUTPUT_DIRECTORY=$work/hl "$run" -- "$work/papi_matmul" 32 8 > "$work/hl.log" 2>&1 ||
    { cat "$work/hl.log"; echo "papi-utilities: papi_matmul failed: no input for $p" >&2; exit 1; }
done

# one PROGRAM MODEL: runs it in a directory of its own (papi_multiplex_cost writes .dat files into the current
# one) and writes "PROGRAM MODEL VERDICT SECONDS DETAIL" to its result file.
one() {
  local p=$1 model=$2 dir=$work/run.$1.$2 interp status=0 start verdict detail last
  mkdir -p "$dir"
  interp=$(interpreter_of "$prefix/bin/$p")
  mapfile -t a < <(args_for "$p")
  mapfile -t e < <(env_for "$p")
  local cmd=("$prefix/bin/$p")
  case $interp in
    none:*) echo "$p $model SKIP 0 ${interp#none: }" > "$dir/result"; return ;;
    ?*) cmd=("$interp" "$prefix/bin/$p") ;;
  esac
  start=$(date +%s.%N)
  (cd "$dir" && env ${e[@]+"${e[@]}"} timeout -k 10 "$limit" "$run" --model "$model" -- "${cmd[@]}" ${a[@]+"${a[@]}"} \
    < /dev/null > "$dir/out" 2> "$dir/err") || status=$?
  local secs
  secs=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { printf "%.1f", e - s }')
  if [ $status -eq 0 ]; then verdict=PASS detail=
  elif [ $status -eq 124 ] || [ $status -eq 137 ]; then verdict=TIMEOUT detail="no exit within $limit s"
  else
    verdict=FAIL detail="exit status $status"
    last=$(grep -v '^==' "$dir/err" | tail -n 1 | cut -c1-120 || true)
    [ -z "$last" ] || detail="$detail: $last"
  fi
  echo "$p $model $verdict $secs $detail" > "$dir/result"
}

total_start=$(date +%s)
running=0
for model in $models; do
  for p in "${programs[@]}"; do
    if [ "$running" -ge "$jobs" ]; then wait -n || true; running=$((running - 1)); fi
    echo "$p $model " >> "$work/planned"
    one "$p" "$model" &
    running=$((running + 1))
  done
done
wait

failures=0
printf '%-26s' program
for model in $models; do printf '%9s' "model $model"; done
echo
for p in "${programs[@]}"; do
  printf '%-26s' "$p"
  for model in $models; do
    f=$work/run.$p.$model/result
    if ! grep -qs "$p $model " "$work/planned"; then printf '%9s' -; continue; fi
    if [ ! -f "$f" ]; then
      printf '%9s' LOST; failures=$((failures + 1))
      echo "papi-utilities: $p on model $model left no verdict (the script's fault)" >> "$work/notes"; continue
    fi
    read -r _ _ verdict secs detail < "$f"
    case $verdict in
      PASS) printf '%9s' "$secs" ;;
      SKIP) printf '%9s' skip
            grep -qs "SKIP $p:" "$work/notes" || echo "papi-utilities: SKIP $p: $detail" >> "$work/notes" ;;
      *) printf '%9s' "$verdict"; failures=$((failures + 1))
         echo "papi-utilities: $verdict $p on model $model after $secs s: $detail" >> "$work/notes"
         sed 's/^/    /' "$work/run.$p.$model/err" | tail -n 5 >> "$work/notes" ;;
    esac
  done
  echo
done
[ -f "$work/notes" ] && cat "$work/notes" >&2
echo "papi-utilities: $failures failed; $(( $(date +%s) - total_start )) s in all (seconds per run above, $jobs at a time)"
[ $failures -eq 0 ]
