#!/usr/bin/env python3
"""Sprunt's Figure 5 and Table 1 (IEEE Micro 2002) on the emulated Pentium 4.

Runs examples/l1_miss under `netburst-run record`, once by the overflow interrupt (IEBS) and once by PEBS, both on
1stL_cache_load_miss_retired, reads the samples back with `perf script` (as a user would), and writes:

  doc/figures/l1_miss-figure5.svg  where the samples land, in instructions after the load that misses
  doc/figures/l1_miss-table1.svg   the PEBS samples' data addresses (Sprunt's EAX values)
  doc/sampling.md                  the tables between the "l1_miss results" markers, generated from the same runs

Usage: scripts/l1_miss-figures.py [-b BUILD] [--outer N] [--period P] [--no-doc]
Needs: a built tree (netburst-run, the tool), perf (linux-perf), objdump (binutils) and gnuplot (gnuplot-nox).
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EVENT = "1stL_cache_load_miss_retired"
BEGIN = "<!-- l1_miss results: begin (scripts/l1_miss-figures.py writes this part) -->"
END = "<!-- l1_miss results: end -->"


def run(args, **kw):
    return subprocess.run(args, check=True, text=True, capture_output=True, **kw)


def record(build, binary, event, period, outer, data, skid=None, model=None):
    args = [os.path.join(build, "netburst-run"), "record", "--no-progress", "-e", event, "-c", str(period),
            "-o", data]
    if skid is not None:
        args += ["--pmi-skid", str(skid)]
    if model is not None:
        args += ["--model", str(model)]
    summary = run(args + ["--", binary, str(outer)]).stderr
    exact = re.search(r"exact count ([0-9,]+)", summary)
    return int(exact.group(1).replace(",", "")) if exact else None


def default_skid(build):
    """The emulator's default delivery time of the interrupt, as netburst-run record's help states it."""
    usage = run([os.path.join(build, "netburst-run"), "record", "--help"]).stdout
    return int(re.search(r"default: the emulator's, (\d+)\)", usage).group(1))


def samples(data, precise=False):
    """(symbol, offset in it, data address or None) of every sample, from perf script (PEBS samples carry the data
    address). Offsets within the symbol do not depend on where the program was loaded."""
    fields = "ip,sym,symoff,addr" if precise else "ip,sym,symoff"
    out = run(["perf", "script", "-f", "-i", data, "-F", fields], env=dict(os.environ, PERF_CONFIG="/dev/null"))
    result = []
    for line in out.stdout.splitlines():
        words = line.split()
        addr = int(words.pop(0), 16) if precise and len(words) == 3 else None
        if len(words) != 2:
            continue
        m = re.fullmatch(r"(.+)\+0x([0-9a-f]+)", words[1])
        result.append((m.group(1), int(m.group(2), 16), addr) if m else (words[1], None, addr))
    return result


def walk_code(binary):
    """walk()'s instructions as offsets from its start, in order; the inner loop's first and last (the jne) and
    the target load, as indices."""
    text = run(["objdump", "-d", "--no-show-raw-insn", binary]).stdout
    m = re.search(r"\n([0-9a-f]+) <(walk(?:\.constprop\.\d+)?)>:\n(.*?)\n\n", text, re.S)
    start, name, body = int(m.group(1), 16), m.group(2), m.group(3)
    insns = []
    for line in body.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(\S+)\s*(.*)", line)
        if m:
            insns.append((int(m.group(1), 16), m.group(2), m.group(3)))
    target = next(i for i, (_, op, args) in enumerate(insns)
                  if op == "mov" and re.fullmatch(r"\((%r\w+)\),\1", args.strip()))
    branch = next(i for i in range(target, len(insns)) if insns[i][1] == "jne")
    top = int(insns[branch][2].split()[0], 16)
    first = next(i for i, insn in enumerate(insns) if insn[0] == top)
    return name, [a - start for a, _, _ in insns], first, branch, target


def distances(sample_list, code):
    """Instructions executed from the target load to each sample in walk(): along the inner loop (the skid may
    wrap round it), or on past its end into the outer loop."""
    name, offsets, first, branch, target = code
    index = {a: i for i, a in enumerate(offsets)}
    loop = branch - first + 1
    counts = collections.Counter()
    other = 0
    for sym, offset, _ in sample_list:
        i = index.get(offset) if sym == name else None
        if i is None:
            other += 1
        elif first <= i <= branch:
            counts[(i - target) % loop] += 1
        else:
            counts[branch - target + 1 + (i - branch - 1) % len(offsets)] += 1
    return counts, other


def gnuplot(script):
    subprocess.run(["gnuplot"], input=script, text=True, check=True)


# Sprunt's own numbers (IEEE Micro 2002, the text on Figure 5 and Table 1), drawn beside the emulator's.
PAPER_IEBS_FROM = 65      # "65 or more sequential instructions after the target instruction"
PAPER_IEBS_PEAK = 69      # "46.5 percent of all the IEBS samples identified a load instruction 69 instructions after"
PAPER_TABLE1 = [(102, 0x08049760), (88, 0x0804b760), (106, 0x0804d760), (102, 0x0804f760),
                (100, 0x08051760), (100, 0x08053760), (101, 0x08055760), (101, 0x08057760)]


def figure5(path, iebs, pebs, total_iebs, total_pebs):
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as f:
        for d in sorted(set(iebs) | set(pebs) | {0}):
            f.write("%d %.2f %.2f\n" % (d, 100.0 * pebs.get(d, 0) / max(total_pebs, 1),
                                        100.0 * iebs.get(d, 0) / max(total_iebs, 1)))
        dat = f.name
    last = max(list(iebs) + list(pebs) + [PAPER_IEBS_PEAK + 6])
    gnuplot(f"""
