#!/usr/bin/env bash
# The whole-loop suite (doc/fidelity.md, "Library loops"): GMP's mpn loops, hand-written assembly nobody here
# wrote, timed as a user would time them (a program reading the cycle counter under netburst-run) on the emulated
# Pentium 4, and compared with the cycle figures GMP's authors measured on a real one
# (tests/fidelity/gmp/figures.tsv): the x86-64 loops on model 4 (their figures are a 64-bit Prescott's), the i386
# loops on model 2 against their Northwood figures and on model 4 against their Prescott figures.
#
#   scripts/gmp-loops.sh [-b BUILD] [-a "64 32"] [-m MODEL] [-p "P1 P2 ..."] [-o PAGE] [-s] [KERNEL...]
#     -b BUILD   the build directory: netburst-run, netburst-events and (for the x86-64 loops) PAPI (default: build)
#     -a ABIS    which loops: 64 (x86-64, builds debian and pentium4), 32 (i386, builds debian32 and
#                pentium4-32), or both (default: "64 32"; the page is written only for both)
#     -m MODEL   only the rows of this emulated model (default: every row, each on the model its figure names)
#     -p PADS    sizes in bytes of an environment variable each run gets, which moves the stack (default:
#                "0 100 1000"); the figures must not move with it
#     -o PAGE    the page whose "Library loops" section is regenerated (default: doc/fidelity.md; "-": none)
#     -s         strict: a loop on tests/fidelity/gmp/known-deviations.txt that now passes fails the run too
#     KERNEL...  only these kernels (no page)
#
# Four libraries run the same driver (tests/fidelity/gmp/gmp_loops.c): Debian's libgmp10 (GMP's generic x86-64
# code) and GMP built from Debian's source for pentium4 (scripts/build-gmp-pentium4.sh; the P4-tuned code), and
# their i386 counterparts: Debian's i386 libgmp10 (a fat build, which picks GMP's pentium4 code by cpuid) and GMP
# built for pentium4 with ABI=32 (build-gmp-pentium4.sh -a 32). The x86-64 driver reads PAPI_TOT_CYC through
# PAPI; the i386 one through the emulator's client requests, writing the MSRs of PAPI_TOT_CYC's recipe as
# netburst-events encodes them, since PAPI's own footprint in a Northwood's 8 KiB L1 moves the model-2 figures
# with the environment (the head of gmp_loops.c says how much). Each library runs
# on each model its rows in figures.tsv name. A loop fails when the model is more than 15 % off GMP's figure (for
# a range a-b: below 0.85a or above 1.15b), or when its figure moves with the environment by more than 1 % (or
# 0.05 cycles), unless it is a listed open gap (whose figure is off anyway; the page shows the spread beside the
# reason). The difference between the figures of the two halves of the range (64-160 and 160-256 limbs) is
# printed, not gated: the halves hold different random limbs, and loops that branch on the data
# (pentium4/aors_n.asm, divrem_1's quotient adjustment) take their branches differently. For every function both
# x86-64 builds have a figure for, the speed-up of one code over the other must match GMP's within 15 % too. Exit
# status: 0 when every failure is on the known-deviations list, 1 otherwise, 2 for bad arguments or a missing
# build.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=build
abis="64 32"
only_model=
pads="0 100 1000"
page=$top/doc/fidelity.md
strict=0
while getopts "b:a:m:p:o:sh" opt; do
  case $opt in
    b) build=$OPTARG ;;
    a) abis=$OPTARG ;;
    m) only_model=$OPTARG ;;
    p) pads=$OPTARG ;;
    o) page=$OPTARG ;;
    s) strict=1 ;;
    *) sed -n '2,33p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
ids=("$@")
[ ${#ids[@]} -eq 0 ] && [ -z "$only_model" ] && [ "$abis" = "64 32" ] || page=-
want64=0 want32=0
for a in $abis; do
  case $a in
    64) want64=1 ;;
    32) want32=1 ;;
    *) echo "gmp-loops: -a takes 64, 32 or both, not $a" >&2; exit 2 ;;
  esac
