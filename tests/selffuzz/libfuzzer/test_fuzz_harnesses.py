"""libFuzzer harnesses of cgofuzz's decoders (tests/selffuzz/libfuzzer/fuzz_*.c), built
with clang -fsanitize=fuzzer,address,undefined against the decoder sources
(tests/selffuzz/libfuzzer/harnesses.py) and run by libFuzzer itself for a bounded number
of runs with a fixed seed, from the seeds in testdata/fuzz-seeds/<harness>/
and the harness's dictionary. A crash, a sanitizer report, a leak or a
failed CHECK fails the case. New inputs go to the case's own directory.

CGOFUZZ_FUZZ_RUNS=N runs longer (a campaign); the default is 200000."""
import os
import sys

import pytest

from testlib import run

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harnesses  # noqa: E402  (tests/selffuzz/libfuzzer/harnesses.py)

RUNS = int(os.environ.get("CGOFUZZ_FUZZ_RUNS") or 200000)
SEED = 3


@pytest.fixture(scope="module")
def clang(tool, sanitized):
    if sanitized:
        pytest.skip("the harnesses carry their own ASan+UBSan; "
                    "the release build runs them")
    return tool("clang")


@pytest.mark.parametrize("name", ["corpus", "wire"])
def test_libfuzzer_harness(clang, source_dir, tmp_path, name):
    """fuzz_<name> builds and runs RUNS inputs under libFuzzer with no
    crash, sanitizer report or leak, and no crash artifact."""
    exe = str(tmp_path / ("fuzz_" + name))
    b = run([clang] + harnesses.cflags(source_dir, name) +
            ["-fsanitize=fuzzer,address,undefined"] +
            harnesses.sources(source_dir, name) + ["-lm", "-o", exe])
    assert b.rc == 0, "building fuzz_%s\n%s" % (name, b)
    seeds = os.path.join(source_dir, "testdata", "fuzz-seeds", "fuzz_" + name)
    dict_ = os.path.join(source_dir, "tests", "selffuzz", "libfuzzer", "fuzz_%s.dict" % name)
    corpus = tmp_path / "corpus"
    crashes = tmp_path / "crashes"
    corpus.mkdir()
    crashes.mkdir()
    argv = [exe, "-runs=%d" % RUNS, "-seed=%d" % SEED, "-max_len=65536",
            "-timeout=30", "-rss_limit_mb=4096", "-print_final_stats=1",
            "-artifact_prefix=%s/" % crashes]
    if os.path.isfile(dict_):
        argv.append("-dict=" + dict_)
    r = run(argv + [str(corpus), seeds], cwd=tmp_path)
    assert r.rc == 0 and not os.listdir(crashes), r
