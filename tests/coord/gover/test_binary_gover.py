"""Which Go release built a test binary (issue 14): cgofuzz reads it from the
binary's build info (.go.buildinfo), without running it, through
cgofuzz_gobin_gover (csrc/gobin/gobin_gover.c), and follows that
release; a C target follows the newest. Also `-go 1.N` of the commands that
work on corpus files alone (corpus fmt, mutate).

The binaries are built by the real toolchains: go1.18.10 and go1.27.4 from
the module cache (scripts/install-deps.sh fetches them; a missing one is a
visible skip, nothing is downloaded here) and the machine's go.
"""
import os
import subprocess

import pytest

import testlib

FUZZ_TEST = '''package gv

import "testing"

func FuzzX(f *testing.F) {
	f.Add([]byte("a"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) > 3 && b[0] == 'x' {
			t.Fatal("x")
		}
	})
}
'''


@pytest.fixture(scope="session")
def probe(required_env):
    return required_env("CGOFUZZ_GOVER_PROBE")


def toolchain_go(go, version):
    """<GOROOT>/bin/go of release `version` from the module cache, or a skip."""
    env = dict(os.environ, GOTOOLCHAIN=version, GOPROXY="off", GOWORK="off")
    r = subprocess.run([go, "env", "GOROOT"], capture_output=True, text=True, env=env,
                       cwd="/")
    if r.returncode != 0 or not r.stdout.strip():
        pytest.skip("toolchain %s is not in the module cache (scripts/install-deps.sh "
                    "fetches it)" % version)
    return os.path.join(r.stdout.strip(), "bin", "go")


def build(go, tmp_path_factory, tag):
    """A `go test -c -fuzz` binary of a module whose go.mod says go 1.18
    (which every release builds), built by `go` offline."""
    d = tmp_path_factory.mktemp("gover-" + tag)
    (d / "go.mod").write_text("module gv\n\ngo 1.18\n")
    (d / "gv_test.go").write_text(FUZZ_TEST)
    out = str(d / "gv.test")
    # goindex=0: go1.19's module index fails on a GOROOT in the module cache.
    r = testlib.run([go, "test", "-c", "-fuzz=.", "-o", out, "."], str(d),
                    env={"GOTOOLCHAIN": "local", "GOPROXY": "off", "GOWORK": "off",
                         "GOFLAGS": "-mod=mod", "GODEBUG": "goindex=0"})
    assert r.rc == 0, "go test -c failed\n%s" % r
    return out


def goversion(go):
    r = testlib.run([go, "env", "GOVERSION"], env={"GOTOOLCHAIN": "local"})
    assert r.rc == 0, r
    return r.stdout.strip()


def probe_line(probe, path):
    r = testlib.run([probe, path])
    assert r.rc == 0, r
    return r.stdout.strip()


@pytest.mark.parametrize("release", ["go1.18.10", "go1.27.4", "local"])
def test_release_read_from_binary(probe, tool, tmp_path_factory, release):
    go = tool("go")
    if release != "local":
        go = toolchain_go(go, release)
    version = goversion(go)
    binary = build(go, tmp_path_factory, release)
    minor = int(version.split(".")[1].split("rc")[0].split("beta")[0])
    assert probe_line(probe, binary) == "1 %d %s" % (min(minor, 27), version)


def test_found_without_section_headers(probe, tool, tmp_path_factory):
    """With the section's name unfindable (as after stripping section
    headers), the build info is found in the first writable segment."""
    go = tool("go")
    binary = build(go, tmp_path_factory, "renamed")
    want = probe_line(probe, binary)
    data = bytearray(open(binary, "rb").read())
    at = data.find(b"\0.go.buildinfo\0")
    assert at > 0
    data[at + len(".go.buildinfo")] = ord("X")  # ".go.buildinfX"
    renamed = binary + ".renamed"
    with open(renamed, "wb") as fh:
        fh.write(data)
    assert probe_line(probe, renamed) == want


def test_c_program_follows_newest(probe, tool, tmp_path):
    cc = tool("cc")
    src = tmp_path / "t.c"
    src.write_text("int main(void) { return 0; }\n")
    exe = str(tmp_path / "t")
    r = testlib.run([cc, "-o", exe, str(src)])
    assert r.rc == 0, r
    assert probe_line(probe, exe) == "0 27 -"


def test_bad_files(probe, tmp_path):
    notelf = tmp_path / "notelf"
    notelf.write_bytes(b"#!/bin/sh\necho hi\n")
    assert probe_line(probe, str(notelf)) == "-1 27 error: %s: not an ELF or Mach-O 64-bit file" % notelf
    missing = str(tmp_path / "missing")
    assert probe_line(probe, missing) == "-1 27 error: %s: cannot open" % missing


def test_pre_118_build_info_refused(probe, tool, tmp_path_factory):
    """Build info whose flags byte lacks the inline-strings bit (0x2) is the
    pointer format of Go releases before 1.18, which cannot fuzz."""
    binary = build(tool("go"), tmp_path_factory, "old")
    data = bytearray(open(binary, "rb").read())
    at = data.find(b"\xff Go buildinf:")
    assert at > 0 and data[at + 15] & 2
    data[at + 15] &= ~2 & 0xFF
    old = binary + ".old"
    with open(old, "wb") as fh:
        fh.write(data)
    assert probe_line(probe, old) == ("-1 27 error: %s: built by a Go release older than "
                                      "go1.18 (no inline build info), which cannot fuzz" % old)
