#!/usr/bin/env python3
"""fuzztest.py: Go's own fuzzing script tests, with cgofuzz as go test's -exec.

The installed Go carries the tests of `go test -fuzz` as scripts
($(go env GOROOT)/src/cmd/internal/fuzztest/testdata/script/*.txt). This
builds their runner (`go test -c cmd/internal/fuzztest`, GOFLAGS kept away
from that build) and runs it from its directory with GOFLAGS=-exec=PROG, so
that every `go test` in every script runs its test binary through PROG.

CGOFUZZ_EXEC_LOG (cmd_exec.c) records what cgofuzz did with each binary:
"fuzz" (its coordinator fuzzed the target) or "exec" (the binary ran as it
is: no -test.fuzz). Those lines are counted per script, so the table shows
that the fuzzing runs went through cgofuzz and not around it.

Usage:
  scripts/fuzztest.py [--exec PROG] [--run REGEXP] [--out FILE]
                      [--parallel N] [--workdir DIR]
PROG defaults to build/bin/cgofuzz; --exec passthrough uses a wrapper that
only execs the binary (the control). --run selects scripts by name (Go
regexp on the script's base name, e.g. 'chatty|match'). Exit status: 0
when no script failed.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# Scripts that check a behaviour cgofuzz deliberately does otherwise, not
# run by default; each with go test's behaviour and cgofuzz's (also in
# docs/notes.md).
DIFFERENT = {
    "test_fuzz_err_deadlock":
        "a goroutine of the target deletes the fuzz cache directory every "
        "second while fuzzing runs without -fuzztime; go's coordinator fails "
        "its next cache write ('open ...: no such file or directory') and "
        "the script expects that failure. cgofuzz makes the directory again "
        "and goes on fuzzing (a cache cleaned under a running fuzzer is not "
        "a bug in the code under test), so the script would fuzz forever.",
}


def go(*args, **kw):
    env = dict(os.environ)
    env.pop("GOFLAGS", None)
    return subprocess.run(["go", *args], check=True, capture_output=True,
                          text=True, env=env, **kw).stdout.strip()


def build_runner(workdir):
    """fz.test for the installed Go, rebuilt when the Go version changes."""
    version = go("env", "GOVERSION")
    os.makedirs(workdir, exist_ok=True)
    exe = os.path.join(workdir, "fz.test")
    stamp = os.path.join(workdir, "fz.test.version")
    if os.path.exists(exe) and os.path.exists(stamp) and \
            open(stamp).read() == version:
        return exe, version
    go("test", "-c", "-o", exe, "cmd/internal/fuzztest")
    with open(stamp, "w") as f:
        f.write(version)
    return exe, version


def script_of(path):
    m = re.search(r"TestScript(test_fuzz\w*?)\d+/", path)
    return m.group(1) if m else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--exec", default=os.path.join(ROOT, "build", "bin",
                                                   "cgofuzz"))
    ap.add_argument("--run", default="")
    ap.add_argument("--out")
    ap.add_argument("--parallel", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--workdir", default=os.path.join(ROOT, "build",
                                                      "fuzztest"))
    ap.add_argument("--timeout", default="60m")
    ap.add_argument("--skip", default=",".join(DIFFERENT),
                    help="scripts not to run, comma-separated (default: "
                    "the deliberate differences, see DIFFERENT)")
    a = ap.parse_args()

    exe, version = build_runner(a.workdir)
    scriptdir = os.path.join(go("env", "GOROOT"), "src", "cmd", "internal",
                             "fuzztest")
    names = sorted(f[:-4] for f in os.listdir(os.path.join(
        scriptdir, "testdata", "script")) if f.endswith(".txt"))
    tmp = tempfile.mkdtemp(prefix="fuzztest-")
    try:
        prog = a.exec
        if prog == "passthrough":
            prog = os.path.join(tmp, "passthrough.sh")
            with open(prog, "w") as f:
                f.write('#!/bin/sh\nexec "$@"\n')
            os.chmod(prog, 0o755)
        prog = os.path.abspath(prog)
        log = os.path.join(tmp, "exec.log")
        env = dict(os.environ, GOFLAGS="-exec=" + prog, CGOFUZZ_EXEC_LOG=log)
        run = "TestScript"
        if a.run:
            run += "/^(" + a.run + ")$" if "test_fuzz" in a.run else \
                "/^test_fuzz_?(" + a.run + ")$"
        skipped = [n for n in a.skip.split(",") if n]
        cmd = [exe, "-test.run", run, "-test.v", "-test.parallel",
               str(a.parallel), "-test.timeout", a.timeout]
        if skipped:
            cmd += ["-test.skip", "TestScript/^(" + "|".join(skipped) + ")$"]
        start = time.time()
        outpath = os.path.join(a.workdir, "last.out")
        with open(outpath, "w") as f:  # as it goes, for a look meanwhile
            p = subprocess.run(cmd, cwd=scriptdir, env=env, stdout=f,
                               stderr=subprocess.STDOUT, text=True)
        wall = time.time() - start
        out = open(outpath).read()
        results = {}
        for m in re.finditer(
                r"^\s*--- (PASS|FAIL|SKIP): TestScript/(\S+) \(([\d.]+)s\)",
                out, re.M):
            results[m.group(2)] = (m.group(1), float(m.group(3)))
        counts = {}
        if os.path.exists(log):
            for line in open(log):
                w = line.split()
                if len(w) >= 2:
                    c = counts.setdefault(script_of(w[1]), {"fuzz": 0,
                                                           "exec": 0})
                    c["fuzz" if w[0] == "fuzz" else "exec"] += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    rows = []
    tally = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for n in skipped:
        if n in names and (not a.run or re.search(a.run, n)):
            rows.append(f"| {n} | not run: deliberate difference | | | |")
    fuzzed = execd = 0
    for n in names:
        if n not in results:
            continue
        res, secs = results[n]
        tally[res] += 1
        c = counts.get(n, {"fuzz": 0, "exec": 0})
        fuzzed += c["fuzz"]
        execd += c["exec"]
        rows.append(f"| {n} | {res} | {secs:.1f} | {c['fuzz']} | {c['exec']} |")
    text = "\n".join([
        f"# Go's fuzzing script tests with -exec={os.path.basename(a.exec)}",
        "",
        f"{version}, {len(results)} of {len(names)} scripts run "
        f"(--run '{a.run}'), -test.parallel {a.parallel}, "
        f"wall {wall:.0f} s, on {os.uname().machine} with "
        f"{os.cpu_count()} cores.",
        "",
        "fuzz runs: test binaries whose fuzzing cgofuzz's coordinator did; "
        "exec'd: binaries run unchanged (no -test.fuzz), from "
        "CGOFUZZ_EXEC_LOG.",
        "",
        "| script | result | seconds | fuzz runs | exec'd |",
        "|---|---|---|---|---|",
        *rows,
        "",
        f"{tally['PASS']} passed, {tally['FAIL']} failed, {tally['SKIP']} "
        f"skipped; {fuzzed} fuzz runs by cgofuzz, {execd} binaries exec'd",
        "",
        *[f"- {n}: {DIFFERENT.get(n, 'skipped with --skip')}" for n in skipped
          if n in names],
        "",
    ])
    print(text)
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    if tally["FAIL"] or p.returncode != 0 and not results:
        if not results:
            sys.stderr.write(out[-4000:])
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
