#!/usr/bin/env bash
# The fidelity suite (doc/fidelity.md): small x86-64 kernels, one per instruction form and memory
# pattern (tests/fidelity/*.S), measured as a user would, by a PAPI program under netburst-run on each emulated
# model, and compared with real Pentium 4 figures (tests/fidelity/measured.tsv). The same kernels built as an i386
# program (gcc -m32) run the forms in 32-bit mode, as InstLatX86 measured them, against the same figures; forms
# with a 64-bit operand are left out of that run. Then Sprunt's fp_add_latency as real programs (x87 and SSE;
# single thread, two threads with --ht, two processes), reported beside the paper.
#
#   scripts/fidelity.sh [-b BUILD] [-m MODELS] [-w WIDTHS] [-n "N1 N2 ..."] [-p "P1 P2 ..."] [-o PAGE] [-s] [-V OPT] [ID...]
#     -b BUILD   the build directory: netburst-run and PAPI (default: build)
#     -m MODELS  comma-separated emulated models (default: 2,4)
#     -w WIDTHS  the programs: 64 (x86-64), 32 (i386) or 64,32 (default: 64,32); a 32-bit result's model is
#                written M/i386 (in tests/fidelity/known-deviations.txt too)
#     -n COUNTS  loop iterations of the measurements that are differenced, in increasing order (default:
#                "40 120 200"); the figure compared is between the first and the last
#     -p PADS    sizes in bytes of an environment variable the driver runs with, one run per size and model,
#                which moves the stack (default: "0 100 1000"); the figure compared is the first size's
#     -o PAGE    the generated page (default: doc/fidelity.md; "-" writes none)
#     -s         strict: a form on tests/fidelity/known-deviations.txt that now passes fails the run too
#     -V OPT     pass OPT to Valgrind (e.g. --vex-iropt-level=0); a diagnosis run: no page, no Sprunt
#     ID...      only these kernels (no page, no Sprunt)
#
# The i386 program counts PAPI_TOT_CYC through the 32-bit libpapi (build/papi32), as the 64-bit one through PAPI.
#
# A form fails when the model is off the measured figure by more than 15 %, or by more than 0.3 cycles for
# figures under 2 cycles. It fails too when its figure moves with the run or the layout: with three counts or
# more, the figures between each count and the next, at every environment size, must lie within 1 % of their
# mean, or within 0.05 cycles of each other (the spread check). Exit status: 0 when every failing form is on the
# known-deviations list and no spread is too wide, 1 when another fails (or, with -s, when a listed one passes),
# 2 for bad arguments or a missing build.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=build
models=2,4
widths=64,32
counts="40 120 200"
pads="0 100 1000"
page=$top/doc/fidelity.md
strict=0
vgopt=
while getopts "b:m:w:n:p:o:sV:h" opt; do
  case $opt in
    b) build=$OPTARG ;;
    m) models=$OPTARG ;;
    w) widths=$OPTARG ;;
    n) counts=$OPTARG ;;
    p) pads=$OPTARG ;;
    o) page=$OPTARG ;;
    s) strict=1 ;;
    V) vgopt=$OPTARG ;;
    *) sed -n '2,31p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
