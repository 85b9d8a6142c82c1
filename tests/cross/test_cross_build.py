"""cgofuzz beyond linux/amd64 (issue 25). macOS: scripts/cross_build.sh compiles
every C file with zig's clang for aarch64-macos and x86_64-macos under the
project's -Wall -Wextra -Werror, and links the tool and the libraries
users link their targets with. Nothing here runs on macOS; what is tested
where is in the README's "Platforms". linux/arm64: the demo under qemu-user."""
import os
import re
import shutil
import subprocess
import sys

import pytest

import testlib

TARGETS = {"aarch64-macos": "Mach-O 64-bit arm64 executable",
           "x86_64-macos": "Mach-O 64-bit x86_64 executable"}


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


def test_linux_arm64_demo_under_qemu(source_dir, tool, tmp_path):
    """linux/arm64: cgofuzz cross-built for aarch64 (static, musl) is the
    -exec of `GOARCH=arm64 go test -fuzz`; under qemu-user it fuzzes the
    demo package's arm64 test binary with that binary's own workers, finds
    the planted bug, writes it, and plain `go test -run` reproduces it
    under the same emulator."""
    go = tool("go")
    if not have_zig():
        pytest.skip("zig's clang is not installed (PyPI ziglang; "
                    "scripts/install-deps.sh installs it)")
    if not qemu_aarch64():
        pytest.skip("aarch64 binaries do not run here: no qemu-user binfmt "
                    "entry (Debian qemu-user-static and binfmt-support; "
                    "scripts/install-deps.sh installs them)")
    out = str(tmp_path / "cross")
    r = testlib.run([os.path.join(source_dir, "scripts", "cross_build.sh"),
                     "aarch64-linux-musl"], cwd=source_dir,
                    env={"CGOFUZZ_CROSS_OUT": out, "PYTHON": sys.executable},
                    timeout=850)
    assert r.rc == 0, r
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
