"""`cgofuzz fuzz` over `go list` patterns: a whole module in one command
(docs/campaigns.md, "Package patterns"; issue 22, part 2).

tests/cli/modules/mod is a module of four packages, copied into each case's
own directory:
  alpha   FuzzAlpha panics on inputs starting with "BUG" (seed "BUF"),
          FuzzQuiet never fails, and a plain test;
  bravo   FuzzBravo fails on strings starting with "CAR"; its seed ("CAT")
          is read from bravo/testdata/seed.txt, so the target only works
          when run in its package's directory;
  broken  does not compile;
  util    tests without fuzz targets, and FuzzExtra (fails on "EXTRA")
          only with -tags extra.
The planted bugs are one mutation away from a seed and the dictionary of
the package's constants holds the bug's prefix: under the pinned GODEBUG
fuzzseed, each target finds its bug in its first slice of an exec-counted
budget (-fuzztime=Nx), on every run.
"""
import os
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

import testlib
from testlib import corpus_entries, run

HERE = os.path.dirname(os.path.abspath(__file__))
XSD = os.path.join(os.path.dirname(HERE), "campaign", "junit-10.xsd")
MOD = "example.com/fuzzmod"
SEED = 3
# Three targets in ./...: slices of 20000 / 9 = 2222 execs, far more than
# the planted bugs need.
BUDGET = "-fuzztime=20000x"
BUGS = {"alpha": ("FuzzAlpha", "planted bug in alpha"),
        "bravo": ("FuzzBravo", "planted bug in bravo")}


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


class Case:
    """A copy of the module, a fuzz cache, a $TMPDIR and a GOFLAGS-free
    environment of the case's own (go's build cache is shared: builds are
    cached, as for a user)."""

    def __init__(self, cgofuzz, go, tmp):
        self.cgofuzz, self.go, self.tmp = cgofuzz, go, tmp
        self.mod = os.path.join(tmp, "mod")
        shutil.copytree(os.path.join(HERE, "mod"), self.mod)
        self.cache = os.path.join(tmp, "cache")
        self.tmpdir = os.path.join(tmp, "tmp")
        os.makedirs(self.tmpdir)
        path = os.path.dirname(go) + os.pathsep + os.environ.get("PATH", "")
        self.env = testlib.fuzz_env(SEED, TMPDIR=self.tmpdir, PATH=path,
                                    GOFLAGS=None, GOWORK="off")
        self.junit = os.path.join(tmp, "report.xml")

    def fuzz(self, *args, cwd=None, env=None):
        e = dict(self.env)
        e.update(env or {})
        return run([self.cgofuzz, "fuzz", "-parallel=2",
                    "-fuzzcachedir=" + self.cache] + list(args),
                   cwd or self.mod, e)

    def written(self, pkg, target):
        return corpus_entries(os.path.join(self.mod, pkg, "testdata", "fuzz",
                                           target))

    def leftovers(self):
        """What package mode left in $TMPDIR (its binaries' directory)."""
        return [f for f in os.listdir(self.tmpdir)
                if f.startswith("cgofuzz-pkgs-")]


@pytest.fixture
def case(cgofuzz, go, tmp_path):
    return Case(cgofuzz, go, str(tmp_path))


def summary_rows(stderr):
    """label -> RESULT of the summary's table."""
    m = re.search(r"cgofuzz: summary: .*\n  TARGET .*\n"
                  r"((?:  \S+ +(?:PASS|FAIL|NOTRUN) +\d.*\n)+)", stderr)
    assert m, "no summary\n%s" % stderr
    return {l.split()[0]: l.split()[1] for l in m.group(1).splitlines()}


def junit_cases(path):
    """suite name -> {case name: [result element tags]}, checked against
    the schema by xmllint when it is installed (tests/cli/campaign validates
    the writer fully; here the package suites are what is new)."""
    xmllint = shutil.which("xmllint")
    if xmllint:
        r = run([xmllint, "--noout", "--schema", XSD, path])
        assert r.rc == 0, "the report does not validate\n%s" % r
    root = ET.parse(path).getroot()
    out = {}
    for s in root.findall("testsuite"):
        out[s.get("name")] = {
            c.get("name"): [x.tag for x in c
                            if x.tag in ("failure", "error", "skipped")]
            for c in s.findall("testcase")}
    return root, out


