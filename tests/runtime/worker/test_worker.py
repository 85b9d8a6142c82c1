"""C fuzz targets end to end: -test.list, regression mode on testdata, and
Go's own coordinator driving the C worker (Go starts its workers from
os.Args[0], so the Go test binary is exec'd with argv[0] set to the C
target). Fuzzing runs have a pinned seed and an exec budget; the budgets
are far above what the seed needs, a found failure ends a run early."""
import os
import re

import pytest

import testlib
from testlib import run, write

# Exec budget of the runs that must find a bug (seed 3 finds them in a few
# thousand execs).
FIND_BUDGET = 5000000


# -- -test.list and flags ----------------------------------------------------

@pytest.mark.parametrize("name,args,want", [
    ("typed", ["-test.list=."], "FuzzBytes\nFuzzPass\nFuzzMulti\n"),
    ("typed", ["--test.list", "Multi"], "FuzzMulti\n"),
    ("libfuzzer", ["-test.list=."], "FuzzLibFuzzer\n"),
], ids=["all-typed-targets", "pattern", "libfuzzer-harness"])
def test_list(target, tmp_path, name, args, want):
    """-test.list prints the matching targets, one a line; a libFuzzer
    harness is listed as FuzzLibFuzzer."""
    r = run([target(name)] + args, cwd=tmp_path)
    assert r.rc == 0 and r.stdout == want, r


def test_unknown_flag_exits_2(target, tmp_path):
    """An undefined flag is a usage error (exit 2) with Go's message."""
    r = run([target("typed"), "-nosuchflag"], cwd=tmp_path)
    assert r.rc == 2 and "flag provided but not defined" in r.stderr, r


# -- regression mode ---------------------------------------------------------

def corpus_file(d, target, name, text):
    write(os.path.join(d, "testdata", "fuzz", target, name), text)


@pytest.fixture
def bytes_testdata(tmp_path):
    """A directory with two FuzzBytes testdata files: "crash" (FUZZY, which
    fails) and "fine" (FUN, which passes)."""
    corpus_file(tmp_path, "FuzzBytes", "crash", 'go test fuzz v1\n[]byte("FUZZY")\n')
    corpus_file(tmp_path, "FuzzBytes", "fine", 'go test fuzz v1\n[]byte("FUN")\n')
    return tmp_path


def test_seeds_only_pass(target, tmp_path):
    """With no testdata, the seeds of every target pass: PASS, exit 0."""
    r = run([target("typed")], cwd=tmp_path)
    assert r.rc == 0 and r.stdout == "PASS\n", r


def test_failing_testdata_file(target, bytes_testdata):
    """A failing testdata file gives go test's report, exit 1."""
    r = run([target("typed")], cwd=bytes_testdata)
    want = ("--- FAIL: FuzzBytes (0.00s)\n"
            "    --- FAIL: FuzzBytes/crash (0.00s)\n"
            "        typed.c:21: found the bug: 5 bytes\n"
            "FAIL\n")
    assert r.rc == 1 and re.sub(r"\d+\.\d\ds", "0.00s", r.stdout) == want, r


def test_run_selects_one_entry_verbose(target, bytes_testdata):
    """-test.run=Target/entry -test.v runs that entry only, verbosely."""
    r = run([target("typed"), "-test.run=FuzzBytes/fine", "-test.v"],
            cwd=bytes_testdata)
    assert (r.rc == 0 and "=== RUN   FuzzBytes/fine" in r.stdout and
            "--- PASS: FuzzBytes/fine" in r.stdout and
            "crash" not in r.stdout and
            r.stdout.endswith("PASS\n")), r


def test_run_selects_targets(target, bytes_testdata):
    """-test.run=^FuzzPass$ skips FuzzBytes and its failing file."""
    r = run([target("typed"), "-test.run=^FuzzPass$"], cwd=bytes_testdata)
    assert r.rc == 0 and r.stdout == "PASS\n", r


def test_mistyped_testdata_file(target, tmp_path):
    """A testdata file whose types do not match fails the target with Go's
    message."""
    corpus_file(tmp_path, "FuzzMulti", "bools",
                "go test fuzz v1\n" + "bool(true)\n" * 7)
    r = run([target("typed"), "-test.run=FuzzMulti"], cwd=tmp_path)
    assert (r.rc == 1 and
            '"testdata/fuzz/FuzzMulti/bools": mismatched types in corpus '
            "entry: [bool bool bool bool bool bool bool], want "
            "[string int bool []uint8 uint8 float64 int32]" in r.stdout), r


def test_errorf_then_skip_fails(target, tmp_path):
    """t.Errorf followed by t.Skip is still a failure."""
    corpus_file(tmp_path, "FuzzMulti", "bad",
                'go test fuzz v1\nstring("BAD")\nint(-7)\nbool(false)\n'
                '[]byte("")\nbyte(\'a\')\nfloat64(0)\nrune(\'y\')\n')
    r = run([target("typed"), "-test.run=FuzzMulti"], cwd=tmp_path)
    assert (r.rc == 1 and "--- FAIL: FuzzMulti/bad" in r.stdout and
            "typed.c:38: bad string, int -7" in r.stdout), r


# -- Go's coordinator, C workers ---------------------------------------------

