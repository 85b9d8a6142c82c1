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


# Scripts that check a behaviour cgofuzz deliberately does otherwise (also in
# docs/go-users.md), with go test's behaviour and cgofuzz's. "skip": not run by
# default (it would not end); "line N": run, and expected to fail at that
# line of the script and nowhere else.
DIFFERENT = {
    "test_fuzz_err_deadlock": ("skip",
        "a goroutine of the target deletes the fuzz cache directory every "
        "second while fuzzing runs without -fuzztime; go's coordinator fails "
        "its next cache write ('open ...: no such file or directory') and "
        "the script expects that failure. cgofuzz makes the directory again "
        "and goes on fuzzing (a cache cleaned under a running fuzzer is not "
        "a bug in the code under test), so the script would fuzz forever."),
    "test_fuzz_non_crash_signal": ("line 20",
        "FuzzKill's input makes its worker SIGKILL itself. go test records "
        "no crash for a worker killed by SIGKILL (it could be the OOM killer "
        "or a user) and the script checks that no testdata is written. "
        "cgofuzz checks the kernel's OOM-kill count and runs the input alone "
        "again: a worker that dies of SIGKILL again on the same input, with "
        "no OOM kill, is the input's doing, and cgofuzz writes it to "
        "testdata with that explanation. FuzzNonCrash (SIGTERM) and "
        "FuzzCrash behave as go test's."),
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
    ap.add_argument("--skip", default=None,
                    help="scripts not to run, comma-separated (default: "
                    "the deliberate differences marked skip, see DIFFERENT; "
                    "none with --exec passthrough)")
    a = ap.parse_args()
    control = a.exec == "passthrough"  # go test's own behaviour: no DIFFERENT
    different = {} if control else DIFFERENT
    if a.skip is None:
        a.skip = ",".join(n for n, (how, _) in different.items()
                          if how == "skip")

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
        failed_at = {}  # script -> the lines it failed at
        for m in re.finditer(r"FAIL: testdata/script/(\w+)\.txt:(\d+):",
                             out):
            failed_at.setdefault(m.group(1), []).append(int(m.group(2)))
        counts = {}
        if os.path.exists(log):
            for line in open(log):
                w = line.split()
                if len(w) >= 2:
                    c = counts.setdefault(script_of(w[1]),
                                          {"fuzz": 0, "tests": 0, "exec": 0})
                    c[w[0] if w[0] in c else "exec"] += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    rows = []
    tally = {"PASS": 0, "FAIL": 0, "SKIP": 0, "DIFFERS": 0}
    ran = len([n for n in results if n in names])  # not TestScript/README
    notrun = [n for n in skipped if n in names and n not in results and
              (not a.run or re.search(a.run, n))]
    for n in notrun:
        rows.append(f"| {n} | not run: deliberate difference | | | | |")
    fuzzed = execd = answered = 0
    for n in names:
        if n not in results:
            continue
        res, secs = results[n]
        how = different.get(n, ("", ""))[0]
        if how.startswith("line "):
            want = int(how.split()[1])
            if res == "FAIL" and failed_at.get(n) == [want]:
                res = "DIFFERS"  # as expected, at that line only
            elif res == "PASS":
                res = "FAIL"  # no longer differs: update DIFFERENT
                rows.append(f"| {n} | passes, but DIFFERENT expects a "
                            f"failure at line {want} | | | | |")
        tally[res] += 1
        if res == "DIFFERS":
            res = f"differs at line {failed_at[n][0]}, as listed"
        c = counts.get(n, {"fuzz": 0, "tests": 0, "exec": 0})
        fuzzed += c["fuzz"]
        answered += c["tests"]
        execd += c["exec"]
        rows.append(f"| {n} | {res} | {secs:.1f} | {c['fuzz']} | "
                    f"{c['tests']} | {c['exec']} |")
    text = "\n".join([
        f"# Go's fuzzing script tests with -exec={os.path.basename(a.exec)}",
        "",
        f"{version}, {ran} of {len(names)} scripts run "
        f"(--run '{a.run}'), -test.parallel {a.parallel}, "
        f"wall {wall:.0f} s, on {os.uname().machine} with "
        f"{os.cpu_count()} cores.",
        "",
        "From CGOFUZZ_EXEC_LOG: fuzzed, runs with -test.fuzz whose fuzzing "
        "cgofuzz's coordinator did; answered, runs with -test.fuzz that "
        "ended before fuzzing (a failing test, a target that fails, skips "
        "or returns before f.Fuzz, -fuzz matching none or several), where "
        "the binary's own output is the answer; exec'd, binaries run "
        "unchanged (no -test.fuzz).",
        "",
        "| script | result | seconds | fuzzed | answered | exec'd |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"{tally['PASS']} passed, {tally['FAIL']} failed, {tally['SKIP']} "
        f"skipped, {tally['DIFFERS']} differ as listed, {len(notrun)} not "
        f"run; {fuzzed} runs fuzzed by cgofuzz, {answered} answered before "
        f"fuzzing, {execd} binaries exec'd",
        "",
        "Deliberate differences:",
        "",
        *[f"- {n} ({how}): {why}" for n, (how, why) in different.items()
          if n in results or n in notrun],
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
