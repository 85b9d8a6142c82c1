"""`cgofuzz fuzz` over several targets in one run (docs/campaigns.md).

tests/cli/campaign/gopkg is a Go package with four fuzz targets (FuzzBravo and
FuzzCharlie hide planted bugs that the dictionary of the package's
constants reaches in a few hundred execs; FuzzAlpha and FuzzDelta never
fail), built once per session with `go test -c -fuzz=.`;
tests/cli/campaign/ctarget/ctarget.c is a C target binary with two targets
(FuzzCBug fails, FuzzCPass does not), built with `cgofuzz cc`. Every case
fuzzes in its own copy of the package with its own cache and $TMPDIR,
under a pinned GODEBUG fuzzseed and an exec budget for the whole run
(-fuzztime=Nx), and checks what must hold: every target ran, each failure
was written once and reproduces, the exit status, the JUnit report (read by
junitparser, validated by xmllint and lxml against the Jenkins xUnit
plugin's junit-10.xsd), the -fuzzstats CSV, and go tool test2json's view.
"""
import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys

import pytest

import testlib
from testlib import corpus_entries, read, run

HERE = os.path.dirname(os.path.abspath(__file__))
XSD = os.path.join(HERE, "junit-10.xsd")
SEED = 3
# For the whole run: slices of a third of an even share (6666 execs for
# four targets) are far more than the planted bugs need.
BUDGET = "-fuzztime=80000x"
GO_TARGETS = ["FuzzAlpha", "FuzzBravo", "FuzzCharlie", "FuzzDelta"]
GO_BUGS = {"FuzzBravo": "planted bug in FuzzBravo",
           "FuzzCharlie": "planted bug in FuzzCharlie"}
HEADER = ["elapsed_s", "target", "execs", "execs_per_s", "coverage",
          "corpus", "new_inputs", "failures", "c_coverage"]


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def gobin(go, tmp_path_factory):
    return testlib.build_go_test_copy(go, os.path.join(HERE, "gopkg"),
                                      tmp_path_factory, "campaign")


@pytest.fixture(scope="session")
def cbin(cgofuzz, tool, tmp_path_factory, sanitized):
    tool("clang")
    if sanitized:
        pytest.skip("the C target links the uninstrumented runtime; not "
                    "built in the ASan+UBSan build")
    out = str(tmp_path_factory.mktemp("ctarget") / "c.test")
    r = run([cgofuzz, "cc", "-O1", os.path.join(HERE, "ctarget",
                                                "ctarget.c"), "-o", out])
    assert r.rc == 0, r
    return out


class Case:
    """A copy of the package, a cache and a $TMPDIR of the case's own."""

    def __init__(self, cgofuzz, tmp):
        self.cgofuzz, self.tmp = cgofuzz, tmp
        self.pkg = os.path.join(tmp, "pkg")
        shutil.copytree(os.path.join(HERE, "gopkg"), self.pkg)
        self.cache = os.path.join(tmp, "cache")
        self.tmpdir = os.path.join(tmp, "tmp")
        os.makedirs(self.tmpdir)
        self.env = testlib.fuzz_env(SEED, TMPDIR=self.tmpdir)
        self.junit = os.path.join(tmp, "report.xml")
        self.stats = os.path.join(tmp, "stats.csv")

    def cmd(self, binaries, *extra, fuzz="."):
        return [self.cgofuzz, "fuzz", "-fuzz=" + fuzz, "-parallel=2",
                "-fuzzcachedir=" + self.cache] + list(extra) + list(binaries)

    def fuzz(self, binaries, *extra, fuzz="."):
        return run(self.cmd(binaries, *extra, fuzz=fuzz), self.pkg, self.env)

    def written(self, target):
        return corpus_entries(os.path.join(self.pkg, "testdata", "fuzz",
                                           target))


@pytest.fixture
def case(cgofuzz, tmp_path):
    return Case(cgofuzz, str(tmp_path))


def junit_read(path):
    """The report as junitparser reads it (junit_check.py, run by a python
    that has junitparser and lxml), validated by lxml against the schema;
    also validated by xmllint."""
    xmllint = shutil.which("xmllint")
    if not xmllint:
        pytest.skip("xmllint is not installed (libxml2-utils; "
                    "scripts/install-deps.sh installs it)")
    r = run([xmllint, "--noout", "--schema", XSD, path])
    assert r.rc == 0, "xmllint: the report does not validate\n%s\n%s" % (
        r, read(path))
    check = "import junitparser, lxml"
    for py in [sys.executable, "/usr/bin/python3"]:
        if os.access(py, os.X_OK) and subprocess.run(
                [py, "-c", check], capture_output=True).returncode == 0:
            break
    else:
        pytest.skip("no python3 here has junitparser and lxml "
                    "(python3-junitparser, python3-lxml)")
    r = run([py, os.path.join(HERE, "junit_check.py"), path, XSD])
    assert r.rc == 0, r
    doc = json.loads(r.stdout)
    assert doc["schema_errors"] == [], doc["schema_errors"]
    return doc["suites"]


