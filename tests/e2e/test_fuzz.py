#!/usr/bin/env python3
"""End-to-end tests of `cgofuzz fuzz` against real Go test binaries.

Copies testdata/e2e/basic to a temp dir, builds it with `go test -c -fuzz=.`,
and runs cgofuzz on each planted bug; every subprocess has a time-out.
"""
import argparse, glob, os, re, shutil, signal, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import check, finish  # noqa: E402  (tests/checks.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd, cwd, timeout):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, errors="replace")


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def group_gone(pgid):
    """Whether no process is left in the process group (no orphans)."""
    for _ in range(50):
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.1)
    return False


def start_bg(cgofuzz, pkg, binary, cache, target, extra, tmpdir):
    """Starts cgofuzz in its own process group with a private TMPDIR;
    stdout/stderr go to files."""
    env = dict(os.environ, TMPDIR=tmpdir)
    out = open(os.path.join(tmpdir, "..", "bg.out"), "w")
    err = open(os.path.join(tmpdir, "..", "bg.err"), "w")
    cmd = [cgofuzz, "fuzz", "-fuzz=^%s$" % target, "-parallel=2",
           "-fuzzcachedir=" + cache] + list(extra) + [binary]
    p = subprocess.Popen(cmd, cwd=pkg, stdout=out, stderr=err, env=env,
                         start_new_session=True)
    return p, out.name, err.name


def wait_for(path, text, timeout):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if text in read(path):
            return True
        time.sleep(0.05)
    return False


def children(pid):
    kids = []
    for t in glob.glob("/proc/%d/task/*/children" % pid):
        kids += [int(x) for x in read(t).split()]
    return kids


