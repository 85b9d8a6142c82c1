"""-goleaks: goroutines an input leaves running are a failure (issue 38;
fb_goleak.c, the re-run check in cli/goleaks.c).

gopkg's Open leaks a goroutine for a record starting with "GL" (fuzzing
finds it from the seed "Gx"), starts one for good the first time a record
starts with "O" and one that ends within milliseconds for "T": only the
first is a leak, and the seeds hold the other two, so each run meets all
three. Under -goleaks every corpus entry is run again in a worker of the
same binary, whose goroutines are counted by creator from Go's SIGQUIT
dump; the leaking input is written to testdata, and `CGOFUZZ_FLAGS=-goleaks
go test -run=FuzzOpen/NAME -exec=cgofuzz` fails where plain `go test -run`
passes. Each case has its own copy of the package, a pinned
GODEBUG=fuzzseed and a count of execs (a counted run probes every entry as
it comes).
"""
import os
import re

import pytest

import testlib
from testlib import run

HERE = os.path.dirname(os.path.abspath(__file__))
BUDGET = "-fuzztime=100000x"


@pytest.fixture
def pkg(tool, tmp_path):
    go = tool("go")
    d = testlib.copy_module(os.path.join(HERE, "gopkg"),
                            os.path.join(str(tmp_path), "pkg"), "goleaks")
    binary = testlib.build_go_test(go, d, os.path.join(d, "p.test"))
    return d, binary, go


def fuzz(cgofuzz, pkgdir, binary, target, extra):
    return testlib.cgofuzz_in(cgofuzz, binary, target, pkgdir,
                              [BUDGET] + extra, seed=1)


def exec_env(flags):
    """go test -exec=cgofuzz's environment: CGOFUZZ_FLAGS=flags."""
    return testlib.fuzz_env(1, CGOFUZZ_FLAGS=flags, GOFLAGS=None)


def test_leak_found_written_and_rerun_through_cgofuzz(cgofuzz, pkg):
    d, binary, go = pkg
    r = fuzz(cgofuzz, d, binary, "FuzzOpen", ["-goleaks", "-v"])
    assert r.rc == 1, r
    assert re.search(r"goroutine leak: the input leaves goroutines created "
                     r"by example\.com/m\w+\.Open running \(run twice: 2 of them",
                     r.stdout), r
    assert re.search(r"m\w+\.reader\(", r.stdout), r  # the leaked goroutine's stack
    assert " fp=" not in r.stdout, r  # the crash dump's noise left out
    path = testlib.failing_input(r.stdout, "FuzzOpen")
    assert path, r
    value = testlib.go_bytes(testlib.read(os.path.join(d, path)))
    assert value.startswith(b"GL"), value  # not the janitor's "O", nor "T"
    base = os.path.basename(path)
    line = "CGOFUZZ_FLAGS=-goleaks go test -run=FuzzOpen/%s -exec=cgofuzz" % (
        base)
    assert line in r.stdout, r
    assert re.search(r"-goleaks: \d+ of \d+ corpus entries probed for "
                     r"goroutine leaks, 1 leak\b", r.stderr), r
    rerun = run([go, "test", "-exec=" + cgofuzz, "-run=FuzzOpen/" + base, "."],
                d, exec_env("-goleaks"))
    assert rerun.rc == 1, rerun
    assert "--- FAIL: FuzzOpen/%s (goroutine leak)" % base in rerun.out, rerun
    plain = run([go, "test", "-run=FuzzOpen/" + base, "."], d)
    assert plain.rc == 0, plain  # go test itself does not look


def test_goroutines_that_end_or_start_once_are_no_leak(cgofuzz, pkg):
    """FuzzNoLeak's inputs start the janitor (once, for good) and short
    goroutines, never the leak: the run passes, every entry probed."""
    d, binary, go = pkg
    r = fuzz(cgofuzz, d, binary, "FuzzNoLeak", ["-goleaks", "-v"])
    assert r.rc == 0, r
    m = re.search(r"-goleaks: (\d+) of (\d+) corpus entries probed for "
                  r"goroutine leaks, 0 leaks", r.stderr)
    assert m and int(m.group(1)) >= 2, r  # the seeds at least
    assert not os.path.isdir(os.path.join(d, "testdata")), r
    rerun = run([go, "test", "-exec=" + cgofuzz, "-run=FuzzNoLeak", "."], d,
                exec_env("-goleaks"))
    assert rerun.rc == 0, rerun


def test_same_run_without_goleaks_passes(cgofuzz, pkg):
    d, binary, _ = pkg
    r = fuzz(cgofuzz, d, binary, "FuzzOpen", [])
    assert r.rc == 0, r
    assert not os.path.isdir(os.path.join(d, "testdata")), r


def test_under_go_test_fuzz_exec(cgofuzz, pkg):
    d, _, go = pkg
    r = run([go, "test", "-exec=" + cgofuzz, "-run=^$", "-fuzz=^FuzzOpen$",
             BUDGET, "-parallel=1", "."], d, exec_env("-goleaks"))
    assert r.rc == 1, r
    assert "goroutine leak: the input leaves goroutines" in r.stdout, r
    assert testlib.failing_input(r.stdout, "FuzzOpen"), r


def test_rerun_of_a_file_that_does_not_leak_passes(cgofuzz, pkg):
    """The re-run check reads -test.run's second element as the file: a
    seed-like file that leaks nothing passes, one that leaks fails."""
    d, _, go = pkg
    corpus = os.path.join(d, "testdata", "fuzz", "FuzzOpen")
    os.makedirs(corpus)
    for name, v in (("quiet", "Tq"), ("leaky", "GL")):
        with open(os.path.join(corpus, name), "w") as f:
            f.write('go test fuzz v1\n[]byte("%s")\n' % v)
    env = exec_env("-goleaks")
    ok = run([go, "test", "-exec=" + cgofuzz, "-run=FuzzOpen/quiet", "."], d, env)
    assert ok.rc == 0, ok
    bad = run([go, "test", "-exec=" + cgofuzz, "-run=FuzzOpen/leaky", "."], d,
              env)
    assert bad.rc == 1 and "FuzzOpen/leaky (goroutine leak)" in bad.out, bad
