#!/usr/bin/env python3
"""seed_ab.py: two cgofuzz builds on one Go bug, seed by seed.

usage: seed_ab.py --bug NAME --a CGOFUZZ --b CGOFUZZ [--seeds N] [--first S]
                  [--execs M] [--out FILE]

Where gobugs_bench.py times a few runs per engine against a wall-clock cap,
this asks whether a change to the engine changed how often it finds one bug:
the bug's test binary (bench/gobugs/<NAME>, built once with `go test -c
-fuzz`) is fuzzed by build A and build B in turn for each seed S, S+1, ...
(GODEBUG=fuzzseed=S, one worker, -fuzztime=Mx), and each run counts as
finding the bug when it fails and its report matches bug.json's signature
(another failure is counted apart). A run is not repeatable from its seed
alone (the coordinator's timing enters), so the answer is a count over
many seeds: found/runs per build and the execs of each find, with Fisher's
exact test of the two counts.

Python 3 stdlib.
"""
import argparse
import json
import math
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402
from benchlib import log, note, sh  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
EXECS_RE = re.compile(r"^fuzz: elapsed: \S+, execs: (\d+)", re.M)


def fisher_two_sided(a, n1, b, n2):
    """p of a 2x2 table (a of n1 against b of n2) being at least this
    uneven when both builds find the bug equally often."""
    k = a + b
    total = n1 + n2

    def p(x):
        return (math.comb(n1, x) * math.comb(n2, k - x)) / math.comb(total, k)
    observed = p(a)
    lo, hi = max(0, k - n2), min(k, n1)
    return min(1.0, sum(p(x) for x in range(lo, hi + 1)
                        if p(x) <= observed * (1 + 1e-9)))


def run_one(cgofuzz, binary, target, seed, execs, work):
    d = os.path.join(work, "run")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    shutil.copy(binary, os.path.join(d, "bug.test"))
    env = dict(os.environ, GODEBUG="fuzzseed=%d" % seed)
    r = sh([cgofuzz, "fuzz", "-fuzz=^%s$" % target, "-fuzztime=%dx" % execs,
            "-parallel=1", "-fuzzcachedir=" + os.path.join(d, "cache"),
            "./bug.test"], cwd=d, env=env, timeout=1800)
    out = (r.stdout or "") + (r.stderr or "")
    counts = EXECS_RE.findall(out)
    return r.returncode, out, int(counts[-1]) if counts else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bug", required=True)
    ap.add_argument("--a", required=True, help="cgofuzz build A")
    ap.add_argument("--b", required=True, help="cgofuzz build B")
    ap.add_argument("--seeds", type=int, default=16)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--execs", type=int, default=1000000)
    ap.add_argument("--out")
    args = ap.parse_args()
    args.a, args.b = os.path.abspath(args.a), os.path.abspath(args.b)
    bug = json.load(open(os.path.join(HERE, args.bug, "bug.json")))
    sig = re.compile(bug["signature"])
    work = tempfile.mkdtemp(prefix="cgofuzz-seed-ab-")
    try:
        src = os.path.join(work, "src")
        shutil.copytree(os.path.join(HERE, args.bug), src)
        binary = os.path.join(work, "bug.test")
        env = dict(os.environ)
        if bug.get("go"):
            env["GOTOOLCHAIN"] = bug["go"]
        r = sh(["go", "test", "-c", "-fuzz=^%s$" % bug["target"], "-o",
                binary, "."], cwd=src, env=env)
        if r.returncode != 0:
            sys.exit("building %s: %s" % (args.bug, benchlib.tail(r.stderr)))
        log("# seed_ab: %s, build A against build B, seed by seed" % args.bug)
        log("")
        log("- `bench/gobugs/seed_ab.py --bug %s --seeds %d --first %d "
            "--execs %d`" % (args.bug, args.seeds, args.first, args.execs))
        log("- A: `%s`; B: `%s`" % (args.a, args.b))
        log("- one worker, GODEBUG=fuzzseed=S, -fuzztime=%dx; A and B in "
            "turn for each seed; load average %s at the start"
            % (args.execs, " ".join("%.2f" % x for x in os.getloadavg())))
        log("")
        log("| seed | A | B |")
        log("|---|---|---|")
        found = {"A": [], "B": []}
        other = {"A": 0, "B": 0}
        for s in range(args.first, args.first + args.seeds):
            cells = []
            for name, cg in (("A", args.a), ("B", args.b)):
                rc, out, n = run_one(cg, binary, bug["target"], s,
                                     args.execs, work)
                if rc != 0 and sig.search(out):
                    found[name].append(n)
                    cells.append("found at %d execs" % n)
                elif rc != 0:
                    other[name] += 1
                    cells.append("another failure at %d execs" % n)
                else:
                    cells.append("miss")
                note("seed %d %s: %s" % (s, name, cells[-1]))
            log("| %d | %s | %s |" % (s, cells[0], cells[1]))
        log("")
        fa, fb = len(found["A"]), len(found["B"])
        log("found the bug: A %d of %d, B %d of %d (other failures: A %d, "
            "B %d); Fisher's exact test, two-sided: p = %.2f"
            % (fa, args.seeds, fb, args.seeds, other["A"], other["B"],
               fisher_two_sided(fa, args.seeds, fb, args.seeds)))
        for name in ("A", "B"):
            if found[name]:
                xs = sorted(found[name])
                log("- %s: median execs of a find %d (%d-%d)" % (
                    name, xs[len(xs) // 2], xs[0], xs[-1]))
    finally:
        benchlib.kill_running()
        shutil.rmtree(work, ignore_errors=True)
        if args.out:
            benchlib.write_report(args.out)


if __name__ == "__main__":
    main()
