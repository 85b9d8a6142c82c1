#!/usr/bin/env python3
"""One run over many targets against a shell loop (issue 15).

A Go package with four fuzz targets, two of which hide a planted bug (four
bytes compared one at a time, so the fuzzer must climb there by coverage:
no constant for a dictionary to take), is fuzzed three ways with the same
total time budget B and the same workers (-parallel):

  campaign   one `cgofuzz fuzz -fuzz=. -fuzztime=B -fuzzcontinue` run: the
             energy schedule of docs/campaigns.md;
  loop-go    a shell loop of `go test -fuzz=^T$ -fuzztime=B/4` over the
             targets, what projects do today (the test binary is run
             directly, as go test runs it, so that no build time counts);
  loop-cgo   the same loop with `cgofuzz fuzz` per target, which isolates
             the schedule from the engine.

The figure is the time until both planted bugs are found (measured from
the start of the run or loop to the moment the second "Failing input
written" line appears); a run stops as soon as both are found. A bug not
found within B counts as B (and is marked). Runs are repeated --rounds
times with different GODEBUG fuzzseeds, the three ways alternating, each
with fresh caches and testdata. The medians and their ratios are printed.

usage: bench/campaign/campaign_bench.py [--budget 120] [--rounds 3] [--parallel 2]
                               [--cgofuzz build/bin/cgofuzz]
"""
import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from benchlib import ROOT  # noqa: E402

GO_MOD = "module example.com/campaignbench\n\ngo 1.18\n"
# Target order matters to the loop: the bugs are the 2nd and 4th targets.
GO_TEST = r'''package campaignbench

import "testing"

func parse(b []byte) int {
	n := 0
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
		case c == '[' && i+1 < len(b) && b[i+1] == ']':
			n--
		case c == '{':
			n *= 2
		case c == ',' && n > 100:
			n /= 3
		}
	}
	return n
}

func FuzzAParse(f *testing.F) {
	f.Add([]byte("12,{3}"))
	f.Fuzz(func(t *testing.T, b []byte) { parse(b) })
}

func FuzzBMagic(f *testing.F) {
	f.Add([]byte("hello"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 4 && b[1] == 0x8f {
			if b[2] == 0x3a {
				if b[3] == 0xd1 {
					if b[4] == 0x5c {
						panic("planted bug B")
					}
				}
			}
		}
	})
}

func FuzzCParse(f *testing.F) {
	f.Add("7[]9", 3)
	f.Fuzz(func(t *testing.T, s string, k int) {
		if k > 0 && k < len(s) {
			parse([]byte(s[k:]))
		}
		parse([]byte(s))
	})
}

func FuzzDMagic(f *testing.F) {
	f.Add([]byte("world"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 5 && b[2] == 0xe4 {
			if b[3] == 0x17 {
				if b[4] == 0xb2 {
					if b[5] == 0x6d {
						t.Fatalf("planted bug D")
					}
				}
			}
		}
	})
}
'''
TARGETS = ["FuzzAParse", "FuzzBMagic", "FuzzCParse", "FuzzDMagic"]
BUGS = ["FuzzBMagic", "FuzzDMagic"]


def build(work):
    pkg = os.path.join(work, "pkg")
    os.makedirs(pkg)
    with open(os.path.join(pkg, "go.mod"), "w") as f:
        f.write(GO_MOD)
    with open(os.path.join(pkg, "bench_test.go"), "w") as f:
        f.write(GO_TEST)
    exe = os.path.join(work, "bench.test")
    subprocess.run(["go", "test", "-c", "-fuzz=.", "-o", exe, "."], cwd=pkg,
                   check=True)
    return pkg, exe