def test_module_in_one_command(case, go):
    """./... builds every package's test binary, fuzzes the three matching
    targets of two packages in one run (-fuzzcontinue), each in its own
    package's directory: both bugs found and written to their packages'
    testdata/fuzz, the broken package reported by import path, exit status
    1, the JUnit report has a suite per package, the temporary binaries
    are gone, the summary's re-run commands work from the module root (and
    the failure blocks on stdout give the same paths and commands), and
    plain go test ./... then reproduces both failures."""
    # An entry in FuzzQuiet's cache, where go test keeps it: under the
    # package's import path.
    cached = os.path.join(case.cache, MOD, "alpha", "FuzzQuiet")
    os.makedirs(cached)
    with open(os.path.join(cached, "0123456789abcdef"), "w") as f:
        f.write('go test fuzz v1\n[]byte("cached")\n')
    r = case.fuzz("-fuzz=.", BUDGET, "-fuzzcontinue", "-junit", case.junit,
                  "./...")
    assert r.rc == 1, r
    # FuzzQuiet's corpus: its seed and the cached entry.
    assert re.search(r"alpha\.FuzzQuiet +PASS .* 2->\d+ ", r.stderr), r
    # The broken package: go's own error, named by import path.
    assert "cgofuzz fuzz: %s/broken: build failed" % MOD in r.stderr, r
    assert "broken/broken.go:" in r.stderr, r
    assert summary_rows(r.stderr) == {
        MOD + "/alpha.FuzzAlpha": "FAIL", MOD + "/alpha.FuzzQuiet": "PASS",
        MOD + "/bravo.FuzzBravo": "FAIL"}, r
    assert re.search(r"cgofuzz: summary: 3 targets, 2 failed, 1 package did "
                     r"not build", r.stderr), r
    assert "  %s/broken: build failed: broken/broken.go:" % MOD in r.stderr, r
    assert r.stdout.rstrip().endswith("FAIL"), r
    # Nothing at the module root; each failure in its package's testdata.
    assert not os.path.exists(os.path.join(case.mod, "testdata")), r
    assert case.written("alpha", "FuzzQuiet") == []
    for pkg, (target, want) in BUGS.items():
        files = case.written(pkg, target)
        assert len(files) == 1, (pkg, files, str(r))
        name = os.path.basename(files[0])
        assert "written to %s/testdata/fuzz/%s/%s" % (pkg, target, name) \
            in r.stderr, r
        cmd = "go test -run=%s/%s ./%s" % (target, name, pkg)
        assert "re-run: " + cmd in r.stderr, r
        # Two packages in the run: the failure block on stdout names the
        # file and the package from the module root too.
        assert "    Failing input written to %s/testdata/fuzz/%s/%s\n" \
            "    To re-run:\n    %s\n" % (pkg, target, name, cmd) \
            in r.stdout, r
        assert "written to testdata/" not in r.stdout, r
        rr = run(["sh", "-c", cmd], case.mod, case.env)
        assert rr.rc == 1 and want in rr.out, rr
    assert case.leftovers() == []

    root, suites = junit_cases(case.junit)
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == \
        ("4", "2", "1"), ET.tostring(root)
    assert suites == {
        MOD + "/alpha": {"FuzzAlpha": ["failure"], "FuzzQuiet": []},
        MOD + "/bravo": {"FuzzBravo": ["failure"]},
        MOD + "/broken": {"[build failed]": ["error"]}}, suites
    text = open(case.junit).read()
    assert "go test -run=FuzzBravo/" in text and " ./bravo" in text

    # Plain go test ./... reproduces both and reports the broken package.
    g = run([go, "test", "./..."], case.mod, case.env)
    assert g.rc == 1, g
    for pkg, (target, want) in BUGS.items():
        name = os.path.basename(case.written(pkg, target)[0])
        assert "--- FAIL: %s/%s" % (target, name) in g.out, g
        assert want in g.out, g
        assert re.search(r"(?m)^FAIL\s+%s/%s\b" % (MOD, pkg), g.out), g
    assert "%s/broken [build failed]" % MOD in g.out, g
    assert re.search(r"(?m)^ok\s+%s/util\b" % MOD, g.out), g


