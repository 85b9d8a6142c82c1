"""Go's own fuzzing script tests with cgofuzz as go test's -exec program.

The installed Go's cmd/internal/fuzztest scripts (scripts/fuzztest.py) are
run with GOFLAGS=-exec=<this build's cgofuzz>. The whole set takes about 20
minutes on two cores (each script builds the standard library with fuzzing
instrumentation in a cache of its own), so the suite runs a subset that
exercises what cgofuzz does under -exec: verbose output and the target's
own log lines (chatty), TestMain run once as the coordinator (mutator), and
the body's environment reaching the workers (setenv). tests/cli/exec covers
go test's fuzz cache and -fuzz matching none or several targets (the match
script's subject), against go test's own output.
scripts/fuzztest.py runs them all; its last results are in bench/results/fuzztest/.
"""
import os
import re
import subprocess
import sys

import pytest

SUBSET = ["test_fuzz_chatty", "test_fuzz_mutator", "test_fuzz_setenv"]


@pytest.fixture(scope="session")
def results(source_dir, build_dir, cgofuzz, tool, sanitized, tmp_path_factory):
    tool("go")
    if sanitized:
        pytest.skip("run in the plain build only (its cgofuzz is the same "
                    "code; the ASan build's would double the suite's time)")
    scripts = subprocess.run(["go", "env", "GOROOT"], capture_output=True,
                             text=True).stdout.strip()
    if not os.path.isdir(os.path.join(scripts, "src", "cmd", "internal",
                                      "fuzztest", "testdata", "script")):
        pytest.skip("this Go has no cmd/internal/fuzztest scripts")
    out = str(tmp_path_factory.mktemp("fuzztest") / "result.md")
    p = subprocess.run(
        [sys.executable, os.path.join(source_dir, "scripts", "fuzztest.py"),
         "--exec", cgofuzz, "--run", "|".join(SUBSET), "--parallel", "2",
         "--workdir", os.path.join(build_dir, "fuzztest"), "--out", out],
        capture_output=True, text=True, timeout=1500)
    text = open(out).read() if os.path.exists(out) else ""
    rows = dict(re.findall(r"^\| (test_fuzz\w*) \| ([^|]+) \|", text, re.M))
    return p, text, rows


@pytest.mark.parametrize("script", SUBSET)
def test_script(results, script):
    p, text, rows = results
    assert rows.get(script, "").strip() == "PASS", \
        "%s\n--- runner stderr:\n%s" % (text, p.stderr[-3000:])


def test_fuzzing_went_through_cgofuzz(results):
    """The fuzzing runs were cgofuzz's, not the binaries' own."""
    p, text, rows = results
    m = re.search(r"; (\d+) runs fuzzed by cgofuzz", text)
    assert m and int(m.group(1)) >= 4, text