done

build=$(cd "$build" 2>/dev/null && pwd) || { echo "gmp-loops: no build directory $build" >&2; exit 2; }
run=$build/netburst-run
papi=$build/papi/work/src
if [ ! -x "$run" ] || [ ! -x "$build/netburst-events" ] || { [ $want64 = 1 ] && [ ! -f "$papi/libpapi.a" ]; }; then
  echo "gmp-loops: $run, $build/netburst-events or $papi/libpapi.a missing; build first (./quickstart.sh test)" >&2
  exit 2
fi
gmp=$top/tests/fidelity/gmp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

# --- the libraries and the drivers -------------------------------------------------------------------------------
declare -A lib driver
builds=()
mkdir -p "$build/tests/fidelity"
if [ $want64 = 1 ]; then
  "$top/scripts/build-gmp-pentium4.sh" -b "$build"
  lib[debian]=$(dpkg -L "libgmp10:$(dpkg --print-architecture)" 2>/dev/null | grep '/libgmp\.so\.10$' | head -n1)
  lib[pentium4]=$build/gmp-pentium4/.libs/libgmp.so.10
  [ -f "${lib[debian]}" ] || { echo "gmp-loops: Debian's libgmp.so.10 not found (apt-get install libgmp10)" >&2; exit 2; }
  driver[64]=$build/tests/fidelity/gmp-loops
  ${CC:-cc} -O2 -Wall -Wextra -DGMP_LOOPS_PAPI -I"$papi" -o "${driver[64]}" "$gmp/gmp_loops.c" -L"$papi" -lpapi \
    -Wl,-rpath,"$papi" -ldl
  builds+=(debian pentium4)
fi
if [ $want32 = 1 ]; then
  "$top/scripts/build-gmp-pentium4.sh" -b "$build" -a 32
  lib[debian32]=$(dpkg -L libgmp10:i386 2>/dev/null | grep '/libgmp\.so\.10$' | head -n1)
  lib[pentium4-32]=$build/gmp-pentium4-32/.libs/libgmp.so.10
  [ -f "${lib[debian32]}" ] ||
    { echo "gmp-loops: Debian's i386 libgmp.so.10 not found (apt-get install libgmp-dev:i386)" >&2; exit 2; }
  # PAPI_TOT_CYC's recipe, in the user domain (PAPI's default, which the x86-64 driver counts in), as the
  # component's table encodes it: the MSR writes and the counter the i386 driver reads.
  recipe=$("$build/netburst-events" --presets | awk '$1 == "PAPI_TOT_CYC" { print $2 }')
  encoded=$("$build/netburst-events" --encode "$recipe:u" | tr -d ' \n')
  writes=$(sed 's/.*"writes":\[//; s/\].*//' <<<"$encoded" |
    grep -o '"msr":"[^"]*","name":"[^"]*","value":"[^"]*"' | sed 's/"msr":"\([^"]*\)".*"value":"\([^"]*\)"/\1=\2/' |
    paste -sd, -)
  counter=$(sed 's/.*"counter":\([0-9]*\).*/\1/' <<<"$encoded")
  [ -n "$writes" ] && [ -n "$counter" ] || { echo "gmp-loops: cannot encode $recipe:u ($encoded)" >&2; exit 2; }
  driver[32]=$build/tests/fidelity/gmp-loops-32
  ${CC:-cc} -m32 -O2 -Wall -Wextra -I"$top" -DGMP_LOOPS_WRITES="\"$writes\"" -DGMP_LOOPS_COUNTER="$counter" \
    -o "${driver[32]}" "$gmp/gmp_loops.c" -ldl
  builds+=(debian32 pentium4-32)
fi

