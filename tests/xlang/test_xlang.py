"""Cross-language corpus replay (xlang/run.py, docs/xlang.md) on
examples/xlang/unescape: one corpus, testdata/fuzz/FuzzUnescape, through the
Go fuzz target, the C target binary (built by tests/xlang/CMakeLists.txt
with `cgofuzz cc`), the ctest lane of the CMake package and the C target
under go test (gofuzz.FuzzC). Planted bugs (XLANG_C_BUG) run on a temporary
copy of the corpus with one more entry. The runner replays corpus files in
regression mode only, so nothing here is random."""
import os
import shutil
import sys

import pytest

from testlib import run


@pytest.fixture(scope="module")
def xl(source_dir, build_dir, tool):
    """Paths the cases use; skips naming go or clang when one is missing."""
    class Paths:
        go = tool("go")
        clang = tool("clang")
        runner = os.path.join(source_dir, "xlang", "run.py")
        gopkg = os.path.join(source_dir, "examples", "xlang", "unescape")
        corpus = os.path.join(gopkg, "testdata", "fuzz", "FuzzUnescape")
        cpkg = os.path.join(source_dir, "examples", "go", "cunescape")
        cbin = os.path.join(build_dir, "tests", "xlang", "unescape_target")
    if not os.access(Paths.cbin, os.X_OK):
        pytest.fail("%s is not built although clang is installed: re-run "
                    "cmake and build target xlang_targets" % Paths.cbin)
    return Paths


def runner(xl, extra, bug=None):
    """xlang/run.py on the example with extra arguments; bug sets
    XLANG_C_BUG (the C side's planted bug), None clears it."""
    return run([sys.executable, xl.runner, "--go", xl.go, "--go-pkg",
                xl.gopkg, "--c-bin", xl.cbin] + extra,
               env={"XLANG_C_BUG": bug})


def row(out, entry):
    """The cells of the runner's table row for entry, or None."""
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("|")]
        if cells and cells[0] == entry:
            return cells
    return None


@pytest.fixture(scope="module")
def planted_corpus(xl, tmp_path_factory):
    """A temporary copy of the corpus with one more entry, only_pct."""
    tmp = tmp_path_factory.mktemp("xlang") / "FuzzUnescape"
    shutil.copytree(xl.corpus, tmp)
    (tmp / "only_pct").write_text(
        'go test fuzz v1\nstring("%25")\nbool(true)\n')
    return str(tmp)


def test_c_target_alone_on_corpus(xl):
    """The C target binary alone, in regression mode in the example's
    directory, passes the shared corpus."""
    r = run([xl.cbin], cwd=xl.gopkg)
    assert r.rc == 0, r


# -- 1. The shared corpus ----------------------------------------------------

@pytest.fixture(scope="module")
def shared(xl):
    return runner(xl, ["--corpus", xl.corpus])


def test_shared_corpus_agrees(shared):
    """Every entry of the shared corpus passes in both languages: exit 0."""
    assert shared.rc == 0, shared


def test_shared_corpus_table_counts_entries(xl, shared):
    """The table has every corpus file plus the f.Add seed#0, none with a
    failure or disagreement."""
    n = len(os.listdir(xl.corpus))
    assert ("%d entries, 0 with" % (n + 1)) in shared.stdout, shared


def test_shared_corpus_lower_hex_row(shared):
    """lower_hex: PASS | PASS | ok, with the logged result."""
    r = row(shared.stdout, "lower_hex")
    assert (r is not None and r[1:4] == ["PASS", "PASS", "ok"] and
            r[4] == "ok [2f2fc3a9]"), shared


# -- 2. The ctest lane -------------------------------------------------------

@pytest.fixture(scope="module")
def cmake_project(xl, source_dir, build_dir, tool, tmp_path_factory):
    """The example built as a project using the CMake package (its corpus
    registered by cgofuzz_add_fuzz_target): (last step's run, build dir)."""
    cmake = tool("cmake")
    tool("ctest")
    xb = str(tmp_path_factory.mktemp("xlang-cmake"))
    r = run([cmake, "-S", xl.gopkg, "-B", xb, "-DCMAKE_C_COMPILER=clang",
             "-Dcgofuzz_DIR=" + os.path.join(source_dir, "cmake"),
             "-DCGOFUZZ_BUILD_DIR=" + build_dir])
    if r.rc == 0:
        r = run([cmake, "--build", xb])
    return r, xb


