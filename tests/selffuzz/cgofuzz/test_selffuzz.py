"""cgofuzz fuzzing its own code: the libFuzzer-form harnesses of the corpus
decoder, the wire messages (tests/selffuzz/libfuzzer/), the CLI's flag parser, the
dictionary parser and the readers of files from outside (binaries and their
Go build info, merge control files, discovery records, objdump output,
launchers, go-118-fuzz-build reproducers, coverage profiles;
tests/selffuzz/cgofuzz/) are built as cgofuzz C targets with
`cgofuzz cc -fsanitize=address,undefined,fuzzer`, with the sources they
test compiled in so that they are instrumented (tests/selffuzz/libfuzzer/harnesses.py),
and fuzzed with -test.fuzz by cgofuzz's coordinator: two workers, a pinned
seed, an exec budget. The seeds and found inputs in
testdata/selffuzz/<harness>/ are replayed first (regression). Any crash,
sanitizer report, leak or failed CHECK fails the case.

CGOFUZZ_SELFFUZZ_COUNT=N fuzzes longer (a campaign; the new inputs are
left in the case's cache directory); the default is 20000 execs."""
import os
import shutil
import sys

import pytest

import testlib

SELFFUZZ = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(SELFFUZZ, "libfuzzer"))
import harnesses  # noqa: E402  (tests/selffuzz/libfuzzer/harnesses.py)

COUNT = int(os.environ.get("CGOFUZZ_SELFFUZZ_COUNT") or 20000)


@pytest.fixture(scope="module")
def cc(cgofuzz, tool, sanitized):
    """`cgofuzz cc` (needs clang)."""
    if sanitized:
        pytest.skip("the harnesses carry their own ASan+UBSan; "
                    "the release build runs them")
    tool("clang")
    return [cgofuzz, "cc"]


FLAGS = ["-fsanitize=address,undefined,fuzzer"]


@pytest.fixture(scope="module")
def below(cc, source_dir, tmp_path_factory):
    """{source: object} of the layers every harness compiles (core, base),
    compiled once for all of them, instrumented as the harnesses are."""
    d = tmp_path_factory.mktemp("selffuzz-below")
    srcs = harnesses.below_sources(source_dir)
    b = testlib.run(cc + harnesses.cflags(source_dir, "corpus") + FLAGS +
                    ["-c"] + srcs, cwd=str(d))
    assert b.rc == 0, "building the harnesses' core and base\n%s" % b
    return {s: str(d / (os.path.basename(s)[:-2] + ".o")) for s in srcs}


@pytest.mark.parametrize("name", sorted(harnesses.HARNESSES))
def test_selffuzz(cc, below, source_dir, tmp_path, name):
    """The harness builds, its testdata passes, and COUNT execs of fuzzing
    with two workers find nothing (exit 0, PASS)."""
    exe = str(tmp_path / ("selffuzz_" + name))
    srcs = [below.get(s, s) for s in harnesses.sources(source_dir, name)]
    b = testlib.run(cc + harnesses.cflags(source_dir, name) + FLAGS +
                    srcs + ["-o", exe])
    assert b.rc == 0, "building selffuzz_%s\n%s" % (name, b)
    shutil.copytree(os.path.join(source_dir, "testdata", "selffuzz", name),
                    tmp_path / "testdata" / "fuzz" / "FuzzLibFuzzer")
    r = testlib.fuzz(exe, ".", str(tmp_path), COUNT, parallel=2,
                     env={"ASAN_OPTIONS": "detect_leaks=1"})
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), r
