"""cgofuzz builds for macOS (issue 25): scripts/cross_build.sh compiles
every C file with zig's clang for aarch64-macos and x86_64-macos under the
project's -Wall -Wextra -Werror, and links the tool and the libraries
users link their targets with. Nothing here runs on macOS; what is tested
where is in the README's "Platforms"."""
import os
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
