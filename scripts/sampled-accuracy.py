#!/usr/bin/env python3
"""How well --timing=sampled estimates the exact tier (doc/sampled-timing.md): each case runs under netburst-run twice,
--timing=exact and --timing=sampled, and every count is compared.

Cases:
  workloads  the four workloads of scripts/bench-workloads.py (scripts/lib/workloads.py), counted with -e: cycles
             and cycle-driven native events beside architectural ones. Each estimate is judged against the exact
             count (within 2 %), and whether the exact count lies inside its printed 99.7 % interval.
  demo       the README demo's PAPI program (examples/papi_matmul 128 16): PAPI inside the program reads the
             estimates of its own intervals (PAPI_start to PAPI_stop) and prints them.
  gmp        the whole-loop suite's driver (scripts/gmp-loops.sh builds it) on both libraries: cycles per limb from
             PAPI_read around calls of 64 to 256 limbs, intervals shorter than a window.
  forms      the per-form driver (scripts/fidelity.sh builds it): cycles per iteration of each kernel.
  translations  examples/matmul 150 under --timing=sampled four ways (Valgrind's default optimisation,
             --vex-iropt-level=0, blocks of at most five instructions, registers updated at every instruction): every
             estimate and interval must be identical, since the schedule counts instructions, not blocks.
  clock      scripts/bench/clock_regions.c: regions the program times with rdtsc, on the emulated clock estimated
             from sampled units (no counter needs cycles) against the exact clock (-e PAPI_TOT_CYC), each within 2 %.
  intervals  scripts/bench/intervals.c: PAPI_read around 1 to 1,000 steps of a mixed loop (about 100 to 130,000
             instructions), to show the error against the interval's length. Shown, not judged: intervals longer
             than the timed head that follows each read are estimated from the few units inside them.

Architectural events must be identical in both tiers; an estimate must be within 2 % of the exact count (or within
MIN_ABS events of it, for counts too small for a percentage to mean anything); at least 95 % of the exact counts must
lie inside their intervals. Exit status 1 when one of these fails, 2 for a missing build.

Usage: scripts/sampled-accuracy.py [-b BUILD] [-s] [-c CASE[,CASE...]] [-o TABLE]
  -s  short: CI's version (matmul and syscalls at their bench sizes, the demo, six GMP kernels, three rounds of
      intervals; no forms, which the timed head makes exact, and no clock)
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
from workloads import TOP, build_workloads  # noqa: E402

# Cycle-driven events (their counts depend on the timing tier: emulator/core/coverage.cpp) and architectural ones,
# counted together so that one run shows both. A stall count is a part of the cycles, and a rare one (the store
# buffer full) cannot be estimated to 2 % of itself by any sample: it is judged as a share of the cycles.
TIMED = ["PAPI_TOT_CYC", "PAPI_RES_STL", "uop_queue_writes:FROM_TC_DELIVER", "memory_cancel:64K_CONF"]
STALLS = {"PAPI_RES_STL"}
ARCH = ["PAPI_TOT_INS", "PAPI_BR_MSP", "PAPI_L1_DCM", "PAPI_BR_INS"]
TOLERANCE = 0.02
MIN_ABS = 100  # events: below this an estimate's relative error is not judged
COVERAGE = 0.95
UNBOUNDED = "unbounded"  # an estimate whose interval netburst-run reports as not bounded


def run(argv, env=None, stdin=None):
    with open(stdin or os.devnull, "rb") as inp:
        p = subprocess.run(argv, stdin=inp, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    if p.returncode != 0:
        sys.exit("sampled-accuracy: %s exited with %d:\n%s" % (" ".join(argv), p.returncode,
                                                                 p.stderr.decode(errors="replace")[-3000:]))
    return p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


class Table:
    def __init__(self):
        # case, item, exact, sampled, half or None, architectural, judged, scale: what the 2 % is of (the exact count,
        # or for a stall count the run's cycles), arch_tolerance: how far an architectural count may move (0)
        self.rows = []
        self.failures = []  # failures that are not a row's

    def add(self, case, item, exact, sampled, half=None, architectural=False, judged=True, scale=None,
            arch_tolerance=0.0):
        self.rows.append((case, item, exact, sampled, half, architectural, judged,
                          exact if scale is None else scale, arch_tolerance))

    def judge(self):
        bad, inside, judged = list(self.failures), 0, 0
        for case, item, exact, sampled, half, arch, judged_row, scale, arch_tolerance in self.rows:
            if not judged_row:
                continue
            if arch:
                if abs(exact - sampled) > arch_tolerance * abs(exact):
                    bad.append("%s %s: architectural count %s in the exact tier, %s sampled" % (case, item, exact, sampled))
                continue
            err = abs(sampled - exact)
            if err > MIN_ABS and err > TOLERANCE * abs(scale):
                bad.append("%s %s: %s sampled against %s exact (%+.2f %%)" %
                           (case, item, sampled, exact, 100.0 * (sampled - exact) / exact))
            if half is not None:
                judged += 1
                inside += err <= half
        return bad, inside, judged

    def markdown(self):
        out = ["| case | count | exact | sampled | 99.7 % interval | error | inside |", "|---|---|---:|---:|---:|---:|---|"]
        # Counts that agree exactly (architectural ones, and figures of intervals timed throughout) are summarised in
        # one line per case, not listed.
        agreed = {}
        for case, item, exact, sampled, half, arch, _, scale, _ in self.rows:
            if exact == sampled and half is None:
                agreed[case] = agreed.get(case, 0) + 1
                continue
            err = "%+.2f %%" % (100.0 * (sampled - exact) / exact) if exact else "-"
            if scale != exact and scale:
                err += " (%+.4f %% of the cycles)" % (100.0 * (sampled - exact) / scale)
            if half == UNBOUNDED:
                hw, ins = "± ? (too rare)", "-"
            else:
                hw = "exact" if arch else ("± %s" % format(half, ",") if half is not None else "-")
                ins = "-" if half is None else ("yes" if abs(sampled - exact) <= half else "**no**")
            out.append("| %s | %s | %s | %s | %s | %s | %s |" % (case, item, format(exact, ","), format(sampled, ","),
                                                               hw, err, ins))
        for case, n in agreed.items():
            out.append("| %s | %d more counts or figures | identical | identical | - | 0 | - |" % (case, n))
        return "\n".join(out)


def counts(report):
    """event -> (value, half-width or None, estimated) from netburst-run --json."""
    data = json.loads(report)
    return {e["event"]: (e["value"], e.get("ci_half_width"), e.get("estimated", False)) for e in data["events"]}


def workloads_case(o, table, work):
    run_tool = os.path.join(o.build, "netburst-run")
    chosen = ["matmul", "syscalls"] if o.short else ["matmul", "chase", "gzip", "syscalls"]
    loads = build_workloads(work)
    for name in chosen:
        argv, stdin = loads[name]
        events = ["-e", ",".join(TIMED + ARCH)]
        got = {}
        for timing in ("exact", "sampled"):
            out = os.path.join(work, "%s.%s.json" % (name, timing))
            run([run_tool, "--timing=" + timing, "--json", "-o", out] + events + ["--"] + argv, stdin=stdin)
            with open(out) as f:
                got[timing] = counts(f.read())
        cycles = got["exact"]["PAPI_TOT_CYC"][0]
        for event in TIMED + ARCH:
            (ev, _, _), (sv, half, estimated) = got["exact"][event], got["sampled"][event]
            if estimated and half is None:
                # The sample does not bound it (too few events in its units) and says so: no precision claimed.
                table.add("workload " + name, event, ev, sv, UNBOUNDED, judged=False)
                continue
            table.add("workload " + name, event, ev, sv, half if estimated else None, not estimated,
                      scale=cycles if event in STALLS else None)
        print("sampled-accuracy: workload %s done" % name, flush=True)


def numbers_by_label(text):
    """Lines 'LABEL   NUMBER' of a PAPI program's output, in order: (label, number)."""
    out = []
    section = ""
    for line in text.splitlines():
        words = line.split()
        if not words:
            continue
        if len(words) == 2 and words[0].startswith("PAPI_") and words[1].isdigit():
            out.append((section + words[0], int(words[1])))
        elif not line.startswith(" "):
            section = words[0] + " "
    return out