class Watch:
    """Runs commands one after the other in cwd and records when each bug's
    "Failing input written to testdata/fuzz/<T>/" line first appears."""

    def __init__(self, cwd, env, t0):
        self.cwd, self.env, self.t0 = cwd, env, t0
        self.found = {}
        self.proc = None

    def run(self, cmd, deadline):
        self.proc = subprocess.Popen(cmd, cwd=self.cwd, env=self.env,
                                     stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL,
                                     start_new_session=True)
        timer = threading.Timer(max(0.0, deadline - time.monotonic()) + 30,
                                self.kill)
        timer.start()
        for line in self.proc.stdout:
            line = line.decode(errors="replace")
            for b in BUGS:
                if ("written to testdata/fuzz/%s/" % b) in line and \
                        b not in self.found:
                    self.found[b] = time.monotonic() - self.t0
            if all(b in self.found for b in BUGS):
                self.stop()
        self.proc.wait()
        timer.cancel()

    def stop(self):
        try:
            os.killpg(self.proc.pid, signal.SIGINT)
        except ProcessLookupError:
            pass

    def kill(self):
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def fresh_case(work, exe_pkg):
    d = tempfile.mkdtemp(dir=work)
    pkg = os.path.join(d, "pkg")
    shutil.copytree(exe_pkg, pkg)
    return d, pkg


def one(way, args, work, pkg0, exe, seed):
    d, pkg = fresh_case(work, pkg0)
    env = dict(os.environ, GODEBUG="fuzzseed=%d" % seed,
               TMPDIR=os.path.join(d))
    cache = os.path.join(d, "cache")
    t0 = time.monotonic()
    deadline = t0 + args.budget
    w = Watch(pkg, env, t0)
    per = args.budget / len(TARGETS)
    if way == "campaign":
        w.run([args.cgofuzz, "fuzz", "-fuzz=.", "-fuzztime=%ds" % args.budget,
               "-fuzzcontinue", "-parallel=%d" % args.parallel,
               "-fuzzcachedir=" + cache, exe], deadline)
    else:
        for t in TARGETS:
            if all(b in w.found for b in BUGS):
                break
            if way == "loop-go":
                cmd = [exe, "-test.fuzz=^%s$" % t, "-test.run=^%s$" % t,
                       "-test.fuzztime=%.3fs" % per,
                       "-test.parallel=%d" % args.parallel,
                       "-test.fuzzcachedir=" + cache]
            else:
                cmd = [args.cgofuzz, "fuzz", "-fuzz=^%s$" % t,
                       "-fuzztime=%.3fs" % per,
                       "-parallel=%d" % args.parallel,
                       "-fuzzcachedir=" + cache, exe]
            w.run(cmd, time.monotonic() + per)
    shutil.rmtree(d, ignore_errors=True)
    times = [w.found.get(b) for b in BUGS]
    both = max(t if t is not None else float(args.budget) for t in times)
    return both, times


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=int, default=120)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--parallel", type=int, default=2)
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="campaign-bench-")
    pkg, exe = build(work)
    ways = ["campaign", "loop-go", "loop-cgo"]
    res = {w: [] for w in ways}
    print("campaign_bench: 4 targets (2 planted bugs: %s), total budget %d s,"
          " -parallel=%d, %d rounds; %s" % (", ".join(BUGS), args.budget,
                                            args.parallel, args.rounds,
                                            time.strftime("%Y-%m-%d %H:%M")))
    print("time until both bugs are found (s; '>' = not found in the budget,"
          " counted as the budget)")
    print("%-6s %-10s %10s %10s %10s" % ("round", "way", "both", BUGS[0],
                                         BUGS[1]))
    for r in range(args.rounds):
        order = ways[r % 3:] + ways[:r % 3]
        for way in order:
            both, times = one(way, args, work, pkg, exe, seed=r + 1)
            res[way].append(both)
            cells = ["%10.1f" % t if t is not None else "%10s" %
                     (">%d" % args.budget) for t in times]
            print("%-6d %-10s %10.1f %s" % (r + 1, way, both, " ".join(cells)))
            sys.stdout.flush()
    print()
    med = {w: statistics.median(res[w]) for w in ways}
    for w in ways:
        print("median %-10s %6.1f s" % (w, med[w]))
    for w in ("loop-go", "loop-cgo"):
        print("ratio %s / campaign: %.2f" % (w, med[w] / med["campaign"]))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
