"""What cgofuzz reads from a binary without running it, for binaries of the
other platforms Go fuzzes on (issue 25): Mach-O test binaries that Go
cross-builds here for macOS (arm64 and amd64), linux/arm64 ELF ones, and
clang's C objects for each. csrc/gobin/gobin_obj.c reads both formats;
the coordinator takes from them the size of the coverage counters, the Go
release and main module of the build info, and the dictionary of the
target's code (through `go tool objdump`, which reads every format and
architecture) and data.

Each expectation comes from somewhere other than cgofuzz: the release from
the go that built the binary, the counters from `go tool nm` (the
distance from internal/fuzz._counters to _ecounters), the dictionary's
tokens from the planted constants of tests/coord/godict/target, which the
linux/amd64 binary gives too (tests/coord/godict). tests/cgofuzz_objfile_probe
(objfile_probe.c) prints what the coordinator reads.
"""
import os
import shutil

import pytest

import testlib

# tests/coord/godict's planted constants (tests/coord/godict/test_godict.py).
KEY = b"Kx7#qZ2m"
MAGIC_LE = bytes.fromhex("e5913c7a")
WIDE_LE = bytes.fromhex("8877665544332211")
OPCODES = [b"op-" + k for k in (
    b"nop load store push pop add sub mul div mod and or xor shl shr jmp jz "
    b"trap-door call ret cmp neg not dup swap rot halt in out yield").split()]
TABLES = [b"kw-select", b"kw-frobnicate", b"kw-quux", b"kw-zephyr",
          b"unit-kibi", b"unit-mebi", b"unit-gibi"]
CODE = [KEY, MAGIC_LE, MAGIC_LE[::-1], b"open-sesame-42", WIDE_LE,
        WIDE_LE[::-1], bytes.fromhex("efbe")]
FOREIGN = [b"Wednesday", b"September", b"chan receive"]

PLATFORMS = ["darwin/arm64", "darwin/amd64", "linux/arm64", "linux/amd64"]


@pytest.fixture(scope="session")
def probe(required_env):
    return required_env("CGOFUZZ_OBJ_PROBE")


@pytest.fixture(scope="session")
def go(tool):
    return tool("go")


@pytest.fixture(scope="session")
def built(go, source_dir, tmp_path_factory):
    """tests/coord/godict/target built with `go test -c -fuzz=.` for a platform
    (GOOS/GOARCH), once per session."""
    cache = {}

    def build(platform, release="local"):
        key = (platform, release)
        if key not in cache:
            goos, goarch = platform.split("/")
            d = tmp_path_factory.mktemp("obj-%s-%s-%s" % (goos, goarch, release))
            pkg = str(d / "godict")
            shutil.copytree(os.path.join(source_dir, "tests", "coord", "godict",
                                         "target"), pkg)
            env = {"GOOS": goos, "GOARCH": goarch, "GOTOOLCHAIN": release,
                   "GOFLAGS": "-mod=mod", "GOPROXY": "off", "CGO_ENABLED": "0"}
            if release != "local":
                r = testlib.run([go, "env", "GOROOT"], "/", env)
                if r.rc != 0:
                    pytest.skip("%s is not in the module cache "
                                "(scripts/install-deps.sh fetches it)" % release)
            out = str(d / "godict.test")
            r = testlib.run([go, "test", "-c", "-fuzz=.", "-o", out, "."], pkg,
                            env, timeout=600)
            assert r.rc == 0, str(r)
            r = testlib.run([go, "env", "GOVERSION"], pkg, env)
            assert r.rc == 0, str(r)
            cache[key] = (out, r.stdout.strip())
        return cache[key]
    return build


def probe_run(probe, *args):
    r = testlib.run([probe] + list(args), timeout=600)
    assert r.rc == 0, str(r)
    return dict(line.split(" ", 1) for line in r.stdout.splitlines())


def nm_counters(go, binary):
    """The counters' size by Go's own reading of the symbol table."""
    r = testlib.run([go, "tool", "nm", binary])
    assert r.rc == 0, str(r)
    addr = {}
    for line in r.stdout.splitlines():
        f = line.split()
        if len(f) >= 3 and f[-1] in ("internal/fuzz._counters",
                                     "internal/fuzz._ecounters"):
            addr[f[-1]] = int(f[0], 16)
    assert len(addr) == 2, r.stdout[-2000:]
    return addr["internal/fuzz._ecounters"] - addr["internal/fuzz._counters"]


def file_kind(path):
    with open(path, "rb") as f:
        head = f.read(20)
    if head[:4] == b"\x7fELF":
        return "ELF", {62: "amd64", 183: "arm64"}[int.from_bytes(head[18:20], "little")]
    assert head[:4] == bytes.fromhex("cffaedfe"), head
    return "Mach-O", {0x01000007: "amd64", 0x0100000c: "arm64"}[
        int.from_bytes(head[4:8], "little")]


def dict_tokens(path):
    """The tokens of a dictionary file cgofuzz wrote (libFuzzer's format)."""
    out = set()
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            body = s[s.index('"') + 1:-1]
            out.add(body.encode("latin-1").decode("unicode_escape")
                    .encode("latin-1"))
    return out