set terminal svg size 760,400 font "sans,12"
set termoption noenhanced
set output "{path}"
set title "l1_miss on the emulated Pentium 4: where the samples of 1stL_cache_load_miss_retired land"
set xlabel "instructions after the load that misses (+0: the load)"
set ylabel "samples (%)"
set yrange [0:115]
set xrange [-1:{last + 2}]
set object 1 rect from {PAPER_IEBS_FROM - 0.5}, graph 0 to {last + 2}, graph 1 fc rgb "#eeeeee" fs solid behind
set label 1 "Sprunt's IEBS samples: +{PAPER_IEBS_FROM} and beyond\\n(shaded), 46.5 % at +{PAPER_IEBS_PEAK} (arrow)" right at {PAPER_IEBS_FROM - 1}, 75
set arrow 1 from {PAPER_IEBS_PEAK}, 60 to {PAPER_IEBS_PEAK}, 46.5 lw 2
set style fill solid 0.8 border -1
set boxwidth 0.8
set key top center
plot "{dat}" using 1:2 with boxes title "PEBS (emulated)" lc rgb "#2a6fbb", \\
     "{dat}" using 1:3 with boxes title "IEBS (emulated: overflow interrupt, skid)" lc rgb "#d9822b"
""")
    os.unlink(dat)


def table1(path, addresses):
    emulated = sorted(addresses.items())
    with tempfile.NamedTemporaryFile("w", suffix=".dat", delete=False) as f:
        for k in range(max(len(emulated), len(PAPER_TABLE1))):
            paper = PAPER_TABLE1[k] if k < len(PAPER_TABLE1) else (0, 0)
            mine = emulated[k] if k < len(emulated) else (0, 0)
            f.write('"0x%x\\n0x%x" %d %d\n' % (paper[1], mine[0], paper[0], mine[1]))
        dat = f.name
    gnuplot(f"""
set terminal svg size 760,400 font "sans,12"
set termoption noenhanced
set output "{path}"
set title "l1_miss, PEBS: samples per data address (Sprunt's Table 1: EAX values; emulator: data addresses)"
set ylabel "samples"
set yrange [0:130]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set xtics font ",9"
set bmargin 4
set key top center
plot "{dat}" using 2:xtic(1) title "Sprunt (paper)" lc rgb "#999999", \\
     "{dat}" using 3 title "emulated Pentium 4" lc rgb "#2a6fbb"
