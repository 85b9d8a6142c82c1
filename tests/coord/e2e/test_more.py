"""More end-to-end tests of `cgofuzz fuzz`: C targets through the
exact-input slot, discovery in the real working directory, fuzzing from
zero values when the corpus is empty, resuming from Go's cache, and
test2json.

The C targets are built by tests/runtime/worker (clang and go, not in the
sanitized build); their paths come from CGOFUZZ_MAGIC_TARGET and
CGOFUZZ_ASAN_TARGET (tests/coord/e2e/CMakeLists.txt), and a case whose target
is not built is skipped saying so. testdata/e2e/setup is built once per
session; every case runs in its own copy of it (or its own directory),
with its own cache and $TMPDIR, a pinned fuzzseed and an exec budget.
"""
import json
import os
import re
import shutil

import pytest

import testlib
from testlib import corpus_entries, new_interesting, run

BUDGET = "-fuzztime=20000x"
# The fuzzseed this suite's budgets and expectations were tuned with.
SEED = 1


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


def c_target(build_dir, var, name):
    path = os.environ.get(var) or os.path.join(build_dir, "tests", "runtime", "worker",
                                               name)
    if not os.access(path, os.X_OK):
        pytest.skip("%s is not built (tests/runtime/worker builds it when clang and "
                    "go are installed, not in the sanitized build)" % path)
    return path


@pytest.fixture(scope="session")
def magic_target(build_dir):
    return c_target(build_dir, "CGOFUZZ_MAGIC_TARGET", "magic_target")


@pytest.fixture(scope="session")
def asan_target(build_dir):
    return c_target(build_dir, "CGOFUZZ_ASAN_TARGET", "asan_target")


@pytest.fixture(scope="session")
def setup_src(source_dir):
    return os.path.join(source_dir, "testdata", "e2e", "setup")


@pytest.fixture(scope="session")
def setup_binary(go, setup_src, tmp_path_factory):
    """The test binary of testdata/e2e/setup, built once (from a copy)."""
    return testlib.build_go_test_copy(go, setup_src, tmp_path_factory, "setup")


class Dir:
    """A case's working directory (a copy of the setup package, or an
    empty one), with its own cache and $TMPDIR."""

    def __init__(self, cgofuzz, tmp, src=None):
        self.cgofuzz = cgofuzz
        self.path = os.path.join(tmp, "work")
        if src:
            shutil.copytree(src, self.path)
        else:
            os.makedirs(self.path)
        self.cache = os.path.join(tmp, "cache")
        tmpdir = os.path.join(tmp, "tmp")
        os.makedirs(tmpdir)
        self.env = testlib.fuzz_env(SEED, TMPDIR=tmpdir)

    def cmd(self, binary, target, extra=(), cache=None):
        # Go's behaviour, without cgofuzz's dictionary (docs/godict.md) and
        # comparison feedback (docs/comparisons.md), which find FuzzSetup's
        # "boom" in this suite's budgets.
        return testlib.fuzz_cmd(self.cgofuzz, binary, target,
                                cache or self.cache,
                                ("-autodict=false", "-cmpfeedback=false") +
                                tuple(extra))

    def fuzz(self, binary, target, *extra, cache=None):
        return run(self.cmd(binary, target, extra, cache), self.path,
                   self.env)

    def testdata(self, target):
        return os.path.join(self.path, "testdata", "fuzz", target)

    def add_testdata(self, target, name, value):
        d = self.testdata(target)
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, name), "w") as f:
            f.write("go test fuzz v1\n%s\n" % value)


@pytest.fixture
def workdir(cgofuzz, tmp_path):
    """An empty working directory."""
    return Dir(cgofuzz, str(tmp_path))


@pytest.fixture
def setup_pkg(cgofuzz, setup_binary, setup_src, tmp_path):
    """A copy of the setup package (the binary is the shared build)."""
    d = Dir(cgofuzz, str(tmp_path), setup_src)
    d.binary = setup_binary
    return d


def test_c_magic_needs_exact_slot(workdir, magic_target):
    """The 8-byte magic needs trace-cmp, which a C worker only uses when
    the coordinator reads the exact-input slot: found within 100000 execs
    (without trace-cmp it is not found in 300000), written, and the file
    reproduces."""
    r = workdir.fuzz(magic_target, "FuzzMagic", "-fuzztime=100000x")
    assert r.rc == 1 and "magic found" in r.stdout, \
        "the magic was not found within 100000 execs\n%s" % r
    m = re.search(r"Failing input written to "
                  r"testdata/fuzz/FuzzMagic/([0-9a-f]{16})", r.stdout)
    assert m, "no file written\n%s" % r
    rr = run([magic_target, "-test.run=FuzzMagic/" + m.group(1)],
             workdir.path)
    assert rr.rc == 1 and "magic found" in rr.stdout, \
        "the file does not reproduce\n%s" % rr


def test_c_no_seeds(workdir, asan_target):
    """A C harness without seeds: Go's warning, the zero entry is warmed
    up, so the worker learns the mask and reports coverage."""
    r = workdir.fuzz(asan_target, "FuzzLibFuzzer", BUDGET)
    assert "warning: starting with empty corpus\n" in r.stderr, str(r)
    assert "gathering baseline coverage: 1/1 completed" in r.stderr, str(r)
    assert "Failing input written" in r.stdout or new_interesting(r.stderr), \
        "not coverage-guided\n%s" % r


