"""Fixtures of the worker suites: the C fuzz targets that
tests/runtime/worker/CMakeLists.txt builds with clang (when clang is installed) and
the Go coordinator binary of tests/runtime/worker/gopkg."""
import os
import shutil

import pytest

import testlib


@pytest.fixture(scope="session")
def target(build_dir, tool):
    """target("typed") -> the path of tests/runtime/worker/targets/typed.c built by
    CMake; skips naming clang when clang is missing."""
    tool("clang")

    def path(name):
        p = os.path.join(build_dir, "tests", "runtime", "worker", name + "_target")
        if not os.access(p, os.X_OK):
            pytest.fail("%s is not built although clang is installed: "
                        "re-run cmake and build target worker_targets" % p)
        return p
    return path


@pytest.fixture(scope="session")
def go_coordinator(tool, source_dir, tmp_path_factory):
    """The Go test binary of tests/runtime/worker/gopkg built with -fuzz (Go's own
    coordinator; its FuzzBytes/FuzzMulti/... mirror the C targets)."""
    go = tool("go")
    work = tmp_path_factory.mktemp("gopkg")
    pkg = os.path.join(work, "gopkg")
    shutil.copytree(os.path.join(source_dir, "tests", "runtime", "worker", "gopkg"), pkg)
    exe = os.path.join(work, "go.test")
    r = testlib.run([go, "test", "-c", "-fuzz=.", "-o", exe, "."], cwd=pkg,
                    env={"GOFLAGS": "-mod=mod", "GOTOOLCHAIN": "local"})
    assert r.rc == 0, "go test -c -fuzz builds the Go coordinator\n%s" % r
    return exe
