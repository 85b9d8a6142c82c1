"""Fixtures of the gofuzz suites (tests/go/gofuzz): the Go toolchain, the
environment for clang's C coverage (-tags gofuzz_cover), and Go test
binaries built once per session with `go test -c -fuzz=.`.

Fuzzing runs execute the built binary in a temporary copy of its package
directory (so a failure is written there, not into the repository) with
its own -test.fuzzcachedir (so no earlier run's inputs leak in)."""
import os
import shutil

import pytest

import testlib

COVER_ENV = {"CC": "clang", "CGO_CFLAGS_ALLOW": "-fsanitize-coverage=.*"}


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def cover_env(tool):
    """The environment of -tags gofuzz_cover builds; skips naming clang."""
    tool("clang")
    return dict(COVER_ENV)


@pytest.fixture(scope="session")
def cover_if_clang():
    """(environment, build tags) of a gofuzz_cover build when clang is
    installed, else of a plain cgo build: the suites that run either way,
    as go test users would."""
    if shutil.which("clang"):
        return dict(COVER_ENV), ["-tags=gofuzz_cover"]
    return {}, []


@pytest.fixture(scope="session")
def gobin(go, source_dir, tmp_path_factory):
    """gobin(pkg, cover=False, fuzz=True) -> the test binary of package
    directory pkg (relative to the repository), built once per session
    (-tags gofuzz_cover with clang when cover)."""
    built = {}
    out = tmp_path_factory.mktemp("gobin")

    def build(pkg, cover=False, fuzz=True):
        key = (pkg, cover, fuzz)
        if key not in built:
            exe = str(out / ("%s%s%s.test" % (
                pkg.replace("/", "_"), "-cover" if cover else "",
                "" if fuzz else "-nofuzz")))
            argv = [go, "test", "-c", "-o", exe]
            if cover:
                argv.append("-tags=gofuzz_cover")
            if fuzz:
                argv.append("-fuzz=.")
            r = testlib.run(argv + ["./" + pkg], cwd=source_dir,
                            env=COVER_ENV if cover else None)
            assert r.rc == 0, "building %s\n%s" % (pkg, r)
            built[key] = exe
        return built[key]
    return build


@pytest.fixture
def pkgcopy(source_dir, tmp_path):
    """pkgcopy(pkg) -> a copy of the package directory in tmp_path (its
    testdata is the seed corpus the binary reads)."""
    def copy(pkg):
        d = tmp_path / os.path.basename(pkg)
        shutil.copytree(os.path.join(source_dir, pkg), d)
        return str(d)
    return copy
