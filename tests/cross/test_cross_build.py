"""cgofuzz beyond linux/amd64 (issue 25). macOS: scripts/cross_build.sh compiles
every C file with zig's clang for aarch64-macos under the project's -Wall
-Wextra -Werror, and links the tool and the libraries users link their
targets with. x86_64-macos compiles the same C (no file tells the two
macOS architectures apart) and is left to scripts/cross_build.sh's default
run: on a fresh machine each target first costs zig a build of its runtime
libraries. Nothing here runs on macOS; what is tested where is in
docs/install.md's "Platforms". linux/arm64: a C target and the demo under
qemu-user; the unit tests under qemu-user with CGOFUZZ_CROSS_UNIT=1 (their
C++ build costs zig a build of libc++ for aarch64, about two minutes of the
suite's two cores on a fresh machine, for tests the native build runs)."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import testlib

TARGETS = {"aarch64-macos": "Mach-O 64-bit arm64 executable"}


def have_zig():
    r = subprocess.run([sys.executable, "-m", "ziglang", "version"],
                       capture_output=True, text=True)
    return r.returncode == 0


def test_cross_build_for_macos(source_dir, tmp_path):
    if not have_zig():
        pytest.skip("zig's clang is not installed (PyPI ziglang; "
                    "scripts/install-deps.sh installs it)")
    out = str(tmp_path / "cross")
    r = testlib.run([os.path.join(source_dir, "scripts", "cross_build.sh")]
                    + list(TARGETS), cwd=source_dir,
                    env={"CGOFUZZ_CROSS_OUT": out, "PYTHON": sys.executable},
                    timeout=850)
    assert r.rc == 0, r
    for t, kind in TARGETS.items():
        assert "cross_build: %s: %s" % (t, kind[:40]) in r.stdout, r
        for lib in ("libcgofuzz.a", "libcgofuzz_main.a"):
            assert os.path.getsize(os.path.join(out, t, lib)) > 0, (t, lib)


def qemu_aarch64():
    """Whether the kernel runs aarch64 binaries through qemu-user
    (binfmt_misc: Debian's qemu-user-static and binfmt-support)."""
    try:
        with open("/proc/sys/fs/binfmt_misc/qemu-aarch64") as f:
            return f.readline().strip() == "enabled"
    except OSError:
        return False


def cross_unit():
    return os.environ.get("CGOFUZZ_CROSS_UNIT") == "1"


@pytest.fixture(scope="session")
def arm64(source_dir, tmp_path_factory):
    """cgofuzz and its libraries (and with CGOFUZZ_CROSS_UNIT=1 its unit
    tests) cross-built for aarch64-linux-musl (static), once per session:
    the build directory."""
    if not have_zig():
        pytest.skip("zig's clang is not installed (PyPI ziglang; "
                    "scripts/install-deps.sh installs it)")
    if not qemu_aarch64():
        pytest.skip("aarch64 binaries do not run here: no qemu-user binfmt "
                    "entry (Debian qemu-user-static and binfmt-support; "
                    "scripts/install-deps.sh installs them)")
    out = str(tmp_path_factory.mktemp("cross-arm64"))
    r = testlib.run([os.path.join(source_dir, "scripts", "cross_build.sh")]
                    + (["--unit"] if cross_unit() else [])
                    + ["aarch64-linux-musl"], cwd=source_dir,
                    env={"CGOFUZZ_CROSS_OUT": out, "PYTHON": sys.executable},
                    timeout=1200)
    assert r.rc == 0, r
    return out


def test_linux_arm64_unit_tests_under_qemu(arm64):
    """The unit tests, built for aarch64 (GoogleTest from its sources),
    pass under qemu-user: the codec, PCG and mutator replay, minimizer,
    shared memory, wire messages, scheduler and worker processes on
    arm64. Only with CGOFUZZ_CROSS_UNIT=1 (see the module's head)."""
    if not cross_unit():
        pytest.skip("the unit tests for aarch64 are built with "
                    "CGOFUZZ_CROSS_UNIT=1 only (zig builds libc++ for them: "
                    "minutes on a fresh machine); the C target and the demo "
                    "below run the aarch64 cgofuzz under qemu-user")
    unit = os.path.join(arm64, "aarch64-linux-musl", "cgofuzz_unit")
    r = testlib.run([unit], cwd=os.path.dirname(unit), timeout=900)
    assert r.rc == 0, r
    m = re.search(r"\[  PASSED  \] (\d+) tests?", r.stdout)
    assert m and int(m.group(1)) > 100, r


C_TARGET = """#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
  if (n >= 4 && d[0] == 'A' && d[1] == 'R' && d[2] == 'M' && d[3] == '!')
    abort();
  return 0;
}
"""


def test_linux_arm64_c_target_under_qemu(arm64, cgofuzz, source_dir, tmp_path):
    """A C target on linux/arm64: `cgofuzz cc` with zig's clang for
    aarch64 (CGOFUZZ_CLANG) and the aarch64 libraries; under qemu-user
    the aarch64 cgofuzz fuzzes it as a Go test binary, finds the planted
    abort, writes the input, and the target reproduces it with its own
    -test.run and with libFuzzer's command line."""
    lib = os.path.join(arm64, "aarch64-linux-musl")
    src = tmp_path / "target.c"
    src.write_text(C_TARGET)
    exe = str(tmp_path / "c.test")
    r = testlib.run([cgofuzz, "cc", "-g", "-O1", "-fsanitize=fuzzer", str(src),
                     "-o", exe], cwd=str(tmp_path),
                    env={"CGOFUZZ_CLANG": os.path.join(
                        arm64, "bin", "zig-cc-aarch64-linux-musl"),
                         "CGOFUZZ_LIBDIR": lib,
                         "CGOFUZZ_INCLUDEDIR": os.path.join(source_dir,
                                                            "include")},
                    timeout=600)
    assert r.rc == 0, r
    with open(exe, "rb") as f:
        head = f.read(20)
    assert head[:4] == b"\x7fELF" and head[18] == 183, head  # EM_AARCH64
    r = testlib.run([os.path.join(lib, "bin", "cgofuzz"), "fuzz",
                     "-fuzz=FuzzLibFuzzer", "-fuzztime=2000000x",
                     "-parallel=1", "-fuzzcachedir=" + str(tmp_path / "cache"),
                     exe], cwd=str(tmp_path),
                    env={"GODEBUG": "fuzzseed=1"}, timeout=600)
    assert r.rc == 1, r
    m = re.search(r"Failing input written to (testdata/fuzz/FuzzLibFuzzer/"
                  r"(\w+))", r.stdout + r.stderr)
    assert m, r
    # A worker's death is not minimized (Go's rule): the input is the
    # planted prefix and whatever the mutation that found it left after.
    with open(tmp_path / m.group(1)) as f:
        text = f.read()
    assert re.fullmatch(r'go test fuzz v1\n\[\]byte\("ARM!.*"\)\n', text), text
    rr = testlib.run([exe, "-test.run=FuzzLibFuzzer/" + m.group(2)],
                     cwd=str(tmp_path), timeout=300)
    assert rr.rc not in (0, None), rr
    raw = tmp_path / "crash-input"
    raw.write_bytes(b"ARM!")
    rr = testlib.run([exe, str(raw)], cwd=str(tmp_path), timeout=300)
    assert rr.rc not in (0, None) and "deadly signal" in rr.out, rr


def test_linux_arm64_demo_under_qemu(arm64, tool, tmp_path, source_dir):
    """linux/arm64: cgofuzz cross-built for aarch64 (static, musl) is the
    -exec of `GOARCH=arm64 go test -fuzz`; under qemu-user it fuzzes the
    demo package's arm64 test binary with that binary's own workers, finds
    the planted bug, writes it, and plain `go test -run` reproduces it
    under the same emulator."""
    go = tool("go")
    out = arm64
    cgofuzz = os.path.join(out, "aarch64-linux-musl", "bin", "cgofuzz")
    pkg = str(tmp_path / "goparse")
    shutil.copytree(os.path.join(source_dir, "examples", "goparse"), pkg)
    env = {"GOARCH": "arm64", "GOFLAGS": None}
    # A cache of our own: go test's default one is shared with native runs.
    r = testlib.run([go, "test", "-fuzz=FuzzParseRecord", "-fuzztime=300s",
                     "-exec=" + cgofuzz, ".", "-args",
                     "-test.fuzzcachedir=" + str(tmp_path / "fuzzcache")],
                    cwd=pkg, env=env, timeout=600)
    assert r.rc == 1, r
    m = re.search(r"Failing input written to testdata/fuzz/FuzzParseRecord/"
                  r"(\w+)", r.stdout)
    assert m, r
    rr = testlib.run([go, "test", "-run=FuzzParseRecord/" + m.group(1), "."],
                     cwd=pkg, env=env, timeout=600)
    assert rr.rc == 1 and "index out of range" in rr.stdout, rr
