#!/usr/bin/env python3
"""More end-to-end tests of `cgofuzz fuzz`: C targets through the
exact-input slot, discovery in the real working directory, and fuzzing
from zero values when the corpus is empty. Every subprocess has a
time-out; each case takes a few seconds.
"""
import argparse, os, re, shutil, subprocess, sys, tempfile, time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from checks import check, finish  # noqa: E402  (tests/checks.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(cmd, cwd, timeout=60):
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, errors="replace")


def fuzz(args, cwd, binary, target, extra=()):
    cmd = [args.cgofuzz, "fuzz", "-fuzz=^%s$" % target, "-parallel=2",
           "-fuzzcachedir=" + os.path.join(cwd, "cache")] + list(extra) + [binary]
    return run(cmd, cwd)


def magic_case(args, tmp):
    """The 8-byte magic needs trace-cmp, which a C worker only uses when
    the coordinator reads the exact-input slot."""
    d = os.path.join(tmp, "magic")
    os.makedirs(d)
    t0 = time.time()
    r = fuzz(args, d, args.magic, "FuzzMagic", ["-fuzztime=20s"])
    secs = time.time() - t0
    detail = "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr)
    check("C magic: found", r.returncode == 1 and "magic found" in r.stdout,
          detail)
    check("C magic: within 20 s", secs < 20, "%.1fs" % secs)
    m = re.search(r"Failing input written to testdata/fuzz/FuzzMagic/([0-9a-f]{16})",
                  r.stdout)
    check("C magic: file written", m is not None, detail)
    if m:
        rr = run([args.magic, "-test.run=FuzzMagic/" + m.group(1)], d)
        check("C magic: file reproduces", rr.returncode == 1 and
              "magic found" in rr.stdout, rr.stdout + rr.stderr)


def setup_case(args, tmp):
    """A target that reads a relative file before f.Fuzz: discovery runs
    in the real directory, and testdata entries are not taken for seeds."""
    pkg = os.path.join(tmp, "setup")
    shutil.copytree(args.gopkg, pkg)
    binary = os.path.join(tmp, "setup.test")
    b = run([args.go, "test", "-c", "-fuzz=.", "-o", binary, "."], pkg, 300)
    check("setup: build", b.returncode == 0, b.stdout + b.stderr)
    if b.returncode != 0:
        return None
    td = os.path.join(pkg, "testdata", "fuzz", "FuzzSetup")
    os.makedirs(td)
    with open(os.path.join(td, "boomfile"), "w") as f:
        f.write('go test fuzz v1\n[]byte("boom")\n')
    r = fuzz(args, pkg, binary, "FuzzSetup", ["-fuzztime=5s"])
    detail = "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr)
    check("setup: discovery in the package dir", "finding the arguments"
          not in r.stderr, detail)
    check("setup: testdata entry named as a file", r.returncode == 1 and
          "failure while testing seed corpus entry: FuzzSetup/boomfile"
          in r.stderr and "boom from testdata" in r.stdout, detail)
    os.remove(os.path.join(td, "boomfile"))
    with open(os.path.join(td, "tdfile"), "w") as f:
        f.write('go test fuzz v1\n[]byte("td")\n')
    r = fuzz(args, pkg, binary, "FuzzSetup", ["-fuzztime=3s"])
    detail = "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr)
    check("setup: 2 seeds + 1 testdata file", r.returncode == 0 and
          "gathering baseline coverage: 3/3 completed" in r.stderr, detail)
    check("final progress line printed once (3 s run)",
          len(re.findall(r"elapsed: 3s, execs", r.stderr)) == 1, detail)
    return pkg, binary


def noseed_case(args, pkg, binary):
    """No seeds: Go's warning, then fuzzing from zero values (with
    coverage)."""
    r = fuzz(args, pkg, binary, "FuzzNoSeed", ["-fuzztime=3s"])
    detail = "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr)
    check("Go no seeds: warning", "warning: starting with empty corpus\n"
          in r.stderr, detail)
    n = re.findall(r"new interesting: (\d+)", r.stderr)
    check("Go no seeds: coverage-guided", r.returncode == 1 or
          (n and int(n[-1]) > 0), detail)


