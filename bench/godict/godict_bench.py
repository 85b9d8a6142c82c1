#!/usr/bin/env python3
"""Time to failure on the planted targets of tests/coord/godict (docs/godict.md):
`cgofuzz fuzz` with its dictionary vs `go test -fuzz` (Go's own coordinator,
no comparison feedback), and, when go-118-fuzz-build and clang are
installed, the same targets as libFuzzer binaries (go-118-fuzz-build's
comparison instrumentation; FACTS.md item 13).

Targets: FuzzLoop (an 8-byte string compared byte by byte in a loop) and
FuzzMagic32 (a 32-bit magic compared as one integer, from
binary.LittleEndian.Uint32). Both Go tools run the test binary built once
with `go test -c -fuzz=.`, with -parallel 2, from a fresh copy of the
package and a fresh cache per run, without a pinned fuzzseed; runs of the
two alternate. A run that does not fail within the cap counts as the cap.
Each crash file is checked with `go test -run=Target/NAME` in its copy.
libFuzzer runs one process (libFuzzer's default: one core, not two), from an
empty corpus (go-118-fuzz-build ignores f.Add), -max_total_time=cap.

usage: bench/godict/godict_bench.py [--runs 3] [--cap 120] [--cgofuzz PATH]
                             [--no-libfuzzer] [--out FILE]
"""
import argparse
import datetime
import functools
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import benchlib  # noqa: E402
from benchlib import LINES, ROOT, log  # noqa: E402
SRC = os.path.join(ROOT, "tests", "coord", "godict", "target")
TARGETS = [("FuzzLoop", "godict: loop key matched"),
           ("FuzzMagic32", "godict: magic matched")]
G118 = "github.com/AdamKorcz/go-118-fuzz-build"

# Commands time out after 10 minutes here.
sh = functools.partial(benchlib.sh, timeout=600)


