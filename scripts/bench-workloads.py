#!/usr/bin/env python3
"""The emulator's speed and memory against cachegrind on four workloads, pairwise.

For each workload it runs, in turn and PAIRS times (T S A D B, T S A D B, ...):
  T  netburst-run -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM -e PAPI_TOT_CYC   (the exact timing tier: cycles)
  S  the same with --timing=sampled                                               (the sampled tier, SMARTS)
  A  netburst-run --clock=host -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM      (the functional tier alone)
  D  the same without --clock=host     (the default: the functional tier, and the sampled units of the emulated
                                        clock, which needs cycles whenever no counter keeps every instruction timed)
  B  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes
on the same binary and input, and prints the median wall-time ratios T/B, S/B, A/B and D/B, each run's peak resident
memory (the process's maximum RSS from wait4, Valgrind and the tool together) with the median T/B memory ratio, for
the sampled tier the fraction of instructions it ran timed and its PAPI_TOT_CYC against the exact tier's (with the
half-width of its 99.7 % interval), for the default the fraction timed and the emulated clock at exit against the
exact tier's PAPI_TOT_CYC (with its interval), and the timing model's memo hit rate when netburst-run reports one. Runs
measured back to back keep the comparison fair on a machine whose speed drifts; the ratios are the figures, not the
seconds.

The workloads (doc/speed.md): examples/matmul.c (dense, 400x400 doubles, gcc -O2),
scripts/bench/chase.c (a pointer chase over 8 MB: misses to memory), gzip -6 on a fixed text (branchy integer code)
and scripts/bench/syscalls.c (a system call every few instructions).

With -p it also runs the timing tier once under --memo-probe=yes, untimed, and tables the hit rate a timing memo
would have (emulator/memo_probe.h: a hash-only prototype, measured before a memo is built).

Usage: scripts/bench-workloads.py [-b BUILD] [-n PAIRS] [-w WORKLOAD[,WORKLOAD...]] [-p]
"""
import argparse
import os
import re
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from workloads import TOP, build_workloads, measure  # noqa: E402

FUNCTIONAL = ["-e", "PAPI_TOT_INS", "-e", "PAPI_BR_MSP", "-e", "PAPI_L1_DCM"]
TIMING = FUNCTIONAL + ["-e", "PAPI_TOT_CYC"]
# Valgrind's verbosity 2 makes the tool print how many instructions ran in the timing tier.
SAMPLED = ["--timing=sampled", "--valgrind-option=-v", "--valgrind-option=-v"] + TIMING


def cycles(report):
    """PAPI_TOT_CYC and its half-width (0 when exact) from netburst-run's text report."""
    m = re.search(r"^\s*([0-9,]+)(?:\s+\u00b1\s+([0-9,]+))?[^\n]*PAPI_TOT_CYC", report, re.M)
    if not m:
        sys.exit("bench-workloads: no PAPI_TOT_CYC in:\n" + report[-2000:])
    return int(m.group(1).replace(",", "")), int((m.group(2) or "0").replace(",", ""))


def clock_at_exit(report):
    """The emulated clock's cycles at exit and the half-width of its interval (None: not bounded), from -v -v."""
    m = re.search(r"emulated clock at exit: (\d+) cycles(?:, 99.7 % interval \+- (\d+)| \(not bounded\))", report)
    if not m:
        sys.exit("bench-workloads: no 'emulated clock at exit' line in:\n" + report[-2000:])
    return int(m.group(1)), (int(m.group(2)) if m.group(2) is not None else None)


