#!/usr/bin/env bash
# The SMT benchmarks of Sprunt's "Pentium 4 Performance-Monitoring Features" (IEEE Micro, 2002) as netburst-emu traces:
# writes the traces in the text form (doc/trace-format.md), replays each alone and as two copies on the two logical
# processors of one Hyper-Threaded model-2 core (two processes, as the paper ran them), and prints uops retired per
# cycle beside the paper's figures. doc/emulator-model.md ("Validation") discusses the results.
#
#   scripts/sprunt-benchmarks.sh [-b BUILD] [-o DIR]
#     -b BUILD  the build directory holding netburst-emu (default: build)
#     -o DIR    keep the traces in DIR (default: a temporary directory, removed at the end)
#
# Exit status 0 when every figure was produced (whatever its deviation: this prints, it does not judge), 1 when
# a replay failed, 2 for bad arguments.
set -euo pipefail

build=build
out=
while getopts "b:o:h" opt; do
  case $opt in
    b) build=$OPTARG ;;
    o) out=$OPTARG ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
  esac
done
emu="$build/netburst-emu"
if [ ! -x "$emu" ]; then
  echo "sprunt-benchmarks: $emu not found; build first (./quickstart.sh test, or make -C $build)" >&2
  exit 2
fi
if [ -z "$out" ]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

# fp_add_latency: "a long series of serially dependent floating-point adds". 16 dependent x87 adds per loop
# trip, closed by a counter decrement and a backward branch.
cat > "$out/fp_add_latency.trace" <<'EOF'
netburst-trace 1
repeat 2000 as o {
  repeat 16 as a {
    0x401000+2*a 2 X87Arith rd=x87 wr=x87
  }
  0x401020 1 IntAlu rd=ecx wr=ecx,flags
  0x401021 2 CondBranch taken=o!=1999 target=0x401000
}
EOF

# l1_miss as the SMT section describes it: "a steady stream of independent memory loads, all of which miss the
# L1 cache". The PEBS section's profile gives the addresses: eight, 8 KB apart from 0x08049760, visited by an
# eight-iteration loop run again and again; eight lines in one set of the 4-way L1 miss every time. Each trip
# loads into a register nothing reads, advances the pointer and counts down.
cat > "$out/l1_miss.trace" <<'EOF'
netburst-trace 1
repeat 4000 as o {
  0x4010f0 5 IntAlu wr=eax
  0x4010f5 5 IntAlu wr=ecx
  repeat 8 {
    0x401100 2 IntAlu ld=0x08049760+8192*i/4 rd=eax wr=ebx
    0x401102 5 IntAlu rd=eax wr=eax,flags
    0x401107 1 IntAlu rd=ecx wr=ecx,flags
    0x401108 2 CondBranch taken=i!=7 target=0x401100
  }
  0x40110a 1 IntAlu rd=edx wr=edx,flags
  0x40110b 2 CondBranch taken=o!=3999 target=0x4010f0
}
EOF

# l1_miss as the PEBS section describes it ("the l1_miss benchmark used previously in the IEBS and PEBS
# discussion"): only the target load `mov (%eax),%eax` at 0x80484c3 misses; it is "preceded and followed by
# large sequential blocks of loads that always hit the cache". The IEBS samples fell 65 to 69 or more
# instructions after the target, so the block after it has more than 69 loads; the block sizes and the data the
# blocks read are not given. Assumed here: 100 four-byte loads on each side, reading 400 consecutive bytes of a
# buffer after the array (the same linear addresses in both copies, as two runs of one binary have).
cat > "$out/l1_miss_pebs.trace" <<'EOF'
netburst-trace 1
repeat 500 as o {
  0x804838b 5 IntAlu wr=ebx
  0x8048390 5 IntAlu wr=edx
  repeat 8 {
    repeat 100 as k {
      0x8048395+3*k 3 IntAlu ld=0x0805a000+4*k/4 rd=esi wr=ecx
    }
    0x80484c1 2 IntAlu rd=ebx wr=eax
    0x80484c3 2 IntAlu ld=0x08049760+8192*i/4 rd=eax wr=eax
    repeat 100 as k {
      0x80484c5+3*k 3 IntAlu ld=0x0805a000+4*k/4 rd=esi wr=ecx
    }
    0x80485f1 6 IntAlu rd=ebx wr=ebx,flags
    0x80485f7 1 IntAlu rd=edx wr=edx,flags
    0x80485f8 2 CondBranch taken=i!=7 target=0x8048395
  }
  0x80485fa 1 IntAlu rd=edi wr=edi,flags
  0x80485fb 2 CondBranch taken=o!=499 target=0x804838b
}
EOF

# uops_per_cycle JSON: every logical processor's uops retired over the core's cycles.
uops_per_cycle() {
  awk '/"cycles":/ { gsub(/[^0-9]/, ""); c = $0 }
       /"uops_retired":/ { gsub(/[^0-9]/, ""); u += $0 }
       END { if (c == 0) exit 1; printf "%.3f", u / c }'
}
# deviation MODEL PAPER: signed percentage.
deviation() { awk -v m="$1" -v p="$2" 'BEGIN { printf "%+.0f %%", (m - p) / p * 100 }'; }

printf '%-16s %9s %-16s %9s %-16s\n' benchmark "paper 1T" "model 1T" "paper 2T" "model 2T"
while read -r name paper1 paper2; do
  trace="$out/$name.trace"
  one=$("$emu" replay "$trace" --timing --json | uops_per_cycle) || { echo "replay of $name failed" >&2; exit 1; }
  two=$("$emu" replay "$trace" "$trace" --timing --json | uops_per_cycle) || { echo "dual replay of $name failed" >&2; exit 1; }
  printf '%-16s %9s %-16s %9s %-16s\n' "$name" "$paper1" "$one ($(deviation "$one" "$paper1"))" \
    "$paper2" "$two ($(deviation "$two" "$paper2"))"
done <<'EOF'
fp_add_latency 0.21 0.41
l1_miss 1.23 0.65
l1_miss_pebs 1.23 0.65
EOF
echo "uops retired per cycle; 1T: one copy alone, 2T: two copies (two processes) on one Hyper-Threaded core."
