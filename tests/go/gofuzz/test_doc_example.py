"""The complete gofuzz example of docs/gofuzz.md, built and run as written.

The C, Go and test blocks of its section "A complete example" are
extracted into a scratch module (a replace directive
points at this checkout); go vet and go test (regression) must pass, and a
counted fuzzing run of each fuzz test must pass, with C coverage when clang
is installed. The fuzzing runs execute the test binary in the scratch
module with their own cache directory and a pinned seed."""
import os
import re

import pytest

import testlib
from testlib import run

COVER_MARK = ("// cover.go: C coverage for Go's fuzzer, only with -tags "
              "gofuzz_cover\n")


@pytest.fixture(scope="module")
def example(go, source_dir, cover_if_clang, tmp_path_factory):
    """(scratch module directory, environment, build tags)."""
    with open(os.path.join(source_dir, "docs", "gofuzz.md")) as f:
        doc = f.read()
    start = doc.index("## A complete example")
    sec = doc[start:doc.index("\n## ", start + 1)]
    blocks = re.findall(r"```(\w+)\n(.*?)```", sec, re.S)
    kinds = [b[0] for b in blocks]
    assert kinds[:3] == ["c", "go", "go"] and COVER_MARK in blocks[1][1], (
        "docs/gofuzz.md example: unexpected blocks %s" % kinds)
    pkg, cover = blocks[1][1].split(COVER_MARK)
    d = tmp_path_factory.mktemp("docexample")
    for name, text in (("parse.c", blocks[0][1]), ("mypkg.go", pkg),
                       ("cover.go", cover), ("mypkg_test.go", blocks[2][1])):
        (d / name).write_text(text)
    (d / "go.mod").write_text(
        "module example.com/mypkg\n\ngo 1.22\n\n"
        "require github.com/cgofuzz/cgofuzz v0.0.0\n\n"
        "replace github.com/cgofuzz/cgofuzz => %s\n" % source_dir)
    cover, tags = cover_if_clang
    env = dict(cover, CGO_CFLAGS="-O2 -g -I" + os.path.join(source_dir,
                                                            "include"))
    return str(d), env, tags


@pytest.mark.parametrize("cmd", ["vet", "test"])
def test_vet_and_test(go, example, cmd):
    """go vet and go test (regression mode) pass on the example."""
    d, env, tags = example
    r = run([go, cmd] + tags + ["."], cwd=d, env=env)
    assert r.rc == 0, r


@pytest.fixture(scope="module")
def binary(go, example):
    d, env, tags = example
    exe = os.path.join(d, "mypkg.test")
    r = run([go, "test", "-c", "-fuzz=.", "-o", exe] + tags + ["."], cwd=d,
            env=env)
    assert r.rc == 0, r
    return exe


@pytest.mark.parametrize("target", ["FuzzDigits", "FuzzDigitsC",
                                    "FuzzDigitsCLoop"])
def test_counted_fuzzing(example, binary, tmp_path, target):
    """A counted fuzzing run (2000x) of each fuzz test passes."""
    _, env, _ = example
    r = testlib.fuzz(binary, target, str(tmp_path), 2000, parallel=2,
                     extra=["-test.run=^$"], env=env)
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), r