def timed_fraction(report):
    emulated = re.search(r"netburst: (\d+) guest instructions emulated", report)
    timed = re.search(r"netburst: (\d+) instructions in the timing tier", report)
    if not (emulated and timed):
        return float("nan")
    return int(timed.group(1)) / int(emulated.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-b", "--build", default=os.path.join(TOP, "build"))
    ap.add_argument("-n", "--pairs", type=int, default=3, help="runs of each of T, S, A, D and B per workload")
    ap.add_argument("-w", "--workloads", default="matmul,chase,gzip,syscalls")
    ap.add_argument("-p", "--probe", action="store_true",
                    help="also run the timing tier once with --memo-probe=yes (emulator/memo_probe.h), untimed, "
                         "for the hit rate a timing memo would have")
    o = ap.parse_args()
    run = os.path.join(o.build, "netburst-run")
    if not os.access(run, os.X_OK):
        sys.exit("bench-workloads: %s is missing: build first (./quickstart.sh test)" % run)
    work = tempfile.mkdtemp(prefix="bench-workloads.")
    workloads = build_workloads(work)
    cachegrind = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes",
                  "--cachegrind-out-file=/dev/null"]
    rows = []
    for name in o.workloads.split(","):
        if name not in workloads:
            sys.exit("bench-workloads: unknown workload %s (the workloads: %s)" % (name, ", ".join(workloads)))
        argv, stdin = workloads[name]
        t_argv, b_argv = [run] + TIMING + ["--"] + argv, cachegrind + argv
        a_argv = [run, "--clock=host"] + FUNCTIONAL + ["--"] + argv
        d_argv = [run, "--valgrind-option=-v", "--valgrind-option=-v"] + FUNCTIONAL + ["--"] + argv
        s_argv = [run] + SAMPLED + ["--"] + argv
        measure(b_argv, stdin)  # warm-up: the page cache, the dynamic loader's caches
        tb, sb, ab, db, mem, rss_t, rss_s, rss_b, hits = [], [], [], [], [], [], [], [], []
        for i in range(o.pairs):
            t, mt, err = measure(t_argv, stdin)
            sv, ms, serr = measure(s_argv, stdin)
            a, _, _ = measure(a_argv, stdin)
            d, _, derr = measure(d_argv, stdin)
            b, mb, _ = measure(b_argv, stdin)
            tb.append(t / b)
            sb.append(sv / b)
            ab.append(a / b)
            db.append(d / b)
            mem.append(mt / mb)
            rss_t.append(mt)
            rss_s.append(ms)
            rss_b.append(mb)
            m = re.search(r"memo hit rate ([0-9.]+) ?%", err)
            if m:
                hits.append(float(m.group(1)))
            print("%-8s run %d: T %.2f s  S %.2f s  A %.2f s  D %.2f s  B %.2f s   T/B %.2f  S/B %.2f  A/B %.2f  "
                  "D/B %.2f   RSS T %d MB  S %d MB  B %d MB" % (name, i + 1, t, sv, a, d, b, t / b, sv / b, a / b,
                                                              d / b, mt // 1024, ms // 1024, mb // 1024), flush=True)
        # The counts repeat run to run: the last pair's are the figures.
        exact, _ = cycles(err)
        estimate, half = cycles(serr)
        clock, clock_half = clock_at_exit(derr)
        if o.probe:  # the probe hashes the whole timing state per block: far slower, so not timed
            _, _, err = measure([run, "--valgrind-option=--memo-probe=yes"] + TIMING + ["--"] + argv, stdin)
            m = re.search(r"memo probe: .*", err)
            print("%-8s %s" % (name, m.group(0) if m else "(no probe line)"), flush=True)
            m = re.search(r"memo hit rate ([0-9.]+) ?%", err)
            if m:
                hits.append(float(m.group(1)))
        rows.append((name, statistics.median(tb), statistics.median(sb), statistics.median(ab), statistics.median(db),
                     100.0 * timed_fraction(serr), 100.0 * (estimate - exact) / exact, 100.0 * half / exact,
                     100.0 * timed_fraction(derr), 100.0 * (clock - exact) / exact,
                     "± %.2f %%" % (100.0 * clock_half / exact) if clock_half is not None else "not bounded",
                     max(rss_t) // 1024, max(rss_s) // 1024, max(rss_b) // 1024, statistics.median(mem),
                     "%.1f %%" % statistics.median(hits) if hits else "-"))
    print()
    print("| workload | exact tier T/B | sampled tier S/B | functional tier A/B | default D/B (functional, "
          "emulated clock) | sampled: timed instructions per "
          "program instruction (kernel paths included) | sampled: cycles "
          "against exact | sampled: 99.7 % interval | default: timed instructions | default: clock at exit against "
          "exact cycles | default: clock's 99.7 % interval | peak RSS T (MB) | peak RSS S (MB) | peak RSS B (MB) | "
          "memory T/B | memo hit rate |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %.2f | %.2f | %.2f | %.2f | %.1f %% | %+.2f %% | ± %.2f %% | %.1f %% | %+.2f %% | %s | %d | %d | "
              "%d | %.2f | %s |" % r)
    print("\nmedians of %d runs each; scripts/bench-workloads.py -n %d" % (o.pairs, o.pairs))


if __name__ == "__main__":
    main()