def timed(argv, cwd, cap):
    """Runs argv in its own session; (seconds, rc, stdout+stderr). Killed
    (rc None) at cap + 15 s."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        out, _ = p.communicate(timeout=cap + 15)
        rc = p.returncode
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, 9)
        out, _ = p.communicate()
        rc = None
    return time.monotonic() - t0, rc, out.decode(errors="replace")


def fresh_pkg(work, tag):
    d = os.path.join(work, tag)
    shutil.copytree(SRC, os.path.join(d, "pkg"))
    return os.path.join(d, "pkg"), os.path.join(d, "cache")


def check_crash(go, pkg, target, msg, out):
    m = re.search(r"Failing input written to (testdata/fuzz/%s/(\w+))"
                  % target, out)
    if not m:
        return "no crash file"
    r = sh([go, "test", "-count=1", "-timeout=60s",
            "-run=%s/%s" % (target, m.group(2))], cwd=pkg)
    return "crash file reproduces" if r.returncode == 1 and msg in \
        r.stdout + r.stderr else "crash file DOES NOT reproduce"


def run_go_tool(tool, args, go, binary, work, target, msg, i):
    pkg, cache = fresh_pkg(work, "%s-%s-%d" % (tool, target, i))
    if tool == "cgofuzz":
        argv = [args.cgofuzz, "fuzz", "-fuzz=^%s$" % target, "-parallel=2",
                "-fuzztime=%ds" % args.cap, "-fuzzcachedir=" + cache, binary]
    else:  # what go test -fuzz runs, minus the build
        argv = [binary, "-test.paniconexit0", "-test.timeout=10m",
                "-test.fuzz=^%s$" % target, "-test.run=^%s$" % target,
                "-test.parallel=2", "-test.fuzztime=%ds" % args.cap,
                "-test.fuzzcachedir=" + cache]
    secs, rc, out = timed(argv, pkg, args.cap)
    found = rc == 1 and "Failing input written to" in out
    note = check_crash(go, pkg, target, msg, out) if found else \
        "not found (rc=%s)" % rc
    log("  %-12s %-9s run %d: %6.1fs %s" % (target, tool, i, secs, note))
    return secs if found else None


def build_libfuzzer(go, work, log_fail):
    """The go-118-fuzz-build + libFuzzer binaries of both targets, or
    None (saying why)."""
    gopath = sh([go, "env", "GOPATH"]).stdout.strip()
    tool = shutil.which("go-118-fuzz-build") or \
        os.path.join(gopath, "bin", "go-118-fuzz-build")
    if not os.access(tool, os.X_OK):
        r = sh([go, "install", G118 + "@latest"], timeout=600)
        if r.returncode != 0:
            return log_fail("go install %s@latest failed: %s" %
                            (G118, r.stderr.strip()[-300:]))
    if not shutil.which("clang"):
        return log_fail("clang is not installed")
    pkg = os.path.join(work, "libfuzzer", "pkg")
    shutil.copytree(SRC, pkg)
    # As OSS-Fuzz's compile_native_go_fuzzer: the fuzz targets move to a
    # non-test file that imports go-118-fuzz-build's testing package.
    with open(os.path.join(pkg, "godict_test.go")) as f:
        text = f.read().replace('"testing"', '"%s/testing"' % G118)
    os.remove(os.path.join(pkg, "godict_test.go"))
    with open(os.path.join(pkg, "godict_libfuzzer.go"), "w") as f:
        f.write(text)
    r = sh([go, "get", G118 + "/testing"], cwd=pkg)
    if r.returncode != 0:
        return log_fail("go get %s/testing failed: %s" %
                        (G118, r.stderr.strip()[-300:]))
    sh([go, "mod", "tidy"], cwd=pkg)
    bins = {}
    for target, _ in TARGETS:
        a = os.path.join(pkg, target + ".a")
        r = sh([tool, "-o", a, "-func", target, "."], cwd=pkg)
        if r.returncode != 0:
            return log_fail("go-118-fuzz-build %s failed: %s" %
                            (target, (r.stdout + r.stderr).strip()[-300:]))
        b = os.path.join(pkg, target + ".libfuzzer")
        r = sh(["clang", "-fsanitize=fuzzer", a, "-o", b], cwd=pkg)
        if r.returncode != 0:
            return log_fail("clang -fsanitize=fuzzer failed: %s" %
                            r.stderr.strip()[-300:])
        bins[target] = b
    log("build: go-118-fuzz-build (%s) -func T . && clang -fsanitize=fuzzer"
        % tool)
    return bins


def run_libfuzzer(args, binary, work, target, i, extra=()):
    d = os.path.join(work, "lf-%s-%d%s" % (target, i, "-vp" if extra else ""))
    os.makedirs(d)
    argv = [binary, "-max_total_time=%d" % args.cap,
            "-artifact_prefix=%s/" % d] + list(extra)
    secs, rc, out = timed(argv, d, args.cap)
    found = "Test unit written to" in out
    log("  %-12s libFuzzer%s run %d: %6.1fs %s" % (
        target, " -use_value_profile=1" if extra else "", i, secs,
        "crash written" if found else "not found (rc=%s)" % rc))
    return secs if found else None


def summary(times, cap):
    found = [t for t in times if t is not None]
    med = statistics.median([t if t is not None else cap for t in times])
    s = "median %6.1fs, found %d/%d" % (med, len(found), len(times))
    if len(found) < len(times):
        s += " (a miss counts as the %ds cap%s)" % (
            cap, "; the median is a lower bound" if
            len(found) <= len(times) // 2 else "")
    return med, s


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cap", type=int, default=120)
    ap.add_argument("--cgofuzz", default=os.path.join(ROOT, "build", "bin",
                                                      "cgofuzz"))
    ap.add_argument("--no-libfuzzer", action="store_true")
    ap.add_argument("--value-profile", action="store_true",
                    help="also run libFuzzer with -use_value_profile=1")
    ap.add_argument("--out", default=os.path.join(
        ROOT, "bench", "results", "godict",
        "%s-godict_bench.txt" % datetime.date.today().isoformat()))
    args = ap.parse_args()
    go = shutil.which("go") or "/usr/local/go/bin/go"
    work = tempfile.mkdtemp(prefix="cgofuzz-godict-bench-")
    try:
        log("# godict benchmark: time to failure on tests/coord/godict's planted "
            "targets")
        log("go:        %s" % sh([go, "version"]).stdout.strip())
        log("cgofuzz:   %s (mtime %s)" % (args.cgofuzz, time.ctime(
            os.path.getmtime(args.cgofuzz))))
        log("machine:   %d cores, load avg %s at start" % (
            os.cpu_count(), " ".join("%.2f" % x for x in os.getloadavg())))
        log("settings:  %d runs per tool, cap %ds, -parallel=2 for cgofuzz "
            "and go, no fuzzseed pinned" % (args.runs, args.cap))
        pkg = os.path.join(work, "build", "pkg")
        shutil.copytree(SRC, pkg)
        binary = os.path.join(work, "godict.test")
        r = sh([go, "test", "-c", "-fuzz=.", "-o", binary, "."], cwd=pkg)
        if r.returncode != 0:
            sys.exit("go test -c failed:\n" + r.stdout + r.stderr)
        log("build: go test -c -fuzz=. -o godict.test  (tests/coord/godict/target)")
        results = {}
        log("")
        log("## runs (wall time to exit with a crash file; cgofuzz's "
            "includes extracting the dictionary)")
        for target, msg in TARGETS:
            for i in range(1, args.runs + 1):
                order = ["cgofuzz", "go"] if i % 2 else ["go", "cgofuzz"]
                for tool in order:
                    t = run_go_tool(tool, args, go, binary, work, target,
                                    msg, i)
                    results.setdefault((target, tool), []).append(t)
        if not args.no_libfuzzer:
            why = []
            bins = build_libfuzzer(go, work, lambda s: why.append(s))
            if bins:
                for target, _ in TARGETS:
                    for i in range(1, args.runs + 1):
                        results.setdefault((target, "libFuzzer"), []).append(
                            run_libfuzzer(args, bins[target], work, target,
                                          i))
                    if args.value_profile:
                        for i in range(1, args.runs + 1):
                            results.setdefault(
                                (target, "libFuzzer -use_value_profile=1"),
                                []).append(run_libfuzzer(
                                    args, bins[target], work, target, i,
                                    ["-use_value_profile=1"]))
            else:
                log("libFuzzer: skipped: %s" % why[0])
        log("")
        log("## medians")
        for target, _ in TARGETS:
            meds = {}
            for (t, tool), times in results.items():
                if t != target:
                    continue
                meds[tool], s = summary(times, args.cap)
                log("  %-12s %-30s %s" % (target, tool, s))
            if "cgofuzz" in meds and "go" in meds:
                log("  %-12s go/cgofuzz ratio of medians: %s%.0fx" % (
                    target, ">=" if None in results[(target, "go")] else "",
                    meds["go"] / meds["cgofuzz"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        f.write("\n".join(LINES) + "\n")
    print("written to %s" % args.out)


if __name__ == "__main__":
    main()
