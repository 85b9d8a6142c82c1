"""The planted targets of bench/cmpgates (issue 23's comparison shapes,
timed by bench/cmpgates/cmpgates_bench.py): each target's known crash input
(bench/cmpgates/known/<Target>/crash) makes plain `go test -run` fail with
that target's own panic, and the f.Add seeds alone pass, so the benchmark
measures getting through the gates, not starting past them. Also checks
the benchmark's libFuzzer seeds: the f.Add seeds it reads from the test file
and writes in go-fuzz-headers' layout decode back to the same values with
`cgofuzz corpus convert -from go118`.

Every case works in its own copy of the module (tmp_path).
"""
import glob
import importlib.util
import os
import re
import shutil
import sys

import pytest

from testlib import read, run

TIMEOUT = 300


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


# The parametrized cases need the targets when pytest collects them, before
# any fixture (the source tree as tests/conftest.py's source_dir finds it).
SRC = os.path.join(os.environ.get("CGOFUZZ_SOURCE_DIR") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))),
    "bench", "cmpgates")
TARGETS = re.findall(r"^func (Fuzz\w+)\(f \*testing\.F\)",
                     read(os.path.join(SRC, "cmpgates_test.go")), re.M)


@pytest.fixture(scope="session")
def src():
    return SRC


def copy_module(src, tmp_path):
    pkg = os.path.join(str(tmp_path), "cmpgates")
    shutil.copytree(src, pkg, ignore=shutil.ignore_patterns("known"))
    return pkg


def test_every_target_has_a_known_crash(src):
    """One known crash per target, and one target per known crash; each
    target panics with its own message."""
    known = sorted(os.path.basename(d) for d in
                   glob.glob(os.path.join(src, "known", "*")))
    assert known == sorted(TARGETS)
    assert len(TARGETS) >= 9, TARGETS
    text = read(os.path.join(src, "cmpgates_test.go"))
    for t in TARGETS:
        assert text.count('"cmpgates: %s reached"' % t) == 1, t
        assert read(os.path.join(src, "known", t, "crash")).startswith(
            "go test fuzz v1\n"), t


def test_seeds_pass(go, src, tmp_path):
    """go test with the seeds only (no testdata) passes: no seed is past
    its gate."""
    pkg = copy_module(src, tmp_path)
    r = run([go, "test", "-count=1", "-v", "."], pkg, timeout=TIMEOUT)
    assert r.rc == 0, str(r)
    for t in TARGETS:
        assert "--- PASS: %s " % t in r.out, str(r)
    assert "cmpgates:" not in r.out, str(r)


@pytest.mark.parametrize("target", TARGETS)
def test_known_crash_reproduces(go, src, tmp_path, target):
    """The known crash, as testdata/fuzz/<Target>/crash, fails
    `go test -run=<Target>/crash` with the target's own panic."""
    pkg = copy_module(src, tmp_path)
    d = os.path.join(pkg, "testdata", "fuzz", target)
    os.makedirs(d)
    shutil.copy(os.path.join(src, "known", target, "crash"), d)
    r = run([go, "test", "-count=1", "-run=^%s$/^crash$" % target, "."], pkg,
            timeout=TIMEOUT)
    assert r.rc not in (0, None), str(r)
    assert "panic: cmpgates: %s reached" % target in r.out, str(r)
    others = set(re.findall(r"cmpgates: (\w+) reached", r.out)) - {target}
    assert not others, str(r)


def test_bench_libfuzzer_seeds_decode_back(cgofuzz, source_dir, tmp_path):
    """bench/cmpgates/cmpgates_bench.py reads the f.Add seeds of every target and
    writes them in go-fuzz-headers' layout for libFuzzer (a length before
    each []byte and string, an order byte after each int); cgofuzz's
    go118 decoder gives back the very seeds."""
    spec = importlib.util.spec_from_file_location(
        "cmpgates_bench", os.path.join(source_dir, "bench", "cmpgates",
                                       "cmpgates_bench.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    lib = sys.modules["benchlib"]  # what it imports its encoders from
    infos = bench.read_targets()
    assert sorted(infos) == sorted(TARGETS)
    assert any(len(i["types"]) > 1 for i in infos.values()), infos
    n = 0
    for target, info in infos.items():
        assert info["seeds"], target
        for k, values in enumerate(info["seeds"]):
            n += 1
            assert len(values) == len(info["types"]), (target, values)
            raw = tmp_path / ("%s-%d.raw" % (target, k))
            raw.write_bytes(lib.go118_encode(info["types"], values))
            want = tmp_path / ("%s-%d.want" % (target, k))
            want.write_text(lib.go_corpus_file(info["types"], values))
            out = tmp_path / ("%s-%d.out" % (target, k))
            r = run([cgofuzz, "corpus", "convert", "-from", "go118", "-types",
                     ",".join(info["types"]), "-o", str(out), str(raw)])
            assert r.rc == 0, str(r)
            got = [read(str(p)) for p in out.iterdir()]
            fmt = run([cgofuzz, "corpus", "fmt", str(want)])
            assert fmt.rc == 0, str(fmt)
            want_text = fmt.stdout.rstrip("\n")
            assert [g.rstrip("\n") for g in got] == [want_text], \
                (target, k, got, fmt.stdout)
    assert n >= len(TARGETS)