def demo_case(o, table, work):
    run_tool = os.path.join(o.build, "netburst-run")
    program = os.path.join(o.build, "examples", "papi_matmul")
    got = {}
    for timing in ("exact", "sampled"):
        # Directories of one length: the variable's length moves the stack and the string loops PAPI runs over it,
        # and with them the architectural counts ("demo.exact" against "demo.sampled" once moved PAPI_BR_MSP by 2
        # and PAPI_L1_DCM by 117 between the tiers under one build path).
        env = dict(os.environ, PAPI_OUTPUT_DIRECTORY=os.path.join(work, "demo." + timing[0]))
        stdout, _ = run([run_tool, "--timing=" + timing, "--", program, "128", "16"], env=env)
        got[timing] = numbers_by_label(stdout)
    if len(got["exact"]) != len(got["sampled"]) or not got["exact"]:
        sys.exit("sampled-accuracy: the demo printed different counts in the two tiers")
    # The demo prints each region's cycles, and printing other digits trains the branch predictor differently: the
    # next region's mispredictions may move by a few (doc/sampled-timing.md, "Limits"); nothing else may.
    for (label, ev), (_, sv) in zip(got["exact"], got["sampled"]):
        table.add("demo", label, ev, sv, None, not label.endswith("PAPI_TOT_CYC"),
                  arch_tolerance=0.001 if label.endswith("PAPI_BR_MSP") else 0.0)
    print("sampled-accuracy: demo done", flush=True)


