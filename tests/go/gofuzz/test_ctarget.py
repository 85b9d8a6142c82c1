"""End-to-end tests of gofuzz.FuzzC: C targets (cgofuzz's C API) fuzzed by
go test's own coordinator, through cgo per exec and with the exec loop in C
(gofuzz.ExecLoopInC), and by cgofuzz's coordinator on the same Go binary.
Each failure must be written to testdata and reproduce with
-test.run=Target/name; every run has its own directory. The binaries use
clang's C coverage (-tags gofuzz_cover) when clang is installed, as
go test users would; without clang they are plain cgo builds.

Runs that must find a failure have a pinned seed (it seeds the C exec
loop; Go's own mutator, used per exec through cgo, is not seedable) and an
exec budget about ten times what a run needs."""
import os
import re

import pytest

import testlib
from testlib import run

# Exec budget of the runs that must find a planted bug; they stop at the
# first find. The round-trip bug (XLANG_C_BUG=2) needs the input "%25",
# found blind (no comparison tracing in this build): measured 1.0M-5.6M
# execs in 6 runs under cgofuzz's coordinator, so a budget near that mean
# fails now and then (5M did, 2 runs in 6). 60M makes a miss about e^-17.
FIND_BUDGET = 60000000
HUNG = "fuzzing process hung or terminated unexpectedly"


@pytest.fixture(scope="module")
def bins(gobin, cover_if_clang):
    """The test binaries: cu (examples/go/cunescape), crash
    (tests/go/gofuzz/crashtarget), and cu0 (cunescape built without -fuzz: its
    Go code has no counters, so Go's coordinator sends no mask)."""
    cover = bool(cover_if_clang[1])
    return {"cu": gobin("examples/go/cunescape", cover=cover),
            "crash": gobin("tests/go/gofuzz/crashtarget", cover=cover),
            "cu0": gobin("examples/go/cunescape", fuzz=False)}


# name -> (binary, target, text the report must show, environment)
FAILING = {
    "FuzzUnescape-bug2": ("cu", "FuzzUnescape", "round trip: ",
                          {"XLANG_C_BUG": "2"}),
    "FuzzUnescapeLoop-bug2": ("cu", "FuzzUnescapeLoop", "round trip: ",
                              {"XLANG_C_BUG": "2"}),
    "FuzzSegv": ("crash", "FuzzSegv", HUNG, {}),
    "FuzzSegvLoop": ("crash", "FuzzSegvLoop", HUNG, {}),
    "FuzzAbortLoop": ("crash", "FuzzAbortLoop", HUNG, {}),
}


@pytest.fixture(scope="module")
def failing(bins, tmp_path_factory):
    """failing(name) -> (run, directory, written file names, rerun or None):
    the fuzzing run of FAILING[name] (two workers) and the re-run of the
    first file it wrote with -test.run=Target/file."""
    done = {}

    def get(name):
        if name not in done:
            b, target, _, env = FAILING[name]
            d = str(tmp_path_factory.mktemp(name))
            r = testlib.fuzz(bins[b], target, d, FIND_BUDGET, parallel=2,
                             extra=["-test.run=^$"], env=env)
            tdir = os.path.join(d, "testdata", "fuzz", target)
            files = sorted(os.listdir(tdir)) if os.path.isdir(tdir) else []
            rerun = None
            if files:
                rerun = run([bins[b], "-test.run=^%s$/^%s$" % (target,
                                                              files[0])],
                            cwd=d, env=env)
            done[name] = (r, d, files, rerun)
        return done[name]
    return get


@pytest.mark.parametrize("name", list(FAILING))
def test_failure_found_written_reproduces(failing, name):
    """Fuzzing fails (exit 1), prints the expected report, writes one file
    to testdata/fuzz/<Target>/, and that file fails again."""
    _, target, expect, _ = FAILING[name]
    r, _, files, rerun = failing(name)
    assert (r.rc == 1 and files and
            "Failing input written to testdata/fuzz/%s/" % target
            in r.stdout), r
    assert expect in r.out, r
    assert rerun.rc != 0, "%s\nthe written input does not reproduce" % rerun


@pytest.mark.parametrize("name", ["FuzzUnescape-bug2",
                                  "FuzzUnescapeLoop-bug2"])
def test_written_input_passes_without_bug(bins, failing, name):
    """Without the planted bug the same file passes: the failure was the C
    code's, not the harness's."""
    _, target, _, _ = FAILING[name]
    r, d, files, _ = failing(name)
    assert files, r
    rr = run([bins["cu"], "-test.run=^%s$/^%s$" % (target, files[0])],
             cwd=d, env={"XLANG_C_BUG": None})
    assert rr.rc == 0, rr


@pytest.mark.parametrize("name,signal", [
    ("FuzzSegv", "SIGSEGV"), ("FuzzSegvLoop", "SIGSEGV"),
    ("FuzzAbortLoop", "SIGABRT")])
def test_rerun_dies_of_signal(failing, name, signal):
    """The re-run of the written input dies of the C code's signal."""
    r, _, files, rerun = failing(name)
    assert files, r
    assert signal in rerun.out, rerun


def test_cgofuzz_coordinator_loop_in_c(cgofuzz, bins, tmp_path):
    """cgofuzz's coordinator on the Go binary, exec loop in C: the planted
    bug is found, written, and reproduces."""
    env = testlib.fuzz_env(XLANG_C_BUG="2")
    r = run([cgofuzz, "fuzz", "-fuzz=^FuzzUnescapeLoop$",
             "-fuzztime=%dx" % FIND_BUDGET,
             "-fuzzcachedir=%s" % (tmp_path / "cache"), bins["cu"]],
            cwd=tmp_path, env=env)
    tdir = tmp_path / "testdata" / "fuzz" / "FuzzUnescapeLoop"
    files = sorted(os.listdir(tdir)) if tdir.is_dir() else []
    assert r.rc == 1 and files and "round trip: " in r.stdout, r
    rr = run([bins["cu"], "-test.run=^FuzzUnescapeLoop$/^%s$" % files[0]],
             cwd=tmp_path, env=env)
    assert rr.rc != 0, rr


@pytest.mark.parametrize("b", ["cu", "cu0"])
def test_counted_run_loop_in_c(bins, tmp_path, b):
    """A counted run (20000x) with the exec loop in C passes, with and
    without Go counters in the binary, and stops at the count: Go's
    coordinator may overshoot a count by a few dozen execs (its own Go
    workers do too, docs/go-coordinator.md §10), so 20000 <= execs < 20100."""
    r = testlib.fuzz(bins[b], "FuzzUnescapeLoop", str(tmp_path), 20000,
                     parallel=2, extra=["-test.run=^$"])
    n = [int(x) for x in re.findall(r"execs: (\d+)", r.out)]
    assert r.rc == 0 and "\nPASS" in "\n" + r.stdout, r
    assert n and 20000 <= n[-1] < 20100, "execs %s\n%s" % (n[-1:], r)