# --- measure: each library on each model its figures name, at each environment size -------------------------------
read -r -a pad_list <<<"$pads"
for b in "${builds[@]}"; do
  abi=64; [[ $b == *32 ]] && abi=32
  for m in $(awk -F'\t' -v b="$b" -v only="$only_model" '!/^#/ && NF >= 8 && $1 == b && (only == "" || $2 == only) { print $2 }' \
      "$gmp/figures.tsv" | sort -u); do
    # the kernels with a figure for this library and model (those named on the command line, if any)
    mapfile -t kernels < <(awk -F'\t' -v b="$b" -v m="$m" -v wanted="${ids[*]}" '
      BEGIN { n = split(wanted, w, " "); for (i = 1; i <= n; ++i) want[w[i]] = 1 }
      !/^#/ && NF >= 8 && $1 == b && $2 == m && (wanted == "" || $3 in want) { print $3 }' "$gmp/figures.tsv")
    [ ${#kernels[@]} -gt 0 ] || continue
    for p in "${pad_list[@]}"; do
      out=$work/$b.$m.$p
      GMP_LOOPS_PAD=$(printf "%${p}s" "" | tr ' ' x) "$run" --model "$m" --no-64-bit-note -- "${driver[$abi]}" \
        "${lib[$b]}" "${kernels[@]}" >"$out" 2>"$out.err" ||
        { echo "gmp-loops: the driver on $b, model $m (environment +$p bytes) failed:" >&2; cat "$out.err" >&2; exit 2; }
      awk -v b="$b" -v m="$m" -v p="$p" -F'\t' '{ print b "\t" m "\t" p "\t" $0 }' "$out" >>"$work/all.tsv"
    done
  done
done
touch "$work/all.tsv"

# --- compare -----------------------------------------------------------------------------------------------------
# report.tsv: build, kernel, measured, figure, error %, status (ok/FAIL/open/stale/absent), spread, file, row,
# column, reason, halves, model.
awk -F'\t' -v first_pad="${pad_list[0]}" -v strict="$strict" -v wanted="${ids[*]}" -v builds="${builds[*]}" \
    -v only="$only_model" '
  FILENAME ~ /known-deviations/ { if ($0 !~ /^#/ && NF >= 4) known[$1 "\t" $2 "\t" $3] = $4; next }
  FILENAME ~ /figures/ {
    if ($0 ~ /^#/ || NF < 8) next
    key = $1 "\t" $2 "\t" $3; order[++n] = key; fig[key] = $4; unit[key] = $5; file[key] = $6; row[key] = $7
    col[key] = $8
    next
  }
  {
    key = $1 "\t" $2 "\t" $4
    if ($5 == "absent") { absent[key] = 1; next }
    if ($3 == first_pad) { value[key] = $5; split($6, half, ","); halves[key] = half[2] - half[1] }
    # the layout spread: the figure in every environment
    sum[key] += $5; cnt[key] += 1
    if (!(key in minv) || $5 < minv[key]) minv[key] = $5
    if (!(key in maxv) || $5 > maxv[key]) maxv[key] = $5
  }
  END {
    split(wanted, w, " "); for (i in w) want[w[i]] = 1
    split(builds, bl, " "); for (i in bl) run_build[bl[i]] = 1
    for (i = 1; i <= n; ++i) {
      key = order[i]; split(key, k, "\t")
      if (wanted != "" && !(k[3] in want)) continue
      if (!(k[1] in run_build) || (only != "" && k[2] != only)) continue
      reason = (key in known) ? known[key] : ""
      if (key in absent || !(key in value)) { printf "%s\t%s\t-\t%s\t-\tabsent\t-\t%s\t%s\t%s\t%s\t-\t%s\n", k[1], k[3], fig[key], file[key], row[key], col[key], reason, k[2]; bad = 1; continue }
      f = fig[key]; a = f; b = f
      if (f ~ /-/) { split(f, r, "-"); a = r[1] + 0; b = r[2] + 0 } else { a = f + 0; b = a }
      v = value[key] + 0
      err = (v < a) ? (v - a) / a * 100 : (v > b) ? (v - b) / b * 100 : 0
      spread = maxv[key] - minv[key]; mean = sum[key] / cnt[key]
      wide = spread > 0.05 && spread > 0.01 * mean
      off = err > 15 || err < -15
      st = off ? ((key in known) ? "open" : "FAIL") : ((key in known) ? "stale" : "ok")
      # A figure that moves with the layout fails, unless the loop is an open gap already (its reason says so).
      if (wide) {
        moved = sprintf("figure moves by %.3f cycles with the environment", spread)
        if (key in known) { st = "open"; reason = reason " (" moved ")" } else { st = "FAIL"; reason = moved }
      }
      if (st == "FAIL" || (st == "stale" && strict)) bad = 1
      printf "%s\t%s\t%.2f\t%s\t%+.0f %%\t%s\t%.3f\t%s\t%s\t%s\t%s\t%+.2f\t%s\n", k[1], k[3], v, f, err, st, spread, file[key], row[key], col[key], reason, halves[key], k[2]
    }
    exit bad
  }' "$gmp/known-deviations.txt" "$gmp/figures.tsv" "$work/all.tsv" >"$work/report.tsv" && status=0 || status=$?
[ $status -le 1 ] || { echo "gmp-loops: comparing failed" >&2; exit 2; }

# The speed-up of the P4-tuned code over the generic code, for every function with a figure in both x86-64 builds
# (Debian's i386 library runs the P4-tuned code itself: no speed-up to check).
awk -F'\t' '
  function mid(f,  r) { if (f ~ /-/) { split(f, r, "-"); return (r[1] + r[2]) / 2 } return f + 0 }
  $3 != "-" && ($1 == "debian" || $1 == "pentium4") {
    model[$1, $2] = $3; fig[$1, $2] = mid($4); open[$1, $2] = ($6 == "open"); seen[$2] = 1
  }
  END {
    for (k in seen) if (("debian", k) in model && ("pentium4", k) in model) {
      g = fig["debian", k] / fig["pentium4", k]; m = model["debian", k] / model["pentium4", k]
      err = (m - g) / g * 100
      # a speed-up off because one of its loops is an open gap is that gap, not a failure of its own
      st = (err <= 15 && err >= -15) ? "ok" : (open["debian", k] || open["pentium4", k]) ? "open" : "FAIL"
      printf "%s\t%.2f\t%.2f\t%+.0f %%\t%s\n", k, g, m, err, st
    }
  }' "$work/report.tsv" | sort >"$work/ratios.tsv"
ratio_fail=$(awk -F'\t' '$5 == "FAIL"' "$work/ratios.tsv" | wc -l)

# --- print -------------------------------------------------------------------------------------------------------
printf '%-11s %5s %-17s %8s %8s %7s %7s  %s\n' build model kernel measured GMP error halves status
awk -F'\t' '{ printf "%-11s %5s %-17s %8s %8s %7s %7s  %s%s\n", $1, $13, $2, $3, $4, $5, $12, $6, ($11 == "" ? "" : ": " $11) }' "$work/report.tsv"
echo
printf '%-17s %8s %8s %7s  %s\n' "speed-up" GMP model error status
awk -F'\t' '{ printf "%-17s %8s %8s %7s  %s\n", $1, $2, $3, $4, $5 }' "$work/ratios.tsv"
summary=$(awk -F'\t' '{ c[$6]++ } END { printf "%d loops: %d ok, %d open gaps, %d failing, %d passing but listed, %d absent", NR, c["ok"], c["open"], c["FAIL"], c["stale"], c["absent"] }' "$work/report.tsv")
ratio_summary=$(awk -F'\t' '{ c[$5]++ } END { printf "%d speed-ups: %d within 15 %%, %d off through an open gap, %d failing", NR, c["ok"], c["open"], c["FAIL"] }' "$work/ratios.tsv")
echo
echo "gmp-loops: $summary; $ratio_summary ($(( $(date +%s) - start )) s)"

# --- the page ----------------------------------------------------------------------------------------------------
if [ "$page" != - ]; then
  {
    echo "<!-- library-loops:begin (generated by scripts/gmp-loops.sh; do not edit) -->"
    echo "## Library loops: GMP's mpn kernels"
    echo
    echo "Generated by \`scripts/gmp-loops.sh -b BUILD\` (CI runs it). GMP's authors timed each of their hand-written"
    echo "x86-64 loops on a real 64-bit Pentium 4 (a 3.4 GHz Nocona, Prescott core), and their i386 loops on a"
    echo "Northwood and a Prescott, and printed the figures at the head of each file;"
    echo "\`tests/fidelity/gmp/figures.tsv\` holds each one with its file, its row, what the column means and the model"
    echo "it is compared on. The driver (\`tests/fidelity/gmp/gmp_loops.c\`) calls each kernel in four libraries:"
    echo "Debian's libgmp10 (GMP's generic x86-64 code) and GMP built from Debian's source for pentium4"
    echo "(\`scripts/build-gmp-pentium4.sh\`, the P4-tuned code), timed on model 4; Debian's i386 libgmp10"
    echo "(\`debian32\`, a fat build, which picks GMP's pentium4 code by the emulated cpuid) and GMP built for pentium4"
    echo "as i386 code (\`pentium4-32\`, \`build-gmp-pentium4.sh -a 32\`), timed on model 2 against the Northwood"
    echo "figures and on model 4 against the Prescott ones. It reads \`PAPI_TOT_CYC\` (the i386 driver the same counter"
    echo "through the emulator's client requests: PAPI's own footprint in a Northwood's 8 KiB L1 would move its figures"
    echo "with the environment) around calls on 64, 160 and 256 limbs"
    echo "of random operands (mul_basecase: 24x24, 32x32 and 40x40, per cross-product); the figure is the cycles between"
    echo "64 and 256 limbs per limb, the fewest of ten calls. A loop fails more than 15 % off GMP's figure, or when its"
    echo "figure moves with the environment"
    echo "(+${pads// / +} bytes) by more than 1 % or 0.05 cycles. \"halves\": the figure of 160-256 limbs minus that of"
    echo "64-160 limbs, shown, not gated (the halves hold different random limbs, and some loops branch on the data)."
    echo "Open gaps and their reasons:"
    echo "\`tests/fidelity/gmp/known-deviations.txt\`."
    echo
    echo "- $summary"
    echo "- $ratio_summary"
    echo
    echo "| build | model | kernel | measured | GMP | error | halves | status | file (GMP \`mpn/\`) | column used |"
    echo "|---|---:|---|---:|---:|---:|---:|---|---|---|"
    awk -F'\t' '{
      st = $6; why = $11; gsub(/\|/, "\\|", why)
      if (st == "open") st = "open gap: " why
      else if (st == "stale") st = "passes, listed: " why
      else if (st == "FAIL" && why != "") st = "FAIL: " why
      col = $10; gsub(/\|/, "\\|", col)
      printf "| %s | %s | `%s` | %s | %s | %s | %s | %s | `%s` | %s |\n", $1, $13, $2, $3, $4, $5, $12, st, $8, col }' "$work/report.tsv"
    echo
    echo "The speed-up of the P4-tuned code over the generic code, for each function both builds have a figure for:"
    echo
    echo "| function | GMP | model | error | status |"
    echo "|---|---:|---:|---:|---|"
    awk -F'\t' '{ printf "| `%s` | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5 }' "$work/ratios.tsv"
    echo "<!-- library-loops:end -->"
  } >"$work/section.md"
  if grep -q '<!-- library-loops:begin' "$page"; then
    awk -v section="$work/section.md" '
      /<!-- library-loops:begin/ { while ((getline line < section) > 0) print line; skip = 1; next }
      /<!-- library-loops:end -->/ { skip = 0; next }
      !skip' "$page" >"$work/page" && cat "$work/page" >"$page"
  else
    { echo; cat "$work/section.md"; } >>"$page"
  fi
  echo "gmp-loops: wrote the library-loops section of $page"
fi
[ "$ratio_fail" -eq 0 ] || { [ $status -ne 0 ] || echo "gmp-loops: $ratio_fail speed-ups off by more than 15 %" >&2; status=1; }
exit $status