def driver_rows(text):
    """id -> value from a driver's tab-separated output (first column the id, the first number after it)."""
    rows = {}
    for line in text.splitlines():
        fields = line.split("\t")
        key = fields[0]
        for f in fields[1:]:
            try:
                rows[key] = float(f)
                break
            except ValueError:
                key += " " + f  # a kind column (latency, throughput) belongs to the id
    return rows


def driver_case(o, table, case, argv_of):
    run_tool = os.path.join(o.build, "netburst-run")
    got = {}
    for timing in ("exact", "sampled"):
        stdout, _ = run([run_tool, "--model", "4", "--timing=" + timing, "--"] + argv_of())
        got[timing] = driver_rows(stdout)
    for key in got["exact"]:
        if key in got["sampled"]:
            # figures per limb or per iteration: kept to three decimals so the table stays in counts' terms
            table.add(case, key, round(got["exact"][key] * 1000), round(got["sampled"][key] * 1000))
    print("sampled-accuracy: %s done" % case, flush=True)


def intervals_case(o, table, work):
    run_tool = os.path.join(o.build, "netburst-run")
    papi = os.path.join(o.build, "papi", "work", "src")
    program = os.path.join(work, "intervals")
    subprocess.run(["cc", "-O2", "-I" + papi, "-o", program, os.path.join(TOP, "scripts", "bench", "intervals.c"),
                    "-L" + papi, "-lpapi", "-Wl,-rpath," + papi], check=True)
    got = {}
    for timing in ("exact", "sampled"):
        stdout, _ = run([run_tool, "--timing=" + timing, "--", program, "3" if o.short else "5"])
        got[timing] = [line.split("\t") for line in stdout.splitlines() if line]
    seen = {}
    for (steps, ev), (_, sv) in zip(got["exact"], got["sampled"]):
        seen[steps] = seen.get(steps, 0) + 1
        table.add("intervals", "%s steps, #%d" % (steps, seen[steps]), int(ev), int(sv), judged=False)
    print("sampled-accuracy: intervals done", flush=True)


def clock_case(o, table, work):
    """The emulated clock: regions the program times with rdtsc, estimated (no counter needs cycles) against exact
    (-e PAPI_TOT_CYC keeps every instruction timed), each judged within 2 %."""
    run_tool = os.path.join(o.build, "netburst-run")
    program = os.path.join(work, "clock_regions")
    subprocess.run(["cc", "-O2", "-o", program, os.path.join(TOP, "scripts", "bench", "clock_regions.c")], check=True)
    got = {}
    for name, extra in (("exact", ["-e", "PAPI_TOT_CYC"]), ("estimated", [])):
        stdout, _ = run([run_tool] + extra + ["--", program])
        got[name] = [line.split() for line in stdout.splitlines() if line.startswith("round ")]
    for exact, estimated in zip(got["exact"], got["estimated"]):
        table.add("clock", "round %s %s" % (exact[1], exact[2]), int(exact[3]), int(estimated[3]))
    print("sampled-accuracy: clock done", flush=True)


def write_page(page, text, summary, command):
    with open(page) as f:
        content = f.read()
    begin, end = "<!-- sampled-accuracy:begin -->", "<!-- sampled-accuracy:end -->"
    if begin not in content or end not in content:
        sys.exit("sampled-accuracy: %s has no %s ... %s markers" % (page, begin, end))
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    section = "%s\nGenerated by `%s` (%s).\n\n%s\n\n%s\n%s" % (begin, command, "the table's units: counts; for the "
                                                               "GMP loops and the forms, thousandths of a cycle per "
                                                               "limb or iteration", text, summary, end)
    with open(page, "w") as f:
        f.write(head + section + tail)


TRANSLATIONS = [[], ["--vex-iropt-level=0"], ["--vex-guest-max-insns=5"],
                ["--vex-iropt-register-updates=allregs-at-each-insn"]]