""")
    os.unlink(dat)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-b", "--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--outer", type=int, default=100000, help="executions of the eight-iteration loop")
    ap.add_argument("--period", type=int, default=1001, help="events per sample (prime to the ring's 8)")
    ap.add_argument("--no-doc", action="store_true", help="only the figures, doc/sampling.md untouched")
    o = ap.parse_args()
    run(["make", "-C", o.build, "examples/l1_miss", "netburst-run", "nb-vgtool"])
    binary = os.path.join(o.build, "examples", "l1_miss")
    code = walk_code(binary)
    loop_length, target = code[3] - code[2] + 1, code[4] - code[2]
    work = tempfile.mkdtemp(prefix="l1_miss-figures.")

    exact = record(o.build, binary, EVENT, o.period, o.outer, os.path.join(work, "iebs.data"))
    iebs = samples(os.path.join(work, "iebs.data"))
    record(o.build, binary, EVENT + ":precise=1", o.period, o.outer, os.path.join(work, "pebs.data"))
    pebs = samples(os.path.join(work, "pebs.data"), precise=True)
    # The paper's period was a multiple of the ring's eight; on a deterministic machine that aliases.
    aliased_period = 8 * (o.period // 8)
    record(o.build, binary, EVENT + ":precise=1", aliased_period, o.outer, os.path.join(work, "aliased.data"))
    aliased = {a for sym, off, a in samples(os.path.join(work, "aliased.data"), precise=True) if sym == code[0]}

    d_iebs, other_iebs = distances(iebs, code)
    d_pebs, other_pebs = distances(pebs, code)
    n_iebs, n_pebs = sum(d_iebs.values()), sum(d_pebs.values())
    addresses = collections.Counter(a for sym, off, a in pebs if sym == code[0] and a is not None)

    # How the one skid parameter turns into instructions (a smaller run each), and the default on Prescott.
    skid_default = default_skid(o.build)
    sweep = []
    for skid in sorted({0, 20, 40, skid_default, 80}):
        data = os.path.join(work, "skid%d.data" % skid)
        record(o.build, binary, EVENT, o.period, max(o.outer // 10, 2000), data, skid=skid)
        d, _ = distances(samples(data), code)
        sweep.append((skid, d))
    data = os.path.join(work, "prescott.data")
    exact_prescott = record(o.build, binary, EVENT, o.period, max(o.outer // 10, 2000), data, model=4)
    d_prescott, _ = distances(samples(data), code)

    figures = os.path.join(TOP, "doc", "figures")
    os.makedirs(figures, exist_ok=True)
    figure5(os.path.join(figures, "l1_miss-figure5.svg"), d_iebs, d_pebs, n_iebs, n_pebs)
    table1(os.path.join(figures, "l1_miss-table1.svg"), addresses)

    lines = [BEGIN, "",
             "`scripts/l1_miss-figures.py --outer %d --period %d` (Northwood, model 2; the interrupt's delivery at "
             "its default of %d cycles). The exact count of %s is %s, %s of them the target loads; the inner loop of "
             "`walk` has %d instructions, the target load is its instruction %d (from 0)."
             % (o.outer, o.period, skid_default, EVENT, format(exact, ","), format(8 * o.outer, ","), loop_length, target), "",
             "![Figure 5 on the emulator](figures/l1_miss-figure5.svg)", "",
             "| sampling | samples in `walk` | on the load (+0) | where the rest land | samples elsewhere |",
             "|---|---|---|---|---|"]
    for name, d, n, other in (("PEBS", d_pebs, n_pebs, other_pebs), ("IEBS", d_iebs, n_iebs, other_iebs)):
        rest = ", ".join("+%d: %d (%.1f %%)" % (k, v, 100.0 * v / n) for k, v in sorted(d.items()) if k != 0) or "-"
        lines.append("| %s | %d | %d (%.1f %%) | %s | %d |" % (name, n, d.get(0, 0), 100.0 * d.get(0, 0) / max(n, 1),
                                                             rest, other))
    lines += ["", "![Table 1 on the emulator](figures/l1_miss-table1.svg)", "",
              "| PEBS samples | data address | from the previous |", "|---|---|---|"]
    previous = None
    for a in sorted(addresses):
        lines.append("| %d | 0x%x | %s |" % (addresses[a], a, "" if previous is None else "+0x%x" % (a - previous)))
        previous = a
    lines += ["", "With a period of %d (a multiple of eight, as the paper's 100,000), PEBS samples %d distinct "
              "address%s." % (aliased_period, len(aliased), "" if len(aliased) == 1 else "es"), "",
              "The interrupt's delivery time against where IEBS samples land (`--pmi-skid`, %d outer iterations "
              "each):" % max(o.outer // 10, 2000), "",
              "| `--pmi-skid` (cycles) | samples | instructions after the load |", "|---|---|---|"]
    for skid, d in sweep:
        n = sum(d.values())
        lines.append("| %d%s | %d | %s |" % (skid, " (default)" if skid == skid_default else "", n,
                                             ", ".join("+%d: %.0f %%" % (k, 100.0 * v / n) for k, v in sorted(d.items()))))
    n = sum(d_prescott.values())
    lines += ["", "The same smaller run on Prescott (model 4): an exact count of %s for %s target loads, %d IEBS "
              "samples in `walk`%s." % (format(exact_prescott, ","), format(8 * max(o.outer // 10, 2000), ","), n,
                                       "" if n == 0 else ", at " + ", ".join(
                                           "+%d: %.0f %%" % (k, 100.0 * v / n) for k, v in sorted(d_prescott.items()))),
              "", END]
    block = "\n".join(lines)
    print(block)
    if not o.no_doc:
        doc = os.path.join(TOP, "doc", "sampling.md")
        text = open(doc).read()
        if BEGIN not in text or END not in text:
            sys.exit("doc/sampling.md has no l1_miss results markers")
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
        open(doc, "w").write(text)


if __name__ == "__main__":
    main()
