"""go test -exec=cgofuzz (csrc/cli/cmd_exec.c).

Every case copies tests/cli/exec/mod (or examples/goparse) into its own
directory under a module path of its own, so that go test's fuzz cache
($GOCACHE/fuzz/<import path>) is the case's alone while the build cache is
shared. Fuzzing runs pin GODEBUG=fuzzseed and count execs (-fuzztime=Nx).
"""
import os
import re
import shutil
import uuid

import pytest

import testlib
from testlib import run

SEED = 1


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


class Mod:
    """A copy of a module with a unique module path."""

    def __init__(self, src, tmp, cgofuzz, go):
        self.cgofuzz, self.go = cgofuzz, go
        self.dir = os.path.join(tmp, "mod")
        shutil.copytree(src, self.dir)
        gomod = os.path.join(self.dir, "go.mod")
        text = open(gomod).read()
        old = re.search(r"^module (\S+)", text, re.M).group(1)
        self.path = "example.com/x%s" % uuid.uuid4().hex[:12]
        for root, _, files in os.walk(self.dir):
            for f in files:
                p = os.path.join(root, f)
                t = open(p).read()
                if old in t:
                    open(p, "w").write(t.replace(old, self.path))
        self.log = os.path.join(tmp, "exec.log")
        self.env = testlib.fuzz_env(SEED, CGOFUZZ_EXEC_LOG=self.log,
                                    GOFLAGS=None, CGOFUZZ_FLAGS=None)

    def go_test(self, *args, exec_=True, env=None, cwd=None):
        cmd = [self.go, "test"]
        if exec_:
            cmd.append("-exec=" + self.cgofuzz)
        e = dict(self.env)
        e.update(env or {})
        return run(cmd + list(args), cwd or self.dir, e)

    def exec_log(self):
        if not os.path.exists(self.log):
            return []
        return [line.split() for line in open(self.log)]


@pytest.fixture
def mod(source_dir, tmp_path, cgofuzz, go):
    return Mod(os.path.join(source_dir, "tests", "cli", "exec", "mod"),
               str(tmp_path), cgofuzz, go)


@pytest.fixture
def goparse(source_dir, tmp_path, cgofuzz, go):
    return Mod(os.path.join(source_dir, "examples", "goparse"),
               str(tmp_path), cgofuzz, go)


def norm(text):
    """go test's lines with the parts that vary from run to run (times,
    build directories) taken out."""
    text = re.sub(r"\d+\.\d+s", "T", text)
    text = re.sub(r"/tmp/go-build\d+/", "/tmp/go-build/", text)
    text = re.sub(r"\s+\d+(\.\d+)? ns/op", " N ns/op", text)
    text = re.sub(r"^(BenchmarkDouble(-\d+)?)\s+\d+", r"\1 N", text, flags=re.M)
    return text


# -- not fuzzing: the binary, unchanged ------------------------------------

@pytest.mark.parametrize("args", [
    ["-count=1", "./..."],
    ["-count=1", "-v", "./plain", "./failing"],
    ["-count=1", "-run=TestSub/n2", "-v", "./plain"],
    ["-list=.", "./plain", "./fuzzy"],
    ["-count=1", "-run=^$", "-bench=.", "-benchtime=1x", "./plain"],
    ["-count=1", "-run=Example", "-v", "./plain"],
    ["-count=1", "-shuffle=7", "-v", "./plain"],
], ids=["all", "verbose", "subtest", "list", "bench", "example", "shuffle"])
def test_plain_go_test_is_unchanged(mod, args):
    """go test's result lines and exit status are the same with and
    without -exec=cgofuzz, and cgofuzz only exec'd the binaries."""
    want = mod.go_test(*args, exec_=False)
    got = mod.go_test(*args)
    assert got.rc == want.rc, (got, want)
    assert norm(got.stdout) == norm(want.stdout), (got, want)
    log = mod.exec_log()
    assert log and all(w[0] == "exec" for w in log), log


def test_goflags_exec(mod):
    """GOFLAGS=-exec=cgofuzz sends every go test through cgofuzz."""
    r = mod.go_test("-count=1", "./plain", exec_=False,
                    env={"GOFLAGS": "-exec=" + mod.cgofuzz})
    assert r.rc == 0, r
    assert re.search(r"^ok\s+%s/plain" % re.escape(mod.path), r.stdout, re.M), r
    assert [w[0] for w in mod.exec_log()] == ["exec"]


def test_go_run_exec(mod):
    """go run -exec=cgofuzz runs a program that is not a test binary as it
    is: its output, arguments and exit status."""
    r = run([mod.go, "run", "-exec=" + mod.cgofuzz, "./hello", "a", "b"],
            mod.dir, mod.env)
    assert "hello [a b]" in r.stdout, r
    assert "exit status 3" in r.stderr, r
    assert r.rc == 1, r


# -- fuzzing ---------------------------------------------------------------

