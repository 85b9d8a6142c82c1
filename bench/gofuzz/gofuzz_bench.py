#!/usr/bin/env python3
"""Package gofuzz under go test -fuzz: two measurements (issue 5).

  1. exec loop: execs/sec of a C target (cgofuzz's C API) run by go test's
     own coordinator through gofuzz.FuzzC, per exec through cgo (Go's worker
     mutates, reflect + cgo call + C coverage bridged into Go counters)
     against gofuzz.ExecLoopInC (the worker's loop runs in C). Targets:
     examples/go/cunescape (FuzzUnescape, URL unescaping, instrumented) and
     bench/gofuzz/zinflate (FuzzInflate, zlib inflate; zlib itself is not
     instrumented). Median over --runs runs of --seconds each, with
     -test.parallel=--parallel workers.
  2. time to bug: examples/go/planted (a 4-byte magic checked one byte per
     branch in C) with package gofuzz's C coverage set-up (-tags
     gofuzz_cover, clang) and without it (clang, C not instrumented); median
     time to the failure over --runs runs, capped at --cap seconds (a run
     that finds nothing counts as the cap and is marked).

Prints a table and ratios (loop/cgo, with/without). Needs go and clang.
Each run uses a fresh scratch directory and cache; nothing is written to
the repository.

usage: bench/gofuzz/gofuzz_bench.py [--runs 3] [--seconds 10] [--parallel 2]
                             [--cap 60] [--only loop,bug]
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

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import ROOT  # noqa: E402
GO = shutil.which("go") or "/usr/local/go/bin/go"
EXECS = re.compile(r"execs: (\d+) ")
ELAPSED = re.compile(r"elapsed: (\d+)s, execs: (\d+)")


def build(pkg, out, tags=True, fuzz=True, extra_env=None):
    env = dict(os.environ, CC="clang")
    if tags:
        env["CGO_CFLAGS_ALLOW"] = "-fsanitize-coverage=.*"
    env.update(extra_env or {})
    cmd = [GO, "test", "-c", "-o", out]
    if tags:
        cmd.append("-tags=gofuzz_cover")
    if fuzz:
        cmd.append("-fuzz=.")
    cmd.append("./" + pkg)
    subprocess.run(cmd, cwd=ROOT, env=env, check=True)


def fuzz_run(binary, target, seconds, parallel, work):
    """Runs binary as go test would; returns (exit status, output, wall s)."""
    cmd = [binary, "-test.run=^$", f"-test.fuzz=^{target}$",
           f"-test.fuzztime={seconds}s", f"-test.parallel={parallel}",
           f"-test.fuzzcachedir={work}/cache"]
    t0 = time.monotonic()
    p = subprocess.run(cmd, cwd=work, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True,
                       timeout=seconds * 3 + 60)
    return p.returncode, p.stdout, time.monotonic() - t0


def deadline_flake(st, out):
    """Go's coordinator (before go1.27, golang/go#75804) may end a timed run
    with FAIL "context deadline exceeded" and no failing input when a worker
    is mid-call at the deadline; the run's figures are still good."""
    return (st == 1 and "context deadline exceeded" in out and
            "Failing input written" not in out)


def rate(out):
    """execs/sec from the last progress line with a non-zero elapsed."""
    best = None
    for m in ELAPSED.finditer(out):
        s, n = int(m.group(1)), int(m.group(2))
        if s > 0:
            best = n / s
    return best


def bench_loop(args, tmp):
    print(f"== exec loop: cgo per exec vs gofuzz.ExecLoopInC "
          f"({args.runs} x {args.seconds} s, -test.parallel={args.parallel})")
    targets = [("examples/go/cunescape", "FuzzUnescape", "FuzzUnescapeLoop"),
               ("bench/gofuzz/zinflate", "FuzzInflate", "FuzzInflateLoop")]
    rows = []
    for pkg, cgo_t, loop_t in targets:
        binary = os.path.join(tmp, os.path.basename(pkg) + ".test")
        build(pkg, binary)
        rates = {cgo_t: [], loop_t: []}
        for i in range(args.runs):
            for t in (cgo_t, loop_t):  # alternate: drift hits both alike
                work = tempfile.mkdtemp(dir=tmp)
                st, out, _ = fuzz_run(binary, t, args.seconds, args.parallel,
                                      work)
                r = rate(out)
                if deadline_flake(st, out):
                    print(f"  ({t} run {i + 1}: Go's deadline flake, "
                          "golang/go#75804; figures kept)")
                elif st != 0 or r is None:
                    print(f"  {t} run {i + 1}: exit {st}\n{out[-2000:]}")
                    sys.exit(1)
                rates[t].append(r)
                print(f"  {t:18s} run {i + 1}: {r:12,.0f} execs/s")
        a = statistics.median(rates[cgo_t])
        b = statistics.median(rates[loop_t])
        rows.append((pkg, a, b))
    print()
    print(f"  {'target':24s} {'cgo per exec':>14s} {'loop in C':>14s} "
          f"{'loop/cgo':>9s}")
    for pkg, a, b in rows:
        print(f"  {pkg:24s} {a:14,.0f} {b:14,.0f} {b / a:8.1f}x")
    print(f"  (per exec, cgo path: {1e6 * args.parallel / rows[0][1]:.1f} us "
          f"of worker time on {rows[0][0]})")
    return rows


def bench_bug(args, tmp):
    print(f"== time to bug, examples/go/planted FuzzSum ({args.runs} runs, "
          f"cap {args.cap} s, -test.parallel={args.parallel})")
    bins = {"with C coverage": os.path.join(tmp, "with.test"),
            "without": os.path.join(tmp, "without.test")}
    build("examples/go/planted", bins["with C coverage"], tags=True)
    build("examples/go/planted", bins["without"], tags=False)
    times = {k: [] for k in bins}
    for i in range(args.runs):
        for mode, binary in bins.items():
            work = tempfile.mkdtemp(dir=tmp)
            st, out, wall = fuzz_run(binary, "FuzzSum", args.cap,
                                     args.parallel, work)
            execs = EXECS.findall(out)
            found = st == 1 and "Go and C disagree" in out
            if deadline_flake(st, out):
                st = 0  # ran to the cap without finding it
            if st not in (0, 1) or (st == 1 and not found):
                print(f"  {mode} run {i + 1}: exit {st}\n{out[-2000:]}")
                sys.exit(1)
            times[mode].append(wall if found else float(args.cap))
            print(f"  {mode:16s} run {i + 1}: "
                  f"{'found' if found else 'NOT found'} after {wall:5.1f} s "
                  f"({execs[-1] if execs else '?'} execs)")
    w = statistics.median(times["with C coverage"])
    wo = statistics.median(times["without"])
    print()
    print(f"  median time to bug: with C coverage {w:.1f} s, without "
          f"{wo:.1f} s{' (= cap: not found)' if wo >= args.cap else ''}; "
          f"with/without {w / wo:.2f}")
    return w, wo


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--cap", type=int, default=60)
    ap.add_argument("--only", default="loop,bug")
    args = ap.parse_args()
    if not shutil.which("clang"):
        sys.exit("gofuzz_bench: clang is needed (scripts/install-deps.sh)")
    print(subprocess.run([GO, "version"], capture_output=True,
                         text=True).stdout.strip(), "|",
          time.strftime("%Y-%m-%d %H:%M"), "|", os.cpu_count(), "CPUs")
    with tempfile.TemporaryDirectory() as tmp:
        if "loop" in args.only:
            bench_loop(args, tmp)
        if "bug" in args.only:
            bench_bug(args, tmp)


if __name__ == "__main__":
    main()