def test_cmake_project_builds(cmake_project):
    """The example's CMake project configures and builds."""
    r, _ = cmake_project
    assert r.rc == 0, r


@pytest.fixture(scope="module")
def with_ctest(xl, cmake_project):
    r, xb = cmake_project
    if r.rc != 0:
        pytest.fail("the CMake project did not build (see "
                    "test_cmake_project_builds)\n%s" % r)
    return runner(xl, ["--corpus", xl.corpus, "--ctest-dir", xb,
                       "--ctest-name", "fuzz_unescape"])


def test_with_ctest_agrees(with_ctest):
    """With the ctest lane as a column: exit 0."""
    assert with_ctest.rc == 0, with_ctest


def test_with_ctest_pct_literal_row(with_ctest):
    """pct_literal passes in go, c and ctest, results agree."""
    r = row(with_ctest.stdout, "pct_literal")
    assert r is not None and r[1:5] == ["PASS"] * 3 + ["ok"], with_ctest


# -- 3. A planted C failure --------------------------------------------------

@pytest.fixture(scope="module")
def c_failure(xl, planted_corpus):
    """XLANG_C_BUG=2 makes the C side's own check fail on only_pct."""
    return runner(xl, ["--corpus", planted_corpus], bug="2")


def test_planted_c_failure_exit_1(c_failure):
    """A C failure Go does not have: exit 1."""
    assert c_failure.rc == 1, c_failure


def test_planted_c_failure_row(c_failure):
    """only_pct: go PASS, c FAIL, DIFF."""
    r = row(c_failure.stdout, "only_pct")
    assert r is not None and r[1:4] == ["PASS", "FAIL", "DIFF"], c_failure


def test_planted_c_failure_message_shown(c_failure):
    """The C side's failure message is shown."""
    assert ("c FuzzUnescape/only_pct:" in c_failure.stdout and
            "round trip" in c_failure.stdout), c_failure


def test_planted_c_failure_other_entries_ok(c_failure):
    """Entries the bug does not affect stay ok."""
    r = row(c_failure.stdout, "plain")
    assert r is not None and r[3] == "ok", c_failure


# -- 4. A silent disagreement ------------------------------------------------

@pytest.fixture(scope="module")
def disagreement(xl, planted_corpus):
    """XLANG_C_BUG=1: both sides pass, the logged results differ."""
    return runner(xl, ["--corpus", planted_corpus], bug="1")


def test_planted_disagreement_exit_1(disagreement):
    """A disagreement without any failure: exit 1."""
    assert disagreement.rc == 1, disagreement


def test_planted_disagreement_row(disagreement):
    """lower_hex: both PASS, DIFF, both logged results shown."""
    r = row(disagreement.stdout, "lower_hex")
    assert (r is not None and r[1:4] == ["PASS", "PASS", "DIFF"] and
            r[4] == "go: ok [2f2fc3a9] / c: err 0"), disagreement


# -- 5. The C target under go test (gofuzz.FuzzC) as a column ----------------

def test_gofuzz_column_agrees(xl):
    """gofuzz.FuzzC agrees with Go and the C binary on the shared corpus."""
    r = runner(xl, ["--corpus", xl.corpus, "--go-c-pkg", xl.cpkg])
    assert r.rc == 0, r
    cells = row(r.stdout, "lower_hex")
    assert cells is not None and cells[1:5] == ["PASS"] * 3 + ["ok"], r


def test_gofuzz_column_follows_c(xl, planted_corpus):
    """With the planted disagreement gofuzz reports what the C binary does,
    not what Go does."""
    r = runner(xl, ["--corpus", planted_corpus, "--go-c-pkg", xl.cpkg],
               bug="1")
    cells = row(r.stdout, "lower_hex")
    assert (r.rc == 1 and cells is not None and cells[4] == "DIFF" and
            cells[5] == "go: ok [2f2fc3a9] / c: err 0 / gofuzz: err 0"), r
