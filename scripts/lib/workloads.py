"""The four workloads that scripts/bench-workloads.py times and scripts/sampled-accuracy.py checks (doc/speed.md):
examples/matmul.c (dense, 400x400 doubles, gcc -O2), scripts/bench/chase.c (a pointer chase over 8 MB: misses to
memory), gzip -6 on a fixed text (branchy integer code) and scripts/bench/syscalls.c (a system call every few
instructions); and how one run of a command is measured."""
import os
import subprocess
import sys
import tempfile
import time

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
        sys.exit("%s exited with %d:\n%s" % (" ".join(argv), child.returncode, text[-2000:]))
    return seconds, usage.ru_maxrss, text
