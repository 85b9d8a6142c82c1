"""End-to-end tests of `cgofuzz fuzz` against real Go test binaries.

testdata/e2e/basic is built once per session with `go test -c -fuzz=.`;
every case fuzzes in its own copy of the package, with its own cache and
$TMPDIR (where the shared-memory files go), under a pinned GODEBUG
fuzzseed and an exec budget (-fuzztime=Nx), so that what a case finds does
not depend on the previous cases or on the machine's speed.
"""
import os
import re
import shutil
import signal

import pytest

import testlib
from testlib import corpus_entries, read, run, wait_group_gone

# The fuzzseed this suite's budgets and expectations were tuned with.
SEED = 1

# Enough for every planted bug with the pinned seed (most need a few
# hundred execs); the run ends at the first failure.
FIND_BUDGET = "-fuzztime=1000000x"
# A short passing run.
SHORT_BUDGET = "-fuzztime=2000x"


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def basic_src(source_dir):
    return os.path.join(source_dir, "testdata", "e2e", "basic")


@pytest.fixture(scope="session")
def binary(go, basic_src, tmp_path_factory):
    """The test binary of testdata/e2e/basic, built once (from a copy)."""
    return testlib.build_go_test_copy(go, basic_src, tmp_path_factory, "basic")


class Case:
    """One case's package copy, cache and $TMPDIR."""

    def __init__(self, cgofuzz, go, binary, basic_src, tmp):
        self.cgofuzz, self.go, self.binary, self.tmp = cgofuzz, go, binary, tmp
        self.pkg = os.path.join(tmp, "basic")
        shutil.copytree(basic_src, self.pkg)
        self.cache = os.path.join(tmp, "cache")
        self.tmpdir = os.path.join(tmp, "tmp")
        os.makedirs(self.tmpdir)
        self.env = testlib.fuzz_env(SEED, TMPDIR=self.tmpdir)

    def cmd(self, target, extra=(), cache=None):
        return testlib.fuzz_cmd(self.cgofuzz, self.binary, target,
                                cache or self.cache, extra)

    def fuzz(self, target, *extra, cache=None):
        return run(self.cmd(target, extra, cache), self.pkg, self.env)

    def testdata(self, target):
        return os.path.join(self.pkg, "testdata", "fuzz", target)

    def shm_files(self):
        """Shared-memory files left in the private $TMPDIR."""
        return [f for f in os.listdir(self.tmpdir) if f.startswith("fuzz-")]


@pytest.fixture
def case(cgofuzz, go, binary, basic_src, tmp_path):
    return Case(cgofuzz, go, binary, basic_src, str(tmp_path))


def assert_crash(case, target, want_msg):
    """A run of target ends FAIL with want_msg, writes the failing input to
    testdata under Go's name, prints Go's re-run line, and plain `go test`
    reproduces the failure. Returns the file's contents."""
    r = case.fuzz(target, FIND_BUDGET)
    assert r.rc == 1, "%s: want exit 1\n%s" % (target, r)
    assert want_msg in r.stdout, "%s: want %r\n%s" % (target, want_msg, r)
    m = re.search(r"Failing input written to (testdata/fuzz/%s/([0-9a-f]{16}))"
                  % target, r.stdout)
    assert m, "%s: the failing input's file is not named\n%s" % (target, r)
    path = os.path.join(case.pkg, m.group(1))
    assert os.path.isfile(path), "%s: %s does not exist\n%s" % (target, path, r)
    assert "go test -run=%s/%s" % (target, m.group(2)) in r.stdout, \
        "%s: no re-run line\n%s" % (target, r)
    rr = run([case.go, "test", "-timeout=5s",
              "-run=%s/%s" % (target, m.group(2))], case.pkg)
    assert rr.rc not in (0, None), \
        "%s: go test does not reproduce the failure\n%s" % (target, rr)
    return read(path)


@pytest.mark.parametrize("target,want_msg", [pytest.param(t, m, id=t) for t, m in [
    ("FuzzExit", "fuzzing process hung or terminated unexpectedly: exit status 3"),
    ("FuzzSegv", "fuzzing process hung or terminated unexpectedly"),
    ("FuzzMulti", "multi bug:"),
    # Megabytes on the worker's stdout/stderr and in its Err message.
    ("FuzzNoisy", "noisy failure noise"),
    # A hang: Go's worker gives up after 10 s (exit status 2).
    ("FuzzHang", "fuzzing process hung or terminated unexpectedly: exit status 2"),
]])
def test_crash_written_and_reproduces(case, sanitized, target, want_msg):
    """Each planted bug (panic, exit, SIGSEGV, several argument types,
    megabytes of output, a hang) is found, written under Go's name, and
    reproduced by plain go test."""
    if sanitized and target == "FuzzHang":
        pytest.skip("the plain build only: 15 s of Go's own timers; the "
                    "sanitized build's cgofuzz meets a worker that gives up "
                    "on its own timer in tests/coord/deaths "
                    "(test_go_own_timer_is_explained)")
    assert_crash(case, target, want_msg)


