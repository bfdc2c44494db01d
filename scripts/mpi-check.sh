#!/usr/bin/env bash
# The MPI example (examples/stencil.c) under mpirun on localhost with 2 and 4 ranks, each rank on its own emulated
# Pentium 4 (doc/mpi.md). Checks that every rank wrote its files (PAPI's rank_NNNNNN.json, netburst-run's
# counts.RANK.json through -o counts.%r.json), that netburst-run merge reads both kinds, that netburst-run record
# -o perf.%r.data gives each rank a perf.data that perf report reads, and that each rank's instructions match its
# share of the grid (tests/mpi/check_stencil_ranks.cpp).
#
#   scripts/mpi-check.sh [-b BUILD_DIR]       (default: build; run after `make check` built the checker)
#
# The grid is 64 x 66 points: 66 rows give the 2 ranks 33 each and the 4 ranks 17, 17, 16 and 16, so that equal
# and unequal shares are both checked. 20 sweeps keep the whole check well under a minute on two cores.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build
while getopts "b:" opt; do
  case $opt in
    b) build=$OPTARG ;;
    *) echo "usage: $0 [-b BUILD_DIR]" >&2; exit 2 ;;
  esac
done
build=$(cd "$build" && pwd)
nx=64 ny=66 sweeps=20
# The fixed part of a sweep that does not scale with the rows (the update's call and loop set-up, about 24
# instructions) is 0.26% of the smallest strip's sweep (16 rows of about 593 instructions); PAPI's own allocations
# add a few dozen instructions per run. Measured spread: about 0.04%.
tolerance=0.003

for tool in mpicc mpirun; do
  command -v $tool >/dev/null ||
    { echo "mpi-check: $tool is missing (Debian: openmpi-bin, libopenmpi-dev)" >&2; exit 1; }
done
papi_src=$build/papi/work/src
[ -f "$papi_src/papi.h" ] || { echo "mpi-check: no PAPI build in $build (run ./quickstart.sh test first)" >&2; exit 1; }
make -C "$build" -s tests/mpi/check_stencil_ranks

work=$(mktemp -d "${TMPDIR:-/tmp}/mpi-check.XXXXXX")
trap 'rm -rf "$work"' EXIT
mpicc -O2 -fno-tree-vectorize -g -Wall -Wextra -I"$papi_src" -o "$work/stencil" examples/stencil.c \
  -L"$papi_src" -lpapi -Wl,-rpath,"$papi_src"

# --allow-run-as-root: CI runs as root. --oversubscribe: four ranks on two cores. LD_BIND_NOW: the dynamic linker
# resolves every symbol at start, not at a function's first call inside a measured region. HWLOC_COMPONENTS:
# OpenMPI's hwloc cannot read CPUID under Valgrind and says so once per rank; its other backends describe the machine.
mpi=(mpirun --allow-run-as-root --oversubscribe -x LD_BIND_NOW=1 -x HWLOC_COMPONENTS=-x86)

fail() { echo "mpi-check: $*" >&2; exit 1; }
dirs=()
for np in 2 4; do
  echo "== $np ranks: PAPI's high-level regions inside each rank"
  PAPI_EVENTS=PAPI_TOT_INS PAPI_OUTPUT_DIRECTORY=$work/papi-$np \
    "${mpi[@]}" -x PAPI_EVENTS -x PAPI_OUTPUT_DIRECTORY -np $np "$build/netburst-run" -- "$work/stencil" $nx $ny $sweeps
  echo "== $np ranks: netburst-run -e counting each whole rank"
  mkdir -p "$work/counts-$np"
  "${mpi[@]}" -np $np "$build/netburst-run" -e PAPI_TOT_INS -e PAPI_FP_INS --json -o "$work/counts-$np/counts.%r.json" \
    -- "$work/stencil" --no-papi $nx $ny $sweeps
  files=()
  for ((r = 0; r < np; r++)); do
    papi=$(printf '%s/papi-%d/papi_hl_output/rank_%06d.json' "$work" $np $r)
    ours=$work/counts-$np/counts.$r.json
    [ -s "$papi" ] || fail "$np ranks: PAPI wrote no $papi"
    [ -s "$ours" ] || fail "$np ranks: netburst-run wrote no $ours"
    files+=("$ours" "$papi")
  done
  "$build/netburst-run" merge "${files[@]}"
  merged=$("$build/netburst-run" merge --json "${files[@]}")
  # Both kinds on every rank: netburst-run's whole-program count and PAPI's region.
  for what in '"region": null,\s*"event": "PAPI_TOT_INS"' '"region": "sweep",\s*"event": "PAPI_TOT_INS"'; do
    tr -d '\n' <<<"$merged" | grep -Pq "$what" || fail "$np ranks: the merged JSON has no $what"
  done
  tr -d ' \n' <<<"$merged" | grep -q "\"ranks\":\[$(seq -s, 0 $((np - 1)))\]" ||
    fail "$np ranks: the merged ranks are not 0 to $((np - 1))"
  dirs+=("$work/papi-$np/papi_hl_output")
done

echo "== 2 ranks: netburst-run record -o perf.%r.data, one perf.data per rank that perf report reads"
mkdir -p "$work/record"
"${mpi[@]}" -np 2 "$build/netburst-run" record -q --no-progress -e PAPI_TOT_INS -c 20000 \
  -o "$work/record/perf.%r.data" -- "$work/stencil" --no-papi $nx $ny $sweeps
for r in 0 1; do
  data=$work/record/perf.$r.data
  [ -s "$data" ] || fail "record: rank $r wrote no $data"
  # The rank's own loop (sweep(), inlined into main at -O2) has samples, and perf resolves the symbol in the
  # rank's executable (most samples are MPI's start-up at this small size).
  report=$(perf report -i "$data" --stdio --sort dso,sym 2>/dev/null) || fail "record: perf report cannot read $data"
  grep -Eq 'stencil +\[\.\] main *$' <<<"$report" || fail "record: perf report of $data shows no samples in the stencil's main"
done
[ ! -e "$work/record/perf.data" ] || fail "record: a rank wrote perf.data instead of its own file"

echo "== Each rank's instructions against its share of the grid"
"$build/tests/mpi/check_stencil_ranks" $nx $ny $sweeps $tolerance "${dirs[@]}"