ids=("$@")
if [ -n "$vgopt" ] || [ ${#ids[@]} -gt 0 ]; then page=-; fi

build=$(cd "$build" 2>/dev/null && pwd) || { echo "fidelity: no build directory $build" >&2; exit 2; }
run="$build/netburst-run"
papi="$build/papi/work/src"
if [ ! -x "$run" ] || [ ! -f "$papi/libpapi.a" ]; then
  echo "fidelity: $run or $papi/libpapi.a missing; build first (./quickstart.sh test)" >&2
  exit 2
fi
fid=$top/tests/fidelity
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- build: the kernels and the driver, without PIE (32-bit pointer chases; tests/fidelity/mem.S) ---------------
out=$build/tests/fidelity
mkdir -p "$out"
cc=${CC:-cc}
"$cc" -O2 -no-pie -I"$papi" -I"$fid" -o "$out/fidelity-driver" "$fid/driver.c" "$fid"/int.S "$fid"/fp.S \
  "$fid"/simd.S "$fid"/mem.S -L"$papi" -lpapi -Wl,-rpath,"$papi"
"$cc" -O2 -pthread -o "$out/sprunt-fp-add" "$fid/sprunt_fp_add.c"
# The i386 build of the same kernels: kernel.inc gives them the mode's registers and addressing.
IFS=, read -r -a width_list <<<"$widths"
for w in "${width_list[@]}"; do
  case $w in
    64) ;;
    32) papi32=$build/papi32/work/src
        if ! "$cc" -m32 -O2 -no-pie -I"$papi32" -I"$fid" -o "$out/fidelity-driver-i386" \
           "$fid/driver.c" "$fid"/int.S "$fid"/fp.S "$fid"/simd.S "$fid"/mem.S -L"$papi32" -lpapi \
           -Wl,-rpath,"$papi32"; then
          echo "fidelity: $cc -m32 cannot build the i386 driver against $papi32 (the 32-bit libpapi: configure says" \
               "whether it builds; gcc-multilib, libc6-dev-i386, libhwloc15:i386: scripts/install-deps.sh)" >&2
          exit 2
        fi ;;
    *) echo "fidelity: -w takes 64, 32 or 64,32" >&2; exit 2 ;;
  esac
done

