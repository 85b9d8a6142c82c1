"""A libFuzzer harness from a real project builds unchanged with `cgofuzz
cc` and fuzzes. The project is cJSON, from Debian's source package, which
scripts/install-deps.sh unpacks into the source cache
(${CGOFUZZ_SRC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/cgofuzz/src}/cjson-*/); no
network is used here. The harness (fuzzing/cjson_read_fuzzer.c) is built the
way libFuzzer users build it (-fsanitize=address,undefined,fuzzer) and,
from an empty corpus, must find new coverage: it needs a 4-byte 0/1 prefix
and a NUL terminator before cJSON parses anything."""
import glob
import os

import pytest

import testlib
from testlib import run

BUDGET = 200000


def src_cache():
    return os.environ.get("CGOFUZZ_SRC_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"),
        "cgofuzz", "src")


@pytest.fixture(scope="module")
def cjson():
    """cJSON's unpacked source directory, or a skip naming install-deps.sh."""
    dirs = sorted(d for d in glob.glob(os.path.join(src_cache(), "cjson-*"))
                  if os.path.isdir(d))
    harness = dirs and os.path.join(dirs[-1], "fuzzing",
                                    "cjson_read_fuzzer.c")
    if not harness or not os.path.isfile(harness):
        pytest.skip("cJSON's source is not in %s: run scripts/install-deps.sh"
                    % src_cache())
    return dirs[-1]


@pytest.fixture(scope="module")
def build(cgofuzz, tool, cjson, tmp_path_factory):
    """`cgofuzz cc` on the unchanged harness and cJSON.c: (run, binary)."""
    tool("clang")
    d = tmp_path_factory.mktemp("cjson")
    exe = str(d / "cjson_read.test")
    r = run([cgofuzz, "cc", "-g", "-O1", "-fsanitize=address,undefined,fuzzer",
             "-I" + cjson, os.path.join(cjson, "fuzzing",
                                        "cjson_read_fuzzer.c"),
             os.path.join(cjson, "cJSON.c"), "-o", exe], cwd=d)
    return r, exe


@pytest.fixture(scope="module")
def binary(build):
    r, exe = build
    if r.rc != 0:
        pytest.fail("the harness did not build (see test_builds)\n%s" % r)
    return exe


def test_builds_unchanged(build):
    """cgofuzz cc -fsanitize=address,undefined,fuzzer builds the harness as
    it is in cJSON's source."""
    r, exe = build
    assert r.rc == 0 and os.access(exe, os.X_OK), r


def test_listed_as_libfuzzer_target(binary, tmp_path):
    """The binary is a C fuzz target listing FuzzLibFuzzer."""
    r = run([binary, "-test.list=."], cwd=tmp_path)
    assert r.rc == 0 and "FuzzLibFuzzer" in r.stdout.splitlines(), r


@pytest.fixture(scope="module")
def campaign(binary, tmp_path_factory):
    """The harness fuzzed from an empty corpus: one worker, pinned seed,
    BUDGET execs. Returns (run, directory)."""
    d = str(tmp_path_factory.mktemp("cjson-run"))
    return testlib.fuzz(binary, ".", d, BUDGET), d


def test_fuzzing_passes(campaign):
    """Fuzzing cJSON's harness for the budget passes (no crash, no
    sanitizer report)."""
    r, _ = campaign
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), r


def test_finds_new_interesting_inputs(campaign):
    """It finds new interesting inputs: the progress lines count some, and
    they are in the fuzzing cache."""
    r, d = campaign
    n = testlib.new_interesting(r.stderr)
    cache = os.path.join(d, "cache", "FuzzLibFuzzer")
    files = os.listdir(cache) if os.path.isdir(cache) else []
    assert n is not None and n > 0 and files, (
        "new interesting: %s, cache files: %d\n%s" % (n, len(files), r))
