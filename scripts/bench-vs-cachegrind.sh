#!/usr/bin/env bash
# The speed of the emulator under Valgrind against cachegrind, on the same binary: examples/matmul.c (a 400x400
# double matrix multiply, gcc -O2), run as
#   A: netburst-run -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM ./matmul
#   B: valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes ./matmul
# in turn (A B A B ...), and prints each pair's wall times, the ratio A/B of each pair and the median ratio.
# Pairs measured back to back keep the comparison fair on a machine whose speed drifts.
#
# A counts functional events only, so the emulator runs its functional tier (doc/emulator-model.md, "Tiers").
# Then the same with PAPI_TOT_CYC added (T: a counter of cycles makes the emulator simulate every cycle, the
# timing tier), against cachegrind again, for TIMING_PAIRS pairs (it is much slower; 0 skips it).
#
# Usage: scripts/bench-vs-cachegrind.sh [BUILD_DIR [PAIRS [TIMING_PAIRS]]]   (defaults: ./build, 5, 1)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
pairs=${2:-5}
timing_pairs=${3:-1}
run=$build/netburst-run
[ -x "$run" ] || { echo "bench-vs-cachegrind: $run is missing: build first (./quickstart.sh test)" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "bench-vs-cachegrind: valgrind is missing (Debian package 'valgrind')" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gcc -O2 -o "$work/matmul" "$top/examples/matmul.c"
cd "$work"

now() { date +%s.%N; }
# seconds COMMAND...: runs it with its output discarded and prints its wall time.
seconds() {
  local t0 t1
  t0=$(now)
  "$@" >/dev/null 2>&1
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'
}

A=("$run" -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM ./matmul)
T=("$run" -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM -e PAPI_TOT_CYC ./matmul)
B=(valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null ./matmul)

# pairs LABEL N COMMAND...: N pairs of COMMAND against B; prints them and sets `median`.
pairs() {
  local label=$1 n=$2 i a b r
  shift 2
  local ratios=()
  for i in $(seq 1 "$n"); do
    a=$(seconds "$@")
    b=$(seconds "${B[@]}")
    r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')
    ratios+=("$r")
    printf '%s pair %d: %s %.2f s  B %.2f s  %s/B %.2f\n' "$label" "$i" "$label" "$a" "$b" "$label" "$r"
  done
  median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}')
}

echo "A: ${A[*]}"
[ "$timing_pairs" -gt 0 ] && echo "T: ${T[*]}"
echo "B: ${B[*]}"
"${A[@]}" >/dev/null  # warm-up (and the counts, once)
"${B[@]}" >/dev/null 2>&1
pairs A "$pairs" "${A[@]}"
printf 'median wall-time ratio netburst-run / cachegrind, functional tier (A/B): %.2f (the target: at most 2.0)\n' "$median"
if [ "$timing_pairs" -gt 0 ]; then
  pairs T "$timing_pairs" "${T[@]}"
  printf 'median wall-time ratio netburst-run / cachegrind, timing tier (T/B): %.2f\n' "$median"
fi