def test_demo_bug_found_written_reproduced(goparse):
    """The README's way in: go test -fuzz=FuzzParseRecord -exec=cgofuzz
    finds the planted bug, writes it where go test looks, and plain go
    test reproduces it."""
    r = goparse.go_test("-fuzz=FuzzParseRecord", "-fuzztime=1000000x",
                        "-parallel=2", ".")
    assert r.rc == 1, r
    m = re.search(r"Failing input written to testdata/fuzz/FuzzParseRecord/"
                  r"([0-9a-f]{16})", r.stdout)
    assert m, r
    assert "index out of range" in r.stdout, r
    assert re.search(r"^FAIL\s+%s" % re.escape(goparse.path), r.stdout,
                     re.M), r
    assert ["fuzz"] == [w[0] for w in goparse.exec_log()]
    assert goparse.exec_log()[0][2] == "FuzzParseRecord"
    again = goparse.go_test("-run=FuzzParseRecord/" + m.group(1), ".",
                            exec_=False)
    assert again.rc == 1 and "index out of range" in again.stdout, again


def test_fuzz_writes_go_tests_cache(mod, go):
    """New inputs go to go test's own cache for the package, so go test
    -fuzz (without -exec) resumes the corpus cgofuzz built."""
    r = mod.go_test("-fuzz=FuzzClean", "-fuzztime=3000x", "-parallel=1",
                    "./fuzzy")
    assert r.rc == 0, r
    assert re.search(r"^ok\s+%s/fuzzy" % re.escape(mod.path), r.stdout,
                     re.M), r
    gocache = run([go, "env", "GOCACHE"], mod.dir, mod.env).stdout.strip()
    cache = os.path.join(gocache, "fuzz", mod.path + "/fuzzy", "FuzzClean")
    assert os.path.isdir(cache) and os.listdir(cache), r
    n = len(os.listdir(cache))
    again = mod.go_test("-fuzz=FuzzClean", "-fuzztime=1x", "-parallel=1",
                        "./fuzzy", exec_=False)
    assert again.rc == 0, again
    assert re.search(r"gathering baseline coverage: 0/%d completed" %
                     (n + 1), again.stdout), again
    shutil.rmtree(os.path.join(gocache, "fuzz", mod.path + "/fuzzy"))


def test_fuzz_bug_in_package(mod):
    r = mod.go_test("-fuzz=^FuzzCheck$", "-fuzztime=200000x", "-parallel=2",
                    "./fuzzy")
    assert r.rc == 1, r
    assert "assignment to entry in nil map" in r.stdout, r
    m = re.search(r"go test -run=FuzzCheck/([0-9a-f]{16})", r.stdout)
    assert m, r
    assert os.path.exists(os.path.join(mod.dir, "fuzzy", "testdata", "fuzz",
                                       "FuzzCheck", m.group(1)))
    again = mod.go_test("./fuzzy", exec_=False)
    assert again.rc == 1 and "FuzzCheck/" + m.group(1) in again.stdout, again


def frame(text):
    """go test's framing lines (=== RUN, --- PASS, PASS, ok ...), with
    times taken out."""
    return [norm(l) for l in text.splitlines()
            if re.match(r"(=== |--- |PASS$|FAIL$|ok |FAIL\t)", l)]


def test_verbose_lines(mod):
    """-v: go test's framing lines in go test's order (the tests and the
    other targets' seeds first), no line of cgofuzz's own, and what the
    target's body logged, once."""
    args = ("-v", "-fuzz=FuzzClean", "-fuzztime=200x", "-parallel=1",
            "./fuzzy")
    want = mod.go_test(*args, exec_=False)
    got = mod.go_test(*args)
    assert got.rc == want.rc == 0, (got, want)
    assert frame(got.stdout) == frame(want.stdout), (got, want)
    assert "cgofuzz" not in got.stdout, got
    r = mod.go_test("-v", "-fuzz=^FuzzCheck$", "-fuzztime=1x", "-parallel=1",
                    "./fuzzy")
    assert r.stdout.count("the body of FuzzCheck ran") == 1, r


def test_failing_test_stops_before_fuzzing(mod):
    want = mod.go_test("-fuzz=FuzzNever", "-fuzztime=10x", "./failing",
                       exec_=False)
    got = mod.go_test("-fuzz=FuzzNever", "-fuzztime=10x", "./failing")
    assert got.rc == want.rc == 1, (got, want)
    assert norm(got.stdout) == norm(want.stdout), (got, want)
    assert "fuzz:" not in got.stdout, got


def test_target_that_cannot_be_fuzzed(mod):
    """A target that returns without calling f.Fuzz: the binary's own
    report."""
    want = mod.go_test("-fuzz=FuzzNoop", "-fuzztime=10x", "./noop",
                       exec_=False)
    got = mod.go_test("-fuzz=FuzzNoop", "-fuzztime=10x", "./noop")
    assert got.rc == want.rc == 1, (got, want)
    assert norm(got.stdout) == norm(want.stdout), (got, want)


