#!/usr/bin/env python3
"""Every way a C target can die mid-fuzzing, under cgofuzz's coordinator
via -test.fuzz self-coordination (the binary is its own coordinator): the
failing input written to testdata must be the exact input that killed the
worker (crash.c fails on inputs starting with 'X', at least 3 bytes). Also
checks that `cgofuzz fuzz` drives a C target binary (discovery runs it with
-test.fuzz and argv[0] = cgofuzz's fake worker)."""
import os
import re
import shutil
import subprocess
import sys
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import check, finish, fresh, go_bytes  # noqa: E402



def fuzz(exe, work, mode, extra=()):
    d = fresh(os.path.join(work, mode))
    env = dict(os.environ, CRASH_MODE=mode, GODEBUG="fuzzseed=3")
    argv = [exe, "-test.fuzz=FuzzCrash", "-test.fuzztime=30s",
            "-test.parallel=1", "-test.fuzzminimizetime=0",
            "-test.fuzzcachedir=" + os.path.join(d, "cache")] + list(extra)
    p = subprocess.run(argv, cwd=d, env=env, timeout=60, text=True,
                       errors="replace", stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    m = re.search(r"Failing input written to (testdata/fuzz/FuzzCrash/\w+)",
                  p.stdout)
    data = None
    if m:
        with open(os.path.join(d, m.group(1)), encoding="utf-8") as f:
            data = go_bytes(f.read())
    return p, data, d, m and m.group(1)


def main():
    exe, typed, cgofuzz, work, asan, src, build = map(os.path.abspath,
                                                      sys.argv[1:8])
    fresh(work)
    cases = [("fatal", "planted failure", ()),
             ("segv", "", ()),
             ("abort", "signal: aborted", ()),
             ("exit0", "exit status 2", ()),
             ("exit3", "exit status 3", ()),
             ("stack", "", ()),
             ("hang", "exit status 2", ("-test.fuzztimeout=1s",)),
             ("oom", "exit status 2", ("-test.fuzzrsslimitmb=200",))]
    for mode, want, extra in cases:
        p, data, d, path = fuzz(exe, work, mode, extra)
        ok = (p.returncode == 1 and "--- FAIL: FuzzCrash" in p.stdout and
              want in p.stdout + p.stderr and data is not None and
              len(data) >= 3 and data[:1] == b"X")
        check("%s: recorded with its exact input (%r)" % (mode, data), ok,
              p.stdout[-600:] + p.stderr[-600:])
        if ok and mode not in ("hang", "oom"):
            # The recorded input must fail again in regression mode.
            r = subprocess.run([exe, "-test.run=FuzzCrash/" +
                                os.path.basename(path)], cwd=d, timeout=30,
                               env=dict(os.environ, CRASH_MODE=mode),
                               stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL)
            check("%s: the written input reproduces" % mode,
                  r.returncode != 0 or mode == "exit0")

    # cgofuzz fuzz on a C target binary: discovery, then its coordinator.
    d = fresh(os.path.join(work, "cli"))
    p = subprocess.run([cgofuzz, "fuzz", "-fuzz=FuzzBytes", "-fuzztime=30s",
                        "-parallel=1", "-fuzzminimizetime=0",
                        "-fuzzcachedir=" + os.path.join(d, "cache"), typed],
                       cwd=d, timeout=60, text=True, errors="replace",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check("cgofuzz fuzz drives a C target binary to its bug",
          p.returncode == 1 and "found the bug" in p.stdout and
          "Failing input written" in p.stdout,
          p.stdout[-800:] + p.stderr[-800:])

    # A libFuzzer harness built by `cgofuzz cc -fsanitize=address,fuzzer`:
    # ASan's report ends the worker; the input is still exact.
    d = fresh(os.path.join(work, "asan"))
    p = subprocess.run([asan, "-test.fuzz=.", "-test.fuzztime=30s",
                        "-test.parallel=1", "-test.fuzzminimizetime=0",
                        "-test.fuzzcachedir=" + os.path.join(d, "cache")],
                       cwd=d, timeout=60, text=True, errors="replace",
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    m = re.search(r"Failing input written to (testdata/fuzz/\w+/\w+)",
                  p.stdout)
    data = None
    if m:
        with open(os.path.join(d, m.group(1)), encoding="utf-8") as f:
            data = go_bytes(f.read())
    check("ASan heap overflow: exact input (%r)" % data,
          p.returncode == 1 and data is not None and len(data) >= 3 and
          data[:1] == b"X", p.stdout[-600:] + p.stderr[-600:])
    if m:
        r = subprocess.run([asan], cwd=d, timeout=30, text=True,
                           errors="replace", stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        check("... and ASan reports it again in regression mode",
              r.returncode != 0 and "heap-buffer-overflow" in r.stderr,
              r.stderr[-400:])

    # The CMake package: find_package(cgofuzz) + cgofuzz_add_fuzz_target,
    # whose ctest test runs the seed corpus.
    d = fresh(os.path.join(work, "pkg"))
    steps = [["cmake", "-S", os.path.join(src, "tests/worker/cmake_pkg"),
              "-B", d, "-DCMAKE_C_COMPILER=clang",
              "-Dcgofuzz_DIR=" + os.path.join(src, "cmake"),
              "-DCGOFUZZ_BUILD_DIR=" + build],
             ["cmake", "--build", d],
             ["ctest", "--test-dir", d, "--output-on-failure"]]
    out = ""
    for st in steps:
        r = subprocess.run(st, timeout=120, text=True, errors="replace",
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        out += r.stdout
        if r.returncode != 0:
            break
    check("CMake package: configure, build, seed corpus as a ctest test",
          r.returncode == 0 and "100% tests passed" in out,
          out[-1000:])
    if r.returncode == 0:
        r = subprocess.run([os.path.join(d, "pkg_fuzz"), "-test.list=."],
                           timeout=10, text=True, stdout=subprocess.PIPE)
        check("... the target is a C fuzz target",
              r.stdout == "FuzzLibFuzzer\n", r.stdout)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
