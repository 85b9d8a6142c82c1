#!/usr/bin/env python3
"""time_ab.py: time to one Go bug, several engines, many pinned seeds.

usage: time_ab.py --bug NAME --engine LABEL=CGOFUZZ [--engine LABEL=go ...]
                  [--runs N] [--first S] [--cap SECONDS] [--parallel P]
                  [--out FILE]

Where gobugs_bench.py takes a few runs of each engine on many bugs, this
asks whether an engine change moved the time to one bug: the bug's test
binary (bench/gobugs/<NAME>, built once with `go test -c -fuzz`) is fuzzed
by each engine in turn for seeds S, S+1, ... (GODEBUG=fuzzseed=S), timed as
gobugs_bench.py times them (from launch to the first "fuzz: minimizing" or
"--- FAIL" line, polled), and a run counts only when its failing input,
run again with `go test -run`, matches bug.json's signature. An engine
LABEL=go is the test binary's own `-test.fuzz`; any other is a cgofuzz
binary. A run is not repeatable from its seed alone (the coordinator's
timing enters), so the answer is the medians over many seeds.

Python 3 stdlib.
"""
import argparse
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
from benchlib import emit, run_polled, sh  # noqa: E402
from gobugs_bench import (CRASHFILE, FOUND, copy_bug, go_env,  # noqa: E402
                          read_bugs, reproduce)


def build(bug, work):
    """The bug's test binary, built in a copy of its directory."""
    d = copy_bug(bug, os.path.join(work, "src"))
    out = os.path.join(work, "bug.test")
    r = sh(["go", "test", "-c", "-fuzz=^%s$" % bug["target"], "-o", out, "."],
           cwd=d, env=go_env(bug))
    if r.returncode != 0:
        sys.exit("building %s: %s" % (bug["name"], r.stderr[-2000:]))
    return d, out


def one_run(label, engine, bug, binary, src, seed, a, work):
    """Seconds to the bug, or None (not found in the cap, or another
    failure), and a word on it."""
    d = os.path.join(work, "run-%s-%d" % (label, seed))
    shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(src, d)
    t, cache = bug["target"], os.path.join(d, "cache")
    if engine == "go":
        argv = [binary, "-test.paniconexit0", "-test.timeout=0",
                "-test.fuzz=^%s$" % t, "-test.run=^%s$" % t,
                "-test.fuzztime=%ds" % a.cap, "-test.parallel=%d" % a.parallel,
                "-test.fuzzcachedir=" + cache]
    else:
        argv = [engine, "fuzz", "-fuzz=^%s$" % t, "-fuzztime=%ds" % a.cap,
                "-parallel=%d" % a.parallel, "-fuzzcachedir=" + cache, binary]
    r = run_polled(argv, d, a.cap + 90, FOUND.search,
                   env=dict(go_env(bug), GODEBUG="fuzzseed=%d" % seed))
    m = CRASHFILE.search(r.out)
    if r.found is None or m is None:
        return None, "not found"
    if not reproduce(bug, binary, d, m.group(2))[0]:
        return None, "another failure"
    return r.found, "found"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bug", required=True)
    ap.add_argument("--engine", action="append", required=True,
                    metavar="LABEL=CGOFUZZ|go")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--cap", type=int, default=60)
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--out")
    a = ap.parse_args()
    bug = read_bugs([a.bug])[0]
    engines = [e.split("=", 1) for e in a.engine]
    work = tempfile.mkdtemp(prefix="cgofuzz-time-ab-")
    lines = []
    try:
        src, binary = build(bug, work)
        times = {label: [] for label, _ in engines}
        rows = []
        for seed in range(a.first, a.first + a.runs):
            k = seed % len(engines)  # the order turns with the seed
            for label, engine in engines[k:] + engines[:k]:
                t, what = one_run(label, engine, bug, binary, src, seed, a,
                                  work)
                times[label].append(t)
                rows.append("| %d | %s | %s | %s |" % (
                    seed, label, "miss" if t is None else "%.2f" % t, what))
                print(rows[-1], flush=True)
        lines += ["# time_ab: %s, %d runs per engine, fuzzseed %d-%d, "
                  "-parallel %d, cap %d s" % (
                      a.bug, a.runs, a.first, a.first + a.runs - 1,
                      a.parallel, a.cap), "",
                  "`bench/gobugs/time_ab.py %s`" % " ".join(sys.argv[1:]), "",
                  "| engine | found | median s (a miss counts as the cap) "
                  "| each run, sorted |", "|---|---|---|---|"]
        for label, engine in engines:
            v = [a.cap if t is None else t for t in times[label]]
            lines.append("| %s (%s) | %d/%d | %.2f | %s |" % (
                label, engine, sum(t is not None for t in times[label]),
                len(v), statistics.median(v),
                " ".join("%.2f" % x for x in sorted(v))))
        lines += ["", "| seed | engine | seconds | verdict |",
                  "|---|---|---|---|"] + rows
    finally:
        shutil.rmtree(work, ignore_errors=True)
    emit(lines, a.out)


if __name__ == "__main__":
    main()