@pytest.mark.parametrize("platform", PLATFORMS)
def test_build_info_and_counters(probe, go, built, platform):
    """The release and main module of the build info (Mach-O's
    __go_buildinfo section, ELF's .go.buildinfo) and the size of the
    counters section (__go_fuzzcntrs, .go.fuzzcntrs), as go's tools read
    them."""
    binary, version = built(platform)
    want_os = "Mach-O" if platform.startswith("darwin") else "ELF"
    assert file_kind(binary) == (want_os, platform.split("/")[1])
    got = probe_run(probe, binary)
    assert got["format"] == "%s %s" % file_kind(binary), got
    assert got["go"] == version, got
    assert got["module"] == "example.com/godict", got
    assert int(got["counters"]) == nm_counters(go, binary) > 0, got
    assert got["sancov"] == "0", got


def test_go118_darwin_counters(probe, go, built):
    """go1.18 named the counters' section as libFuzzer does,
    __libfuzzer_extra_counters, which Go's Mach-O writer cuts to 16 bytes
    after its "__" prefix: ___libfuzzer_ext."""
    binary, version = built("darwin/arm64", "go1.18.10")
    got = probe_run(probe, binary)
    assert got["go"] == version == "go1.18.10", got
    assert int(got["counters"]) == nm_counters(go, binary) > 0, got


@pytest.mark.parametrize("platform", PLATFORMS)
def test_dictionary(probe, built, tmp_path, platform):
    """The dictionary of the target's code and data: the loop's literal
    (amd64: LEAQ, printed as sym+off(SB) for Mach-O; arm64: ADRP+ADD), the
    integers (arm64 builds wide ones with MOVD+MOVK), a string compared
    whole, a map literal's keys (a table indexed in a loop: arm64 adds the
    shifted index to the table's address), the package's tables; and not
    other packages' tables."""
    binary, _ = built(platform)
    out = str(tmp_path / "dict.txt")
    got = probe_run(probe, binary, "FuzzLoop", out)
    assert got["dict"].isdigit(), got
    tokens = dict_tokens(out)
    missing = [t for t in CODE + OPCODES + TABLES if t not in tokens]
    assert not missing, "missing %r of %s" % (missing, sorted(tokens))
    with open(binary, "rb") as f:
        data = f.read()
    for t in FOREIGN:
        assert t in data, "%r is not in the binary: pick another" % t
    assert not [t for t in FOREIGN if t in tokens], sorted(tokens)


@pytest.mark.parametrize("target", ["arm64-apple-macos11", "x86_64-apple-macos11",
                                    "aarch64-linux-gnu", "x86_64-linux-gnu"])
def test_c_counters(probe, tool, tmp_path, target):
    """A C target's counters (clang's __sancov_cntrs, the same name in both
    formats), in an object clang compiles for each platform."""
    clang = tool("clang")
    src = tmp_path / "t.c"
    src.write_text(
        "int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n) {\n"
        "  if (n > 3 && d[0] == 'F' && d[1] == 'U' && d[2] == 'Z') return 1;\n"
        "  for (unsigned long i = 0; i < n; i++) if (d[i] == 7) return 2;\n"
        "  return 0;\n}\n")
    obj = str(tmp_path / "t.o")
    r = testlib.run([clang, "-target", target, "-ffreestanding", "-O1",
                     "-fsanitize-coverage=inline-8bit-counters", "-c", str(src),
                     "-o", obj])
    assert r.rc == 0, str(r)
    # The reference: the section's size as llvm's tools read it, or else
    # the same source's count on this machine's own format.
    got = probe_run(probe, obj)
    ref = testlib.run([clang, "-ffreestanding", "-O1",
                       "-fsanitize-coverage=inline-8bit-counters", "-c",
                       str(src), "-o", obj + ".host.o"])
    assert ref.rc == 0, str(ref)
    host = probe_run(probe, obj + ".host.o")
    assert got["format"] == "%s %s" % file_kind(obj), got
    assert got["counters"] == "0" and int(got["sancov"]) > 0, got
    assert got["sancov"] == host["sancov"], (got, host)


def test_bad_files_named(probe, built, tmp_path):
    """A truncated Mach-O file, a universal binary and a big-endian one are
    refused with a message that names the file and what is wrong; nothing
    crashes (the ASan build runs this too)."""
    binary, _ = built("darwin/arm64")
    with open(binary, "rb") as f:
        head = f.read(600)
    cases = {
        "truncated": (head, "truncated Mach-O load command"),
        "fat": (bytes.fromhex("cafebabe00000002") + b"\0" * 64,
                "a universal (fat) Mach-O binary"),
        "bigendian": (bytes.fromhex("feedfacf") + b"\0" * 64,
                      "a big-endian Mach-O file"),
        "empty-macho": (bytes.fromhex("cffaedfe0c000001") + b"\0" * 8,
                        "truncated Mach-O header"),
    }
    for name, (data, why) in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        got = probe_run(probe, str(p), "FuzzLoop", str(tmp_path / "d.txt"))
        assert got["go"].startswith("- -1 %s: %s" % (p, why)), (name, got)
        assert got["format"].startswith("- %s: %s" % (p, why)), (name, got)
        assert got["counters"] == "0" and got["dict"].startswith("error: "), got