def test_magic_minimized_and_cached(case):
    """FuzzMagic's crasher is minimized to the bug's 4 bytes
    (test_fuzz_minimize), and interesting inputs go to the cache minimized
    (test_fuzz_minimize_interesting: some are 4-byte "F..." inputs)."""
    data = assert_crash(case, "FuzzMagic", "panic: found the magic prefix")
    assert data == 'go test fuzz v1\n[]byte("FUZZ")\n', \
        "crasher not minimized: %r" % data
    cached = [read(f) for f in
              corpus_entries(os.path.join(case.cache, "FuzzMagic"))]
    assert cached, "no interesting input was cached in %s" % case.cache
    assert any(re.fullmatch(r'go test fuzz v1\n\[\]byte\("F.{3}"\)\n', c)
               for c in cached), "no cached input is minimized: %r" % cached


def test_garbage_reply(case):
    """Garbage on the response pipe: a clear error, no crasher, no crash
    of cgofuzz."""
    r = case.fuzz("FuzzGarbage", FIND_BUDGET)
    assert r.rc == 1 and "communicating with fuzzing process: " in r.stdout, \
        str(r)
    assert not os.path.exists(case.testdata("FuzzGarbage")), \
        "a crasher was written\n%s" % r


def test_fuzzcontinue_writes_each_bug_once(case):
    """-fuzzcontinue: both planted bugs of FuzzTwo are written, once each,
    and the run ends FAIL."""
    r = case.fuzz("FuzzTwo", "-fuzztime=50000x", "-fuzzcontinue")
    files = sorted(read(f) for f in corpus_entries(case.testdata("FuzzTwo")))
    assert r.rc == 1, str(r)
    assert len(files) == 2 and \
        files[0].startswith('go test fuzz v1\n[]byte("A') and \
        files[1].startswith('go test fuzz v1\n[]byte("B'), \
        "want one A... and one B... file, got %r\n%s" % (files, r)
    assert r.stdout.count("Failing input written to") == 2 and \
        "bug A" in r.stdout and "bug B" in r.stdout, str(r)


def write_entry(d, name, value):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "w") as f:
        f.write("go test fuzz v1\n%s\n" % value)


def test_run_failing_tests_stop_fuzzing(case):
    """-run: the matching seed corpora run first (FuzzTwo's crashers in
    testdata fail them) and nothing is fuzzed."""
    write_entry(case.testdata("FuzzTwo"), "crash-a", '[]byte("A")')
    write_entry(case.testdata("FuzzTwo"), "crash-b", '[]byte("B")')
    r = case.fuzz("FuzzClean", SHORT_BUDGET, "-run=^FuzzTwo$")
    assert r.rc == 1 and "--- FAIL: FuzzTwo/" in r.stdout, str(r)
    assert "fuzz: elapsed" not in r.stderr, "fuzzed anyway\n%s" % r


def test_run_passing_tests_then_fuzzing(case):
    """-run: tests that pass, then fuzzing, and PASS."""
    r = case.fuzz("FuzzClean", SHORT_BUDGET, "-run=^TestPlain$")
    assert r.rc == 0 and r.stdout == "PASS\n", str(r)
    assert "now fuzzing" in r.stderr, str(r)


def test_seed_failure_reported(case):
    """test_fuzz_seed_corpus: a failing f.Add seed is reported as such, and
    nothing is written."""
    r = case.fuzz("FuzzSeedFail", SHORT_BUDGET)
    assert r.rc == 1, str(r)
    assert "failure while testing seed corpus entry: FuzzSeedFail/seed#0" \
        in r.stderr and "bad seed" in r.stdout, str(r)
    assert not os.path.exists(case.testdata("FuzzSeedFail")), str(r)


def test_fuzzminimizetime_zero(case):
    """test_fuzz_minimize: -fuzzminimizetime=0 writes the raw crasher,
    without minimizing."""
    r = case.fuzz("FuzzMagic", FIND_BUDGET, "-fuzzminimizetime=0")
    assert r.rc == 1 and "Failing input written" in r.stdout, str(r)
    assert "minimizing" not in r.stderr, str(r)


def start(case, background, target, extra=(testlib.UNTIL_STOPPED,)):
    return background(case.cmd(target, extra), case.pkg, case.env, case.tmp)


def assert_clean_end(case, bg):
    """No process of the run left, no shared-memory file left."""
    wait_group_gone(bg.pid, "after the run")
    assert not case.shm_files(), "shm files left: %s" % case.shm_files()


