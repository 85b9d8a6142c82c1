"""End-to-end tests of the cgofuzz command-line tool.

The golden files in testdata/cli were produced by the real Go
internal/fuzz code (marshal(unmarshal(file)) for fmt, and a mutator
restored to a fixed PCG state for mutate); the differential suite in
tests/core/diff re-derives such results from GOROOT on every run.

Every case runs twice: directly, and under valgrind, where any leak or
invalid access fails the case (skipped, visibly, when valgrind is not
installed or the build is the ASan+UBSan one, which valgrind cannot run).
"""
import os
import shutil
import stat
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
DATA = os.path.join(ROOT, "testdata", "cli")

STATE = "0x853c49e6748fea9b"
INC = "0xda3e39cb94b95bdb"


@pytest.fixture(scope="module", params=["direct", "valgrind"])
def run(request, cgofuzz, sanitized, tool):
    """run(*args, check_rc=None) runs the CLI (under valgrind in the
    valgrind mode) and returns the CompletedProcess (bytes)."""
    prefix = []
    if request.param == "valgrind":
        if sanitized:
            pytest.skip("valgrind cannot run an ASan+UBSan build "
                        "(the release build runs these cases under it)")
        prefix = [tool("valgrind"), "-q", "--leak-check=full",
                  "--show-leak-kinds=all", "--errors-for-leak-kinds=all",
                  "--error-exitcode=99"]

    def go(*args, check_rc=None):
        p = subprocess.run(prefix + [cgofuzz, *args], capture_output=True,
                           timeout=300)
        if prefix:
            assert p.returncode != 99, "valgrind reported errors for %s:\n%s" % (
                args, p.stderr.decode(errors="replace"))
        if check_rc is not None:
            assert p.returncode == check_rc, (
                "%s: exit %d, want %d\nstdout:%s\nstderr:%s" % (
                    args, p.returncode, check_rc, p.stdout, p.stderr))
        return p
    return go


def data(name):
    return os.path.join(DATA, name)


def read(name):
    with open(data(name), "rb") as f:
        return f.read()


# -- corpus fmt --------------------------------------------------------------

def test_canonical_form_matches_go(run):
    """fmt prints the exact bytes Go writes for the same values."""
    p = run("corpus", "fmt", data("messy.txt"), check_rc=0)
    assert p.stdout == read("messy.golden")


def test_canonical_file_is_fixed_point(run):
    """A canonical file formats to itself."""
    p = run("corpus", "fmt", data("messy.golden"), check_rc=0)
    assert p.stdout == read("messy.golden")


def test_write_rewrites_in_place_and_keeps_mode(run, tmp_path):
    """-w rewrites the file in place, keeps its mode, prints nothing and
    leaves no temporary file."""
    f = tmp_path / "seed"
    shutil.copy(data("messy.txt"), f)
    os.chmod(f, 0o600)
    p = run("corpus", "fmt", "-w", str(f), check_rc=0)
    assert p.stdout == b""
    assert f.read_bytes() == read("messy.golden")
    assert stat.S_IMODE(os.stat(f).st_mode) == 0o600
    assert sorted(os.listdir(tmp_path)) == ["seed"]  # no temp left


def test_write_leaves_canonical_file_untouched(run, tmp_path):
    """-w does not rewrite a file that is already canonical (its mtime
    stays)."""
    f = tmp_path / "seed"
    shutil.copy(data("messy.golden"), f)
    os.utime(f, (1000000000, 1000000000))
    run("corpus", "fmt", "-w", str(f), check_rc=0)
    assert os.stat(f).st_mtime == 1000000000


def test_rejected_file_names_file_line_and_reason(run):
    """A file Go would reject: FILE:LINE: reason, exit 2, nothing printed."""
    p = run("corpus", "fmt", data("bad-range.txt"), check_rc=2)
    err = p.stderr.decode()
    assert data("bad-range.txt") + ":3:" in err
    assert "out of range" in err
    assert p.stdout == b""


def test_unknown_version(run):
    """An unknown header version is reported with the file name."""
    p = run("corpus", "fmt", data("bad-version.txt"), check_rc=2)
    assert data("bad-version.txt") in p.stderr.decode()
    assert "version" in p.stderr.decode()


def test_bad_file_does_not_stop_the_others(run):
    """A bad file is reported (exit 2) and the good ones still print."""
    p = run("corpus", "fmt", data("bad-range.txt"), data("messy.txt"),
            check_rc=2)
    assert p.stdout == read("messy.golden")


def test_write_refuses_to_touch_bad_file(run, tmp_path):
    """-w leaves a file it cannot decode as it is."""
    f = tmp_path / "seed"
    shutil.copy(data("bad-range.txt"), f)
    run("corpus", "fmt", "-w", str(f), check_rc=2)
    assert f.read_bytes() == read("bad-range.txt")


