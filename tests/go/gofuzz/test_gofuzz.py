"""Tests of package gofuzz and its examples (examples/go): gofmt, go vet, go
test ./..., and counted fuzzing runs of the example targets (Go's
coordinator and workers; -test.fuzztime=Nx), without and with clang's C
coverage instrumentation (-tags gofuzz_cover). A counted run passes when
the target finds nothing in its budget; the planted bug in particular must
not be found by a short run of the seeds and a few hundred execs
(bench/gofuzz/gofuzz_bench.py measures the time to find it).

Needs Go >= 1.22, a C compiler for cgo, zlib and cJSON headers (Debian:
zlib1g-dev, libcjson-dev); the gofuzz_cover cases need clang and are
skipped, naming it, without it."""
import os

import pytest

import testlib
from testlib import run

# Execs of each counted run (the old tests/go/gofuzz/run.sh 500 of ctest).
COUNT = 500

UNCOVERED = [("examples/go/zlibdiff", t) for t in (
    "FuzzCRC32", "FuzzAdler32", "FuzzGoDeflateZlibInflate",
    "FuzzZlibDeflateGoInflate", "FuzzInflate")] + [
    ("examples/go/jsondiff", t) for t in (
        "FuzzValid", "FuzzPrint", "FuzzRoundTrip")] + [
    ("examples/go/cunescape", t) for t in (
        "FuzzUnescape", "FuzzUnescapeLoop")]
COVERED = [("examples/go/planted", "FuzzSum", 200)] + [
    ("examples/go/jsondiff", t, COUNT) for t in (
        "FuzzValid", "FuzzPrint", "FuzzRoundTrip")]


def test_gofmt(go, source_dir):
    """gofmt has nothing to change in the Go code."""
    gofmt = os.path.join(os.path.dirname(os.path.realpath(go)), "gofmt")
    r = run([gofmt, "-l", "gofuzz", "examples/go", "tests/go/gofuzz",
             "bench/gofuzz", "cmd", "internal", "csrc_embed.go"],
            cwd=source_dir)
    assert r.rc == 0 and r.stdout == "", r


@pytest.mark.parametrize("argv,env", [
    (["vet", "./..."], None),
    (["test", "./..."], None),
    (["vet", "./gofuzz"], {"CGO_ENABLED": "0"}),
], ids=["vet", "test", "vet-without-cgo"])
def test_go_command(go, source_dir, argv, env):
    """go vet ./..., go test ./... (regression mode of every fuzz test) and
    go vet of package gofuzz without cgo pass."""
    r = run([go] + argv, cwd=source_dir, env=env)
    assert r.rc == 0, r


def test_go_test_with_c_coverage(go, source_dir, cover_env):
    """go test -tags gofuzz_cover of gofuzz and the examples passes."""
    r = run([go, "test", "-tags", "gofuzz_cover", "./gofuzz",
             "./examples/go/..."], cwd=source_dir, env=cover_env)
    assert r.rc == 0, r


def counted(binary, pkgdir, target, count, env=None):
    return testlib.fuzz(binary, target, pkgdir, count, parallel=2,
                        extra=["-test.run=^$"], env=env)


@pytest.mark.parametrize("pkg,target", UNCOVERED,
                         ids=["%s-%s" % (os.path.basename(p), t)
                              for p, t in UNCOVERED])
def test_counted_fuzzing(gobin, pkgcopy, pkg, target):
    """A counted fuzzing run of the example target passes."""
    r = counted(gobin(pkg), pkgcopy(pkg), target, COUNT)
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), r


@pytest.mark.parametrize("pkg,target,count", COVERED,
                         ids=["%s-%s" % (os.path.basename(p), t)
                              for p, t, _ in COVERED])
def test_counted_fuzzing_with_c_coverage(cover_env, gobin, pkgcopy, pkg,
                                         target, count):
    """The same with clang's C coverage (-tags gofuzz_cover); for planted,
    the short run does not find the planted bug."""
    r = counted(gobin(pkg, cover=True), pkgcopy(pkg), target, count,
                env=cover_env)
    assert r.rc == 0 and r.stdout.endswith("PASS\n"), r