@pytest.mark.parametrize("sig,target,marker", [
    (signal.SIGINT, "FuzzClean", "now fuzzing"),
    (signal.SIGHUP, "FuzzClean", "now fuzzing"),
    (signal.SIGINT, "FuzzSlow", "gathering baseline coverage: 0/1"),
], ids=["SIGINT-mid-run", "SIGHUP-mid-run", "SIGINT-warm-up"])
def test_stop_signal_passes(case, background, sig, target, marker):
    """^C (or a hang-up) while fuzzing, or during the warm-up (FuzzSlow
    spends 3 s on its seed): PASS, no orphans, no shm files."""
    bg = start(case, background, target)
    bg.wait_for_text(marker)
    if marker == "now fuzzing":
        bg.wait_for_workers(2)  # fuzzing is under way
    bg.signal(sig)
    rc = bg.wait()
    assert rc == 0 and bg.stdout == "PASS\n", str(bg.result())
    assert_clean_end(case, bg)


def test_sigkill_worker(case, background):
    """A worker SIGKILLed from outside is reported like Go does, and no
    crasher is recorded."""
    bg = start(case, background, "FuzzClean")
    bg.wait_for_text("now fuzzing")
    kids = bg.wait_for_workers(1)
    os.kill(kids[0], signal.SIGKILL)
    rc = bg.wait()
    assert rc == 1 and "no crash will be recorded: signal: killed" \
        in bg.stdout, str(bg.result())
    assert not os.path.exists(case.testdata("FuzzClean")), str(bg.result())
    assert_clean_end(case, bg)


def test_clean_pass_output(case):
    """A run without failure: PASS, Go's baseline line and the progress
    line format."""
    r = case.fuzz("FuzzClean", SHORT_BUDGET)
    assert r.rc == 0 and r.stdout == "PASS\n", str(r)
    assert "gathering baseline coverage: 1/1 completed, now fuzzing with " \
        "2 workers" in r.stderr, str(r)
    assert re.search(r"fuzz: elapsed: \d+s, execs: \d+ \(\d+/sec\), "
                     r"new interesting: \d+ \(total: \d+\)", r.stderr), str(r)


def test_exec_budget_exact(case):
    """-fuzztime=5000x: cgofuzz's coordinator counts exactly 5000 execs."""
    r = case.fuzz("FuzzClean", "-fuzztime=5000x")
    execs = re.findall(r"execs: (\d+) ", r.stderr)
    assert r.rc == 0 and execs and execs[-1] == "5000", str(r)


def test_several_targets_one_run(case):
    """A -fuzz pattern matching several targets fuzzes them all in one run
    (go test refuses; docs/campaigns.md, tests/cli/campaign): FuzzExit fails,
    FuzzClean passes, and the summary names both."""
    r = run([case.cgofuzz, "fuzz", "-fuzz=^Fuzz(Clean|Exit)$",
             "-parallel=2", "-fuzzcachedir=" + case.cache,
             "-fuzztime=60000x", "-fuzzcontinue", case.binary],
            case.pkg, case.env)
    assert r.rc == 1 and "cgofuzz: summary: 2 targets, 1 failed" in \
        r.stderr and "exit status 3" in r.stdout, str(r)


def test_malformed_cache_file_skipped(case):
    """A malformed file in the cache (and a temporary directory left by a
    killed coordinator) is skipped: the run passes."""
    cdir = os.path.join(case.cache, "FuzzClean")
    os.makedirs(cdir)
    with open(os.path.join(cdir, "garbage"), "w") as f:
        f.write("garbage\n")
    leftover = os.path.join(cdir, ".0123456789abcdef.tmp-Ab12Cd")
    os.makedirs(leftover)
    with open(os.path.join(leftover, "0123456789abcdef"), "w") as f:
        f.write("go test fuzz v1\n[]by")
    r = case.fuzz("FuzzClean", SHORT_BUDGET)
    assert r.rc == 0, str(r)


def test_go_reads_cgofuzz_cache(case):
    """Resume: Go's own coordinator warms up every input cgofuzz cached
    (its cache entries plus the f.Add seed)."""
    assert_crash(case, "FuzzMagic", "panic: found the magic prefix")
    n = len(corpus_entries(os.path.join(case.cache, "FuzzMagic")))
    assert n > 0, "cgofuzz cached nothing"
    elsewhere = os.path.join(case.tmp, "elsewhere")  # no testdata there
    os.makedirs(elsewhere)
    g = run([case.binary, "-test.fuzz=^FuzzMagic$", "-test.run=^$",
             "-test.fuzztime=1x", "-test.parallel=1",
             "-test.fuzzcachedir=" + case.cache], elsewhere, case.env)
    assert "gathering baseline coverage: 0/%d completed" % (n + 1) \
        in g.stderr, str(g)


def test_valgrind_clean(case, tool, sanitized):
    """No leak and no memory error in the coordinator, on a -fuzzcontinue
    run that writes failures."""
    valgrind = tool("valgrind")
    if sanitized:
        pytest.skip("valgrind cannot run the ASan+UBSan build of cgofuzz")
    r = run([valgrind, "--leak-check=full", "--error-exitcode=99",
             "--errors-for-leak-kinds=definite,indirect,possible"] +
            case.cmd("FuzzTwo", ["-fuzzcontinue", "-fuzztime=20000x"]),
            case.pkg, case.env)
    assert r.rc == 1 and "ERROR SUMMARY: 0 errors" in r.stderr, str(r)