def stats_read(path):
    """The -fuzzstats rows, checked: the exact header, every field parses,
    elapsed_s never decreases."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    assert rows and rows[0] == HEADER, rows[:1]
    out, last = [], 0.0
    for r in rows[1:]:
        assert len(r) == len(HEADER), r
        d = dict(zip(HEADER, r))
        assert re.fullmatch(r"\d+\.\d{3}", d["elapsed_s"]), r
        e = float(d["elapsed_s"])
        assert e >= last, "elapsed_s decreases: %s" % r
        last = e
        for k in ("execs", "coverage", "corpus", "new_inputs", "failures",
                  "c_coverage"):
            d[k] = int(d[k])
        d["execs_per_s"] = float(d["execs_per_s"])
        d["elapsed_s"] = e
        out.append(d)
    return out


def summary_rows(stderr):
    """target -> RESULT of the summary's table."""
    m = re.search(r"cgofuzz: summary: .*\n  TARGET .*\n"
                  r"((?:  \S+ +(?:PASS|FAIL|NOTRUN) +\d.*\n)+)", stderr)
    assert m, "no summary\n%s" % stderr
    return {l.split()[0]: l.split()[1] for l in m.group(1).splitlines()}


def assert_reproduces_go(go, pkg, target, name, want):
    rr = run([go, "test", "-timeout=60s", "-run=%s/%s" % (target, name)],
             pkg)
    assert rr.rc not in (0, None) and want in rr.out, \
        "go test does not reproduce %s/%s\n%s" % (target, name, rr)


def test_all_targets_one_run(case, gobin, go):
    """-fuzz=. fuzzes the four targets in one run with -fuzzcontinue: both
    planted bugs are found, each written once and reproduced by go test;
    exit status 1; the summary lists every target; the JUnit report and
    the time series say the same."""
    r = case.fuzz([gobin], BUDGET, "-fuzzcontinue", "-junit", case.junit,
                  "-fuzzstats", case.stats)
    assert r.rc == 1, r
    res = summary_rows(r.stderr)
    assert res == {"FuzzAlpha": "PASS", "FuzzBravo": "FAIL",
                   "FuzzCharlie": "FAIL", "FuzzDelta": "PASS"}, r
    assert r.stdout.rstrip().endswith("FAIL"), r
    for t in GO_TARGETS:
        files = case.written(t)
        if t not in GO_BUGS:
            assert files == [], (t, files)
            continue
        assert len(files) == 1, "%s: want one file, got %s\n%s" % (t, files,
                                                                    r)
        name = os.path.basename(files[0])
        assert r.stdout.count("Failing input written to testdata/fuzz/%s/%s"
                              % (t, name)) == 1, r
        assert "go test -run=%s/%s" % (t, name) in r.stderr, \
            "the summary does not give the re-run command\n%s" % r
        assert_reproduces_go(go, case.pkg, t, name, GO_BUGS[t])

    suites = junit_read(case.junit)
    assert [s["name"] for s in suites] == [os.path.basename(gobin)]
    s = suites[0]
    assert (s["tests"], s["failures"], s["errors"]) == (4, 2, 0), s
    by = {c["name"]: c for c in s["cases"]}
    assert sorted(by) == sorted(GO_TARGETS)
    for t, c in by.items():
        if t in GO_BUGS:
            assert [x["kind"] for x in c["results"]] == ["Failure"], c
            f = c["results"][0]
            name = os.path.basename(case.written(t)[0])
            assert GO_BUGS[t] in f["message"], f
            assert "testdata/fuzz/%s/%s" % (t, name) in f["text"], f
            assert "go test -run=%s/%s" % (t, name) in f["text"], f
        else:
            assert c["results"] == [] and "execs:" in c["system_out"], c

    rows = stats_read(case.stats)
    final = {}
    for d in rows:
        assert d["target"] in GO_TARGETS, d
        assert d["c_coverage"] == 0, d  # no cgo C code there
        final[d["target"]] = d
    assert sorted(final) == sorted(GO_TARGETS)
    assert all(final[t]["execs"] > 0 for t in GO_TARGETS), final
    assert {t: final[t]["failures"] for t in GO_TARGETS} == \
        {"FuzzAlpha": 0, "FuzzBravo": 1, "FuzzCharlie": 1, "FuzzDelta": 0}
    # Cumulative per target: execs never go down from one row to the next.
    seen = {}
    for d in rows:
        assert d["execs"] >= seen.get(d["target"], 0), d
        seen[d["target"]] = d["execs"]


