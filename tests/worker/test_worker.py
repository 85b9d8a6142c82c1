#!/usr/bin/env python3
"""C fuzz targets end to end: regression mode, -test.list, and Go's own
coordinator driving the C worker (Go starts workers from os.Args[0], so the
Go test binary is exec'd with argv[0] set to the C target)."""
import argparse
import os
import re
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import check, finish, fresh  # noqa: E402  (tests/checks.py)



def run(argv, cwd, timeout=30, exe=None, env=None):
    p = subprocess.run(argv, cwd=cwd, executable=exe, env=env, timeout=timeout,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace")
    return p.returncode, p.stdout, p.stderr


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def test_list(a, work):
    rc, out, _ = run([a.typed, "-test.list=."], work)
    check("-test.list=. lists the typed targets",
          rc == 0 and out == "FuzzBytes\nFuzzPass\nFuzzMulti\n", out)
    rc, out, _ = run([a.typed, "--test.list", "Multi"], work)
    check("-test.list with a pattern", rc == 0 and out == "FuzzMulti\n", out)
    rc, out, _ = run([a.libfuzzer, "-test.list=."], work)
    check("a libFuzzer harness becomes FuzzLibFuzzer",
          rc == 0 and out == "FuzzLibFuzzer\n", out)
    rc, _, err = run([a.typed, "-nosuchflag"], work)
    check("unknown flag exits 2",
          rc == 2 and "flag provided but not defined" in err, err)


def test_regression(a, work):
    d = fresh(os.path.join(work, "regress"))
    rc, out, _ = run([a.typed], d)
    check("seeds only: PASS, exit 0", rc == 0 and out == "PASS\n", out)

    write(os.path.join(d, "testdata/fuzz/FuzzBytes/crash"),
          'go test fuzz v1\n[]byte("FUZZY")\n')
    write(os.path.join(d, "testdata/fuzz/FuzzBytes/fine"),
          'go test fuzz v1\n[]byte("FUN")\n')
    rc, out, _ = run([a.typed], d)
    want = ("--- FAIL: FuzzBytes (0.00s)\n"
            "    --- FAIL: FuzzBytes/crash (0.00s)\n"
            "        typed.c:21: found the bug: 5 bytes\n"
            "FAIL\n")
    check("a failing testdata file: go test's report, exit 1",
          rc == 1 and re.sub(r"\d+\.\d\ds", "0.00s", out) == want, out)
    rc, out, _ = run([a.typed, "-test.run=FuzzBytes/fine", "-test.v"], d)
    check("-test.run=Target/entry -test.v",
          rc == 0 and "=== RUN   FuzzBytes/fine" in out and
          "--- PASS: FuzzBytes/fine" in out and "crash" not in out and
          out.endswith("PASS\n"), out)
    rc, out, _ = run([a.typed, "-test.run=^FuzzPass$"], d)
    check("-test.run selects targets", rc == 0 and out == "PASS\n", out)

    write(os.path.join(d, "testdata/fuzz/FuzzMulti/bools"),
          "go test fuzz v1\nbool(true)\nbool(true)\nbool(true)\nbool(true)\n"
          "bool(true)\nbool(true)\nbool(true)\n")
    write(os.path.join(d, "testdata/fuzz/FuzzMulti/bad"),
          'go test fuzz v1\nstring("BAD")\nint(-7)\nbool(false)\n'
          '[]byte("")\nbyte(\'a\')\nfloat64(0)\nrune(\'y\')\n')
    rc, out, _ = run([a.typed, "-test.run=FuzzMulti"], d)
    check("a mistyped testdata file fails the target, Go's message",
          rc == 1 and '"testdata/fuzz/FuzzMulti/bools": mismatched types in '
          "corpus entry: [bool bool bool bool bool bool bool], want "
          "[string int bool []uint8 uint8 float64 int32]" in out, out)
    os.remove(os.path.join(d, "testdata/fuzz/FuzzMulti/bools"))
    rc, out, _ = run([a.typed, "-test.run=FuzzMulti"], d)
    check("errorf then skip: still a failure",
          rc == 1 and "--- FAIL: FuzzMulti/bad" in out and
          "typed.c:38: bad string, int -7" in out, out)


def build_go(a, work):
    gopkg = os.path.join(work, "gopkg")
    shutil.rmtree(gopkg, ignore_errors=True)
    shutil.copytree(a.gopkg, gopkg)
    exe = os.path.join(work, "go.test")
    env = dict(os.environ, GOFLAGS="-mod=mod", GOTOOLCHAIN="local")
    rc, out, err = run([a.go, "test", "-c", "-fuzz=.", "-o", exe, "."],
                       gopkg, timeout=120, env=env)
    check("go test -c -fuzz builds the Go coordinator", rc == 0, out + err)
    return exe if rc == 0 else None


def coordinate(gotest, worker, target, cwd, fuzztime, parallel=2):
    """Runs the Go test binary as coordinator with argv[0] = worker."""
    argv = [worker, "-test.fuzz=^%s$" % target, "-test.run=^%s$" % target,
            "-test.fuzztime=" + fuzztime, "-test.parallel=%d" % parallel,
            "-test.fuzzcachedir=" + os.path.join(cwd, "cache")]
    return run(argv, cwd, timeout=60, exe=gotest)


def test_go_coordinator(a, work):
    gotest = build_go(a, work)
    if not gotest:
        return
    d = fresh(os.path.join(work, "coord"))
    rc, out, err = coordinate(gotest, a.typed, "FuzzBytes", d, "30s")
    print(out + err)
    check("Go's coordinator finds the C target's bug via the C worker",
          rc == 1 and "--- FAIL: FuzzBytes" in out and
          "typed.c:21: found the bug" in out and
          "fuzz: minimizing" in err)
    m = re.search(r"Failing input written to (testdata/fuzz/FuzzBytes/\w+)",
                  out)
    check("Go wrote a crash file", m is not None)
    if m:
        with open(os.path.join(d, m.group(1))) as f:
            data = f.read()
        check("the C worker minimized it to FUZ",
              data == 'go test fuzz v1\n[]byte("FUZ")\n', data)
        name = os.path.basename(m.group(1))
        rc, out, _ = run([a.typed, "-test.run=FuzzBytes/" + name], d)
        check("the crash file reproduces in the C target's regression mode",
              rc == 1 and "--- FAIL: FuzzBytes/" + name in out and
              "found the bug: 3 bytes" in out,
              out)
        rc, out, _ = run([gotest, "-test.run=FuzzBytes/" + name], d)
        check("... and in the Go test binary",
              rc == 1 and "found the bug: 3 bytes" in out, out)

    # Several argument kinds, coverage replies and KeepCoverage minimization;
    # any replay mismatch would show as "modified input" or a panic.
    d = fresh(os.path.join(work, "multi"))
    # (Count limits, not time: a time limit that expires mid-call makes Go's
    # coordinator report "context deadline exceeded" in about 1 run in 3
    # with this worker, an open issue.)
    rc, out, err = coordinate(gotest, a.typed, "FuzzMulti", d, "2000000x")
    check("FuzzMulti (7 kinds) under Go's coordinator, -fuzztime=Nx: PASS",
          rc == 0 and out.endswith("PASS\n") and "new interesting" in err,
          out + err)

    # A crash that kills the worker: Go rebuilds the input from shm.
    d = fresh(os.path.join(work, "abort"))
    rc, out, err = coordinate(gotest, a.libfuzzer, "FuzzLibFuzzer", d, "30s")
    print(out + err)
    check("abort() in a libFuzzer harness: Go records the crash",
          rc == 1 and "signal: aborted" in out)
    m = re.search(r"Failing input written to (testdata/fuzz/\w+/\w+)", out)
    if m:
        with open(os.path.join(d, m.group(1))) as f:
            data = f.read()
        check("the rebuilt crasher starts with LF",
              data.startswith('go test fuzz v1\n[]byte("LF'), data)
        rc, _, _ = run([a.libfuzzer], d)
        check("it aborts the C target in regression mode", rc == -6)

    # Throughput of a trivial target, one worker: C worker vs Go worker.
    for label, worker in (("C worker", a.typed), ("Go worker", gotest)):
        d = fresh(os.path.join(work, "speed"))
        rc, out, err = coordinate(gotest, worker, "FuzzPass", d, "2s", 1)
        print("     (%s, exit %d)" % (out.strip().splitlines()[-1:], rc))
        rates = re.findall(r"\((\d+)/sec\)", err)
        print("     %s: %s execs/sec (last progress line)" %
              (label, rates[-1] if rates else "?"))


def main():
    ap = argparse.ArgumentParser()
    for f in ("typed", "libfuzzer", "go", "gopkg", "workdir"):
        ap.add_argument("--" + f, required=True)
    a = ap.parse_args()
    work = fresh(a.workdir)
    test_list(a, work)
    test_regression(a, work)
    test_go_coordinator(a, work)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
