"""Shared fixtures of the Python suites.

Every suite is a pytest module registered with ctest by cgofuzz_add_pytest
(tests/CMakeLists.txt), which passes the build through the environment:

  CGOFUZZ_SOURCE_DIR  the repository root
  CGOFUZZ_BINARY_DIR  the CMake build directory
  CGOFUZZ_CLI         the cgofuzz command-line tool
  CGOFUZZ_SANITIZE    "ON" in the ASan+UBSan build

Each case gets its own directories from pytest's tmp_path; a tool that is
not installed is a visible skip (the `tool` fixture), never a silent pass.
Processes a case runs alongside itself come from the `background` fixture.
The helpers the suites share are in tests/testlib.py (`import testlib`).
"""
import os
import shutil
import sys

import pytest

TESTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, TESTS)  # testlib.py
import testlib  # noqa: E402


def _required(name):
    value = os.environ.get(name)
    if not value:
        pytest.fail("%s is not set: run this suite through ctest "
                    "(scripts/test.sh), which sets it" % name)
    return value


@pytest.fixture(scope="session")
def required_env():
    """required_env("VAR") -> its value (a path ctest set, such as a probe
    program's), or the case fails saying to run it through ctest."""
    return _required


@pytest.fixture(scope="session")
def source_dir():
    return os.environ.get("CGOFUZZ_SOURCE_DIR") or os.path.dirname(TESTS)


@pytest.fixture(scope="session")
def build_dir():
    return _required("CGOFUZZ_BINARY_DIR")


@pytest.fixture(scope="session")
def cgofuzz():
    path = _required("CGOFUZZ_CLI")
    if not os.access(path, os.X_OK):
        pytest.fail("CGOFUZZ_CLI=%s is not an executable" % path)
    return path


@pytest.fixture(scope="session")
def sanitized():
    return os.environ.get("CGOFUZZ_SANITIZE", "").upper() in ("ON", "1", "TRUE")


def find_tool(name):
    """The path of an installed tool, or a pytest skip naming it."""
    path = shutil.which(name)
    if path is None and name == "go" and os.access("/usr/local/go/bin/go", os.X_OK):
        path = "/usr/local/go/bin/go"
    if path is None:
        pytest.skip("%s is not installed (scripts/install-deps.sh installs it)" % name)
    return path


@pytest.fixture(scope="session")
def tool():
    """tool("strace") -> path, or skips the case with the tool's name."""
    return find_tool


@pytest.fixture
def background():
    """start(cmd, cwd, env, outdir, tag="bg") -> testlib.Background (env:
    changes to os.environ); everything started is killed at the end of the
    case."""
    started = []

    def start(cmd, cwd, env, outdir, tag="bg"):
        b = testlib.Background(cmd, cwd, env, outdir, tag)
        started.append(b)
        return b
    yield start
    for b in started:
        b.cleanup()