def translations_case(o, table, work):
    run_tool = os.path.join(o.build, "netburst-run")
    program = [os.path.join(o.build, "examples", "matmul"), "150"]
    reports = []
    for variant in TRANSLATIONS:
        out = os.path.join(work, "translation%d.json" % len(reports))
        options = ["--valgrind-option=" + v for v in variant]
        run([run_tool, "--timing=sampled", "--json", "-o", out] + options + ["-e", ",".join(TIMED + ARCH), "--"] +
            program)
        with open(out) as f:
            reports.append(counts(f.read()))
    for event in TIMED + ARCH:
        first = reports[0][event]
        for variant, report in zip(TRANSLATIONS[1:], reports[1:]):
            # Any difference in value or interval is a failure: both are compared as architectural counts are.
            table.add("translations", "%s %s" % (event, " ".join(variant)), first[0], report[event][0],
                      architectural=True)
            if report[event][1] != first[1]:
                table.failures.append("translations %s %s: interval %s against %s" %
                                      (event, " ".join(variant), report[event][1], first[1]))
    print("sampled-accuracy: translations done", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-b", "--build", default=os.path.join(TOP, "build"))
    ap.add_argument("-s", "--short", action="store_true")
    ap.add_argument("-c", "--cases",
                    help="default: workloads,demo,gmp,forms,translations,intervals,clock (without forms and clock with "
                         "-s)")
    ap.add_argument("-o", "--output", help="also write the table (markdown) to this file")
    ap.add_argument("-p", "--page", help="write the table into this page between its sampled-accuracy markers "
                    "(doc/sampled-timing.md)")
    o = ap.parse_args()
    o.build = os.path.abspath(o.build)
    if not os.access(os.path.join(o.build, "netburst-run"), os.X_OK):
        print("sampled-accuracy: %s/netburst-run is missing: build first (./quickstart.sh test)" % o.build,
              file=sys.stderr)
        return 2
    table = Table()
    work = tempfile.mkdtemp(prefix="sampled-accuracy.")
    # The build's example programs (the demo's and the translations' cases) are made on demand, not by `make all`.
    subprocess.run(["make", "-s", "-C", o.build, "examples/matmul", "examples/papi_matmul"], check=True)
    cases = (o.cases or ("workloads,demo,gmp,translations,intervals" if o.short
                         else "workloads,demo,gmp,forms,translations,intervals,clock")).split(",")
    if "workloads" in cases:
        workloads_case(o, table, work)
    if "demo" in cases:
        demo_case(o, table, work)
    if "gmp" in cases:
        driver = os.path.join(o.build, "tests", "fidelity", "gmp-loops")
        lib = os.path.join(o.build, "gmp-pentium4", ".libs", "libgmp.so.10")
        if not (os.access(driver, os.X_OK) and os.path.exists(lib)):
            print("sampled-accuracy: %s or %s is missing: run scripts/gmp-loops.sh first" % (driver, lib),
                  file=sys.stderr)
            return 2
        kernels = ["add_n", "mul_1", "addmul_1", "lshift", "popcount", "divrem_1"] if o.short else []
        driver_case(o, table, "gmp pentium4", lambda: [driver, lib] + kernels)
    if "forms" in cases:
        driver = os.path.join(o.build, "tests", "fidelity", "fidelity-driver")
        if not os.access(driver, os.X_OK):
            print("sampled-accuracy: %s is missing: run scripts/fidelity.sh first" % driver, file=sys.stderr)
            return 2
        driver_case(o, table, "forms", lambda: [driver, "-n", "40", "200"])
    if "translations" in cases:
        translations_case(o, table, work)
    if "intervals" in cases:
        intervals_case(o, table, work)
    if "clock" in cases:
        clock_case(o, table, work)
    text = table.markdown()
    bad, inside, judged = table.judge()
    summary = ("%d counts compared; %d estimates with an interval, the exact count inside %d (%.1f %%); "
               "%d failures" % (len(table.rows), judged, inside, 100.0 * inside / judged if judged else 100.0, len(bad)))
    print(text)
    print()
    print(summary)
    if o.output:
        with open(o.output, "w") as f:
            f.write(text + "\n\n" + summary + "\n")
    if o.page:
        write_page(o.page, text, summary, "scripts/sampled-accuracy.py" + (" -s" if o.short else ""))
    for b in bad:
        print("FAIL " + b)
    if judged and inside < COVERAGE * judged:
        print("FAIL only %d of %d exact counts inside their intervals (at least %.0f %% wanted)" %
              (inside, judged, 100 * COVERAGE))
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
