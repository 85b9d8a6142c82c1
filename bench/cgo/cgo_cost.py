#!/usr/bin/env python3
"""What C coverage through cgofuzz-cgo-cc costs per exec.

The same Go fuzz target is built twice, with CC=clang (the C side is a
black box, Go's counters only) and with CC=cgofuzz-cgo-cc (every C edge a
counter inside Go's range), and run by Go's own coordinator (go test
-fuzz, one worker) for a fixed number of execs; the two builds alternate,
--runs times, and the median wall time per exec of each is reported with
their ratio. Go's worker resets, snapshots and compares its whole counter
range on every exec, so the cost grows with the number of C counters, and
what it is worth depends on what one C call costs:

  gate    tests/cli/cgo-cc/pkg FuzzGate: a cheap C call (a memcmp gate Go's own
          fuzzer does not open), the package's 33 C counters;
  big     tests/cli/cgo-cc's generated package, FuzzBigRun: a cheap C call
          through a table, about 127,000 C counters;
  bigflat the same package's FuzzBigFlat: the last C function on a
          constant, so no input is new and the range's last counters are
          hit on every exec;
  sqlite  mattn/go-sqlite3 (bench/cgo/cgo_bench.py's build): db.Exec of one
          statement on a new in-memory database, 50,000 C counters;
  zstd, webp, lz4  the other modules of bench/cgo/cgo_bench.py, their builds
          (zstd: decompress one frame, 31,300 counters).

The cgo-cc build is also run by cgofuzz (`cgofuzz fuzz`, one worker)
four ways: with Go's own snapshot loop (CGOFUZZ_GO_SNAPSHOT=go: as
before its workers ran a copy of the binary whose coverage snapshot goes
eight counters at a time); with the copy's snapshot cut after its last
non-zero counter in every fuzz call (CGOFUZZ_GO_SNAPSHOT=cut), so that
Go's count of new bits walks that far; as it runs by default (the copy
also checks the new bits against the worker's mask, and hands Go's count
an empty snapshot when there is none); and with GOMAXPROCS=1, which users
may set for a target that has no concurrency to find bugs in (no thread
wake-up per input). The last two columns are what the copy saves, and
what its check of the new bits saves.

Minimization is capped at one exec (-fuzzminimizetime=1x), so the
build that finds more new inputs does not pay for minimizing them.

Usage: bench/cgo/cgo_cost.py [--runs 3] [--execs 100000] [--targets a,b]
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
from benchlib import CACHE, ROOT  # noqa: E402
sys.path.insert(0, os.path.join(ROOT, "tests", "cli", "cgo-cc"))
CGOCC = os.path.join(ROOT, "build", "bin", "cgofuzz-cgo-cc")


def build(pkgdir, out, cc):
    env = dict(os.environ, CC=cc, GOFLAGS="-mod=mod")
    env.pop("CXX", None)
    if cc != "clang":
        env["CXX"] = CGOCC.replace("-cc", "-c++")
    r = subprocess.run(["go", "test", "-c", "-fuzz=.", "-o", out, "."],
                       cwd=pkgdir, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("build %s: %s" % (pkgdir, r.stderr[-2000:]))


def targets(work, which):
    """name -> (target, plain binary, cgo-cc binary)."""
    out = {}
    if "gate" in which:
        d = os.path.join(work, "pkg")
        shutil.copytree(os.path.join(ROOT, "tests", "cli", "cgo-cc", "pkg"), d)
        for kind, cc in (("plain", "clang"), ("cgocc", CGOCC)):
            build(d, os.path.join(work, "gate-%s.test" % kind), cc)
        out["gate"] = ("FuzzGate", os.path.join(work, "gate-plain.test"),
                       os.path.join(work, "gate-cgocc.test"))
    if "big" in which or "bigflat" in which:
        import test_cgo  # the generator of tests/cli/cgo-cc
        d = os.path.join(work, "big")
        test_cgo.FUNCS = 300  # at go's default -O2: about 127,000 counters
        test_cgo.write_big(d)
        for kind, cc in (("plain", "clang"), ("cgocc", CGOCC)):
            build(d, os.path.join(work, "big-%s.test" % kind), cc)
        for name, target in (("big", "FuzzBigRun"), ("bigflat", "FuzzBigFlat")):
            if name in which:
                out[name] = (target, os.path.join(work, "big-plain.test"),
                             os.path.join(work, "big-cgocc.test"))
    for mod in ("sqlite", "zstd", "webp", "lz4"):
        if mod not in which:
            continue
        c = os.path.join(CACHE, "cgo", mod)
        if not os.path.exists(os.path.join(c, "cgocc.test")):
            sys.exit("run bench/cgo/cgo_bench.py --modules %s first (it "
                     "builds %s)" % (mod, c))
        out[mod] = ("FuzzModule", os.path.join(c, "go.test"),
                    os.path.join(c, "cgocc.test"))
    return out


CGOFUZZ = os.path.join(ROOT, "build", "bin", "cgofuzz")
# column -> (which build, engine, extra environment)
KINDS = {
    "plain": ("plain", "go", {}),
    "cgocc": ("cgocc", "go", {}),
    "cgofuzz-before": ("cgocc", "cgofuzz", {"CGOFUZZ_GO_SNAPSHOT": "go"}),
    "cgofuzz-cut": ("cgocc", "cgofuzz", {"CGOFUZZ_GO_SNAPSHOT": "cut"}),
    "cgofuzz": ("cgocc", "cgofuzz", {}),
    "cgofuzz-1p": ("cgocc", "cgofuzz", {"GOMAXPROCS": "1"}),
}


def run_once(binary, target, execs, work, engine="go", env=None):
    d = tempfile.mkdtemp(dir=work)
    if engine == "go":
        cmd = [binary, "-test.run=^%s$" % target, "-test.fuzz=^%s$" % target,
               "-test.fuzztime=%dx" % execs, "-test.fuzzminimizetime=1x",
               "-test.parallel=1",
               "-test.fuzzcachedir=" + os.path.join(d, "cache")]
    else:
        # -fuzzcontinue: cgofuzz opens the gate (a planted failure), and
        # goes on to the same number of execs.
        cmd = [CGOFUZZ, "fuzz", "-run=^%s$" % target, "-fuzz=^%s$" % target,
               "-fuzztime=%dx" % execs, "-fuzzminimizetime=1x", "-parallel=1",
               "-fuzzcontinue",
               "-fuzzcachedir=" + os.path.join(d, "cache"), binary]
    t0 = time.monotonic()
    r = subprocess.run(cmd, cwd=d, capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})))
    dt = time.monotonic() - t0
    shutil.rmtree(d, ignore_errors=True)
    return dt, r.returncode


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--execs", type=int, default=100000)
    ap.add_argument("--module-execs", type=int, default=10000,
                    help="execs per run on the cgo_bench modules")
    ap.add_argument("--targets", default="gate,big,bigflat,sqlite")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="cgo_cost-")
    try:
        ts = targets(work, a.targets.split(","))
        print("| target | execs | go test -fuzz, plain clang | go test -fuzz, "
              "cgo-cc | cgofuzz, cgo-cc, Go's snapshot loop | cgofuzz, cgo-cc, "
              "cut snapshot | cgofuzz, cgo-cc | cgofuzz, cgo-cc, GOMAXPROCS=1 "
              "| cgo-cc / plain (go) | Go's loop / cgofuzz's snapshot | cut / "
              "cgofuzz's snapshot |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        for name, (target, plain, cgocc) in ts.items():
            n = a.execs if name in ("gate", "big", "bigflat") else \
                a.module_execs
            times = {k: [] for k in KINDS}
            for i in range(a.runs):
                order = list(KINDS) if i % 2 == 0 else list(KINDS)[::-1]
                for kind in order:
                    build_, engine, env = KINDS[kind]
                    dt, rc = run_once(plain if build_ == "plain" else cgocc,
                                      target, n, work, engine, env)
                    if rc != 0 and not (engine == "cgofuzz" and rc == 1):
                        sys.exit("%s %s: exit %d" % (name, kind, rc))
                    times[kind].append(dt / n * 1e6)
            med = {k: statistics.median(v) for k, v in times.items()}
            cell = lambda k: "%.1f us/exec (%s)" % (
                med[k], ", ".join("%.1f" % t for t in times[k]))
            print("| %s | %d x %d | %s | %s | %s | %s | %s | %s | %.2fx | "
                  "%.2fx | %.2fx |" % (
                      name, a.runs, n, cell("plain"), cell("cgocc"),
                      cell("cgofuzz-before"), cell("cgofuzz-cut"),
                      cell("cgofuzz"), cell("cgofuzz-1p"),
                      med["cgocc"] / med["plain"],
                      med["cgofuzz-before"] / med["cgofuzz"],
                      med["cgofuzz-cut"] / med["cgofuzz"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
