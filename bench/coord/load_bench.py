#!/usr/bin/env python3
"""Fuzzing on a loaded machine (issue 40): many workers on few cores, with
CPU hogs beside them, for `cgofuzz fuzz` and `go test -fuzz` (Go's own
coordinator) on the same test binary, runs alternating.

Two scenarios, each --runs times per engine, --seconds each:

  slow   FuzzLoadSlow (bench/coord/targets/load_test.go): every input burns
         40-120 ms of CPU and none fails; -parallel 16 beside --hogs
         busy loops. A failure reported here is false (a worker judged
         hung because the machine is busy). Reported: runs that ended
         with a failure, failures written, execs.
  fast   FuzzLoadFast: a cheap target with branches to find;
         -parallel 64 beside the hogs. Reported: execs (median) and
         the cgofuzz / go ratio, and failures (none expected).

Each run fuzzes from a scratch copy of the package with a fresh cache.
The report (markdown) goes to stdout and, with --out, to a file.

usage: bench/coord/load_bench.py [--runs 3] [--seconds 60] [--hogs 2] [--out F]
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402
from benchlib import ROOT  # noqa: E402

CGOFUZZ = os.path.join(ROOT, "build", "bin", "cgofuzz")
EXECS = re.compile(r"execs: (\d+) ")
SCENARIOS = {"slow": ("FuzzLoadSlow", 16), "fast": ("FuzzLoadFast", 64)}


def build(work):
    pkg = os.path.join(work, "pkg")
    shutil.copytree(os.path.join(HERE, "targets"), pkg)
    binary = os.path.join(work, "targets.test")
    benchlib.sh(["go", "test", "-c", "-fuzz=.", "-o", binary, "."], cwd=pkg)
    return pkg, binary


def run(engine, binary, pkg, target, parallel, seconds, work, i):
    d = os.path.join(work, "%s-%s-%d" % (engine, target, i))
    shutil.copytree(pkg, d)
    cache = os.path.join(d, "cache")
    if engine == "go":
        cmd = [binary, "-test.run=^$", "-test.fuzz=^%s$" % target,
               "-test.fuzztime=%ds" % seconds, "-test.parallel=%d" % parallel,
               "-test.fuzzcachedir=" + cache]
    else:
        cmd = [CGOFUZZ, "fuzz", "-fuzz=^%s$" % target,
               "-fuzztime=%ds" % seconds, "-parallel=%d" % parallel,
               "-fuzzcachedir=" + cache, binary]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=d, capture_output=True, text=True,
                       timeout=seconds * 4 + 120)
    wall = time.monotonic() - t0
    out = p.stdout + p.stderr
    m = EXECS.findall(out)
    td = os.path.join(d, "testdata", "fuzz", target)
    written = len(os.listdir(td)) if os.path.isdir(td) else 0
    hung = "hung" in out
    shutil.rmtree(d, ignore_errors=True)
    return {"rc": p.returncode, "execs": int(m[-1]) if m else 0,
            "written": written, "hung": hung, "wall": wall,
            "tail": out.strip().splitlines()[-3:]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--hogs", type=int, default=2)
    ap.add_argument("--scenarios", default="slow,fast")
    ap.add_argument("--out")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="load_bench-")
    hogs = []
    lines = []

    def say(s=""):
        print(s, flush=True)
        lines.append(s)

    try:
        pkg, binary = build(work)
        for _ in range(a.hogs):
            hogs.append(subprocess.Popen(
                [sys.executable, "-c", "while True: pass"]))
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"],
                                cwd=ROOT, capture_output=True,
                                text=True).stdout.strip()
        say("# Load benchmark: %d CPU hogs beside the fuzzer, %d cores, "
            "%d s per run, %d runs per engine (commit %s)"
            % (a.hogs, os.cpu_count(), a.seconds, a.runs, commit))
        for name in a.scenarios.split(","):
            target, parallel = SCENARIOS[name]
            res = {"go": [], "cgofuzz": []}
            for i in range(a.runs):
                order = ["go", "cgofuzz"] if i % 2 == 0 else ["cgofuzz", "go"]
                for eng in order:
                    r = run(eng, binary, pkg, target, parallel, a.seconds,
                            work, i)
                    res[eng].append(r)
                    print("  %s %s run %d: exit %d, %d execs, %d written%s"
                          % (name, eng, i, r["rc"], r["execs"], r["written"],
                             ", 'hung' in output" if r["hung"] else ""),
                          file=sys.stderr, flush=True)
            say()
            say("## %s: %s, -parallel %d" % (name, target, parallel))
            say()
            say("| engine | runs failed | failures written | execs "
                "(median) [each] |")
            say("|---|---|---|---|")
            med = {}
            for eng in ("go", "cgofuzz"):
                rs = res[eng]
                med[eng] = statistics.median(r["execs"] for r in rs)
                say("| %s | %d of %d | %d | %d [%s] |" % (
                    eng, sum(r["rc"] != 0 for r in rs), len(rs),
                    sum(r["written"] for r in rs), med[eng],
                    ", ".join(str(r["execs"]) for r in rs)))
            if med["go"]:
                say()
                say("cgofuzz / go execs: %.2fx" % (med["cgofuzz"] / med["go"]))
    finally:
        for h in hogs:
            h.kill()
        shutil.rmtree(work, ignore_errors=True)
    if a.out:
        with open(a.out, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