@pytest.mark.parametrize("pattern,want", [
    ("Fuzz", r"^testing: will not fuzz, -fuzz matches more than one fuzz "
             r"test: \[FuzzCheck FuzzClean\]$"),
    ("FuzzNothing", r"^testing: warning: no fuzz tests to fuzz$"),
])
def test_fuzz_matching(mod, pattern, want):
    ref = mod.go_test("-fuzz=" + pattern, "-fuzztime=10x", "./fuzzy",
                      exec_=False)
    got = mod.go_test("-fuzz=" + pattern, "-fuzztime=10x", "./fuzzy")
    assert got.rc == ref.rc, (got, ref)
    assert re.search(want, got.stdout + got.stderr, re.M), got
    assert norm(got.stdout) == norm(ref.stdout), (got, ref)


def test_own_flags_after_args_and_from_env(mod, tmp_path):
    """cgofuzz's options after -args and in CGOFUZZ_FLAGS; the tests' own
    flags after -args still reach the binary."""
    junit = str(tmp_path / "fuzz.xml")
    stats = str(tmp_path / "stats.csv")
    r = mod.go_test("-fuzz=^FuzzCheck$", "-fuzztime=200000x", "-parallel=2",
                    "./fuzzy", "-args", "-greeting=hi", "-fuzzcontinue",
                    "-fuzzstats", stats,
                    env={"CGOFUZZ_FLAGS": "-junit=" + junit})
    assert r.rc == 1, r
    assert "greeting: hi" in r.stdout, r
    assert os.path.exists(junit) and "FuzzCheck" in open(junit).read(), r
    assert os.path.exists(stats), r


def test_bad_env_flag(mod):
    r = mod.go_test("-fuzz=^FuzzCheck$", "-fuzztime=1x", "./fuzzy",
                    env={"CGOFUZZ_FLAGS": "-nosuchflag"})
    assert r.rc != 0, r
    assert "CGOFUZZ_FLAGS: -nosuchflag" in r.stdout + r.stderr, r


def events(stdout):
    """go test -json's events other than output: (Action, Test)."""
    import json
    out = []
    for line in stdout.splitlines():
        if line.startswith("{"):
            e = json.loads(line)
            if e["Action"] not in ("output", "build-output"):
                out.append((e["Action"], e.get("Test")))
    return out


@pytest.mark.parametrize("target,budget", [("FuzzClean", "300x"),
                                           ("^FuzzCheck$", "200000x")])
def test_json(mod, target, budget):
    """go test -json -fuzz: the binary gets -test.v=test2json; cgofuzz marks
    its framing lines as the testing package does, so test2json reports
    the same events (run, pass or fail, per test and for the package)."""
    args = ("-json", "-fuzz=" + target, "-fuzztime=" + budget,
            "-parallel=1", "./fuzzy")
    want = mod.go_test(*args, exec_=False)
    got = mod.go_test(*args)
    assert got.rc == want.rc, (got, want)
    assert events(got.stdout) == events(want.stdout), (got, want)


@pytest.mark.parametrize("target,pkg,budget,parallel", [
    # f.Setenv in the target's body before f.Fuzz: the workers cgofuzz
    # starts see it, as go test's own workers do (cmd/internal/fuzztest's
    # test_fuzz_setenv).
    ("FuzzSetenv", "./setenv", "50x", "2"),
    # A bool target with both values seeded: no input the stand-in worker
    # offers is new to Go's coordinator, so the target is named by the
    # binary's -test.list instead, and fuzzing goes on as usual.
    ("FuzzBool", "./boolish", "100x", "1"),
], ids=["body-environment", "all-inputs-seeds"])
def test_fuzzes_and_passes(mod, target, pkg, budget, parallel):
    r = mod.go_test("-fuzz=" + target, "-fuzztime=" + budget,
                    "-parallel=" + parallel, pkg)
    assert r.rc == 0, r
    assert re.search(r"^ok\s", r.stdout, re.M), r
    assert [w[0] for w in mod.exec_log()] == ["fuzz"]


def test_parallel_tests_and_seed_order(mod):
    """-parallel reaches the tests run before fuzzing (two t.Parallel tests
    that pass only side by side), and a failing seed among ten is named as
    go test names it, whatever the number of workers."""
    want = mod.go_test("-fuzz=FuzzSeven", "-fuzztime=100x", "-parallel=4",
                       "./seeds", exec_=False)
    got = mod.go_test("-fuzz=FuzzSeven", "-fuzztime=100x", "-parallel=4",
                      "./seeds")
    line = "failure while testing seed corpus entry: FuzzSeven/seed#7"
    assert want.rc == 1 and line in want.stdout, want
    assert got.rc == 1 and line in got.stdout, got
    assert "never ran beside" not in got.stdout, got
