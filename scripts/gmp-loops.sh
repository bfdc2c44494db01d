#!/usr/bin/env bash
# The whole-loop suite (doc/fidelity.md, "Library loops"): GMP's mpn loops, hand-written assembly nobody here
# wrote, timed as a user would time them (a PAPI program under netburst-run) on the emulated 64-bit Pentium 4, and
# compared with the cycle figures GMP's authors measured on a real one (tests/fidelity/gmp/figures.tsv).
#
#   scripts/gmp-loops.sh [-b BUILD] [-m MODEL] [-p "P1 P2 ..."] [-o PAGE] [-s] [KERNEL...]
#     -b BUILD   the build directory: netburst-run and PAPI (default: build)
#     -m MODEL   the emulated model (default: 4, the Prescott core GMP's figures were measured on)
#     -p PADS    sizes in bytes of an environment variable each run gets, which moves the stack (default:
#                "0 100 1000"); the figures must not move with it
#     -o PAGE    the page whose "Library loops" section is regenerated (default: doc/fidelity.md; "-": none)
#     -s         strict: a loop on tests/fidelity/gmp/known-deviations.txt that now passes fails the run too
#     KERNEL...  only these kernels (no page)
#
# Two libraries run the same driver: Debian's libgmp10 (GMP's generic x86-64 code) and GMP built from Debian's
# source for pentium4 (scripts/build-gmp-pentium4.sh; the P4-tuned code). A loop fails when the model is more
# than 15 % off GMP's figure (for a range a-b: below 0.85a or above 1.15b), or when its figure moves with the
# environment by more than 1 % (or 0.05 cycles), unless it is a listed open gap (whose figure is off anyway; the
# page shows the spread beside the reason). The difference between the figures of the two halves of the
# range (64-160 and 160-256 limbs) is printed, not gated: the halves hold different random limbs, and loops that
# branch on the data (pentium4/aors_n.asm, divrem_1's quotient adjustment) take their branches differently. For every function both builds have a
# figure for, the speed-up of one code over the other must match GMP's within 15 % too. Exit status: 0 when every
# failure is on the known-deviations list, 1 otherwise, 2 for bad arguments or a missing build.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=build
model=4
pads="0 100 1000"
page=$top/doc/fidelity.md
strict=0
while getopts "b:m:p:o:sh" opt; do
  case $opt in
    b) build=$OPTARG ;;
    m) model=$OPTARG ;;
    p) pads=$OPTARG ;;
    o) page=$OPTARG ;;
    s) strict=1 ;;
    *) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