def bg_case(args, pkg, binary, cache, tmp, name, target, marker, action,
            extra=("-fuzztime=60s",)):
    """Runs cgofuzz in the background, waits for marker on stderr, calls
    action(proc), then checks exit, orphans and shm files. Returns
    (returncode, stdout, stderr)."""
    tdir = os.path.join(tmp, "tmp-" + name)
    os.makedirs(tdir)
    p, outp, errp = start_bg(args.cgofuzz, pkg, binary, cache, target, extra,
                             tdir)
    try:
        seen = wait_for(errp, marker, 60)
        check(name + ": reached " + marker, seen, read(errp))
        if seen:
            action(p)
        rc = p.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        rc = p.wait(timeout=10)
        check(name + ": exits in time", False)
    check(name + ": no orphan processes", group_gone(p.pid))
    left = [f for f in os.listdir(tdir) if f.startswith("fuzz-")]
    check(name + ": no shm files left", not left, str(left))
    return rc, read(outp), read(errp)


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
    rr = run(["go", "test", "-timeout=5s", "-run=%s/%s" % (target, m.group(2))],
             pkg, 120)
    check(target + ": go test reproduces", rr.returncode != 0,
          rr.stdout + rr.stderr)
    return read(os.path.join(pkg, m.group(1)))


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
        data = crash_case(args, pkg, binary, cache, "FuzzMagic",
                          "panic: found the magic prefix")
        # test_fuzz_minimize: the crasher is minimized to the bug's 4 bytes.
        check("FuzzMagic: crasher minimized",
              data == 'go test fuzz v1\n[]byte("FUZZ")\n', str(data))
        # Interesting inputs go to the cache, minimized (as in
        # test_fuzz_minimize_interesting: some are 4-byte "F..." inputs).
        cached = [read(f) for f in glob.glob(os.path.join(cache, "FuzzMagic", "*"))]
        check("FuzzMagic: interesting inputs cached", len(cached) > 0)
        check("FuzzMagic: a cached input is minimized",
              any(re.fullmatch(r'go test fuzz v1\n\[\]byte\("F.{3}"\)\n', c)
                  for c in cached), str(cached))
        crash_case(args, pkg, binary, cache, "FuzzExit",
                   "fuzzing process hung or terminated unexpectedly: exit status 3")
        crash_case(args, pkg, binary, cache, "FuzzSegv",
                   "fuzzing process hung or terminated unexpectedly")
        crash_case(args, pkg, binary, cache, "FuzzMulti", "multi bug:")
        # Megabytes on the worker's stdout/stderr and in its Err message.
        crash_case(args, pkg, binary, cache, "FuzzNoisy", "noisy failure noise")

        # A hang: Go's worker gives up after 10 s (exit status 2).
        crash_case(args, pkg, binary, cache, "FuzzHang",
                   "fuzzing process hung or terminated unexpectedly: exit status 2")

        # Garbage on the response pipe: an error, no crasher, no crash of ours.
        r = fuzz(args.cgofuzz, pkg, binary, cache, "FuzzGarbage", ["-fuzztime=60s"])
        check("garbage reply: clear error", r.returncode == 1 and
              "communicating with fuzzing process: " in r.stdout and
              not os.path.exists(os.path.join(pkg, "testdata/fuzz/FuzzGarbage")),
              r.stdout + r.stderr)

        # -fuzzcontinue: both planted bugs written, once each.
        r = fuzz(args.cgofuzz, pkg, binary, cache, "FuzzTwo",
                 ["-fuzztime=4s", "-fuzzcontinue"])
        detail = "stdout:\n%s\nstderr:\n%s" % (r.stdout[-3000:], r.stderr)
        files = sorted(read(f) for f in
                       glob.glob(os.path.join(pkg, "testdata/fuzz/FuzzTwo/*")))
        check("-fuzzcontinue: exit 1", r.returncode == 1, detail)
        check("-fuzzcontinue: two distinct failures written", len(files) == 2
              and files[0].startswith('go test fuzz v1\n[]byte("A')
              and files[1].startswith('go test fuzz v1\n[]byte("B'),
              str(files) + detail)
        check("-fuzzcontinue: each reported once",
              r.stdout.count("Failing input written to") == 2
              and "bug A" in r.stdout and "bug B" in r.stdout, detail)

        # -run: the matching seed corpora run first (FuzzTwo's crashers now
        # fail them) and nothing is fuzzed.
        r = fuzz(args.cgofuzz, pkg, binary, cache, "FuzzClean",
                 ["-fuzztime=1s", "-run=^FuzzTwo$"])
        check("-run: failing tests stop fuzzing", r.returncode == 1 and
              "--- FAIL: FuzzTwo/" in r.stdout and "fuzz: elapsed" not in r.stderr,
              r.stdout[-2000:] + r.stderr)
        r = fuzz(args.cgofuzz, pkg, binary, cache, "FuzzClean",
                 ["-fuzztime=1s", "-run=^TestPlain$"])
        check("-run: passing tests, then fuzzing", r.returncode == 0 and
              r.stdout == "PASS\n" and "now fuzzing" in r.stderr,
              r.stdout + r.stderr)

        # test_fuzz_seed_corpus: a failing f.Add seed, nothing written.
        r = fuzz(args.cgofuzz, pkg, binary, cache, "FuzzSeedFail",
                 ["-fuzztime=5s"])
        check("seed failure reported",
              r.returncode == 1 and "failure while testing seed corpus entry: "
              "FuzzSeedFail/seed#0" in r.stderr and "bad seed" in r.stdout and
              not os.path.exists(os.path.join(pkg, "testdata/fuzz/FuzzSeedFail")),
              r.stdout + r.stderr)

        # test_fuzz_minimize: -fuzzminimizetime=0 writes the raw crasher.
        shutil.rmtree(os.path.join(pkg, "testdata/fuzz/FuzzMagic"))
        r = fuzz(args.cgofuzz, pkg, binary, os.path.join(tmp, "cache0"),
                 "FuzzMagic", ["-fuzztime=60s", "-fuzzminimizetime=0"])
        check("-fuzzminimizetime=0: no minimizing", r.returncode == 1 and
              "minimizing" not in r.stderr and "Failing input written" in r.stdout,
              r.stdout[-2000:] + r.stderr)

        # ^C mid-run and during the warm-up: PASS, no orphans, no shm files.
        def sigint(p):
            time.sleep(0.5)
            os.kill(p.pid, signal.SIGINT)
        rc, out, err = bg_case(args, pkg, binary, cache, tmp, "SIGINT mid-run",
                               "FuzzClean", "now fuzzing", sigint)
        check("SIGINT mid-run: PASS", rc == 0 and out == "PASS\n", out + err)
        def sighup(p):
            time.sleep(0.5)
            os.kill(p.pid, signal.SIGHUP)
        rc, out, err = bg_case(args, pkg, binary, cache, tmp, "SIGHUP mid-run",
                               "FuzzClean", "now fuzzing", sighup)
        check("SIGHUP mid-run: PASS", rc == 0 and out == "PASS\n", out + err)
        rc, out, err = bg_case(args, pkg, binary, cache, tmp, "SIGINT warm-up",
                               "FuzzSlow", "gathering baseline coverage: 0/1",
                               lambda p: os.kill(p.pid, signal.SIGINT))
        check("SIGINT warm-up: PASS", rc == 0 and out == "PASS\n", out + err)

        # SIGKILL of a worker from outside: reported like Go, no crasher.
        def kill_worker(p):
            time.sleep(0.3)
            kids = children(p.pid)
            check("SIGKILL: found a worker", len(kids) > 0)
            if kids:
                os.kill(kids[0], signal.SIGKILL)
        rc, out, err = bg_case(args, pkg, binary, cache, tmp, "SIGKILL worker",
                               "FuzzClean", "now fuzzing", kill_worker)
        check("SIGKILL worker: FAIL without a crasher", rc == 1 and
              "no crash will be recorded: signal: killed" in out and
              not os.path.exists(os.path.join(pkg, "testdata/fuzz/FuzzClean")),
              out + err)

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
        # No leaks or memory errors in the coordinator (a short run).
        if shutil.which("valgrind"):
            shutil.rmtree(os.path.join(pkg, "testdata/fuzz/FuzzTwo"))
            r = run(["valgrind", "--leak-check=full", "--error-exitcode=99",
                     "--errors-for-leak-kinds=definite,indirect,possible",
                     args.cgofuzz, "fuzz", "-fuzz=^FuzzTwo$", "-fuzzcontinue",
                     "-parallel=2", "-fuzzcachedir=" + cache, "-fuzztime=2s",
                     binary], pkg, 120)
            check("valgrind: clean -fuzzcontinue run", r.returncode == 1 and
                  "ERROR SUMMARY: 0 errors" in r.stderr, r.stderr[-3000:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