def resume_from_go_case(args, pkg, binary):
    """cgofuzz resumes from a cache that go test -fuzz wrote (the other
    direction, go reading cgofuzz's cache, is checked in test_fuzz.py).
    FuzzNoSeed has branches for go to find (it may also find its bug: the
    inputs cached before that count all the same)."""
    cache = os.path.join(pkg, "go-cache")
    crashers = os.path.join(pkg, "testdata", "fuzz", "FuzzNoSeed")
    shutil.rmtree(crashers, ignore_errors=True)  # left by noseed_case
    g = run([binary, "-test.fuzz=^FuzzNoSeed$", "-test.run=^FuzzNoSeed$",
             "-test.fuzztime=20000x", "-test.parallel=2",
             "-test.fuzzcachedir=" + cache], pkg, 120)
    d = os.path.join(cache, "FuzzNoSeed")
    n = len(os.listdir(d)) if os.path.isdir(d) else 0
    check("resume: go test -fuzz wrote a cache (%d inputs)" % n,
          g.returncode in (0, 1) and n > 0, g.stdout + g.stderr)
    shutil.rmtree(crashers, ignore_errors=True)
    r = run([args.cgofuzz, "fuzz", "-fuzz=^FuzzNoSeed$", "-parallel=2",
             "-fuzztime=1000x", "-fuzzcachedir=" + cache, binary], pkg)
    want = "gathering baseline coverage: %d/%d completed" % (n, n)
    check("resume: cgofuzz warms up go's %d cached inputs" % n,
          r.returncode in (0, 1) and want in r.stderr and
          "starting with empty corpus" not in r.stderr, r.stdout + r.stderr)


def test2json_case(args, pkg, binary):
    """cgofuzz's output reads like go test's under test2json (go test
    -json): the target's pass or fail and the failure text come through as
    events."""
    import json

    def events(extra):
        r = run([args.go, "tool", "test2json", "-p", "example.com/setup",
                 args.cgofuzz, "fuzz", "-fuzz=^FuzzSetup$", "-parallel=2",
                 "-fuzzcachedir=" + os.path.join(pkg, "cache")] + extra +
                [binary], pkg, 120)
        evs = []
        for line in r.stdout.splitlines():
            try:
                evs.append(json.loads(line))
            except ValueError:
                pass
        return r, evs

    r, evs = events(["-v", "-fuzztime=1s"])
    acts = [(e.get("Action"), e.get("Test")) for e in evs]
    check("test2json: a passing run gives run and pass events for the target",
          ("run", "FuzzSetup") in acts and ("pass", "FuzzSetup") in acts and
          ("pass", None) in acts, r.stdout + r.stderr)
    td = os.path.join(pkg, "testdata", "fuzz", "FuzzSetup")
    os.makedirs(td, exist_ok=True)
    boom = os.path.join(td, "boomfile")
    with open(boom, "w") as f:
        f.write('go test fuzz v1\n[]byte("boom")\n')
    try:
        r, evs = events(["-fuzztime=5s"])
    finally:
        os.remove(boom)
    acts = [(e.get("Action"), e.get("Test")) for e in evs]
    out = "".join(e.get("Output", "") for e in evs
                  if e.get("Test") == "FuzzSetup")
    check("test2json: a failing run gives a fail event for the target, "
          "with the message", ("fail", "FuzzSetup") in acts and
          ("fail", None) in acts and "boom from testdata" in out,
          r.stdout + r.stderr)


def c_noseed_case(args, tmp):
    """A C harness without seeds: the zero entry is warmed up, so the
    worker learns the mask and reports coverage."""
    d = os.path.join(tmp, "asan")
    os.makedirs(d)
    r = fuzz(args, d, args.asan, "FuzzLibFuzzer", ["-fuzztime=3s"])
    detail = "stdout:\n%s\nstderr:\n%s" % (r.stdout, r.stderr)
    check("C no seeds: warning", "warning: starting with empty corpus\n"
          in r.stderr, detail)
    check("C no seeds: zero entry warmed up",
          "gathering baseline coverage: 1/1 completed" in r.stderr, detail)
    n = re.findall(r"new interesting: (\d+)", r.stderr)
    check("C no seeds: coverage-guided", "Failing input written" in r.stdout
          or (n and int(n[-1]) > 0), detail)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cgofuzz", required=True)
    ap.add_argument("--magic")
    ap.add_argument("--asan")
    ap.add_argument("--go")
    ap.add_argument("--gopkg")
    args = ap.parse_args()
    args.cgofuzz = os.path.abspath(args.cgofuzz)
    for a in ("magic", "asan", "gopkg"):
        if getattr(args, a):
            setattr(args, a, os.path.abspath(getattr(args, a)))
    tmp = tempfile.mkdtemp(prefix="cgofuzz-e2e-more-")
    try:
        if args.magic and os.path.exists(args.magic):
            magic_case(args, tmp)
        else:
            print("skip C magic: no target")
        if args.asan and os.path.exists(args.asan):
            c_noseed_case(args, tmp)
        if args.go and args.gopkg:
            got = setup_case(args, tmp)
            if got:
                noseed_case(args, *got)
                resume_from_go_case(args, *got)
                test2json_case(args, *got)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