def test_stops_at_first_failure(case, gobin, go):
    """Without -fuzzcontinue the run stops after the first failure, as go
    test would, once it is written: FuzzBravo (second in order) fails in
    its first slice, FuzzCharlie and FuzzDelta are not fuzzed (skipped in
    the report), nothing else is written."""
    r = case.fuzz([gobin], BUDGET, "-junit", case.junit)
    assert r.rc == 1, r
    assert summary_rows(r.stderr) == {
        "FuzzAlpha": "PASS", "FuzzBravo": "FAIL", "FuzzCharlie": "NOTRUN",
        "FuzzDelta": "NOTRUN"}, r
    files = case.written("FuzzBravo")
    assert len(files) == 1 and case.written("FuzzCharlie") == [], r
    assert_reproduces_go(go, case.pkg, "FuzzBravo",
                         os.path.basename(files[0]), GO_BUGS["FuzzBravo"])
    s = junit_read(case.junit)[0]
    kinds = {c["name"]: [x["kind"] for x in c["results"]] for c in s["cases"]}
    assert kinds == {"FuzzAlpha": [], "FuzzBravo": ["Failure"],
                     "FuzzCharlie": ["Skipped"], "FuzzDelta": ["Skipped"]}, s
    assert s["skipped"] == 2, s


def test_c_target_binary(case, cbin):
    """A C target binary (two targets) in one run: FuzzCBug's failure is
    written once and reproduced by the binary itself with the command the
    summary gives; FuzzCPass passes; the report is valid."""
    r = case.fuzz([cbin], "-fuzztime=40000x", "-fuzzcontinue", "-junit",
                  case.junit)
    assert r.rc == 1, r
    assert summary_rows(r.stderr) == {"FuzzCBug": "FAIL",
                                      "FuzzCPass": "PASS"}, r
    files = case.written("FuzzCBug")
    assert len(files) == 1, r
    name = os.path.basename(files[0])
    cmd = "%s -test.run=FuzzCBug/%s" % (cbin, name)
    assert "re-run: " + cmd in r.stderr, r
    rr = run(["sh", "-c", cmd], case.pkg)
    assert rr.rc not in (0, None) and "planted bug in CBug" in rr.out, rr
    s = junit_read(case.junit)[0]
    assert (s["name"], s["tests"], s["failures"]) == ("c.test", 2, 1), s


def test_several_binaries(case, gobin, cbin):
    """A Go and a C binary in one run: one <testsuite> per binary, targets
    labelled binary:target in the time series and the summary, each
    binary's cache apart."""
    r = case.fuzz([gobin, cbin], BUDGET, "-fuzzcontinue", "-junit",
                  case.junit, "-fuzzstats", case.stats)
    assert r.rc == 1, r
    gb, cb = os.path.basename(gobin), os.path.basename(cbin)
    labels = ["%s:%s" % (gb, t) for t in GO_TARGETS] + \
        ["%s:FuzzCBug" % cb, "%s:FuzzCPass" % cb]
    res = summary_rows(r.stderr)
    assert sorted(res) == sorted(labels), r
    assert {t for t, v in res.items() if v == "FAIL"} == \
        {"%s:FuzzBravo" % gb, "%s:FuzzCharlie" % gb, "%s:FuzzCBug" % cb}, r
    assert {d["target"] for d in stats_read(case.stats)} == set(labels)
    suites = junit_read(case.junit)
    assert [(s["name"], s["tests"], s["failures"]) for s in suites] == \
        [(gb, 4, 2), (cb, 2, 1)], suites
    assert os.path.isdir(os.path.join(case.cache, gb)) and \
        os.path.isdir(os.path.join(case.cache, cb)), os.listdir(case.cache)


