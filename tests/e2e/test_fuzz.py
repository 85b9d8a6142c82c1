#!/usr/bin/env python3
"""End-to-end tests of `cgofuzz fuzz` against real Go test binaries.

Copies testdata/e2e/basic to a temp dir, builds it with `go test -c -fuzz=.`,
and runs cgofuzz on each planted bug; every subprocess has a time-out.
"""
import argparse, os, re, shutil, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
failures = []


def run(cmd, cwd, timeout):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, errors="replace")


def check(name, cond, detail=""):
    print(("ok   " if cond else "FAIL ") + name)
    if not cond:
        failures.append(name)
        print(detail)


def fuzz(cgofuzz, pkg, binary, cache, target, extra=()):
    cmd = [cgofuzz, "fuzz", "-fuzz=^%s$" % target, "-parallel=2",
           "-fuzzcachedir=" + cache] + list(extra) + [binary]
    return run(cmd, pkg, 120)


def crash_case(args, pkg, binary, cache, target, want_msg):
    r = fuzz(args.cgofuzz, pkg, binary, cache, target, ["-fuzztime=60s"])
    detail = "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr)
    check(target + ": exit 1", r.returncode == 1, detail)
    check(target + ": message", want_msg in r.stdout, detail)
    m = re.search(r"Failing input written to (testdata/fuzz/%s/([0-9a-f]{16}))"
                  % target, r.stdout)
    check(target + ": file named", m is not None, detail)
    if not m:
        return
    check(target + ": file exists", os.path.isfile(os.path.join(pkg, m.group(1))))
    check(target + ": re-run line", "go test -run=%s/%s" % (target, m.group(2))
          in r.stdout, detail)
    rr = run(["go", "test", "-run=%s/%s" % (target, m.group(2))], pkg, 120)
    check(target + ": go test reproduces", rr.returncode != 0,
          rr.stdout + rr.stderr)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cgofuzz", required=True)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="cgofuzz-e2e-")
    try:
        pkg = os.path.join(tmp, "basic")
        shutil.copytree(os.path.join(ROOT, "testdata", "e2e", "basic"), pkg)
        binary = os.path.join(tmp, "e2e.test")
        b = run(["go", "test", "-c", "-fuzz=.", "-o", binary, "."], pkg, 300)
        if b.returncode != 0:
            print(b.stdout, b.stderr)
            return 1
        cache = os.path.join(tmp, "cache")
        crash_case(args, pkg, binary, cache, "FuzzMagic",
                   "panic: found the magic prefix")
        crash_case(args, pkg, binary, cache, "FuzzExit",
                   "fuzzing process hung or terminated unexpectedly: exit status 3")
        crash_case(args, pkg, binary, cache, "FuzzSegv",
                   "fuzzing process hung or terminated unexpectedly")
        crash_case(args, pkg, binary, cache, "FuzzMulti", "multi bug:")

        r = fuzz(args.cgofuzz, pkg, binary, cache, "FuzzClean", ["-fuzztime=2s"])
        detail = "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr)
        check("FuzzClean: exit 0 PASS", r.returncode == 0 and r.stdout == "PASS\n", detail)
        check("FuzzClean: baseline line",
              "gathering baseline coverage: 1/1 completed, now fuzzing with 2 workers"
              in r.stderr, detail)
        check("FuzzClean: progress line",
              re.search(r"fuzz: elapsed: \ds, execs: \d+ \(\d+/sec\), new interesting: \d+ \(total: \d+\)",
                        r.stderr) is not None, detail)

        r = fuzz(args.cgofuzz, pkg, binary, cache, "FuzzClean", ["-fuzztime=5000x"])
        m = re.findall(r"execs: (\d+) ", r.stderr)
        check("FuzzClean: -fuzztime=5000x runs 5000 execs",
              r.returncode == 0 and m and m[-1] == "5000", r.stderr)

        r = fuzz(args.cgofuzz, pkg, binary, cache, "Fuzz.*")
        check("several targets: FAIL", r.returncode == 1 and
              "matches more than one fuzz test" in r.stderr, r.stderr)

        # Resume: Go reads the cache cgofuzz wrote (FuzzMagic's dir has
        # interesting inputs); a malformed cache file is skipped.
        cdir = os.path.join(cache, "FuzzClean")
        os.makedirs(cdir, exist_ok=True)
        with open(os.path.join(cdir, "garbage"), "w") as f:
            f.write("garbage\n")
        r = fuzz(args.cgofuzz, pkg, binary, cache, "FuzzClean", ["-fuzztime=1s"])
        check("malformed cache file skipped", r.returncode == 0, r.stdout + r.stderr)
        n = len([x for x in os.listdir(os.path.join(cache, "FuzzMagic"))])
        g = run([binary, "-test.fuzz=^FuzzMagic$", "-test.run=^$",
                 "-test.fuzztime=1x", "-test.parallel=1",
                 "-test.fuzzcachedir=" + cache], os.path.join(tmp), 120)
        check("go reads cgofuzz's cache",
              ("gathering baseline coverage: 0/%d completed" % (n + 1)) in g.stderr,
              g.stdout + g.stderr)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