def coordinate(gotest, worker, target, cwd, budget, parallel=2):
    """Runs the Go test binary as coordinator of target with argv[0] =
    worker (the C target, or the Go binary itself), for budget execs."""
    return testlib.fuzz(worker, target, str(cwd), budget, parallel=parallel,
                        extra=["-test.run=^%s$" % target], exe=gotest)


@pytest.fixture(scope="module")
def bytes_campaign(target, go_coordinator, tmp_path_factory):
    """Go's coordinator fuzzing the C target's FuzzBytes with two C workers:
    (run, its directory, the failing input it wrote or None)."""
    d = tmp_path_factory.mktemp("coord-bytes")
    r = coordinate(go_coordinator, target("typed"), "FuzzBytes", d,
                   FIND_BUDGET)
    return r, d, testlib.failing_input(r.stdout, "FuzzBytes")


def test_go_coordinator_finds_c_bug(bytes_campaign):
    """Go's coordinator finds the C target's bug through the C workers and
    minimizes it."""
    r, _, _ = bytes_campaign
    assert (r.rc == 1 and "--- FAIL: FuzzBytes" in r.stdout and
            "typed.c:21: found the bug" in r.stdout and
            "fuzz: minimizing" in r.stderr), r


def test_go_coordinator_writes_crash_file(bytes_campaign):
    """Go writes the failing input to testdata/fuzz/FuzzBytes."""
    r, _, path = bytes_campaign
    assert path is not None, r


@pytest.fixture(scope="module")
def bytes_crasher(bytes_campaign):
    """(directory, testdata path) of the crash file of bytes_campaign."""
    r, d, path = bytes_campaign
    if path is None:
        pytest.fail("no crash file was written (see "
                    "test_go_coordinator_writes_crash_file)\n%s" % r)
    return d, path


def test_crash_file_minimized(bytes_crasher):
    """The C worker minimized the failing input to FUZ."""
    d, path = bytes_crasher
    with open(os.path.join(d, path)) as f:
        data = f.read()
    assert data == 'go test fuzz v1\n[]byte("FUZ")\n', data


def test_crash_file_reproduces_in_c_target(target, bytes_crasher):
    """The crash file fails again in the C target's regression mode."""
    d, path = bytes_crasher
    name = os.path.basename(path)
    r = run([target("typed"), "-test.run=FuzzBytes/" + name], cwd=d)
    assert (r.rc == 1 and "--- FAIL: FuzzBytes/" + name in r.stdout and
            "found the bug: 3 bytes" in r.stdout), r


def test_crash_file_reproduces_in_go_binary(go_coordinator, bytes_crasher):
    """... and in the Go test binary (same corpus format, same target)."""
    d, path = bytes_crasher
    r = run([go_coordinator, "-test.run=FuzzBytes/" + os.path.basename(path)],
            cwd=d)
    assert r.rc == 1 and "found the bug: 3 bytes" in r.stdout, r


def test_go_coordinator_multi_kinds(target, go_coordinator, tmp_path):
    """FuzzMulti (seven argument kinds) under Go's coordinator: coverage
    replies and KeepCoverage minimization work, and no replay mismatch
    ("modified input", a panic) shows: PASS with new interesting inputs.
    (An exec budget, not a time: a time limit that expires mid-call makes
    Go's coordinator report "context deadline exceeded" with this worker,
    an open issue.)"""
    r = coordinate(go_coordinator, target("typed"), "FuzzMulti", tmp_path,
                   2000000)
    assert (r.rc == 0 and r.stdout.endswith("PASS\n") and
            "new interesting" in r.stderr), r


@pytest.fixture(scope="module")
def abort_campaign(target, go_coordinator, tmp_path_factory):
    """Go's coordinator on a libFuzzer harness that abort()s on "LF...":
    (run, directory, failing input path or None)."""
    d = tmp_path_factory.mktemp("coord-abort")
    r = coordinate(go_coordinator, target("libfuzzer"), "FuzzLibFuzzer", d,
                   FIND_BUDGET)
    return r, d, testlib.failing_input(r.stdout)


def test_go_coordinator_records_abort(abort_campaign):
    """A crash that kills the C worker is recorded by Go's coordinator."""
    r, _, path = abort_campaign
    assert r.rc == 1 and "signal: aborted" in r.stdout and path, r


def test_abort_crasher_rebuilt_exactly(target, abort_campaign):
    """Go rebuilt the killing input from shared memory: it starts with LF,
    and it aborts the C target again in regression mode."""
    r, d, path = abort_campaign
    assert path, r
    with open(os.path.join(d, path)) as f:
        data = f.read()
    assert data.startswith('go test fuzz v1\n[]byte("LF'), data
    rr = run([target("libfuzzer")], cwd=d)
    assert rr.rc == -6, rr


@pytest.mark.parametrize("worker", ["c", "go"])
def test_trivial_target_counted_run(target, go_coordinator, tmp_path, worker):
    """FuzzPass with one worker (the C worker, or Go's own as the
    baseline) passes a counted run under Go's coordinator. Throughput is
    measured by bench/, not asserted here."""
    w = target("typed") if worker == "c" else go_coordinator
    r = coordinate(go_coordinator, w, "FuzzPass", tmp_path, 20000, 1)
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), r
