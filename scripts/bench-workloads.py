#!/usr/bin/env python3
"""The emulator's speed and memory against cachegrind on four workloads, pairwise.

For each workload it runs, in turn and PAIRS times (T A B, T A B, ...):
  T  netburst-run -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM -e PAPI_TOT_CYC   (the timing tier: cycles)
  A  netburst-run -e PAPI_TOT_INS -e PAPI_BR_MSP -e PAPI_L1_DCM                   (the functional tier)
  B  valgrind --tool=cachegrind --cache-sim=yes --branch-sim=yes
on the same binary and input, and prints the median wall-time ratios T/B and A/B, each run's peak resident memory
(the process's maximum RSS from wait4, Valgrind and the tool together) with the median T/B memory ratio, and the
timing model's memo hit rate when netburst-run reports one. Runs measured back to back keep the comparison fair on a
machine whose speed drifts; the ratios are the figures, not the seconds.

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
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FUNCTIONAL = ["-e", "PAPI_TOT_INS", "-e", "PAPI_BR_MSP", "-e", "PAPI_L1_DCM"]
TIMING = FUNCTIONAL + ["-e", "PAPI_TOT_CYC"]


def build_workloads(work):
    """name -> (argv, stdin path or None), compiled or generated in `work`."""
    def cc(source, name):
        out = os.path.join(work, name)
        subprocess.run(["gcc", "-O2", "-o", out, os.path.join(TOP, source)], check=True)
        return out
    text = os.path.join(work, "input.txt")
    with open(text, "w") as f:  # fixed text: 30,000 numbered lines, about 1.3 MB
        for i in range(30000):
            f.write("%d %x line %d of the fixed input\n" % (i, i * 2654435761 % 2**32, i))
    return {
        "matmul": ([cc("examples/matmul.c", "matmul")], None),
        "chase": ([cc("scripts/bench/chase.c", "chase"), "8", "2000000"], None),
        "gzip": (["gzip", "-6", "-c"], text),
        "syscalls": ([cc("scripts/bench/syscalls.c", "syscalls"), "100000"], None),
    }


def measure(argv, stdin):
    """Wall seconds, peak RSS in KB, and stderr of one run (stdout discarded)."""
    with open(stdin or os.devnull, "rb") as inp, tempfile.TemporaryFile() as err:
        start = time.monotonic()
        child = subprocess.Popen(argv, stdin=inp, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.monotonic() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode(errors="replace")
    if child.returncode != 0:
        sys.exit("bench-workloads: %s exited with %d:\n%s" % (" ".join(argv), child.returncode, text[-2000:]))
    return seconds, usage.ru_maxrss, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-b", "--build", default=os.path.join(TOP, "build"))
    ap.add_argument("-n", "--pairs", type=int, default=3, help="runs of each of T, A and B per workload")
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
        t_argv, a_argv, b_argv = [run] + TIMING + ["--"] + argv, [run] + FUNCTIONAL + ["--"] + argv, cachegrind + argv
        measure(b_argv, stdin)  # warm-up: the page cache, the dynamic loader's caches
        tb, ab, mem, rss_t, rss_b, hits = [], [], [], [], [], []
        for i in range(o.pairs):
            t, mt, err = measure(t_argv, stdin)
            a, _, _ = measure(a_argv, stdin)
            b, mb, _ = measure(b_argv, stdin)
            tb.append(t / b)
            ab.append(a / b)
            mem.append(mt / mb)
            rss_t.append(mt)
            rss_b.append(mb)
            m = re.search(r"memo hit rate ([0-9.]+) ?%", err)
            if m:
                hits.append(float(m.group(1)))
            print("%-8s run %d: T %.2f s  A %.2f s  B %.2f s   T/B %.2f  A/B %.2f   RSS T %d MB  B %d MB" %
                  (name, i + 1, t, a, b, t / b, a / b, mt // 1024, mb // 1024), flush=True)
        if o.probe:  # the probe hashes the whole timing state per block: far slower, so not timed
            _, _, err = measure([run, "--valgrind-option=--memo-probe=yes"] + TIMING + ["--"] + argv, stdin)
            m = re.search(r"memo probe: .*", err)
            print("%-8s %s" % (name, m.group(0) if m else "(no probe line)"), flush=True)
            m = re.search(r"memo hit rate ([0-9.]+) ?%", err)
            if m:
                hits.append(float(m.group(1)))
        rows.append((name, statistics.median(tb), statistics.median(ab), max(rss_t) // 1024, max(rss_b) // 1024,
                     statistics.median(mem), "%.1f %%" % statistics.median(hits) if hits else "-"))
    print()
    print("| workload | timing tier T/B | functional tier A/B | peak RSS T (MB) | peak RSS B (MB) | memory T/B | "
          "memo hit rate |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| %s | %.2f | %.2f | %d | %d | %.2f | %s |" % r)
    print("\nmedians of %d runs each; scripts/bench-workloads.py -n %d" % (o.pairs, o.pairs))


if __name__ == "__main__":
    main()