def test_missing_file(run):
    """A missing file: its name and the system's reason, exit 2."""
    p = run("corpus", "fmt", "/nonexistent/seed", check_rc=2)
    assert "/nonexistent/seed" in p.stderr.decode()
    assert "No such file" in p.stderr.decode()


def test_directory_argument(run):
    """A directory is not a corpus file: exit 2."""
    p = run("corpus", "fmt", DATA, check_rc=2)
    assert "directory" in p.stderr.decode()


def test_header_only_file(run, tmp_path):
    """A header without values is rejected ("no values")."""
    f = tmp_path / "seed"
    f.write_bytes(b"go test fuzz v1\n")
    p = run("corpus", "fmt", str(f), check_rc=2)
    assert "no values" in p.stderr.decode()


@pytest.mark.parametrize("content", [
    b"", bytes(range(256)), b"go test fuzz v1\nint(\x001)\n"],
    ids=["empty", "binary", "nul"])
def test_empty_and_binary_files(run, tmp_path, content):
    """Empty, binary and NUL-holding files are rejected with their name."""
    f = tmp_path / "seed"
    f.write_bytes(content)
    p = run("corpus", "fmt", str(f), check_rc=2)
    assert str(f) in p.stderr.decode()


# -- mutate ------------------------------------------------------------------

@pytest.mark.parametrize("n", [1, 3, 5, 17, 40])
def test_replay_matches_go(run, n):
    """n chained mutations from a PCG state give Go's bytes."""
    p = run("mutate", "-rand-state", STATE, "-rand-inc", INC,
            "-n", str(n), data("multi.txt"), check_rc=0)
    assert p.stdout == read("multi.mutate-%d.golden" % n)


def test_flag_forms(run):
    """-flag=value, --flag value and decimal numbers are accepted alike."""
    a = run("mutate", "-rand-state=" + STATE, "--rand-inc", INC, "-n=3",
            data("multi.txt"), check_rc=0)
    assert a.stdout == read("multi.mutate-3.golden")
    dec = run("mutate", "-rand-state", str(int(STATE, 16)), "-rand-inc",
              str(int(INC, 16)), "-n", "3", data("multi.txt"), check_rc=0)
    assert dec.stdout == a.stdout


def test_zero_mutations_is_fmt(run):
    """-n 0 prints the canonical form."""
    p = run("mutate", "-rand-state", "1", "-rand-inc", "1", "-n", "0",
            data("messy.txt"), check_rc=0)
    assert p.stdout == read("messy.golden")


def test_capacity_too_small_is_reported(run):
    """4 values: each may hold cap/4-100 bytes; with cap 400 that is 0, and
    Go's mutator panics on the 12-byte value. cgofuzz reports it: exit 1,
    "cannot mutate" (the state is fixed, so this is not random)."""
    p = run("mutate", "-rand-state", STATE, "-rand-inc", INC, "-n", "40",
            "-cap", "400", data("multi.txt"))
    assert p.returncode == 1, p
    assert "cannot mutate" in p.stderr.decode()


def test_missing_flags_and_bad_values(run):
    """Missing flags, bad numbers, no file, two files, a bad file: exit 2."""
    run("mutate", data("multi.txt"), check_rc=2)
    p = run("mutate", "-rand-state", "x1", "-rand-inc", "1", "-n", "1",
            data("multi.txt"), check_rc=2)
    assert "invalid value" in p.stderr.decode()
    run("mutate", "-rand-state", "1", "-rand-inc", "1", "-n", "1",
        check_rc=2)
    run("mutate", "-rand-state", "1", "-rand-inc", "1", "-n", "1",
        data("multi.txt"), data("multi.txt"), check_rc=2)
    run("mutate", "-rand-state", "1", "-rand-inc", "1", "-n", "1",
        data("bad-range.txt"), check_rc=2)


# -- usage -------------------------------------------------------------------

def test_usage_errors_exit_2(run):
    """No command, an unknown command or flag, missing arguments: exit 2."""
    run(check_rc=2)
    p = run("frobnicate", check_rc=2)
    assert "unknown command" in p.stderr.decode()
    p = run("corpus", "fmt", "-x", data("messy.txt"), check_rc=2)
    assert "not defined: -x" in p.stderr.decode()
    run("corpus", check_rc=2)
    run("corpus", "fmt", check_rc=2)


def test_help_and_version(run):
    """help names the commands; version prints "cgofuzz ..."."""
    assert b"corpus fmt" in run("help", check_rc=0).stdout
    assert run("version", check_rc=0).stdout.startswith(b"cgofuzz ")