def test_tags_select_a_file(case):
    """-tags reaches go list and go test -c: FuzzExtra exists only with
    -tags extra, is fuzzed and its bug written to util/testdata; without
    the tag util has no fuzz target and is left out quietly. GOFLAGS
    carries tags too."""
    r = case.fuzz("-fuzz=.", "-fuzztime=5000x", "./util")
    assert r.rc == 0, r
    assert "testing: warning: no fuzz tests to fuzz" in r.stderr, r
    assert r.stdout == "PASS\n", r
    assert case.written("util", "FuzzExtra") == []

    r = case.fuzz("-fuzz=.", "-tags=extra", "-fuzztime=5000x", "./util")
    assert r.rc == 1, r
    assert "planted bug in util (extra)" in r.stdout, r
    assert len(case.written("util", "FuzzExtra")) == 1, r
    assert case.leftovers() == []

    shutil.rmtree(os.path.join(case.mod, "util", "testdata"))
    r = case.fuzz("-fuzz=Extra", "-fuzztime=5000x", "./util",
                  env={"GOFLAGS": "-tags=extra"})
    assert r.rc == 1 and len(case.written("util", "FuzzExtra")) == 1, r


def normalize(out):
    """Output with what varies from run to run (times, rates, exec counts,
    the size of the failing input before minimizing) replaced."""
    out = re.sub(r"\(\d+\.\d+s\)", "(T)", out)
    out = re.sub(r"elapsed: \d+s", "elapsed: T", out)
    out = re.sub(r"\(\d+/sec\)", "(R/sec)", out)
    out = re.sub(r"execs: \d+", "execs: N", out)
    out = re.sub(r"minimizing \d+-byte", "minimizing N-byte", out)
    return out


def test_one_target_is_go_test(case, go):
    """One matching target via a pattern: exactly the output of cgofuzz
    fuzz given that package's test binary in its directory (go test's
    run), no summary; the failure lands in the package's testdata and the
    printed re-run command is go test's, from the package directory."""
    ref = os.path.join(case.tmp, "ref")
    shutil.copytree(os.path.join(HERE, "mod"), ref)
    binary = testlib.build_go_test(go, os.path.join(ref, "bravo"),
                                   os.path.join(case.tmp, "bravo.test"))
    want = run([case.cgofuzz, "fuzz", "-parallel=2", "-fuzz=FuzzBravo",
                BUDGET, "-fuzzcachedir=" + os.path.join(case.tmp, "c2"),
                binary], os.path.join(ref, "bravo"), case.env)
    assert want.rc == 1, want

    r = case.fuzz("-fuzz=FuzzBravo", BUDGET, "./...")
    assert r.rc == 1, r
    # ./... also reaches the broken package, which is reported on stderr;
    # stdout is the one target's run, exactly.
    assert normalize(r.stdout) == normalize(want.stdout), (r, want)
    assert "cgofuzz: summary" not in r.stderr, r
    files = case.written("bravo", "FuzzBravo")
    assert len(files) == 1
    name = os.path.basename(files[0])
    assert "Failing input written to testdata/fuzz/FuzzBravo/%s\n" % name \
        in r.stdout and "go test -run=FuzzBravo/%s\n" % name in r.stdout, r

    # Without the broken package: go test's exit status and stderr shape.
    shutil.rmtree(os.path.join(case.mod, "bravo", "testdata", "fuzz"))
    r = case.fuzz("-fuzz=FuzzBravo", BUDGET, "./bravo")
    assert r.rc == 1, r
    assert normalize(r.stdout) == normalize(want.stdout), (r, want)
    assert normalize(r.stderr) == normalize(want.stderr), (r, want)


