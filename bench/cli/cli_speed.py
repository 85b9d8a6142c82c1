#!/usr/bin/env python3
"""Times `cgofuzz corpus fmt` and `cgofuzz mutate` on typical corpus files
against a Go program doing the same work with the installed Go's own
internal/fuzz code (built here, in a temporary module), and prints the
median wall time per invocation and the ratio cgofuzz/Go.

usage: bench/cli/cli_speed.py [--cgofuzz build/bin/cgofuzz] [--runs 200]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import ROOT  # noqa: E402
GOFILES = ["encoding.go", "pcg.go", "mutator.go", "mutators_byteslice.go",
           "minimize.go"]


def build_goref(tmp):
    goroot = subprocess.check_output(["go", "env", "GOROOT"], text=True).strip()
    os.makedirs(os.path.join(tmp, "fuzz"))
    for f in GOFILES:
        shutil.copy(os.path.join(goroot, "src", "internal", "fuzz", f),
                    os.path.join(tmp, "fuzz", f))
    shutil.copy(os.path.join(ROOT, "bench", "cli", "goref", "export.go.txt"),
                os.path.join(tmp, "fuzz", "export.go"))
    shutil.copy(os.path.join(ROOT, "bench", "cli", "goref", "main.go.txt"),
                os.path.join(tmp, "main.go"))
    with open(os.path.join(tmp, "go.mod"), "w") as f:
        f.write("module goref\n\ngo 1.21\n")
    exe = os.path.join(tmp, "goref")
    subprocess.check_call(["go", "build", "-o", exe, "."], cwd=tmp)
    return exe


def median_ms(cmd, runs):
    subprocess.run(cmd, check=True, capture_output=True)  # warm the cache
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        ts.append((time.perf_counter() - t0) * 1000)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin", "cgofuzz"))
    ap.add_argument("--runs", type=int, default=200)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        goref = build_goref(tmp)
        big = os.path.join(tmp, "big")
        with open(big, "w") as f:  # a 4 KiB []byte seed plus a few scalars
            f.write('go test fuzz v1\n[]byte("%s")\nint(7)\nstring("key")\nfloat64(0.25)\n'
                    % "".join("\\x%02x" % (i * 37 % 256) for i in range(4096)))
        files = [os.path.join(ROOT, "testdata", "cli", "messy.txt"),
                 os.path.join(ROOT, "testdata", "cli", "multi.txt"), big]
        st, inc = "0x853c49e6748fea9b", "0xda3e39cb94b95bdb"
        print("%-34s %10s %10s %8s" % ("case", "cgofuzz ms", "go ms", "ratio"))
        worst = 0.0
        for f in files:
            name = os.path.basename(f)
            for label, ours, theirs in [
                ("fmt " + name, [a.cgofuzz, "corpus", "fmt", f], [goref, "fmt", f]),
                ("mutate -n 5 " + name,
                 [a.cgofuzz, "mutate", "-rand-state", st, "-rand-inc", inc, "-n", "5", f],
                 [goref, "mutate", st, inc, "5", f]),
            ]:
                c = median_ms(ours, a.runs)
                g = median_ms(theirs, a.runs)
                worst = max(worst, c)
                print("%-34s %10.2f %10.2f %8.2f" % (label, c, g, c / g))
        print("slowest cgofuzz invocation: %.2f ms (budget 5 ms)" % worst)
        return 0 if worst < 5 else 1


if __name__ == "__main__":
    sys.exit(main())