# --- measure: one run of the driver per model and environment size, side by side ----------------------------------
start=$(date +%s)
IFS=, read -r -a model_list <<<"$models"
read -r -a pad_list <<<"$pads"
[ ${#pad_list[@]} -gt 0 ] || { echo "fidelity: -p needs at least one size" >&2; exit 2; }
vg=()
[ -n "$vgopt" ] && vg=(--valgrind-option "$vgopt")
# Variants: the model, and the model's i386 run as M/i386 (files: model2.pad0.tsv, model2-i386.pad0.tsv).
variants=()
for m in "${model_list[@]}"; do
  for w in "${width_list[@]}"; do
    if [ "$w" = 64 ]; then variants+=("$m"); else variants+=("$m/i386"); fi
  done
done
file_of() { echo "model${1/\//-}"; }
pids=()
runs=()
for v in "${variants[@]}"; do
  m=${v%%/*}
  driver=$out/fidelity-driver
  [ "$v" = "$m" ] || driver=$out/fidelity-driver-i386
  f=$(file_of "$v")
  for p in "${pad_list[@]}"; do
    # FIDELITY_PAD: p bytes more of environment, so the stack starts p bytes (rounded) lower.
    FIDELITY_PAD=$(printf "%${p}s" "" | tr ' ' x) "$run" --model "$m" --no-64-bit-note "${vg[@]}" -- "$driver" \
      -n $counts "${ids[@]}" >"$work/$f.pad$p.tsv" 2>"$work/$f.pad$p.err" &
    pids+=($!)
    runs+=("model $v, environment +$p bytes")
  done
done
# Each run waited for by its own pid, so that a failure names its run and exit status.
status=0
for i in "${!pids[@]}"; do
  code=0
  wait "${pids[$i]}" || code=$?
  if [ $code -ne 0 ]; then
    echo "fidelity: the driver on ${runs[$i]} exited with status $code" >&2
    status=1
  fi
done
for v in "${variants[@]}"; do
  f=$(file_of "$v")
  for p in "${pad_list[@]}"; do
    if [ ! -s "$work/$f.pad$p.tsv" ]; then
      echo "fidelity: the driver produced nothing on model $v (environment +$p bytes):" >&2
      cat "$work/$f.pad$p.err" >&2; exit 2
    fi
  done
  cp "$work/$f.pad${pad_list[0]}.tsv" "$work/$f.tsv"
done
[ $status -eq 0 ] || { echo "fidelity: a driver run failed" >&2; cat "$work"/model*.err >&2; exit 2; }

# --- compare ----------------------------------------------------------------------------------------------------
# rows: model id kind value text -> judged against measured.tsv and known-deviations.txt
for v in "${variants[@]}"; do awk -v m="$v" -F'\t' '{ print m "\t" $0 }' "$work/$(file_of "$v").tsv"; done >"$work/results.tsv"
export FID_MODELS=$(IFS=,; echo "${variants[*]}")
awk -F'\t' -v strict=$strict -v report="$work/report.tsv" '
  FILENAME ~ /measured.tsv$/ { if ($0 ~ /^#/ || NF < 5) next; k = $1 SUBSEP $2 SUBSEP $3
                               meas[k] = $4; src[k] = $5; note[k] = $6; next }
  FILENAME ~ /known-deviations.txt$/ { if ($0 ~ /^#/ || NF < 4) next; k = $1 SUBSEP $2 SUBSEP $3
                                       known[k] = $4; next }
  {
    m = $1; id = $2; kind = $3; v = $4; text = $5; k = id SUBSEP kind SUBSEP m; seen[k] = 1
    # a 32-bit result (model M/i386) is judged against model M figures, and listed as M/i386
    base = m; sub(/\/.*/, "", base); mk = id SUBSEP kind SUBSEP base
    if (mk in meas) { meas[k] = meas[mk]; src[k] = src[mk]; note[k] = note[mk] }
    # Fewer registers, fewer chains: a throughput kernel whose copies read their destination runs at no less than
    # latency / chains per copy. Where that bound is above the measured figure, the chains and not the form
    # limit the kernel.
    chain_note = ""
    if (kind == "tput" && match(text, /\([0-9]+ chains\)/)) {
      nch = substr(text, RSTART + 1, RLENGTH - 9) + 0; lk = id SUBSEP "lat" SUBSEP base
      if ((lk in meas) && meas[lk] != "-" && (mk in meas) && meas[mk] != "-" && meas[lk] / nch > meas[mk] + 0.005)
        chain_note = sprintf("chain-bound: latency %s over %d chains is %.2f per copy, above the measured %s", \
                             meas[lk], nch, meas[lk] / nch, meas[mk])
    }
    if (!(k in meas) || meas[k] == "-") {
      status = "report"; err = ""; mv = (k in meas) ? "-" : "none"
      why = (k in meas) ? note[k] : "no measurement for this model"
    } else {
      mv = meas[k]; d = v - mv; ad = d < 0 ? -d : d
      tol = mv < 2 ? 0.3 : 0.15 * mv
      err = sprintf("%+.0f %%", 100 * d / mv)
      if (ad <= tol) { status = (k in known) ? "stale" : "ok"; why = (k in known) ? known[k] : "" }
      else { status = (k in known) ? "open" : "FAIL"; why = (k in known) ? known[k] : "" }
    }
    if (chain_note != "") why = why (why == "" ? "" : "; ") chain_note
    counts[status]++
    if (status == "FAIL") failed = 1
    if (status == "stale" && strict) failed = 1
    printf "%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%s\t%s\n", m, id, kind, text, v, mv, err, status, \
      (k in src) ? src[k] : "", why > report
  }
  END {
    for (k in known) if (!(k in seen)) { split(k, p, SUBSEP)
      if (p[3] in models_run) print "fidelity: known deviation " p[1] " " p[2] " model " p[3] " has no kernel result" > "/dev/stderr" }
    exit failed
  }
  BEGIN { n = split(ENVIRON["FID_MODELS"], ml, ","); for (i = 1; i <= n; ++i) models_run[ml[i]] = 1 }
' "$fid/measured.tsv" "$fid/known-deviations.txt" "$work/results.tsv" || status=1

printf '%-5s %-20s %-4s %9s %9s %7s  %s\n' model form kind model measured error status
awk -F'\t' '{ printf "%-5s %-20s %-4s %9s %9s %7s  %s%s\n", $1, $2, $3, $5, $6, $7, $8, \
  ($8 == "open" ? "" : ($8 == "stale" ? " (passes now: remove it from tests/fidelity/known-deviations.txt)" : \
  ($8 == "FAIL" ? " (not on tests/fidelity/known-deviations.txt)" : ""))) }' "$work/report.tsv"
# The 32-bit program beside the 64-bit one: the forms it leaves out, and the forms whose two figures differ by more
# than the tolerance (scripts/fidelity.sh's, taken around the 64-bit figure).
twins=
twin_diffs=
: >"$work/only64.tsv"
if [ -n "$(awk -F'\t' '$1 ~ /\/i386$/ { print; exit }' "$work/report.tsv")" ]; then
  twins=1
  m0=${model_list[0]}
  awk -F'\t' -v m="$m0" '$1 == m "/i386" { has[$2 SUBSEP $3] = 1; next }
    $1 == m && !(($2 SUBSEP $3) in has) { print $2 "\t" $3 }' <(grep -P "^$m0/i386\t" "$work/report.tsv") \
    "$work/report.tsv" >"$work/only64.tsv"
  twin_diffs=$(awk -F'\t' '$1 ~ /\/i386$/ { b = $1; sub(/\/.*/, "", b); v32[b SUBSEP $2 SUBSEP $3] = $5; next }
    { k = $1 SUBSEP $2 SUBSEP $3; if (k in v32) { d = v32[k] - $5; ad = d < 0 ? -d : d; tol = $5 < 2 ? 0.3 : 0.15 * $5
        if (ad > tol) printf "%smodel %s `%s` %s: %.2f in 32-bit mode, %.2f in 64-bit mode", (n++ ? "; " : ""), $1, $2, $3, v32[k], $5 } }' \
    <(grep -P "/i386\t" "$work/report.tsv") <(grep -vP "/i386\t" "$work/report.tsv"))
  echo "32-bit program: left out (64-bit operands): $(cut -f1,2 "$work/only64.tsv" | tr '\t\n' ' ,' | sed 's/,$//; s/,/, /g')"
  echo "32-bit and 64-bit figures apart by more than the tolerance: ${twin_diffs:-none}"
fi
summary=$(awk -F'\t' '{ c[$1 " " $8]++; m[$1] = 1 }
  END { for (x in m) { printf "model %s: %d ok, %d open gaps, %d failing, %d passing but listed, %d report only\n", x, \
        c[x " ok"], c[x " open"], c[x " FAIL"], c[x " stale"], c[x " report"] } }' "$work/report.tsv" | sort)
echo "$summary"

# --- spread: one figure whatever the run length and the layout ----------------------------------------------------
# The driver's figures between each count and the next (its last column), at every environment size: a model whose
# figure depends on how long it runs or where the stack is has a state the figure should not depend on.
spread_summary=
num_counts=$(wc -w <<<"$counts")
if [ "$num_counts" -ge 3 ]; then
  for v in "${variants[@]}"; do
    for p in "${pad_list[@]}"; do
      awk -F'\t' -v m="$v" -v p="$p" '{ print m "\t" p "\t" $1 "\t" $2 "\t" $5 }' "$work/$(file_of "$v").pad$p.tsv"
    done
  done >"$work/steps.tsv"
  : >"$work/spread.tsv"
  spread_summary=$(awk -F'\t' -v report="$work/spread.tsv" '
    { k = $1 SUBSEP $3 SUBSEP $4; n = split($5, f, ",")
      for (i = 1; i <= n; ++i) {
        v = f[i] + 0; sum[k] += v; cnt[k]++
        if (!(k in lo) || v < lo[k]) lo[k] = v
        if (!(k in hi) || v > hi[k]) hi[k] = v
      }
      figs[k] = figs[k] (figs[k] == "" ? "" : "  ") "+" $2 ": " $5 }
    END {
      for (k in lo) {
        split(k, q, SUBSEP); m = q[1]; mean = sum[k] / cnt[k]; w = hi[k] - lo[k]
        lim = 0.01 * (mean < 0 ? -mean : mean); if (lim < 0.05) lim = 0.05
        forms[m]++
        if (w > lim) { wide[m]++; printf "%s\t%s\t%s\t%.3f\t%s\n", m, q[2], q[3], w, figs[k] > report }
        if (!(m in worst) || w / lim > worst[m]) { worst[m] = w / lim; wname[m] = q[2] " " q[3]; wv[m] = w }
      }
      for (m in forms)
        printf "model %s: %d forms, %d with too wide a spread; the widest: %s, %.3f cycles (%.0f %% of its limit)\n", \
          m, forms[m], wide[m], wname[m], wv[m], 100 * worst[m]
    }' "$work/steps.tsv" | sort)
  echo
  echo "Spread over $num_counts counts ($counts) and ${#pad_list[@]} environment sizes (+${pads// / +} bytes):"
  echo "$spread_summary"
  if [ -s "$work/spread.tsv" ]; then
    status=1
    awk -F'\t' '{ printf "model %s %s %s: spread %.3f cycles (figures by environment size: %s)\n", $1, $2, $3, $4, $5 }' \
      "$work/spread.tsv" | sort
  fi
fi
kernel_seconds=$(( $(date +%s) - start ))

# --- Sprunt fp_add_latency as real programs ---------------------------------------------------------------------
# uops retired (non-bogus) per cycle of the loop: both counted from outside over the whole program, differenced
# between two trip counts so that start-up and exit cancel. --cpu-wide: one PMU counts both threads, so the cycles
# are the core's (two processes: each counts on its own PMU from the fork, and the counts are added).
sprunt() {  # sprunt ISA MODE HT -> uops per cycle
  local isa=$1 mode=$2 ht=$3 n u1 c1 u2 c2
  for n in 20000 60000; do
    "$run" --model 2 --no-64-bit-note $ht --cpu-wide --json -o "$work/sprunt.json" -e uops_retired:NBOGUS -e PAPI_TOT_CYC -- \
      "$out/sprunt-fp-add" "$isa" "$mode" $n >/dev/null
    awk -v n=$n '
      /"event": "uops_retired:NBOGUS"/ { e = "u" } /"event": "PAPI_TOT_CYC"/ { e = "c" }
      /"value":/ && e != "" { v = $0; sub(/.*"value": */, "", v); sub(/[^0-9].*/, "", v)
                              if (e == "u") u = v; else c = v }
      END { print u, c }' "$work/sprunt.json"
  done | awk 'NR == 1 { u1 = $1; c1 = $2 } NR == 2 { printf "%.3f", ($1 - u1) / ($2 - c1) }'
}
sprunt_rows=
if [ "$page" != - ]; then
  for isa in x87 sse; do
    one=$(sprunt $isa single "")
    thr=$(sprunt $isa threads --ht)
    pro=$(sprunt $isa processes --ht)
    sprunt_rows+="| $isa | 0.21 | $one | 0.41 | $thr | $pro |"$'\n'
  done
  echo
  echo "Sprunt fp_add_latency, uops retired per cycle (model 2): paper 1T 0.21, 2T 0.41"
  printf '%s' "$sprunt_rows"
fi

# --- the page ----------------------------------------------------------------------------------------------------
if [ "$page" != - ]; then
  # scripts/gmp-loops.sh owns the page's library-loops section; keep it as it is
  loops_section=$(sed -n '/<!-- library-loops:begin/,/<!-- library-loops:end -->/p' "$page" 2>/dev/null || true)
  {
    echo "# Fidelity: the emulator against real Pentium 4 measurements"
    echo
    echo "<!-- Generated by scripts/fidelity.sh; do not edit. -->"
    echo "Generated by \`scripts/fidelity.sh -b BUILD\` (\`make fidelity\`; CI runs it): do not edit by hand."
    echo "Kernels: \`tests/fidelity/*.S\`; real figures and their sources: \`tests/fidelity/measured.tsv\`;"
    echo "open gaps and their reasons: \`tests/fidelity/known-deviations.txt\`."
    echo
    echo "Each kernel is a loop of 16 copies of one instruction form (or 8 of a pair), in one dependency chain"
    echo "(\`lat\`: cycles per copy = latency) or as independent copies (\`tput\`: reciprocal throughput). A PAPI"
    echo "program runs every kernel under \`netburst-run --model N\` and reads \`PAPI_TOT_CYC\` around it at $counts"
    echo "iterations; the difference between the first and the last, divided by the copies, is the model's figure."
    echo "A form fails when it is more than 15 % off the measured figure (0.3 cycles for figures under 2 cycles)."
    echo "Status: **ok**; **open gap** (on the known-deviations list, with the reason); **FAIL** (off, and not on"
    echo "the list); **passes, listed** (the list should lose it); **report** (no measurement to compare with)."
    echo
    echo "$summary" | sed 's/^/- /'
    echo
    if [ -n "$spread_summary" ]; then
      echo "The program runs once per model with each of ${#pad_list[@]} environment sizes (a variable of +${pads// / +}"
      echo "bytes, which moves the stack), and the figure between each iteration count and the next must be the same"
      echo "in every run, within 1 % of their mean or 0.05 cycles: a figure that depends on how long the program"
      echo "runs, or on where its data lies, fails whatever the measured figure (the tables give the first size's)."
      echo
      echo "$spread_summary" | sed 's/^/- /'
      echo
    fi
    if [ -n "$twins" ]; then
      echo "### The 32-bit program"
      echo
      echo "The same kernels are built as an i386 program (\`gcc -m32\`) and run under the same models, as InstLatX86"
      echo "measured its 32-bit forms: in 32-bit mode, with the loop counter and pointers 32 bits wide and one-byte"
      echo "\`inc\`/\`dec\`. It counts \`PAPI_TOT_CYC\` through the 32-bit libpapi, as the 64-bit program through the"
      echo "64-bit one (\`tests/fidelity/driver.c\`). The tables give its"
      echo "figure beside the 64-bit program's, judged against the same measurement and tolerance; its known deviations"
      echo "are listed with the model written \`M/i386\`. Left out, by rule, are the forms with a 64-bit operand (their"
      echo "text names r64), which 32-bit mode does not have: $(awk -F'\t' '{ printf "%s`%s` %s", (NR > 1 ? ", " : ""), $1, $2 }' "$work/only64.tsv")."
      echo
      echo "32-bit mode has 6 general registers besides the stack pointer and 8 XMM registers, and \`%edi\` holds the"
      echo "loop counter: a throughput kernel rotates over 4 or 5 general registers (13 in 64-bit mode) or 7 XMM"
      echo "registers (15), and the text says how many chains it has where the form reads its destination. Such a"
      echo "kernel runs at no less than latency / chains per copy; where that bound is above the measured figure, the"
      echo "status says \"chain-bound\" (InstLatX86's 32-bit runs had the same registers)."
      echo
      echo "Where the two programs' figures differ by more than the tolerance: ${twin_diffs:-none}."
      echo
    fi
    for m in "${model_list[@]}"; do
      case $m in 2) name="Northwood (model 2), measured on a Pentium 4 2.80 GHz F/2/9";;
                 4) name="Prescott (model 4), measured on a Celeron D 2.53 GHz F/4/1 (64-bit forms: Pentium 4 3.20 GHz F/4/3)";;
                 *) name="model $m";; esac
      echo "## $name"
      echo
      if [ -n "$twins" ]; then
        echo "| form | kind | measured | 64-bit | error | status | 32-bit | error | status | source |"
        echo "|---|---|---:|---:|---:|---|---:|---:|---|---|"
      else
        echo "| form | kind | model | measured | error | status | source |"
        echo "|---|---|---:|---:|---:|---|---|"
      fi
      awk -F'\t' -v m="$m" -v twins="$twins" '
        function status(st, why) {
          gsub(/\|/, "\\|", why)
          if (st == "open") return "open gap: " why
          if (st == "stale") return "passes, listed: " why
          if (st == "report") return "report" (why == "" ? "" : ": " why)
          return st (why == "" ? "" : ": " why)
        }
        $1 == m "/i386" { k = $2 SUBSEP $3; v32[k] = $5; e32[k] = $7; s32[k] = status($8, $10); next }
        $1 == m { n++; row[n] = $0 }
        END {
          for (i = 1; i <= n; ++i) {
            split(row[i], f, "\t"); k = f[2] SUBSEP f[3]; src = f[9]; gsub(/\|/, "\\|", src)
            if (twins == "")
              printf "| `%s` %s | %s | %s | %s | %s | %s | %s |\n", f[2], f[4], f[3], f[5], f[6], f[7], status(f[8], f[10]), src
            else if (k in v32)
              printf "| `%s` %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", f[2], f[4], f[3], f[6], f[5], f[7], \
                status(f[8], f[10]), v32[k], e32[k], s32[k], src
            else
              printf "| `%s` %s | %s | %s | %s | %s | %s | | | 64-bit form | %s |\n", f[2], f[4], f[3], f[6], f[5], f[7], \
                status(f[8], f[10]), src
          }
        }' "$work/report.tsv"
      echo
    done
    echo "## Sprunt's fp_add_latency as real programs"
    echo
    echo "\`tests/fidelity/sprunt_fp_add.c\`: 16 serially dependent adds per loop trip (x87 \`fadd\`, or SSE2"
    echo "\`addsd\`), closed by a decrement and a branch, as the paper describes the benchmark (\"a long series of"
    echo "serially dependent floating-point adds\"). Uops retired (\`uops_retired:NBOGUS\`) per cycle"
    echo "(\`PAPI_TOT_CYC\`), counted by \`netburst-run -e\` over the whole program and differenced between 20,000 and"
    echo "60,000 trips, with \`--cpu-wide\` (one PMU for both threads: the core's cycles; two processes each count"
    echo "from the fork and the counts are added). Model 2; report only, no gate. The paper measured a Pentium 4 Xeon"
    echo "(Sprunt, IEEE Micro 2002)."
    echo
    echo "| adds | paper 1T | single thread | paper 2T | two threads (\`--ht\`) | two processes (\`--ht\`) |"
    echo "|---|---:|---:|---:|---:|---:|"
    printf '%s' "$sprunt_rows"
    echo
    echo "With \`--ht\`, guest thread *n* runs on logical processor (*n* - 1) mod 2, so two threads of one process use"
    echo "both logical processors, while a forked process is thread 1 of its own process and shares logical processor"
    echo "0 with its parent (doc/emulator-valgrind.md, \"Threads, fork, exec\"): the two-process run is not the"
    echo "paper's two-copies-on-two-logical-processors set-up, and shows one logical processor's throughput. The"
    echo "two-thread figure changes from run to run (x87 1.4 to 1.9, SSE 2.0 to 2.4 seen) with where Valgrind switches threads."
    echo "Every figure here is far above the paper's because the front end loses the adds' dependency under Valgrind's"
    echo "optimiser (the x87 and SSE add chains of the tables above)."
    if [ -n "$loops_section" ]; then echo; echo "$loops_section"; fi
  } >"$page"
  echo "fidelity: wrote $page"
fi
echo "fidelity: kernels measured in ${kernel_seconds}s; total $(( $(date +%s) - start ))s"
exit $status
