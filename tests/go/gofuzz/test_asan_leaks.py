"""Leaks in Go test binaries built with go test -asan (issue 24): C code
that leaks memory, run by gofuzz.FuzzC (per exec through cgo, and with the
exec loop in C) or called through cgo inside gofuzz.Cover, is a failure as
under libFuzzer's -detect_leaks=1: found while fuzzing by go test's own
coordinator and by cgofuzz's, written to testdata with LeakSanitizer's
report, and the written input fails again when re-run.
ASAN_OPTIONS=detect_leaks=0 turns it off.

The targets are tests/go/gofuzz/crashtarget's FuzzLeak (C target), FuzzLeakLoop
(the same, exec loop in C) and FuzzCoverLeak (a Go fuzz function calling
crash.c through cgo in gofuzz.Cover): each leaks a block on inputs that
start with 'L', from the seed "ab". Every run has its own directory and a
pinned seed; the budget is far above what a find takes (the first byte
becomes 'L' within a few thousand execs), and runs stop at the first
find."""
import os
import shutil

import pytest

import testlib
from testlib import run

PKG = "tests/go/gofuzz/crashtarget"
BUDGET = 2000000
REPORT = "ERROR: LeakSanitizer: detected memory leaks"


@pytest.fixture(scope="module")
def asanbin(go, source_dir, tmp_path_factory):
    """crashtarget built with go test -asan -fuzz=. (clang, with C
    coverage when clang is there); skips, saying why, where go cannot
    build with -asan here."""
    cc = shutil.which("clang") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler for go test -asan")
    exe = str(tmp_path_factory.mktemp("asan") / "crash-asan.test")
    env = {"CC": os.path.basename(cc)}
    argv = [go, "test", "-c", "-asan", "-fuzz=.", "-o", exe]
    if os.path.basename(cc) == "clang":
        env["CGO_CFLAGS_ALLOW"] = "-fsanitize-coverage=.*"
        argv.append("-tags=gofuzz_cover")
    r = run(argv + ["./" + PKG], cwd=source_dir, env=env)
    if r.rc != 0 and "-asan" in r.out and "not supported" in r.out:
        pytest.skip("go test -asan is not supported here: %s" % r.out[-300:])
    assert r.rc == 0, "building %s with -asan\n%s" % (PKG, r)
    return exe


TARGETS = ["FuzzLeak", "FuzzLeakLoop", "FuzzCoverLeak"]


def files_of(d, target):
    tdir = os.path.join(d, "testdata", "fuzz", target)
    return sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []


def check_found(asanbin, r, d, target):
    """The run failed with a leak, wrote one input, and its re-run fails
    with LeakSanitizer's report."""
    files = files_of(d, target)
    assert r.rc == 1 and files, r
    assert "Failing input written to testdata/fuzz/%s/" % target in r.out, r
    rr = run([asanbin, "-test.run=^%s$/^%s$" % (target, files[0])], cwd=d)
    assert rr.rc != 0 and REPORT in rr.out, rr
    with open(os.path.join(d, "testdata", "fuzz", target, files[0])) as f:
        assert '[]byte("L' in f.read()
    return rr


@pytest.mark.parametrize("target", TARGETS)
def test_cgofuzz_finds_leak(cgofuzz, asanbin, tmp_path, target):
    """cgofuzz's coordinator: the failure names the leak and shows
    LeakSanitizer's report."""
    d = str(tmp_path)
    r = run(testlib.fuzz_cmd(cgofuzz, asanbin, target,
                             os.path.join(d, "cache"),
                             extra=["-fuzztime=%dx" % BUDGET], parallel=1),
            cwd=d, env=testlib.fuzz_env())
    assert REPORT in r.out, r
    check_found(asanbin, r, d, target)


@pytest.mark.parametrize("target", ["FuzzLeak", "FuzzCoverLeak"])
def test_go_coordinator_finds_leak(asanbin, tmp_path, target):
    """go test's own coordinator, per exec: the leak is a test failure
    whose message is LeakSanitizer's report. (With the exec loop in C the
    worker exits 73 after the report, and Go's coordinator shows only the
    exit status: that case is cgofuzz's above.)"""
    d = str(tmp_path)
    r = testlib.fuzz(asanbin, target, d, BUDGET, extra=["-test.run=^$"])
    assert REPORT in r.out and "leaked memory" in r.out, r
    check_found(asanbin, r, d, target)


@pytest.mark.parametrize("target", TARGETS)
def test_detect_leaks_0_turns_it_off(cgofuzz, asanbin, tmp_path, target):
    """With ASAN_OPTIONS=detect_leaks=0 the same run, started from a seed
    that leaks, passes and writes nothing."""
    d = str(tmp_path)
    seeds = os.path.join(d, "testdata", "fuzz", target)
    os.makedirs(seeds)
    with open(os.path.join(seeds, "leaks"), "w") as f:
        f.write('go test fuzz v1\n[]byte("Lx")\n' +
                ("int(1)\n" if target != "FuzzCoverLeak" else ""))
    r = run(testlib.fuzz_cmd(cgofuzz, asanbin, target,
                             os.path.join(d, "cache"),
                             extra=["-fuzztime=20000x"], parallel=1),
            cwd=d, env=testlib.fuzz_env(ASAN_OPTIONS="detect_leaks=0"))
    assert r.rc == 0 and REPORT not in r.out, r
    assert files_of(d, target) == ["leaks"], r
    # The same seed with the check on is a failure of the seed itself.
    r = run(testlib.fuzz_cmd(cgofuzz, asanbin, target,
                             os.path.join(d, "cache2"),
                             extra=["-fuzztime=20000x"], parallel=1),
            cwd=d, env=testlib.fuzz_env())
    assert r.rc == 1 and REPORT in r.out, r