ids=("$@")
[ ${#ids[@]} -eq 0 ] || page=-

build=$(cd "$build" 2>/dev/null && pwd) || { echo "gmp-loops: no build directory $build" >&2; exit 2; }
run=$build/netburst-run
papi=$build/papi/work/src
if [ ! -x "$run" ] || [ ! -f "$papi/libpapi.a" ]; then
  echo "gmp-loops: $run or $papi/libpapi.a missing; build first (./quickstart.sh test)" >&2
  exit 2
fi
gmp=$top/tests/fidelity/gmp
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
start=$(date +%s)

# --- the two libraries and the driver --------------------------------------------------------------------------
"$top/scripts/build-gmp-pentium4.sh" -b "$build"
declare -A lib=(
  [debian]=$(dpkg -L libgmp10 2>/dev/null | grep '/libgmp\.so\.10$' | head -n1)
  [pentium4]=$build/gmp-pentium4/.libs/libgmp.so.10
)
[ -f "${lib[debian]}" ] || { echo "gmp-loops: Debian's libgmp.so.10 not found (apt-get install libgmp10)" >&2; exit 2; }
mkdir -p "$build/tests/fidelity"
driver=$build/tests/fidelity/gmp-loops
${CC:-cc} -O2 -Wall -Wextra -I"$papi" -o "$driver" "$gmp/gmp_loops.c" -L"$papi" -lpapi -Wl,-rpath,"$papi" -ldl

# --- measure: each library at each environment size -------------------------------------------------------------
read -r -a pad_list <<<"$pads"
for b in debian pentium4; do
  for p in "${pad_list[@]}"; do
    GMP_LOOPS_PAD=$(printf "%${p}s" "" | tr ' ' x) "$run" --model "$model" -- "$driver" "${lib[$b]}" "${ids[@]}" \
      >"$work/$b.$p" 2>"$work/$b.$p.err" ||
      { echo "gmp-loops: the driver on $b (environment +$p bytes) failed:" >&2; cat "$work/$b.$p.err" >&2; exit 2; }
    awk -v b="$b" -v p="$p" -F'\t' '{ print b "\t" p "\t" $0 }' "$work/$b.$p" >>"$work/all.tsv"
  done
done

# --- compare -----------------------------------------------------------------------------------------------------
# report.tsv: build, kernel, model, figure, error %, status (ok/FAIL/open/stale/absent), spread, file, row,
# column, reason.
awk -F'\t' -v first_pad="${pad_list[0]}" -v strict="$strict" -v wanted="${ids[*]}" '
  FILENAME ~ /known-deviations/ { if ($0 !~ /^#/ && NF >= 3) known[$1 "\t" $2] = $3; next }
  FILENAME ~ /figures/ {
    if ($0 ~ /^#/ || NF < 7) next
    key = $1 "\t" $2; order[++n] = key; fig[key] = $3; unit[key] = $4; file[key] = $5; row[key] = $6; col[key] = $7
    next
  }
  {
    key = $1 "\t" $3
    if ($4 == "absent") { absent[key] = 1; next }
    if ($2 == first_pad) { value[key] = $4; split($5, half, ","); halves[key] = half[2] - half[1] }
    # the layout spread: the figure in every environment
    sum[key] += $4; cnt[key] += 1
    if (!(key in minv) || $4 < minv[key]) minv[key] = $4
    if (!(key in maxv) || $4 > maxv[key]) maxv[key] = $4
  }
  END {
    split(wanted, w, " "); for (i in w) want[w[i]] = 1
    for (i = 1; i <= n; ++i) {
      key = order[i]; split(key, k, "\t")
      if (wanted != "" && !(k[2] in want)) continue
      reason = (key in known) ? known[key] : ""
      if (key in absent || !(key in value)) { printf "%s\t%s\t-\t%s\t-\tabsent\t-\t%s\t%s\t%s\t%s\t-\n", k[1], k[2], fig[key], file[key], row[key], col[key], reason; bad = 1; continue }
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
      printf "%s\t%s\t%.2f\t%s\t%+.0f %%\t%s\t%.3f\t%s\t%s\t%s\t%s\t%+.2f\n", k[1], k[2], v, f, err, st, spread, file[key], row[key], col[key], reason, halves[key]
    }
    exit bad
  }' "$gmp/known-deviations.txt" "$gmp/figures.tsv" "$work/all.tsv" >"$work/report.tsv" && status=0 || status=$?
[ $status -le 1 ] || { echo "gmp-loops: comparing failed" >&2; exit 2; }

# The speed-up of the P4-tuned code over the generic code, for every function with a figure in both builds.
awk -F'\t' '
  function mid(f,  r) { if (f ~ /-/) { split(f, r, "-"); return (r[1] + r[2]) / 2 } return f + 0 }
  $3 != "-" { model[$1, $2] = $3; fig[$1, $2] = mid($4); open[$1, $2] = ($6 == "open"); seen[$2] = 1 }
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
printf '%-8s %-17s %8s %8s %7s %7s  %s\n' build kernel model GMP error halves status
awk -F'\t' '{ printf "%-8s %-17s %8s %8s %7s %7s  %s%s\n", $1, $2, $3, $4, $5, $12, $6, ($11 == "" ? "" : ": " $11) }' "$work/report.tsv"
echo
printf '%-17s %8s %8s %7s  %s\n' "speed-up" GMP model error status
awk -F'\t' '{ printf "%-17s %8s %8s %7s  %s\n", $1, $2, $3, $4, $5 }' "$work/ratios.tsv"
summary=$(awk -F'\t' '{ c[$6]++ } END { printf "%d loops: %d ok, %d open gaps, %d failing, %d passing but listed, %d absent", NR, c["ok"], c["open"], c["FAIL"], c["stale"], c["absent"] }' "$work/report.tsv")
ratio_summary=$(awk -F'\t' '{ c[$5]++ } END { printf "%d speed-ups: %d within 15 %%, %d off through an open gap, %d failing", NR, c["ok"], c["open"], c["FAIL"] }' "$work/ratios.tsv")
echo
echo "gmp-loops: model $model: $summary; $ratio_summary ($(( $(date +%s) - start )) s)"

# --- the page ----------------------------------------------------------------------------------------------------
if [ "$page" != - ]; then
  {
    echo "<!-- library-loops:begin (generated by scripts/gmp-loops.sh; do not edit) -->"
    echo "## Library loops: GMP's mpn kernels on model $model"
    echo
    echo "Generated by \`scripts/gmp-loops.sh -b BUILD\` (CI runs it). GMP's authors timed each of their hand-written"
    echo "x86-64 loops on a real 64-bit Pentium 4 (a 3.4 GHz Nocona, Prescott core) and printed the figure at the head of"
    echo "its file; \`tests/fidelity/gmp/figures.tsv\` holds each one with its file, its row and what the column means."
    echo "The driver (\`tests/fidelity/gmp/gmp_loops.c\`) calls each kernel in two libraries, Debian's libgmp10 (GMP's"
    echo "generic x86-64 code) and GMP built from Debian's source for pentium4 (\`scripts/build-gmp-pentium4.sh\`, the"
    echo "P4-tuned code), under \`netburst-run --model $model\`, reading \`PAPI_TOT_CYC\` around calls on 64, 160 and 256"
    echo "limbs of random operands; the figure is the cycles between 64 and 256 limbs per limb, the fewest of ten"
    echo "calls. A loop fails more than 15 % off GMP's figure, or when its figure moves with the environment"
    echo "(+${pads// / +} bytes) by more than 1 % or 0.05 cycles. \"halves\": the figure of 160-256 limbs minus that of"
    echo "64-160 limbs, shown, not gated (the halves hold different random limbs, and some loops branch on the data)."
    echo "Open gaps and their reasons:"
    echo "\`tests/fidelity/gmp/known-deviations.txt\`."
    echo
    echo "- $summary"
    echo "- $ratio_summary"
    echo
    echo "| build | kernel | model | GMP | error | halves | status | file (GMP \`mpn/\`) | column used |"
    echo "|---|---|---:|---:|---:|---:|---|---|---|"
    awk -F'\t' '{
      st = $6; why = $11; gsub(/\|/, "\\|", why)
      if (st == "open") st = "open gap: " why
      else if (st == "stale") st = "passes, listed: " why
      else if (st == "FAIL" && why != "") st = "FAIL: " why
      printf "| %s | `%s` | %s | %s | %s | %s | %s | `%s` | %s |\n", $1, $2, $3, $4, $5, $12, st, $8, $10 }' "$work/report.tsv"
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
