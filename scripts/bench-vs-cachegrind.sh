#!/usr/bin/env bash
# The speed of the emulator under Valgrind against cachegrind, on the same binary: examples/matmul.c (a 400x400
# double matrix multiply, gcc -O2), run as
#   A: netburst-run -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM ./matmul
#   B: valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes ./matmul
# in turn (A B A B ...), and prints each pair's wall times, the ratio A/B of each pair and the median ratio.
# Pairs measured back to back keep the comparison fair on a machine whose speed drifts.
#
# Usage: scripts/bench-vs-cachegrind.sh [BUILD_DIR [PAIRS]]   (defaults: ./build, 5)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$top/build}" && pwd)
pairs=${2:-5}
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
B=(valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes --cachegrind-out-file=/dev/null ./matmul)

echo "A: ${A[*]}"
echo "B: ${B[*]}"
"${A[@]}" >/dev/null  # warm-up (and the counts, once)
"${B[@]}" >/dev/null 2>&1
ratios=()
for i in $(seq 1 "$pairs"); do
  a=$(seconds "${A[@]}")
  b=$(seconds "${B[@]}")
  r=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.4f", a / b }')
  ratios+=("$r")
  printf 'pair %d: A %.2f s  B %.2f s  A/B %.2f\n' "$i" "$a" "$b" "$r"
done
median=$(printf '%s\n' "${ratios[@]}" | sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2] + v[NR/2+1]) / 2}')
printf 'median wall-time ratio netburst-run / cachegrind: %.2f (issue 4 asks for at most 2.0)\n' "$median"