def test_test2json(case, gobin, go):
    """-v output piped through go tool test2json: each target has a run
    event and one final verdict (pass, fail or skip), then the package's."""
    r = case.fuzz([gobin], BUDGET, "-v", "-fuzzcontinue")
    assert r.rc == 1, r
    p = subprocess.run([go, "tool", "test2json"], input=r.stdout.encode(),
                       capture_output=True)
    assert p.returncode == 0, p.stderr
    ev = [json.loads(l) for l in p.stdout.decode().splitlines()]
    runs = [e["Test"] for e in ev if e["Action"] == "run"]
    assert sorted(runs) == sorted(GO_TARGETS), ev
    verdict = {}
    for e in ev:
        if e["Action"] in ("pass", "fail", "skip") and e.get("Test"):
            verdict[e["Test"]] = e["Action"]
    assert verdict == {"FuzzAlpha": "pass", "FuzzBravo": "fail",
                       "FuzzCharlie": "fail", "FuzzDelta": "pass"}, verdict
    assert [e["Action"] for e in ev if not e.get("Test") and
            e["Action"] != "output"][-1] == "fail", ev


def test_unwritable_testdata_gives_working_command(case, gobin, tool):
    """testdata/fuzz/FuzzCharlie cannot be written (immutable: the tests
    run as root, which ignores modes): the failure goes to a fallback
    directory, the message says where, and the command it gives re-runs it
    from there (run as given, through sh, from the package directory)."""
    d = os.path.join(case.pkg, "testdata", "fuzz", "FuzzCharlie")
    os.makedirs(d)
    if os.geteuid() == 0:
        c = run([tool("chattr"), "+i", d], "/")
        if c.rc != 0:
            pytest.skip("chattr +i does not work here, and root ignores a "
                        "read-only mode: %s" % c.stderr.strip())
    else:
        os.chmod(d, 0o555)
    try:
        r = case.fuzz([gobin], BUDGET, fuzz="^FuzzCharlie$")
    finally:
        if shutil.which("chattr"):
            run(["chattr", "-i", d], "/")
        os.chmod(d, 0o755)
    m = re.search(r"Failing input written to (\S+)\n\s*To re-run \(.*\), in "
                  r"a directory of its own:\n\s*(.*)\n", r.stdout)
    assert r.rc == 1 and m, r
    path, cmd = m.group(1), m.group(2)
    assert path.startswith(case.tmpdir) and os.path.isfile(path), r
    assert "written to %s instead" % path in r.stderr, r
    rr = run(["sh", "-c", cmd], case.pkg)
    assert rr.rc not in (0, None) and GO_BUGS["FuzzCharlie"] in rr.out, \
        "the command does not reproduce\n%s\n%s" % (cmd, rr)


def norm(text):
    """Output with its timings and the failing file's name blanked."""
    text = re.sub(r"\(\d+\.\d\ds\)", "(T)", text)
    return re.sub(r"[0-9a-f]{16}", "NAME", text)


def test_one_target_output_unchanged(case, cgofuzz, gobin, tmp_path):
    """One matching target is go test's run: with -junit and -fuzzstats
    the stdout is the same as without (timings aside), no summary is
    printed, and the report has its one test case."""
    r1 = case.fuzz([gobin], BUDGET, fuzz="^FuzzCharlie$")
    shutil.rmtree(os.path.join(case.pkg, "testdata"))
    r2 = case.fuzz([gobin], BUDGET, "-junit", case.junit, "-fuzzstats",
                   case.stats, fuzz="^FuzzCharlie$")
    assert r1.rc == r2.rc == 1, (r1, r2)
    assert norm(r1.stdout) == norm(r2.stdout), (r1, r2)
    assert "cgofuzz: summary" not in r2.stderr, r2
    s = junit_read(case.junit)[0]
    assert [c["name"] for c in s["cases"]] == ["FuzzCharlie"], s
    rows = stats_read(case.stats)
    assert rows and all(d["target"] == "FuzzCharlie" for d in rows), rows
    assert rows[-1]["failures"] == 1, rows


def test_budget_flags_must_agree(case, gobin):
    """-fuzztime and -fuzztimeper are both durations or both counts."""
    r = case.fuzz([gobin], "-fuzztime=10s", "-fuzztimeper=100x")
    assert r.rc == 2 and "must both be durations or both be counts" in \
        r.stderr, r


