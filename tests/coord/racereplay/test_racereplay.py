"""-racereplay: the corpus replayed in a -race build (issue 38; fb_race.c,
coord_host.c's cgofuzz_coord_host_failure, the build in gopkgs.c).

gopkg's Count counts a record that starts with "RR" from two goroutines
without a lock: the count is mostly right, and only the race detector
sees the race. The user's workers fuzz the plain build; under
-racereplay every corpus entry is run once more by a worker of `go test
-c -race` of the same package, so the input that reaches the racy branch
is a failure: its race report, testdata, and `go test -race -run`, which
fails where plain `go test -run` passes. Each case has its own copy of the
package, a pinned GODEBUG=fuzzseed and a count of execs (a counted run
replays every entry as it comes).
"""
import os
import re

import pytest

import testlib
from testlib import run

HERE = os.path.dirname(os.path.abspath(__file__))
BUDGET = "-fuzztime=200000x"


@pytest.fixture
def pkg(tool, tmp_path):
    go = tool("go")
    d = testlib.copy_module(os.path.join(HERE, "gopkg"),
                            os.path.join(str(tmp_path), "pkg"), "racereplay")
    binary = testlib.build_go_test(go, d, os.path.join(d, "p.test"))
    return d, binary, go


def fuzz(cgofuzz, pkgdir, binary, extra):
    return testlib.cgofuzz_in(cgofuzz, binary, "FuzzCount", pkgdir,
                              [BUDGET] + extra, seed=1)


def test_race_found_written_and_rerun_with_race(cgofuzz, pkg):
    d, binary, go = pkg
    r = fuzz(cgofuzz, d, binary, ["-racereplay", "-v"])
    assert r.rc == 1, r
    assert "WARNING: DATA RACE" in r.stdout, r
    assert "race detected during execution of test" in r.stdout, r
    assert re.search(r"count\.go:\d+", r.stdout), r  # the racing lines
    path = testlib.failing_input(r.stdout, "FuzzCount")
    assert path, r
    value = testlib.go_bytes(testlib.read(os.path.join(d, path)))
    assert value.startswith(b"RR"), value  # the one racy branch
    base = os.path.basename(path)
    assert "go test -race -run=FuzzCount/%s" % base in r.stdout, r
    assert re.search(r"-racereplay: \d+ of \d+ corpus entries replayed in "
                     r"\S+, 1 data race", r.stderr), r
    raced = run([go, "test", "-race", "-run=FuzzCount/" + base, "."], d)
    assert raced.rc == 1 and "DATA RACE" in raced.out, raced
    plain = run([go, "test", "-run=FuzzCount/" + base, "."], d)
    assert plain.rc == 0, plain  # only the race detector sees it


def test_same_run_without_racereplay_passes(cgofuzz, pkg):
    d, binary, _ = pkg
    r = fuzz(cgofuzz, d, binary, [])
    assert r.rc == 0, r
    assert not os.path.isdir(os.path.join(d, "testdata")), r


def test_under_go_test_fuzz_exec(cgofuzz, pkg):
    d, _, go = pkg
    env = testlib.fuzz_env(1, CGOFUZZ_FLAGS="-racereplay", GOFLAGS=None)
    r = run([go, "test", "-exec=" + cgofuzz, "-run=^$", "-fuzz=^FuzzCount$",
             BUDGET, "-parallel=1", "."], d, env)
    assert r.rc == 1, r
    assert "race detected during execution of test" in r.stdout, r
    assert testlib.failing_input(r.stdout, "FuzzCount"), r


def test_race_build_that_fails_is_the_targets_error(cgofuzz, pkg, tmp_path):
    """The binary run from a directory with no Go package: go test -c
    -race cannot build there, and the run says so instead of fuzzing
    without the check."""
    d, binary, _ = pkg
    empty = os.path.join(str(tmp_path), "elsewhere")
    os.makedirs(empty)
    r = run(testlib.fuzz_cmd(cgofuzz, binary, "FuzzCount",
                             os.path.join(empty, "cache"),
                             [BUDGET, "-racereplay"], parallel=1),
            empty, testlib.fuzz_env(1))
    assert r.rc not in (0, None), r
    assert "-racereplay: go test -c -race failed" in r.out, r
    assert "execs:" not in r.stderr, r
