#!/usr/bin/env python3
"""goexec_bench.py: what go test -exec=cgofuzz costs when nothing is fuzzed.

Plain `go test` runs (no -fuzz) go through cgofuzz too when a shell or CI
job sets GOFLAGS=-exec=cgofuzz; cgofuzz then only execs the test binary
(csrc/cli/cmd_exec.c). This measures that cost on a real module with many
packages (golang.org/x/text, from the Go module proxy), two ways:

1. per binary: every package's test binary (go test -c -o DIR/ ./...) run
   with -test.run=^$ directly and through cgofuzz, alternating, --reps
   times each; the overhead is the difference of the medians, per binary
   and over all binaries;
2. whole runs: `go test -count=1 -short ./...` with and without
   -exec=cgofuzz, alternating, --runs times each: wall-time medians and
   whether the result lines (times taken out) are the same.

Usage: bench/goexec/goexec_bench.py [--module golang.org/x/text@v0.44.0]
           [--reps 21] [--runs 3] [--out FILE]
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
from benchlib import ROOT, stdout_of  # noqa: E402


def timed(cmd, cwd):
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return time.perf_counter() - t, p.returncode


def norm(out):
    out = re.sub(r"\d+\.\d+s", "T", out)
    return sorted(l for l in out.splitlines()
                  if re.match(r"(ok|FAIL|\?|---)\s", l))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--module", default="golang.org/x/text@v0.44.0")
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--reps", type=int, default=21)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out")
    a = ap.parse_args()
    cg = os.path.abspath(a.cgofuzz)
    env = dict(os.environ)
    env.pop("GOFLAGS", None)
    work = tempfile.mkdtemp(prefix="goexec-bench-")
    try:
        d = stdout_of(["go", "mod", "download", "-json", a.module], cwd=work,
               env=env)
        src = re.search(r'"Dir": "([^"]+)"', d).group(1)
        mod = os.path.join(work, "mod")
        shutil.copytree(src, mod)
        for root, dirs, files in os.walk(mod):
            for n in dirs + files:
                os.chmod(os.path.join(root, n), 0o755)
        bins = os.path.join(work, "bins")
        os.makedirs(bins)
        # One binary per package with tests (names would collide in one
        # go test -c -o DIR/ ./...: several packages are called internal).
        pkgs = stdout_of(["go", "list", "-f",
                   "{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}",
                   "./..."], cwd=mod, env=env).split()
        for i, pkg in enumerate(pkgs):
            stdout_of(["go", "test", "-c", "-o",
                os.path.join(bins, "%02d-%s.test" % (i, pkg.split("/")[-1])),
                pkg], cwd=mod, env=env)
        exes = sorted(os.listdir(bins))
        # 1. Per binary, from a package directory like go test's.
        per = []
        for e in exes:
            b = os.path.join(bins, e)
            direct, via = [], []
            for _ in range(a.reps):
                direct.append(timed([b, "-test.run=^$"], mod)[0])
                via.append(timed([cg, b, "-test.run=^$"], mod)[0])
            per.append((e, statistics.median(direct), statistics.median(via)))
        over = [v - dd for _, dd, v in per]
        # 2. Whole go test runs, alternating.
        walls = {"go test": [], "go test -exec=cgofuzz": []}
        lines = {}
        for _ in range(a.runs):
            for name, extra in (("go test", []),
                                ("go test -exec=cgofuzz", ["-exec=" + cg])):
                t = time.perf_counter()
                p = subprocess.run(["go", "test", "-count=1", "-short"] +
                                   extra + ["./..."], cwd=mod, env=env,
                                   capture_output=True, text=True)
                walls[name].append(time.perf_counter() - t)
                lines.setdefault(name, norm(p.stdout + p.stderr))
        same = lines["go test"] == lines["go test -exec=cgofuzz"]
    finally:
        shutil.rmtree(work, ignore_errors=True)

    ms = lambda s: "%.2f" % (s * 1000)
    rows = ["| %s | %s | %s | %s |" % (e, ms(dd), ms(v), ms(v - dd))
            for e, dd, v in per]
    w0 = statistics.median(walls["go test"])
    w1 = statistics.median(walls["go test -exec=cgofuzz"])
    text = "\n".join([
        "# go test -exec=cgofuzz without fuzzing: the cost per test binary",
        "",
        "%s, %s, %d test binaries; %s on %d cores; %s." % (
            a.module, stdout_of(["go", "version"]).strip(), len(exes),
            os.uname().machine, os.cpu_count(),
            time.strftime("%Y-%m-%d")),
        "",
        "## 1. Each binary with -test.run=^$, directly and through cgofuzz",
        "",
        "Medians of %d alternating runs each (ms)." % a.reps,
        "",
        "| binary | direct | via cgofuzz | overhead |",
        "|---|---|---|---|",
        *rows,
        "",
        "Overhead per binary: median %s ms, max %s ms, mean %s ms." % (
            ms(statistics.median(over)), ms(max(over)),
            ms(statistics.mean(over))),
        "",
        "## 2. go test -count=1 -short ./..., %d runs each, alternating" %
        a.runs,
        "",
        "| command | wall times (s) | median (s) |",
        "|---|---|---|",
        *["| %s | %s | %.2f |" % (k, ", ".join("%.2f" % x for x in v),
                                  statistics.median(v))
          for k, v in walls.items()],
        "",
        "Difference of the medians: %.2f s over %d binaries (%.1f ms per "
        "binary; whole-run times vary by more than that from run to run, "
        "part 1 is the measurement). Result lines the same: %s "
        "(%d lines)." % (w1 - w0, len(exes), (w1 - w0) * 1000 / len(exes),
                         "yes" if same else "NO", len(lines["go test"])),
        "",
    ])
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