def test_fuzztimeper_alone_is_each_targets_budget(case, gobin):
    """-fuzztimeper=3000x without -fuzztime: each target gets its 3000
    execs (one slice each), and the run passes. The count is a floor, not
    an exact figure: like go test's, it also counts the warm-up of the
    corpus, and Go's minimization runs over its limit by up to 31 execs.
    One target's overrun must not shorten the next one's budget (it did:
    CI saw FuzzAlpha 3003, FuzzDelta 2997)."""
    r = case.fuzz([gobin], "-fuzztimeper=3000x", "-fuzzstats", case.stats,
                  fuzz="^Fuzz(Alpha|Delta)$")
    assert r.rc == 0 and r.stdout.rstrip().endswith("PASS"), r
    assert summary_rows(r.stderr) == {"FuzzAlpha": "PASS",
                                      "FuzzDelta": "PASS"}, r
    final = {d["target"]: d for d in stats_read(case.stats)}
    assert sorted(final) == ["FuzzAlpha", "FuzzDelta"], final
    assert all(final[t]["execs"] >= 3000 for t in final), final


def test_stats_rows_survive_kill(case, gobin, background):
    """The -fuzzstats rows are flushed as written: after SIGKILL of the
    whole run, the file holds the header and whole rows that parse."""
    bg = background(case.cmd([gobin], testlib.UNTIL_STOPPED, "-fuzzstats",
                             case.stats, fuzz="^Fuzz(Alpha|Delta)$"),
                    case.pkg, case.env, case.tmp)
    testlib.wait_until(lambda: read(case.stats).count("\n") >= 3,
                       "three -fuzzstats lines", detail=lambda: str(
                           bg.result()))
    bg.signal_group(signal.SIGKILL)
    bg.wait()
    rows = stats_read(case.stats)
    assert rows and rows[0]["target"] == "FuzzAlpha", rows


def test_interrupt_writes_summary_and_report(case, gobin, background):
    """^C (SIGINT to the run) ends it after the current slice: the summary
    and the JUnit report are still written, the target never fuzzed is
    reported as skipped, and no process is left."""
    bg = background(case.cmd([gobin], testlib.UNTIL_STOPPED, "-junit",
                             case.junit, fuzz="^Fuzz(Alpha|Delta)$"),
                    case.pkg, case.env, case.tmp)
    bg.wait_for_text("fuzz: FuzzAlpha: elapsed: 3s")
    bg.signal(signal.SIGINT)
    bg.wait()
    res = bg.result()
    assert summary_rows(res.stderr) == {"FuzzAlpha": "PASS",
                                        "FuzzDelta": "NOTRUN"}, res
    s = junit_read(case.junit)[0]
    assert s["tests"] == 2 and s["skipped"] == 1, s
    testlib.wait_group_gone(bg.pid, "SIGINT")


def names(d):
    """The corpus files in d (its plain names), an empty set if none."""
    return set(f for f in os.listdir(d) if not f.startswith(".")) \
        if os.path.isdir(d) else set()


def test_syncdir_shares_inputs_and_failures(cgofuzz, gobin, tmp_path):
    """Three runs, each with a package copy, a cache and a fuzzseed of its
    own, one after the other with one -syncdir (count budgets, so three
    slices each and a sync between them): the directory ends with every
    input of every run's cache (a superset, so the merged corpus covers at
    least what each part does) and every failure a run wrote; a run
    starts with the inputs the others left there (its cache holds them
    after its first slice)."""
    sync = str(tmp_path / "shared")
    runs = [Case(cgofuzz, str(tmp_path / ("run%d" % i))) for i in range(3)]
    before = []
    for i, c in enumerate(runs):
        c.env = testlib.fuzz_env(SEED + i, TMPDIR=c.tmpdir)
        before.append(names(os.path.join(sync, "FuzzAlpha")))
        r = c.fuzz([gobin], "-fuzztime=3000x", "-syncdir", sync,
                   fuzz="^FuzzAlpha$")
        assert r.rc == 0 and r.stdout.rstrip().endswith("PASS"), r
        mine = names(os.path.join(c.cache, "FuzzAlpha"))
        assert mine, "run %d found nothing to share\n%s" % (i, r)
        assert before[i] <= mine, "run %d did not take the others' inputs" % i
        assert mine <= names(os.path.join(sync, "FuzzAlpha")), i
    assert before[0] == set() and before[2] > before[1] > set()
    # A failure one run finds is in the directory, byte for byte.
    c = runs[0]
    r = c.fuzz([gobin], BUDGET, "-syncdir", sync, fuzz="^FuzzBravo$")
    assert r.rc == 1, r
    failed = c.written("FuzzBravo")
    assert len(failed) == 1, r
    shared = os.path.join(sync, "failures", "FuzzBravo",
                          os.path.basename(failed[0]))
    with open(failed[0], "rb") as a, open(shared, "rb") as b:
        assert a.read() == b.read()
    # The others' testdata is untouched: a failure is its owner's.
    assert runs[1].written("FuzzBravo") == []