def test_setup_discovery_in_package_dir(setup_pkg):
    """A target that reads a relative file before f.Fuzz: discovery runs
    in the package directory, and a testdata entry is run (and named) as a
    file, not taken for a seed."""
    setup_pkg.add_testdata("FuzzSetup", "boomfile", '[]byte("boom")')
    r = setup_pkg.fuzz(setup_pkg.binary, "FuzzSetup", BUDGET)
    assert "finding the arguments" not in r.stderr, str(r)
    assert r.rc == 1 and "failure while testing seed corpus entry: " \
        "FuzzSetup/boomfile" in r.stderr and "boom from testdata" \
        in r.stdout, str(r)


def test_setup_seeds_and_testdata(setup_pkg):
    """The warm-up runs the 2 f.Add seeds and the 1 testdata file."""
    setup_pkg.add_testdata("FuzzSetup", "tdfile", '[]byte("td")')
    r = setup_pkg.fuzz(setup_pkg.binary, "FuzzSetup", BUDGET)
    assert r.rc == 0 and "gathering baseline coverage: 3/3 completed" \
        in r.stderr, str(r)


def test_final_progress_line_once(setup_pkg):
    """A timed run (this case is about -fuzztime=3s, a multiple of the 3 s
    progress period): the final progress line is not doubled by a periodic
    one, so no elapsed time is printed twice."""
    r = setup_pkg.fuzz(setup_pkg.binary, "FuzzSetup", "-fuzztime=3s")
    assert r.rc == 0, str(r)
    elapsed = re.findall(r"elapsed: (\d+)s, execs", r.stderr)
    assert elapsed, "no progress line\n%s" % r
    assert elapsed.count(elapsed[-1]) == 1 and \
        len(set(elapsed)) == len(elapsed), \
        "a progress line printed twice: %s\n%s" % (elapsed, r)


def test_go_no_seeds(setup_pkg):
    """No seeds in a Go target: Go's warning, then coverage-guided fuzzing
    from the zero values."""
    r = setup_pkg.fuzz(setup_pkg.binary, "FuzzNoSeed", BUDGET)
    assert "warning: starting with empty corpus\n" in r.stderr, str(r)
    assert r.rc == 1 or (new_interesting(r.stderr) or 0) > 0, \
        "not coverage-guided\n%s" % r


def test_resume_from_go_cache(setup_pkg):
    """cgofuzz resumes from a cache that go test -fuzz wrote (the other
    direction is test_fuzz.py's test_go_reads_cgofuzz_cache). FuzzNoSeed
    has branches for go to find (it may also find its bug: the inputs
    cached before that count all the same)."""
    cache = os.path.join(setup_pkg.path, "go-cache")
    g = run([setup_pkg.binary, "-test.fuzz=^FuzzNoSeed$",
             "-test.run=^FuzzNoSeed$", "-test.fuzztime=20000x",
             "-test.parallel=2", "-test.fuzzcachedir=" + cache],
            setup_pkg.path, setup_pkg.env)
    n = len(corpus_entries(os.path.join(cache, "FuzzNoSeed")))
    assert g.rc in (0, 1) and n > 0, \
        "go test -fuzz wrote no cache (%d inputs)\n%s" % (n, g)
    shutil.rmtree(setup_pkg.testdata("FuzzNoSeed"), ignore_errors=True)
    r = setup_pkg.fuzz(setup_pkg.binary, "FuzzNoSeed", "-fuzztime=1000x",
                       cache=cache)
    assert r.rc in (0, 1) and \
        "gathering baseline coverage: %d/%d completed" % (n, n) in r.stderr \
        and "starting with empty corpus" not in r.stderr, \
        "go's %d cached inputs not warmed up\n%s" % (n, r)


def json_events(go, setup_pkg, extra):
    r = run([go, "tool", "test2json", "-p", "example.com/setup"] +
            setup_pkg.cmd(setup_pkg.binary, "FuzzSetup", extra),
            setup_pkg.path, setup_pkg.env)
    evs = []
    for line in r.stdout.splitlines():
        try:
            evs.append(json.loads(line))
        except ValueError:
            pass
    return r, evs, [(e.get("Action"), e.get("Test")) for e in evs]


def test_test2json_pass(go, setup_pkg):
    """Under test2json (go test -json), a passing run gives run and pass
    events for the target and a pass for the package."""
    r, _, acts = json_events(go, setup_pkg, ["-v", BUDGET])
    assert ("run", "FuzzSetup") in acts and ("pass", "FuzzSetup") in acts \
        and ("pass", None) in acts, str(r)


def test_test2json_fail(go, setup_pkg):
    """Under test2json, a failing run gives a fail event for the target
    and the package, with the failure text in the target's output."""
    setup_pkg.add_testdata("FuzzSetup", "boomfile", '[]byte("boom")')
    r, evs, acts = json_events(go, setup_pkg, [BUDGET])
    out = "".join(e.get("Output", "") for e in evs
                  if e.get("Test") == "FuzzSetup")
    assert ("fail", "FuzzSetup") in acts and ("fail", None) in acts and \
        "boom from testdata" in out, str(r)