def test_from_a_subdirectory(case):
    """Patterns are go's, relative to where cgofuzz runs: from bravo/, ".."
    names the module root package (none) and "." the package; paths and
    re-run commands are given from there, in the summary and in stdout's
    failure blocks (two packages fuzzed)."""
    r = case.fuzz("-fuzz=.", BUDGET, "-fuzzcontinue", ".", "../alpha",
                  cwd=os.path.join(case.mod, "bravo"))
    assert r.rc == 1, r
    rows = summary_rows(r.stderr)
    assert rows[MOD + "/bravo.FuzzBravo"] == "FAIL", r
    assert rows[MOD + "/alpha.FuzzAlpha"] == "FAIL", r
    name = os.path.basename(case.written("bravo", "FuzzBravo")[0])
    assert "written to testdata/fuzz/FuzzBravo/%s\n" % name in r.stderr, r
    assert "re-run: go test -run=FuzzBravo/%s\n" % name in r.stderr, r
    # alpha is not below bravo/: its commands run in its directory.
    alpha = os.path.join(case.mod, "alpha")
    assert "written to %s/testdata/fuzz/FuzzAlpha/" % alpha in r.stderr, r
    assert "re-run: (cd %s && go test -run=FuzzAlpha/" % alpha in r.stderr, r
    # The failure blocks on stdout say the same.
    assert "    Failing input written to testdata/fuzz/FuzzBravo/%s\n" \
        "    To re-run:\n    go test -run=FuzzBravo/%s\n" % (name, name) \
        in r.stdout, r
    aname = os.path.basename(case.written("alpha", "FuzzAlpha")[0])
    acmd = "(cd %s && go test -run=FuzzAlpha/%s)" % (alpha, aname)
    assert "    Failing input written to %s/testdata/fuzz/FuzzAlpha/%s\n" \
        "    To re-run:\n    %s\n" % (alpha, aname, acmd) in r.stdout, r
    rr = run(["sh", "-c", acmd], case.mod, case.env)
    assert rr.rc == 1 and BUGS["alpha"][1] in rr.out, rr


def test_binaries_and_patterns_do_not_mix(case, go):
    """A test binary and a package pattern in one command: a usage error
    that says so, nothing built."""
    binary = testlib.build_go_test(go, os.path.join(case.mod, "alpha"),
                                   os.path.join(case.tmp, "alpha.test"))
    r = case.fuzz("-fuzz=.", BUDGET, binary, "./bravo")
    assert r.rc == 2, r
    assert "give test binaries or package patterns, not both" in r.stderr, r
    assert case.leftovers() == []


def test_bad_pattern(case):
    """A pattern go cannot resolve is reported as go reports it, as a
    package that does not build: exit status 1, in the summary. One
    package fuzzed: its failure block on stdout is go test's."""
    r = case.fuzz("-fuzz=.", BUDGET, "./nothing/...", "./alpha")
    assert r.rc == 1, r
    assert "cgofuzz fuzz: ./nothing/...: build failed" in r.stderr, r
    assert "./nothing/: no such file or directory" in r.stderr, r
    assert re.search(r"cgofuzz: summary: 2 targets, 1 failed, 1 package did "
                     r"not build", r.stderr), r
    # One package fuzzed (two targets): stdout's failure block is go
    # test's, from the package directory; the summary's from ours.
    name = os.path.basename(case.written("alpha", "FuzzAlpha")[0])
    assert "    Failing input written to testdata/fuzz/FuzzAlpha/%s\n" \
        "    To re-run:\n    go test -run=FuzzAlpha/%s\n" % (name, name) \
        in r.stdout, r
    assert "re-run: go test -run=FuzzAlpha/%s ./alpha\n" % name in r.stderr, r
    assert case.leftovers() == []
